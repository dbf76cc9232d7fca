package notation

import (
	"strings"
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
	// docs/rules/README.md#notation: the seed's suffixes and their ASCII stand-ins.
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

func TestDeploymentIsOneItem(t *testing.T) {
	// docs/rules/toetotoe.md, docs/rules/README.md#notation: a Toe-to-Toe deployment is written as one item with
	// its placements joined by a comma, so a list of moves never splits it
	// ("K@e1 G@d1" would read as two moves); the space form, the comma
	// form and the form without @ are all read as the same deployment.
	p := rules.ToeToToe().Start()
	var want rules.Move
	for _, m := range p.Legal() {
		if m.Kind == rules.Deploy && Coord(p, m) == "K@e1,G@d1" {
			want = m
		}
	}
	if want.Kind != rules.Deploy {
		t.Fatal("K@e1,G@d1 is not a legal first deployment")
	}
	if got := SAN(p, want); got != "K@e1,G@d1" {
		t.Errorf("SAN = %q, want K@e1,G@d1", got)
	}
	for _, in := range []string{"K@e1,G@d1", "K@e1 G@d1", "K@e1, G@d1", "G@d1 K@e1", "Ke1 Gd1", "Ke1,Gd1"} {
		if got, err := Parse(p, in); err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want K@e1,G@d1", in, got, err)
		}
	}
}

func TestRefusalsNameTheRule(t *testing.T) {
	// An action refused by a variant's own rule says which rule, and what
	// is legal instead: Chec Toe's die (docs/rules/chectoe.md), Toe-to-Toe's swap
	// turn passed by a swap of alike pieces (§7).
	ct := func(fen string) rules.Position {
		p, err := rules.ChecToe().ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tt := rules.ToeToToe().Start()
	for _, d := range []string{"K@e1,G@d2", "K@e8,G@d7", "E@c3,E@f3", "E@c6,E@f6", "N@b2,N@g2", "N@b7,N@g7", "R@a1,R@h1", "R@a8,R@h8"} {
		m, err := Parse(tt, d)
		if err != nil {
			t.Fatal(err)
		}
		if tt, err = tt.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		pos  rules.Position
		in   string
		want string
	}{
		{"a drop the die does not allow", ct("4/4/4/4[PNBRpnbr] w 2 - 1"), "P@a1",
			"the die shows 2: only a knight may move or be dropped this turn. Legal now: N@ on any empty square (e.g. N@a1), reroll, pass."},
		{"a move the die does not allow", ct("4/2n1/1P2/2N1[BRpbr] w 4 - 3"), "Nd3",
			"the die shows 4: only a rook may move or be dropped this turn. Legal now: R@ on any empty square (e.g. R@a1), reroll, pass."},
		{"a natural move after a 5", ct("4/2n1/1P2/2N1[BRpbr] w 5 - 3"), "Nd3",
			"the die shows 5: drop any piece from your hand, or move a piece as a Wizard"},
		{"a natural move after a re-roll lists the Checker as typed", ct("4/4/1P2/2N1[BRpnbr] w r2 - 3"), "Nd3",
			"Legal now: Nc3⌃ (Nc3^), Na1⌃ (Na1^), Na3⌃ (Na3^), pass."},
		{"a move of a piece in hand", ct("4/4/4/4[PNBRpnbr] w 2 - 1"), "Nc3",
			`your knight is in your hand, not on the board: drop it ("N@c3")`},
		{"the apocalypse without a double six", ct("4/4/4/4[PNBRpnbr] w 2 - 1"), "roll",
			"the apocalypse roll comes only right after a double six; the die shows 2"},
		{"pass during the swaps", tt, "pass", `to pass a swap turn, swap two alike pieces, e.g. "a1<>h1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.pos, tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%q) = %v, want it to say %q", tc.in, err, tc.want)
			}
		})
	}
}
