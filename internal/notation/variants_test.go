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
		// The drop mark typed "@" after the square, as MarksNote offers,
		// and a piece letter in lower case.
		"Ra1@": "R@a1", "ra1v": "R@a1", "r@a1": "R@a1",
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
		{"a Wizard move after a 2", ct("4/2n1/1P2/2N1[BRpbr] w 2 - 3"), "Nd2°",
			"a Wizard move needs a 5; the die shows 2: only a knight may move or be dropped this turn. Legal now: Nd3, Nb3, Na2, reroll, pass."},
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

// TestChecToeCaptureNamesThePiece: "PxN" takes the knight and "PxB" the
// bishop when the pawn may take either (docs/rules/README.md#notation:
// each side has one piece of each kind).
func TestChecToeCaptureNamesThePiece(t *testing.T) {
	p, err := rules.ChecToe().ParsePosition("4/b1n1/1P2/2N1[BRpr] w 5 - 3") // a 5: the pawn on b2 takes a3 or c3 as a Wizard
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"PxN": "b2c3o", "PxB": "b2a3o", "PxN°": "b2c3o"} {
		m, err := Parse(p, in)
		if err != nil || Coord(p, m) != want {
			t.Errorf("Parse(%q) = %s, %v; want %s", in, Coord(p, m), err, want)
		}
	}
	if m, err := Parse(p, "PxR"); err == nil {
		t.Errorf("Parse(PxR) = %s, want a refusal: no rook of Black's is on the board", Coord(p, m))
	}
}

// TestCuarentaPromotionIsWritten: in Cuarenta promotion is optional and
// each choice is its own move (docs/rules/cuarenta.md): a pawn's move into
// the last three ranks written without a promotion is the move without
// one, in every form; with "=C" or a trailing letter, the Camel.
func TestCuarentaPromotionIsWritten(t *testing.T) {
	p, err := rules.Cuarenta().ParsePosition("4/k4/4/1P3/4/2K2/4/5/4 w - - 0 1") // a White pawn on c6
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"d7": "c6d7", "c6d7": "c6d7", "c6-d7": "c6d7", "Pd7": "c6d7", "d7=C": "c6d7c", "d7C": "c6d7c", "c6d7c": "c6d7c"} {
		m, err := Parse(p, in)
		if err != nil || Coord(p, m) != want {
			t.Errorf("Parse(%q) = %s, %v; want %s", in, Coord(p, m), err, want)
		}
	}
}

// TestSwapWrittenInBoardOrder: the referee writes a Toe-to-Toe swap with
// its two squares in board order, by file, then by rank (a1<>h1, d2<>e1,
// d2<>d4), whichever order the player typed them in.
func TestSwapWrittenInBoardOrder(t *testing.T) {
	p := rules.ToeToToe().Start()
	for _, d := range []string{"K@e1,G@d2", "K@e8,G@d7", "E@c3,E@f3", "E@c6,E@f6", "N@b2,N@g2", "N@b7,N@g7", "R@a1,R@h1", "R@a8,R@h8"} {
		m, err := Parse(p, d)
		if err != nil {
			t.Fatal(err)
		}
		if p, err = p.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"a1<>h1", "a1<>h1"}, {"h1<>a1", "a1<>h1"},
		{"e1<>d2", "d2<>e1"}, {"d2<>e1", "d2<>e1"},
		{"d4<>d2", "d2<>d4"}, {"swap d2 d4", "d2<>d4"},
	} {
		m, err := Parse(p, tt.in)
		if err != nil || SAN(p, m) != tt.want || Coord(p, m) != tt.want {
			t.Errorf("Parse(%q) = %s (coordinates %s), %v; want %s", tt.in, SAN(p, m), Coord(p, m), err, tt.want)
		}
	}
	b := p.Variant().Board()
	for _, m := range p.Legal() {
		if m.Kind != rules.Swap {
			continue
		}
		x, y, _ := strings.Cut(SAN(p, m), "<>")
		sx, _ := b.ParseSquare(x)
		sy, _ := b.ParseSquare(y)
		if b.File(sx) > b.File(sy) || b.File(sx) == b.File(sy) && b.Rank(sx) > b.Rank(sy) {
			t.Errorf("a swap written %s: not in board order", SAN(p, m))
		}
	}
	for _, in := range []string{"e1<>z9", "z9<>e1", "swap e1 z9"} {
		if _, err := Parse(p, in); err == nil || !strings.Contains(err.Error(), "names a square that is not on the board") {
			t.Errorf("Parse(%q): %v, want it to say a square is not on the board", in, err)
		}
	}
}

// TestChecToeDropMarkNeedsALetterAlone: a drop mark makes a drop only
// after a piece letter and a square ("Ra1v", "Ra1@"): without the letter,
// or after a move with its origin, the mark is quoted as not understood,
// never read as a drop of some piece.
func TestChecToeDropMarkNeedsALetterAlone(t *testing.T) {
	p, err := rules.ChecToe().ParsePosition("4/2n1/1P2/2N1[BRpbr] w 5 - 3")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"b3v":   `read "b3" as a move but did not understand "v" after it`,
		"Rab3@": `read "Rab3" as a move but did not understand "@" after it`,
		"Rab3v": `read "Rab3" as a move but did not understand "v" after it`,
	} {
		_, err := Read(p, in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%q): %v, want it to say %s", in, err, want)
		}
	}
}

// TestLegalNowListsAtMostTwelve: a refusal by the game's own rule lists
// what is legal now when that is at most twelve items (the drops of one
// piece count as one), and leaves the list to "moves" beyond that, both
// sides of the bound tested with Chec Toe's 5, which allows no natural
// move.
func TestLegalNowListsAtMostTwelve(t *testing.T) {
	tests := []struct {
		name, fen, want string
	}{
		{"twelve items", "1b2/1r2/P3/1N2[BRpn] b 5 - 4", "natural moves are not allowed. Legal now: P@ on any empty square (e.g. P@a1), N@ on any empty square (e.g. N@a1), Bc3° (Bc3o), Ba3° (Ba3o), Bc1° (Bc1o), Ba1° (Ba1o), Rc4° (Rc4o), Rc2° (Rc2o), Rxa2° (Rxa2o), Ra4° (Ra4o), reroll, pass."},
		{"thirteen items", "2p1/brB1/P2N/2R1[n] b 5 - 8", "natural moves are not allowed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := rules.ChecToe().ParsePosition(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(p, "Rb4")
			if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
				t.Errorf("Parse(Rb4): %v\nwant it to end: %s", err, tt.want)
			}
		})
	}
}
