package referee

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/rules"
)

// seedRolling returns a seed whose roll n for game 5 is v: a test that
// needs a given die value finds it among fixed seeds, never by chance.
func seedRolling(t *testing.T, n, v int) dice.Seed {
	t.Helper()
	for i := range 1000 {
		s, err := dice.ParseSeed(fmt.Sprintf("%064x", i+1))
		if err != nil {
			t.Fatal(err)
		}
		if dice.Roll(s, "5", n) == v {
			return s
		}
	}
	t.Fatalf("no seed among 1000 rolls %d at roll %d", v, n)
	return dice.Seed{}
}

func TestApocalypseIsToldToBothPlayers(t *testing.T) {
	// docs/rules/chectoe.md: after a double six the player may ask for the
	// apocalypse roll; a 6 sends every enemy piece on the board back to
	// its owner's hand. Both players learn which pieces went back.
	r, g := newGame(t, rules.ChecToe())
	g.Start = "4/2n1/1P1r/2N1[BRpb] w 66 - 3"
	g.Seed = seedRolling(t, 1, 6)
	g.Commitment = g.Seed.Commitment()
	out := act(t, r, g, rules.White, "roll")
	if out.Verdict != Applied || len(out.Mails) != 2 {
		t.Fatalf("roll: %v %s, %d mails", out.Verdict, out.Detail, len(out.Mails))
	}
	want := "White asked for the apocalypse roll and rolled a 6: Black's rook (d2) and knight (c3) went back to Black's hand, and White's turn ended."
	for _, m := range out.Mails {
		if m.Board.Headline != want && !strings.HasPrefix(m.Board.Headline, want+" ") {
			t.Errorf("headline to %s: %q, want %q", m.To, m.Board.Headline, want)
		}
	}
}

func TestChecToeRefusalNamesTheDie(t *testing.T) {
	// docs/rules/chectoe.md: after a 2 only the knight may act. "P@a1" is refused
	// with the die and what is legal, not "that drop is not allowed now".
	r, g := newGame(t, rules.ChecToe())
	g.Start = "4/4/4/4[PNBRpnbr] w 2 - 1"
	out := act(t, r, g, rules.White, "P@a1")
	if out.Verdict != Rejected {
		t.Fatalf("P@a1 after a 2: %v", out.Verdict)
	}
	got := strings.Join(strings.Fields(out.Mails[0].Board.Headline), " ")
	want := `Your move "P@a1" (game #5, move 1) was not played: the die shows 2: only a knight may move or be dropped this turn. Legal now: N@ on any empty square (e.g. N@a1), reroll, pass.`
	if got != want {
		t.Errorf("headline:\n got %q\nwant %q", got, want)
	}
}

func TestToeToToePassDuringSwapsSaysHowToPass(t *testing.T) {
	// docs/rules/toetotoe.md: a swap turn is passed by swapping two alike pieces;
	// "pass" is answered with the swap to send.
	r, g := newGame(t, rules.ToeToToe())
	for i, d := range strings.Fields("K@e1,G@d2 K@e8,G@d7 E@c3,E@f3 E@c6,E@f6 N@b2,N@g2 N@b7,N@g7 R@a1,R@h1 R@a8,R@h8") {
		if out := act(t, r, g, rules.Color(i%2), d); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", d, out.Verdict, out.Detail)
		}
	}
	out := act(t, r, g, rules.White, "pass")
	if out.Verdict != Rejected {
		t.Fatalf("pass: %v", out.Verdict)
	}
	if h := out.Mails[0].Board.Headline; !strings.Contains(h, `to pass a swap turn, swap two alike pieces, e.g. "a1<>h1"`) {
		t.Errorf("headline %q does not say how to pass", h)
	}
	// The deployments are listed one item each.
	if text := textOf(t, out.Mails[0]); !strings.Contains(text, "1. K@e1,G@d2 K@e8,G@d7") {
		t.Errorf("the move list does not keep deployments whole:\n%s", text)
	}
}

