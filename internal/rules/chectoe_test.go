package rules

import (
	"sort"
	"strings"
	"testing"
)

// ct plays a script of die values (d3 = the die shows 3) and actions in
// coordinate form from pos.
func ct(t *testing.T, pos Position, script string) Position {
	t.Helper()
	for _, tok := range strings.Fields(script) {
		if len(tok) == 2 && tok[0] == 'd' {
			r, ok := pos.(Roller)
			if !ok || !r.NeedsRoll() {
				t.Fatalf("%s: no roll is due in %s", tok, pos)
			}
			n, err := r.Roll(int(tok[1] - '0'))
			if err != nil {
				t.Fatalf("%s: %v", tok, err)
			}
			pos = n
			continue
		}
		pos = playCoords(t, pos, tok)
	}
	return pos
}

func legalCoords(p Position) []string {
	var out []string
	for _, m := range p.Legal() {
		out = append(out, coordOf(p.Variant().Board(), m))
	}
	sort.Strings(out)
	return out
}

func TestChecToeTurnStateMachine(t *testing.T) {
	// Each row is one branch of docs/rules/chectoe.md's turn, from a position where
	// White has a pawn on b2 and a knight on c1, Black a knight on c3.
	const from = "4/2n1/1P2/2N1[BRpbr] w - - 3"
	tests := []struct {
		name, script, die string
		want              []string // legal actions (a selection when partial)
		partial           bool
	}{
		{"a turn begins with the referee's roll", "", "-", nil, false},
		// 1-4: that piece only, naturally, or dropped from hand; re-roll; pass.
		{"1: the pawn, which moves orthogonally and captures diagonally forward", "d1", "1",
			[]string{"b2a2", "b2b1", "b2b3", "b2c2", "b2c3", "pass", "reroll"}, false},
		{"3: the bishop is in hand, so it is dropped", "d3", "3", []string{"B@a1", "pass", "reroll"}, true},
		// 5: any drop, or any own piece as a Wizard.
		{"5: drops and Wizard moves", "d5", "5", []string{"B@a1", "R@d4", "b2a3o", "b2c3o", "c1d2o", "pass", "reroll"}, true},
		// A 6 is void: rolled again at once, and no re-roll of a first 6.
		{"6 then 2: the knight, no re-roll", "d6 d2", "62", []string{"c1a2", "c1b3", "c1d3", "pass"}, false},
		{"6 is owed again", "d6", "6?", nil, false},
		// Double six: anything natural or any drop, or the apocalypse roll.
		{"double six", "d6 d6", "66", []string{"B@a1", "b2b3", "c1d3", "pass", "roll"}, true},
		{"apocalypse fails with 4: the rook, naturally, no re-roll", "d6 d6 roll d4", "664", []string{"R@a1", "pass"}, true},
		// Re-roll: once, replacing the first roll of 1-5; then 1-4 means drop or Checker.
		{"re-roll owed", "d3 reroll", "r?", nil, false},
		{"re-roll of 2: the knight as a Checker only", "d3 reroll d2", "r2", []string{"c1a3^", "pass"}, true},
		{"re-roll of 5: normal 5", "d3 reroll d5", "r5", []string{"B@a1", "b2a3o", "pass"}, true},
		{"re-roll of 6, then 1: normal pawn", "d3 reroll d6 d1", "r61", []string{"b2b3", "b2c3", "pass"}, true},
		{"re-roll of 6 twice: double six", "d3 reroll d6 d6", "r66", []string{"roll", "pass"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p0, err := ChecToe().ParsePosition(from)
			if err != nil {
				t.Fatal(err)
			}
			p := ct(t, p0, tt.script)
			if got := p.(Roller).DieState(); got != tt.die {
				t.Errorf("die state %q, want %q", got, tt.die)
			}
			got := legalCoords(p)
			if !tt.partial {
				if !same(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
					t.Errorf("legal %v, want %v", got, tt.want)
				}
				return
			}
			for _, w := range tt.want {
				found := false
				for _, g := range got {
					found = found || g == w
				}
				if !found {
					t.Errorf("%s missing from %v", w, got)
				}
			}
			if tt.die == "r2" {
				for _, g := range got {
					if g != "pass" && !strings.HasSuffix(g, "^") && !strings.HasPrefix(g, "N@") {
						t.Errorf("after a re-roll of 2 only Checker moves of the knight are legal, got %s", g)
					}
				}
			}
			if tt.die == "664" {
				for _, g := range got {
					if strings.HasSuffix(g, "^") || g == "reroll" {
						t.Errorf("a failed apocalypse roll is acted on naturally, not %s", g)
					}
				}
			}
		})
	}
}

