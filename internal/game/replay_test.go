package game

import (
	"errors"
	"testing"

	"referee/internal/notation"
	"referee/internal/rules"
)

// record plays n moves of every variant without dice from its start, and
// returns them in the coordinate form and in SAN.
func record(t testing.TB, v rules.Variant, n int) (coords, sans []string) {
	pos := v.Start()
	for i := range n {
		legal := pos.Legal()
		if len(legal) == 0 {
			break
		}
		m := legal[(i*7+2)%len(legal)]
		coords = append(coords, notation.Coord(pos, m))
		sans = append(sans, notation.SAN(pos, m))
		next, err := pos.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		pos = next
	}
	return coords, sans
}

func TestPlayCoordsMatchesPlay(t *testing.T) {
	// The strict replay of a stored record gives what the liberal one gives.
	for _, v := range rules.Variants() {
		if _, ok := v.Start().(rules.Roller); ok {
			continue // dice: covered through the referee's games
		}
		coords, sans := record(t, v, 40)
		want, err := Play(v.Start(), coords, nil, true)
		if err != nil {
			t.Fatalf("%s: Play: %v", v.Name(), err)
		}
		for _, given := range [][]string{sans, nil} {
			got, err := PlayCoords(v.Start(), coords, given, nil)
			if err != nil {
				t.Fatalf("%s: PlayCoords: %v", v.Name(), err)
			}
			if got.Final.String() != want.Final.String() || len(got.Plies) != len(want.Plies) {
				t.Fatalf("%s: final %s after %d plies, want %s after %d", v.Name(), got.Final, len(got.Plies), want.Final, len(want.Plies))
			}
			for i := range got.Plies {
				if got.Plies[i].SAN != want.Plies[i].SAN || got.Plies[i].Coord != want.Plies[i].Coord {
					t.Fatalf("%s ply %d: %s/%s, want %s/%s", v.Name(), i, got.Plies[i].SAN, got.Plies[i].Coord, want.Plies[i].SAN, want.Plies[i].Coord)
				}
			}
		}
	}
}

func TestPlayCoordsIsStrict(t *testing.T) {
	// Only the coordinate form is read, and every move must be legal.
	start := rules.Chess().Start()
	var me *MoveError
	if _, err := PlayCoords(start, []string{"e4"}, nil, nil); !errors.As(err, &me) || me.Index != 1 {
		t.Errorf("SAN in a stored record: %v, want a MoveError at 1", err)
	}
	if _, err := PlayCoords(start, []string{"e2e4", "e2e4"}, nil, nil); !errors.As(err, &me) || me.Index != 2 {
		t.Errorf("an illegal stored move: %v, want a MoveError at 2", err)
	}
}

func BenchmarkReplay80(b *testing.B) {
	// A game of 80 plies rebuilt from its record: the liberal reader (what
	// the referee did for every mail) against the strict coordinate one.
	coords, sans := record(b, rules.Chess(), 80)
	start := rules.Chess().Start()
	b.Run("Play", func(b *testing.B) {
		for b.Loop() {
			if _, err := Play(start, coords, nil, true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("PlayCoords", func(b *testing.B) {
		for b.Loop() {
			if _, err := PlayCoords(start, coords, sans, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