func TestToto40PromptSaysTheLineRuleBinds(t *testing.T) {
	// docs/rules/toto40.md: once the line has been entered, ending the turn with no
	// piece on it loses; the mail to the player on move says so.
	r, g := newGame(t, rules.Toto40())
	g.Start = "k/2/3/4/2R2/5/2p2/5/4/3/2/K w L 1"
	out := act(t, r, g, rules.White, "board")
	if p := out.Mails[0].Board.Prompt; !strings.Contains(p, "Your rook on c8 is your only piece on the fighting line") {
		t.Errorf("prompt %q does not say the line rule binds", p)
	}
}

func TestChecToeMoveListNumbersByTurn(t *testing.T) {
	// docs/rules/chectoe.md: a re-roll and the move after it are one turn of one
	// player, and the move number goes up after Black's turn. The mail's
	// move list, the export and the status line all number that way.
	r, g := newGame(t, rules.ChecToe())
	g.Start = "4/4/4/4[PNBRpnbr] b 3 - 1" // Black to act at move 1, the die showing 3
	g.Seed = seedRolling(t, 1, 2)         // the re-roll brings a 2: the knight must be dropped
	g.Commitment = g.Seed.Commitment()
	for _, a := range []string{"reroll", "N@a1"} {
		if out := act(t, r, g, rules.Black, a); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", a, out.Verdict, out.Detail)
		}
	}
	out := act(t, r, g, rules.White, "board")
	m := out.Mails[0].Board
	if !strings.Contains(m.Status, "move 2 - White to play") {
		t.Errorf("status %q, want move 2, White to play", m.Status)
	}
	text := textOf(t, out.Mails[0])
	if !strings.Contains(text, "Moves: 1... reroll N@a1\n") {
		t.Errorf("the move list splits the turn:\n%s", text)
	}
	rec, err := r.Record(g)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rec.WriteTo(&b)
	flat := strings.Join(strings.Fields(b.String()), " ")
	if !regexp.MustCompile(`"\] 1\.\.\. reroll \{die 1 = 2 sig [0-9a-f]+\} N@a1 \{die 2 = \d sig [0-9a-f]+\}`).MatchString(flat) {
		t.Errorf("the export does not number the turn as one:\n%s", b.String())
	}
}

func TestOpeningMailShowsTheDieOnce(t *testing.T) {
	// DESIGN.md, the die witness: the opening mail gives the commitment,
	// the referee's key and the first turn's signed rolls, in one section.
	r, g := newGame(t, rules.ChecToe())
	g.Seed = seedRolling(t, 1, 3)
	g.Commitment = g.Seed.Commitment()
	_, rolls, mails, err := r.Start(g, time.Unix(0, 0))
	if err != nil || len(rolls) == 0 {
		t.Fatalf("start: %v, %d rolls", err, len(rolls))
	}
	for _, m := range mails {
		text := textOf(t, m)
		if n := strings.Count(text, "\nThe die:\n"); n != 1 {
			t.Errorf("to %s: %d die sections:\n%s", m.To, n, text)
		}
		for _, want := range []string{g.Commitment, r.cfg.Key.PublicHex(), "Roll1:3"} {
			if !strings.Contains(strings.Join(strings.Fields(text), ""), want) { // long hex may be wrapped
				t.Errorf("to %s: the die section lacks %q", m.To, want)
			}
		}
	}
}

func TestMoveListSaysHowToTypeItsMarks(t *testing.T) {
	// docs/rules/README.md#notation: the referee writes the Wizard's ° and the Checker's ⌃;
	// a player types o and ^. The move list says so when it holds them.
	r, g := newGame(t, rules.ChecToe())
	g.Start = "4/2n1/1P2/2N1[BRpbr] w 5 - 3"
	g.Seed = seedRolling(t, 1, 3)
	g.Commitment = g.Seed.Commitment()
	out := act(t, r, g, rules.White, "Pxc3o")
	if out.Verdict != Applied {
		t.Fatalf("Pxc3o: %v %s", out.Verdict, out.Detail)
	}
	for _, m := range out.Mails {
		text := textOf(t, m)
		if !strings.Contains(text, "Moves: 3. Pxc3°\nMarks: ° a Wizard move (type o).\n") {
			t.Errorf("to %s: no note on the marks under the move list:\n%s", m.To, text)
		}
	}
}