func TestChecToeCheckerNeverCaptures(t *testing.T) {
	// After a re-roll of 2 the knight c1 may leap two squares onto EMPTY
	// squares only: a3 and a1 are empty, c3 holds Black's knight.
	p0, _ := ChecToe().ParsePosition("4/2n1/1P2/2N1[BRpbr] w - - 3")
	p := ct(t, p0, "d3 reroll d2")
	for _, g := range legalCoords(p) {
		if g == "c1c3^" {
			t.Error("a Checker leap captured")
		}
	}
	if !strings.Contains(strings.Join(legalCoords(p), " "), "c1a3^") {
		t.Errorf("c1a3^ missing: %v", legalCoords(p))
	}
}

func TestChecToeApocalypse(t *testing.T) {
	// White's 666 returns every enemy (Black) piece on the board to its
	// owner's hand — the knight c3 — and ends White's turn.
	p0, _ := ChecToe().ParsePosition("4/2n1/1P2/2N1[BRpbr] w - - 3")
	p := ct(t, p0, "d6 d6 roll d6")
	if got := p.String(); got != "4/4/1P2/2N1[BRpnbr] b - - 3" {
		t.Errorf("after 666: %s", got)
	}
}

func TestChecToeToes(t *testing.T) {
	// A Toe on each kind of line wins when it survives the opponent's turn.
	tests := []struct{ name, fen, finish string }{
		{"rank", "4/4/4/PNB1/[Rpnbr] w 4 - 1", "R@d1"},
		{"file", "4/P3/N3/B3/[Rpnbr] w 4 - 1", "R@a4"},
		{"diagonal a1-d4", "4/2B1/1N2/P3/[Rpnbr] w 4 - 1", "R@d4"},
		{"diagonal a4-d1", "4/1N2/2B1/3P/[Rpnbr] w 4 - 1", "R@a4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p0, err := ChecToe().ParsePosition(strings.Replace(tt.fen, "/[", "[", 1))
			if err != nil {
				t.Fatal(err)
			}
			p := ct(t, p0, tt.finish)
			if s := p.String(); !strings.Contains(s, " b - w ") {
				t.Fatalf("after making the Toe: %s, want Black to act with White's Toe pending", s)
			}
			// Black passes: the Toe survived, White wins.
			q := ct(t, p, "d1 pass")
			if res := q.Result(); !res.Over || res.Winner != White {
				t.Errorf("the surviving Toe did not win: %v (%s)", res, q)
			}
		})
	}
}

func TestChecBreaksToe(t *testing.T) {
	// White's Toe on rank 1 (P N B R); Black's knight on c3 captures the
	// knight on b1 (a Chec): the Toe is broken, nobody wins, and White's
	// knight goes back to White's hand.
	p0, err := ChecToe().ParsePosition("4/2n1/4/PNB1[Rpbr] w 4 - 1")
	if err != nil {
		t.Fatal(err)
	}
	p := ct(t, p0, "R@d1 d2 c3b1")
	if res := p.Result(); res.Over {
		t.Fatalf("after the Chec: %v", res)
	}
	if s := p.String(); !strings.Contains(s, "[Npbr]") {
		t.Errorf("the captured knight is not back in White's hand: %s", s)
	}
	if s := p.String(); !strings.Contains(s, " w - - ") {
		t.Errorf("after the Chec: %s, want no pending Toe", s)
	}
}

func TestApocalypseBreaksToe(t *testing.T) {
	p0, _ := ChecToe().ParsePosition("4/2n1/4/PNB1[Rpbr] w 4 - 1")
	p := ct(t, p0, "R@d1 d6 d6 roll d6")
	if res := p.Result(); res.Over {
		t.Fatalf("after the apocalypse: %v", res)
	}
	if s := p.String(); !strings.HasPrefix(s, "4/2n1/4/4[PNBRpbr] w - - 2") {
		t.Errorf("after 666: %s", s)
	}
}

func TestChecToeMoveNumberAfterTheWinningTurn(t *testing.T) {
	// docs/rules/chectoe.md: the move number goes up after Black's turn, also when
	// that turn ends the game; a win at the end of White's turn leaves it.
	tests := []struct {
		name, fen, script, want string
	}{
		{"White's Toe survives Black's turn of move 1: move 2",
			"4/4/4/PNB1[Rpnbr] w 4 - 1", "R@d1 d1 pass", "4/4/4/PNBR[pnbr] w - w 2"},
		{"Black's Toe survives White's turn of move 2: still move 2",
			"pnb1/4/4/4[PNBRr] b 4 - 1", "R@d4 d1 pass", "pnbr/4/4/4[PNBR] b - b 2"},
		{"Black's ordinary turn: move 2", "pnb1/4/4/4[PNBRr] b 1 - 1", "pass", "pnb1/4/4/4[PNBRr] w - - 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p0, err := ChecToe().ParsePosition(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			p := ct(t, p0, tt.script)
			if got := p.String(); got != tt.want {
				t.Errorf("after %s: %s, want %s", tt.script, got, tt.want)
			}
			back, err := ChecToe().ParsePosition(p.String())
			if err != nil || back.String() != p.String() || back.Result() != p.Result() || back.MoveNumber() != p.MoveNumber() {
				t.Errorf("the position string %q does not read back the same: %v %v", p, back, err)
			}
		})
	}
}

