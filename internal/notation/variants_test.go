package notation

import (
	"testing"

	"referee/internal/rules"
)

// TestRoundTripAllVariants plays 40 plies of every variant, choosing moves
// by a fixed rule (Chec Toe's die fed fixed values), and checks at every
// position that each legal move's SAN and coordinate form read back to the
// same move.
func TestRoundTripAllVariants(t *testing.T) {
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			p := v.Start()
			die := 0
			for ply := 0; ply < 40; ply++ {
				for {
					r, ok := p.(rules.Roller)
					if !ok || !r.NeedsRoll() {
						break
					}
					die++
					n, err := r.Roll([]int{3, 6, 2, 5, 6, 6, 1, 4}[die%8])
					if err != nil {
						t.Fatal(err)
					}
					p = n
				}
				legal := p.Legal()
				if len(legal) == 0 {
					break
				}
				for _, m := range legal {
					for _, form := range []string{SAN(p, m), Coord(p, m)} {
						got, err := Parse(p, form)
						if err != nil || got != m {
							t.Fatalf("%s: %q read back as %+v, %v (want %+v)", p, form, got, err, m)
						}
					}
				}
				next, err := p.Play(legal[(ply*7+3)%len(legal)])
				if err != nil {
					t.Fatal(err)
				}
				p = next
			}
		})
	}
}

func TestChecToeForms(t *testing.T) {
	// RULES.md §9: the seed's suffixes and their ASCII stand-ins.
	v := rules.ChecToe()
	p, err := v.ParsePosition("4/2n1/1P2/2N1[BRpbr] w 5 - 3")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"B@a1": "B@a1", "Ba1⌄": "B@a1", "Ba1v": "B@a1",
		"Nd2°": "c1d2o", "Nd2o": "c1d2o", "Nd2*": "c1d2o", "Nd2º": "c1d2o", "Nd2˚": "c1d2o", "c1d2o": "c1d2o",
		"Pxc3°": "b2c3o", "PxN": "b2c3o", "pass": "pass", "reroll": "reroll",
	} {
		m, err := Parse(p, in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := Coord(p, m); got != want {
			t.Errorf("Parse(%q) = %s, want %s", in, got, want)
		}
	}
	m, _ := Parse(p, "c1d2o")
	if got := SAN(p, m); got != "Nd2°" {
		t.Errorf("SAN of the wizard move = %q, want Nd2°", got)
	}
	q, _ := v.ParsePosition("4/2n1/1P2/2N1[BRpbr] w r2 - 3")
	m, err = Parse(q, "Na3⌃")
	if err != nil || Coord(q, m) != "c1a3^" || SAN(q, m) != "Na3⌃" {
		t.Errorf("checker: %v %v %q", Coord(q, m), err, SAN(q, m))
	}
	if _, err := Parse(q, "Nd3"); err == nil {
		t.Error("a natural knight move was accepted after a re-roll of 2")
	}
}