func TestToeToToeOneElephantSaysPlaceBoth(t *testing.T) {
	// docs/rules/toetotoe.md: each deployment turn places two pieces in one
	// action. A player who places one elephant is told that, with an
	// example that keeps the square they chose, not "that drop is not
	// allowed now".
	r, g := newGame(t, rules.ToeToToe())
	for i, d := range []string{"K@e1,G@d2", "K@e8,G@d7"} {
		if out := act(t, r, g, rules.Color(i%2), d); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", d, out.Verdict, out.Detail)
		}
	}
	tests := []struct{ in, want string }{
		{"E@c3", `a deployment turn places both pieces in one reply: this turn both your elephants, the two placements joined by a comma, e.g. "E@c3,E@a1"`},
		{"N@c3", `deployment 3 of 8 places both your elephants, not a horse: send both placements in one reply, e.g. "E@a1,E@b1"`},
	}
	for _, tt := range tests {
		out := act(t, r, g, rules.White, tt.in)
		if out.Verdict != Rejected {
			t.Fatalf("%s: %v", tt.in, out.Verdict)
		}
		got := strings.Join(strings.Fields(out.Mails[0].Board.Headline), " ")
		if !strings.Contains(got, tt.want) || strings.Contains(got, "drop is not allowed") {
			t.Errorf("%s: headline\n %q\nwant it to say %q", tt.in, got, tt.want)
		}
	}
}

// seedFor finds a die seed whose rolls 1, 2, ... for game #5 are want.
func seedFor(t *testing.T, want ...int) dice.Seed {
	t.Helper()
	var s dice.Seed
	for i := range 1 << 16 {
		s[0], s[1] = byte(i), byte(i>>8)
		ok := true
		for n, v := range want {
			if dice.Roll(s, "5", n+1) != v {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	t.Fatalf("no seed gives rolls %v", want)
	return s
}

func TestChecToeRerollSixThenTwo(t *testing.T) {
	// docs/rules/chectoe.md: after a re-roll's 6 play is normal. The headline
	// says what the 2 means (no empty clause after the colon); the status
	// line and the subject say the die in the words of the prompt, never
	// the raw field "r62".
	r, g := newGame(t, rules.ChecToe())
	g.Start = "4/4/4/4[PNBRpnbr] w 3 - 1"
	g.Seed = seedFor(t, 6, 2)
	g.Commitment = g.Seed.Commitment()
	out := act(t, r, g, rules.White, "reroll")
	if out.Verdict != Applied || len(out.Mails) < 2 {
		t.Fatalf("reroll: %v %s", out.Verdict, out.Detail)
	}
	want := "White asked for a re-roll and rolled 6, then 2: the 6 is void, and play goes on normally: the knight moves as usual, or is dropped from hand."
	for _, m := range out.Mails {
		if got := m.Board.Headline; got != want {
			t.Errorf("headline to %s:\n got %q\nwant %q", m.To, got, want)
		}
		if strings.Contains(m.Board.Headline, ": .") {
			t.Errorf("an empty clause: %q", m.Board.Headline)
		}
		if s := m.Board.Status; !strings.Contains(s, "die shows 2 (after a void 6)") || strings.Contains(s, "r62") {
			t.Errorf("status line %q, want the die in words", s)
		}
		text := textOf(t, m)
		if strings.Contains(text, "signature") && !strings.Contains(text, "reply \"record\" for the signatures") {
			t.Errorf("the mail carries the proof itself:\n%s", text)
		}
		if strings.Contains(text, g.Commitment+"\n") && g.Commitment != "" {
			t.Errorf("the mail repeats the commitment")
		}
		for _, line := range strings.Split(text, "\n") {
			if len(line) > 100 {
				t.Errorf("a long line (a signature?): %q", line)
			}
		}
	}
	if s := out.Mails[0].Subject; strings.Contains(s, "r62") {
		t.Errorf("subject %q shows the raw die field", s)
	}
}