func TestChecToeWhyNotNamesTheDie(t *testing.T) {
	// docs/rules/chectoe.md: the die decides which piece may act. A refused action
	// is explained by what the die shows and what it allows. White: pawn
	// b2, knight c1; in hand B, R. Black: knight c3.
	const from = "4/2n1/1P2/2N1[BRpbr] w - - 3"
	p0, err := ChecToe().ParsePosition(from)
	if err != nil {
		t.Fatal(err)
	}
	b := p0.Variant().Board()
	sq := func(s string) Square { x, _ := b.ParseSquare(s); return x }
	tests := []struct {
		name, script string
		m            Move
		want         string
	}{
		{"a drop after a 2", "d2", Move{Kind: Drop, From: NoSquare, To: sq("a1"), Piece: 'P'},
			"the die shows 2: only a knight may move or be dropped this turn"},
		{"a bishop drop after a 4", "d4", Move{Kind: Drop, From: NoSquare, To: sq("a1"), Piece: 'B'},
			"the die shows 4: only a rook may move or be dropped this turn"},
		{"a knight move after a 4", "d4", Move{Kind: Normal, From: sq("c1"), To: sq("d3")},
			"the die shows 4: only a rook may move or be dropped this turn"},
		{"a drop of a piece on the board", "d2", Move{Kind: Drop, From: NoSquare, To: sq("a1"), Piece: 'N'},
			"your knight is on the board (c1), not in your hand"},
		{"a natural move after a 5", "d5", Move{Kind: Normal, From: sq("c1"), To: sq("d3")},
			"the die shows 5: drop any piece from your hand, or move a piece as a Wizard"},
		{"the Wizard's mark is shown as typed", "d5", Move{Kind: Normal, From: sq("c1"), To: sq("d3")}, `written with o, e.g. "`},
		{"a natural move after a re-roll", "d2 reroll d2", Move{Kind: Normal, From: sq("c1"), To: sq("d3")},
			"your re-roll shows 2: only your knight may act: drop it from your hand, or move it as a Checker"},
		{"a second re-roll", "d2 reroll d5", Move{Kind: Reroll, From: NoSquare, To: NoSquare}, "you have re-rolled this turn already"},
		{"the apocalypse without a double six", "d3", Move{Kind: Roll, From: NoSquare, To: NoSquare},
			"the apocalypse roll comes only right after a double six; the die shows 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ct(t, p0, tt.script)
			got := p.(ActionExplain).WhyNot(tt.m)
			if !strings.Contains(got, tt.want) {
				t.Errorf("WhyNot = %q, want it to contain %q", got, tt.want)
			}
		})
	}
	// A legal action has nothing to explain.
	p := ct(t, p0, "d2")
	if got := p.(ActionExplain).WhyNot(Move{Kind: Normal, From: sq("c1"), To: sq("d3")}); got != "" {
		t.Errorf("WhyNot of the legal Nd3 = %q, want none", got)
	}
}

