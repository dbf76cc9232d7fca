package rules

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPositionStringFramingErrors(t *testing.T) {
	// kit.go: every variant reads its position string's frame (field
	// count, side, clocks, hands) with the same helpers, so the same
	// mistake gets the same explanation in every game.
	tests := []struct {
		v    Variant
		s    string
		want string
	}{
		{Chess(), "8/8/8/8/8/8/8/8 w", `a chess position string has 6 fields (board, side, castling, en passant, halfmove clock, move number); "8/8/8/8/8/8/8/8 w" has 2`},
		{Toto40(), "x", "a toto40 position string has 4 fields (board, side, line flag, move number)"},
		{ToeToToe(), "x y", "a toetotoe position string has 5 fields (board[hands], side, phase, halfmove clock, move number)"},
		{ChecToe(), "x", "a chectoe position string has 5 fields (board[hands], side, die, pending Toe, move number)"},
		{Chess(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", `the side to move is "x"; write w or b`},
		{ChecToe(), "4/4/4/4[PNBRpnbr] x - - 1", `the side to act is "x"; write w or b`},
		{Chess(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", `the halfmove clock "-1" is not a number`},
		{ToeToToe(), "8/8/8/pppppppp/PPPPPPPP/8/8/8[KGRRNNEEkgrrnnee] w d1 0 0", `the move number "0" is not a number from 1`},
		{Toto40(), strings.Fields(Toto40().Start().String())[0] + " w - one", `the move number "one" is not a number from 1`},
		{ChecToe(), "4/4/4/4 w - - 1", `the board field "4/4/4/4" has no hands in brackets, e.g. 4/4/4/4[PNBRpnbr]`},
		{ToeToToe(), "8/8/8/pppppppp/PPPPPPPP/8/8/8[KGRRNNEEkgrrnneeX] w d1 0 1", `hand "KGRRNNEEkgrrnneeX]": 'X' is not a piece that can be in hand (K G R N E)`},
	}
	for _, tt := range tests {
		_, err := tt.v.ParsePosition(tt.s)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ParsePosition(%q) = %v, want an error saying %q", tt.v.Name(), tt.s, err, tt.want)
		}
	}
}

func TestPlayIsByMembership(t *testing.T) {
	// kit.go's playLegal: every position plays exactly its Legal actions;
	// anything else is refused with an error wrapping ErrIllegal, and the
	// position is unchanged (its String and Legal are as before).
	for _, v := range Variants() {
		p := v.Start()
		if r, ok := p.(Roller); ok {
			q, err := r.Roll(3)
			if err != nil {
				t.Fatal(err)
			}
			p = q
		}
		before, legal := p.String(), p.Legal()
		for _, m := range legal {
			if _, err := p.Play(m); err != nil {
				t.Errorf("%s: the legal %+v was refused: %v", v.Name(), m, err)
			}
		}
		bogus := Move{Kind: Normal, From: 0, To: 0}
		if _, err := p.Play(bogus); err == nil || !isIllegal(err) {
			t.Errorf("%s: a move from a1 to a1 was not refused as illegal: %v", v.Name(), err)
		}
		if p.String() != before || len(p.Legal()) != len(legal) {
			t.Errorf("%s: playing changed the position it was played from", v.Name())
		}
	}
}

func isIllegal(err error) bool { return errors.Is(err, ErrIllegal) }

// TestMoveNumberOfReadsTheLastField: MoveNumberOf gives what ParsePosition
// and MoveNumber give, for positions of every variant along a random game,
// and refuses what is not a move number.
func TestMoveNumberOfReadsTheLastField(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, v := range Variants() {
		pos := v.Start()
		for ply := 0; ply < 80; ply++ {
			s := pos.String()
			p, err := v.ParsePosition(s)
			if err != nil {
				t.Fatalf("%s: %q: %v", v.Name(), s, err)
			}
			if n, err := MoveNumberOf(s); err != nil || n != p.MoveNumber() {
				t.Fatalf("%s: MoveNumberOf(%q) = %d, %v; want %d", v.Name(), s, n, err, p.MoveNumber())
			}
			if r, ok := pos.(Roller); ok && r.NeedsRoll() {
				if pos, err = r.Roll(1 + rng.IntN(6)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			legal := pos.Legal()
			if len(legal) == 0 {
				break
			}
			if pos, err = pos.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, bad := range []string{"", "8/8/8 w - - 0", "8/8/8 w - - 0 x", "8/8/8 w - - 0 0"} {
		if n, err := MoveNumberOf(bad); err == nil {
			t.Errorf("MoveNumberOf(%q) = %d, want an error", bad, n)
		}
	}
}