func TestChecToeEffectOfTheApocalypse(t *testing.T) {
	// docs/rules/chectoe.md: after a double six, "roll"; a 6 sends every enemy piece
	// on the board home and ends the turn, any other value is acted on.
	// The effect says which pieces went back, for both players' headline.
	p0, err := ChecToe().ParsePosition("4/2n1/1P1r/2N1[BRpb] w 66 - 3")
	if err != nil {
		t.Fatal(err)
	}
	roll := Move{Kind: Roll, From: NoSquare, To: NoSquare}
	asked := ct(t, p0, "roll")
	tests := []struct {
		die  string
		want string
	}{
		{"d6", "White asked for the apocalypse roll and rolled a 6: Black's rook (d2) and knight (c3) went back to Black's hand, and White's turn ended."},
		{"d4", "White asked for the apocalypse roll and rolled 4, not a 6: White acts on the 4."},
	}
	for _, tt := range tests {
		after := ct(t, asked, tt.die)
		if got := p0.(ActionEffect).Effect(roll, after); got != tt.want {
			t.Errorf("%s: Effect = %q, want %q", tt.die, got, tt.want)
		}
	}
	// A re-roll's effect is the new value.
	q, _ := ChecToe().ParsePosition("4/2n1/1P2/2N1[BRpbr] w 3 - 3")
	after := ct(t, ct(t, q, "reroll"), "d2")
	if got := q.(ActionEffect).Effect(Move{Kind: Reroll, From: NoSquare, To: NoSquare}, after); got != "White asked for a re-roll and rolled 2: the knight must be dropped, or moved as a Checker." {
		t.Errorf("re-roll: Effect = %q", got)
	}
}

func TestChecToePromptShowsTheMarksAsTyped(t *testing.T) {
	// docs/rules/README.md#notation: the referee writes ⌃ and °, and reads ^ and o; the
	// prompt shows the Wizard and Checker moves as a player types them,
	// with a move that is legal now.
	tests := []struct{ fen, want string }{
		{"4/2n1/1P2/2N1[BRpbr] w 5 - 3", `as a Wizard (one diagonal step or a (3,1) leap, written with o, e.g. "Pxc3o")`},
		{"4/2n1/1P2/2N1[BRpbr] w r2 - 3", `move it as a Checker (two squares, onto an empty square, written with ^, e.g. "Na1^")`},
	}
	for _, tt := range tests {
		p, err := ChecToe().ParsePosition(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(Prompter).Prompt(); !strings.Contains(got, tt.want) {
			t.Errorf("%s: Prompt = %q, want %q", tt.fen, got, tt.want)
		}
	}
}

func TestChecToePromptNamesTheStandingValue(t *testing.T) {
	// docs/rules/chectoe.md: the player acts on the value that stands, not on the
	// die field of the position string ("64", "r2", "664").
	tests := []struct{ die, want string }{
		{"4", "The die shows 4. Move your rook"},
		{"64", "The die shows 4 (the 6 before it is void). Move your rook"},
		{"r2", "Your re-roll shows 2. After your re-roll, drop your knight"},
		{"66", "The die shows a double six. Double six:"},
		{"664", "The apocalypse roll shows 4. Move your rook"},
	}
	for _, tt := range tests {
		p, err := ChecToe().ParsePosition("4/2n1/1P2/2N1[BRpbr] w " + tt.die + " - 3")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(Prompter).Prompt(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("die %s: Prompt = %q, want it to start %q", tt.die, got, tt.want)
		}
	}
}

func TestChecToeDieText(t *testing.T) {
	// docs/rules/chectoe.md's die states, in the words the prompt uses
	// (issue 33: the status line showed the raw field, "die: 64").
	tests := []struct{ die, want string }{
		{"3", "shows 3"},
		{"64", "shows 4 (after a void 6)"},
		{"66", "double six"},
		{"664", "apocalypse roll shows 4"},
		{"r2", "re-roll shows 2"},
		{"r5", "shows 5"},
		{"r62", "shows 2 (after a void 6)"},
		{"r66", "double six"},
	}
	for _, tt := range tests {
		p, err := ChecToe().ParsePosition("4/4/4/4[PNBRpnbr] w " + tt.die + " - 1")
		if err != nil {
			t.Fatalf("%s: %v", tt.die, err)
		}
		if got := p.(DieDescriber).DieText(); got != tt.want {
			t.Errorf("die %s: %q, want %q", tt.die, got, tt.want)
		}
	}
}
