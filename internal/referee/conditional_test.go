package referee

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/rules"
)

// actMsg sends action with message below it as colour c (replying to the
// game's latest mail at ply, or the current ply when ply < 0).
func actMsg(t *testing.T, r *Referee, g *Game, c rules.Color, action, message string, ply int) Outcome {
	t.Helper()
	if ply < 0 {
		ply = g.Ply()
	}
	m := &reader.Mail{From: g.Players[c].Address, MessageID: fmt.Sprintf("<m%d%s@x>", g.Ply(), action), Action: action, Message: message,
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: ply}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
	if out.Game != nil {
		*g = *out.Game
	}
	return out
}

// mailTo is the text of the outcome's board or plain mail to addr ("" when none).
func mailTo(t *testing.T, out Outcome, addr string) string {
	t.Helper()
	for _, m := range out.Mails {
		if m.To == addr {
			return textOf(t, m)
		}
	}
	return ""
}

// TestConditionalMovesChess: a tree through a whole sequence in chess:
// set under a move (never relayed), matched (the answer played at once,
// shown in the opponent's mail), matched again until used up, set alone,
// a deviation clearing it, the refusals (illegal, unreadable, no answer,
// conflict, over the cap, on one's own turn, stale), "conditions",
// "cancel", a takeback clearing both trees, and the reveal at the end.
func TestConditionalMovesChess(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	alice, bob := g.Players[0].Address, g.Players[1].Address

	out := actMsg(t, r, g, rules.White, "e4", "Hi Bob,\nif e5 Nf3 if Nc6 Bb5\nif c5 Nf3\nif Bob plays 1...d5, I will think\nSee you", -1)
	if out.Verdict != Applied || g.Ply() != 1 {
		t.Fatalf("e4 with lines: %s (%s)", out.Verdict, out.Detail)
	}
	toAlice, toBob := mailTo(t, out, alice), mailTo(t, out, bob)
	for _, want := range []string{"if c5 Nf3\nif e5 Nf3 if Nc6 Bb5\n", "Commitment:"} {
		if !strings.Contains(toAlice, want) {
			t.Errorf("alice's confirmation does not show %q:\n%s", want, toAlice)
		}
	}
	if strings.Contains(toBob, "if e5") || strings.Contains(toBob, "Nf3") || strings.Contains(toBob, "onditional") ||
		!strings.Contains(toBob, "if Bob plays 1...d5, I will think") || !strings.Contains(toBob, "See you") {
		t.Errorf("bob's mail relays the lines or loses the message:\n%s", toBob)
	}
	commitment := g.State.Cond.Log[0].Commitment

	// Predicted: e5 is answered by Nf3 at once.
	out = actMsg(t, r, g, rules.Black, "e5", "", -1)
	if out.Verdict != Applied || len(out.NewActions) != 2 || !out.NewActions[1].Cond || out.NewActions[1].SAN != "Nf3" {
		t.Fatalf("e5: %s (%s), actions %+v", out.Verdict, out.Detail, out.NewActions)
	}
	if s := mailTo(t, out, bob); !strings.Contains(s, "White answered Nf3 at once (a conditional move)") {
		t.Errorf("bob's mail does not show the answer:\n%s", s)
	}
	if standing(g, rules.White) == nil || standing(g, rules.White).From != 3 {
		t.Fatalf("the rest of the tree: %+v", standing(g, rules.White))
	}
	// Predicted again, and used up.
	out = actMsg(t, r, g, rules.Black, "Nc6", "", -1)
	if strings.Join(sans(g), " ") != "e4 e5 Nf3 Nc6 Bb5" || standing(g, rules.White) != nil {
		t.Fatalf("after Nc6: %v, tree %+v", sans(g), standing(g, rules.White))
	}
	if s := mailTo(t, out, alice); !strings.Contains(s, "used up") {
		t.Errorf("alice is not told her lines are used up:\n%s", s)
	}

	// Alone on the opponent's turn, then a deviation.
	if out := actMsg(t, r, g, rules.White, "if a6 Ba4", "if Nf6 O-O", -1); out.Verdict != Applied || len(standing(g, rules.White).Lines) != 2 {
		t.Fatalf("lines alone: %s (%s)", out.Verdict, out.Detail)
	} else if len(out.Mails) != 1 || out.Mails[0].To != alice {
		t.Errorf("lines alone were mailed to %d recipients", len(out.Mails))
	}
	out = actMsg(t, r, g, rules.Black, "d6", "", -1)
	if g.Ply() != 6 || standing(g, rules.White) != nil {
		t.Fatalf("a deviation: ply %d, tree %+v", g.Ply(), standing(g, rules.White))
	}
	if s := mailTo(t, out, alice); !strings.Contains(s, "Black played d6, which none of your conditional lines foresaw") {
		t.Errorf("alice is not told of the deviation:\n%s", s)
	}
	if s := mailTo(t, out, bob); s == "" || strings.Contains(s, "conditional") {
		t.Errorf("bob's confirmation of d6 is missing or tells him of alice's lines:\n%s", s)
	}

	// Refused whole: the move is not played either.
	for _, tc := range []struct {
		name, action, message, says string
		color                       rules.Color
		ply                         int
	}{
		{"illegal", "d4", "if Nf6 O-O\nif Bg4 Qh9", "line 2", rules.White, -1},
		{"illegal answer", "d4", "if Nf6 Ke3", `"Ke3" is not a legal move there for White`, rules.White, -1},
		{"no answer", "d4", "if Nf6", `"if Nf6" has no answer`, rules.White, -1},
		{"conflict", "d4", "if Nf6 O-O\nif Nf6 Nc3", "give one answer to each move", rules.White, -1},
		{"over the cap", "d4", strings.Repeat("if Nf6 O-O\n", 31), "31 conditional lines, and at most 30", rules.White, -1},
		{"too long", "d4", "if Nf6 O-O" + strings.Repeat(" if Rb8 Rb1 if Ra8 Ra1", 4) + " if Rb8 Rb1" + strings.Repeat(" if Ra8 Ra1 if Rb8 Rb1", 3),
			"a line may have at most 30", rules.White, -1},
		{"own turn", "if Nf6 O-O", "", "it is your move", rules.White, -1},
		{"stale", "if Bg4 h3", "", "", rules.Black, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := g.Ply()
			gg := *g
			out := actMsg(t, r, &gg, tc.color, tc.action, tc.message, tc.ply)
			if out.Verdict != Rejected || gg.Ply() != before {
				t.Fatalf("%s: %s (%s), ply %d", tc.name, out.Verdict, out.Detail, gg.Ply())
			}
			if s := mailTo(t, out, g.Players[tc.color].Address); !strings.Contains(strings.Join(strings.Fields(s), " "), tc.says) {
				t.Errorf("the refusal does not say %q:\n%s", tc.says, s)
			}
		})
	}

	// "conditions" and "cancel".
	if out := actMsg(t, r, g, rules.White, "d4", "if Nf6 Nc3\nif Bg4 h3", -1); out.Verdict != Applied {
		t.Fatalf("d4 with lines: %s (%s)", out.Verdict, out.Detail)
	}
	if s := mailTo(t, actMsg(t, r, g, rules.White, "conditions", "", -1), alice); !strings.Contains(s, "if Bg4 h3\nif Nf6 Nc3\n") {
		t.Errorf("conditions:\n%s", s)
	}
	if out := actMsg(t, r, g, rules.White, "cancel", "", -1); out.Verdict != Applied || standing(g, rules.White) != nil {
		t.Fatalf("cancel: %s (%s)", out.Verdict, out.Detail)
	}
	// A takeback clears both trees.
	actMsg(t, r, g, rules.White, "if Nf6 Nc3", "", -1)
	actMsg(t, r, g, rules.Black, "exd4", "if Qxd4 Nf6", -1)
	if standing(g, rules.Black) == nil {
		t.Fatal("Black's tree was not set")
	}
	actMsg(t, r, g, rules.White, "takeback", "", -1)
	if out := actMsg(t, r, g, rules.Black, "accept", "", -1); out.Verdict != Applied || standing(g, rules.Black) != nil || standing(g, rules.White) != nil {
		t.Fatalf("takeback: %s (%s); trees %+v %+v", out.Verdict, out.Detail, standing(g, rules.White), standing(g, rules.Black))
	}

	// The end reveals every tree; the commitments check.
	actMsg(t, r, g, rules.White, "resign", "", -1)
	out = actMsg(t, r, g, rules.White, "confirm", "", -1)
	if g.Status != StatusFinished {
		t.Fatalf("resign: %s", out.Detail)
	}
	final := mailTo(t, out, bob)
	for i, s := range g.State.Cond.Log {
		if !strings.Contains(final, s.Nonce) || !strings.Contains(final, s.Text) {
			t.Errorf("the final mail does not reveal tree %d:\n%s", i+1, final)
		}
		if c, err := CondCommitment(s.Nonce, s.Text); err != nil || c != s.Commitment {
			t.Errorf("tree %d: commitment %s, recomputed %s (%v)", i+1, s.Commitment, c, err)
		}
	}
	if g.State.Cond.Log[0].Commitment != commitment || len(g.State.Cond.Log) != 5 {
		t.Errorf("the log: %d trees, the first %s (was %s)", len(g.State.Cond.Log), g.State.Cond.Log[0].Commitment, commitment)
	}
	checkWithPython(t, g.State.Cond.Log)
	rec, err := r.Record(g)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Tag("CondTree1"); got != "White 1 "+g.State.Cond.Log[0].Nonce+" "+commitment+" if c5 Nf3 | if e5 Nf3 if Nc6 Bb5" {
		t.Errorf("the record's CondTree1 is %q", got)
	}
	var b strings.Builder
	if _, err := rec.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !regexp.MustCompile(`Nf3 \{(\[%date [0-9.]+\] )?cond\}`).MatchString(s) {
		t.Errorf("the record does not mark the conditional move:\n%q", s)
	}
}

// TestConditionalMovesVariants: a match and a deviation on the wrapped
// boards and the small ones; Chec Toe refuses conditional moves.
func TestConditionalMovesVariants(t *testing.T) {
	for _, v := range []rules.Variant{rules.Toroidal(), rules.KleinChess(), rules.ToeToToe(), rules.Cuarenta()} {
		t.Run(v.Name(), func(t *testing.T) {
			r, g := newGame(t, v)
			pos := v.Start()
			w1 := pos.Legal()[0]
			p1, _ := pos.Play(w1)
			legal := p1.Legal()
			b1, b2 := legal[0], legal[len(legal)-1]
			p2, _ := p1.Play(b1)
			w2 := p2.Legal()[0]
			line := fmt.Sprintf("if %s %s", notation.SAN(p1, b1), notation.SAN(p2, w2))
			if out := actMsg(t, r, g, rules.White, notation.SAN(pos, w1), line, -1); out.Verdict != Applied || standing(g, rules.White) == nil {
				t.Fatalf("%s with %q: %s (%s)", notation.SAN(pos, w1), line, out.Verdict, out.Detail)
			}
			saved := *g
			saved.State = g.State.clone()
			out := actMsg(t, r, g, rules.Black, notation.SAN(p1, b1), "", -1)
			if len(out.NewActions) != 2 || out.NewActions[1].SAN != notation.SAN(p2, w2) || g.Ply() != 3 {
				t.Fatalf("the predicted move: %+v (%s)", out.NewActions, out.Detail)
			}
			*g = saved
			out = actMsg(t, r, g, rules.Black, notation.SAN(p1, b2), "", -1)
			if len(out.NewActions) != 1 || standing(g, rules.White) != nil {
				t.Fatalf("a deviation: %+v, tree %+v", out.NewActions, standing(g, rules.White))
			}
		})
	}
	r, g := newGame(t, rules.ChecToe())
	out := actMsg(t, r, g, rules.White, "conditions", "", -1)
	if s := mailTo(t, out, g.Players[0].Address); !strings.Contains(s, "not available in Chec Toe") {
		t.Errorf("conditions in Chec Toe:\n%s", s)
	}
	out = actMsg(t, r, g, rules.Black, "if a1 a2", "", -1)
	if out.Verdict != Rejected || !strings.Contains(mailTo(t, out, g.Players[1].Address), "Chec Toe") {
		t.Errorf("lines in Chec Toe: %s (%s)", out.Verdict, out.Detail)
	}
}

// checkWithPython recomputes each commitment with an independent
// implementation of docs/conditional.md's construction: Python's hashlib,
// as a player would. Without python3 the check is skipped, except under
// CI=true.
func checkWithPython(t *testing.T, sets []CondSet) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is needed for the independent check of the commitments (CI=true)")
		}
		t.Log("python3 not found: the independent check of the commitments is skipped")
		return
	}
	const script = `import hashlib, json, sys
for s in json.load(sys.stdin):
    print(hashlib.sha256(bytes.fromhex(s["nonce"]) + s["text"].encode("utf-8")).hexdigest())
`
	in, err := json.Marshal(sets)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	got := strings.Fields(string(out))
	if len(got) != len(sets) {
		t.Fatalf("python3 gave %d commitments for %d trees", len(got), len(sets))
	}
	for i, s := range sets {
		if got[i] != s.Commitment {
			t.Errorf("tree %d: the referee committed to %s, Python computes %s", i+1, s.Commitment, got[i])
		}
	}
}

// TestCondCommitmentByHand: a conditional tree's commitment is
// hex(SHA-256(nonce || text)) with the 16-byte nonce, so that anyone can
// check a revealed tree with any SHA-256 tool (the value below is Python's
// hashlib.sha256(bytes.fromhex(nonce) + text).hexdigest()). A nonce that
// is not 32 hex digits is refused, whatever its length.
func TestCondCommitmentByHand(t *testing.T) {
	const nonce = "000102030405060708090a0b0c0d0e0f"
	got, err := CondCommitment(nonce, "if e5 Nf3\n")
	if want := "11d66fc0c9c012b2cb8b04e095ac3ea44c196e77a86f84991dd198db0ead0106"; err != nil || got != want {
		t.Errorf("CondCommitment = %s, %v; want %s", got, err, want)
	}
	for _, bad := range []string{"", "0001", nonce[:30], nonce + "10", "zz" + nonce[2:]} {
		if c, err := CondCommitment(bad, "if e5 Nf3\n"); err == nil {
			t.Errorf("nonce %q accepted (%s)", bad, c)
		}
	}
}

// TestConditionalLineBeyondTheEnd: a line that goes on after a move that
// ends the game is refused, naming whose move comes after the end.
func TestConditionalLineBeyondTheEnd(t *testing.T) {
	for _, tt := range []struct {
		fen, line, want string
	}{
		// White wrote the line after 1. f3: Black's Qh4 mates before White's Nc3.
		{"rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1", "if e5 g4 if Qh4 Nc3",
			`before your move "Nc3"`},
		// Black wrote it after 1. f3 e5: Black's own Qh4 mates before White's a3.
		{"rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq e6 0 2", "if g4 Qh4 if a3 a6",
			`before your opponent's move "a3"`},
	} {
		pos, err := rules.Chess().ParsePosition(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		_, err = readConditions(pos, []string{tt.line})
		if err == nil || !strings.Contains(err.Error(), "the game is over") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v; want the game over %s", tt.line, err, tt.want)
		}
	}
}

// TestConditionalLinesUnderAMate: lines sent under a move that ends the
// game do not refuse the move: the game ends, and the lines are not set.
// The final mails reveal every tree set before, numbered from 1 in the
// order set, each with a nonce and text whose SHA-256 is the commitment
// shown when it was set.
func TestConditionalLinesUnderAMate(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	// White sets a tree under 1. f3 that 1... e5 clears; Black sets one
	// under e5 that answers 2. g4 with Qh4#.
	if out := actMsg(t, r, g, rules.White, "f3", "if e6 a3", -1); out.Verdict != Applied {
		t.Fatalf("f3: %v %s", out.Verdict, out.Detail)
	}
	if out := actMsg(t, r, g, rules.Black, "e5", "if g4 Qh4", -1); out.Verdict != Applied {
		t.Fatalf("e5: %v %s", out.Verdict, out.Detail)
	}
	if out := actMsg(t, r, g, rules.White, "g4", "", -1); out.Verdict != Applied {
		t.Fatalf("g4: %v %s", out.Verdict, out.Detail)
	}
	if g.Status != StatusFinished || g.Result != "0-1" {
		t.Fatalf("after the trees: %s %s, moves %v", g.Status, g.Result, sans(g))
	}
	sec, ok := condRevealSection(nil, g)
	if !ok {
		t.Fatal("no reveal section in a finished game with trees")
	}
	for i, want := range []string{"Tree 1, White's, from ply 1:", "Tree 2, Black's, from ply 2:"} {
		if !strings.Contains(sec.Body, want) {
			t.Errorf("reveal section lacks %q:\n%s", want, sec.Body)
		}
		s := g.State.Cond.Log[i]
		if c, err := CondCommitment(s.Nonce, s.Text); err != nil || c != s.Commitment || !strings.Contains(sec.Body, "nonce "+s.Nonce+"\ncommitment "+c) {
			t.Errorf("tree %d: commitment %s (%v) does not recompute from the revealed nonce and text:\n%s", i+1, c, err, sec.Body)
		}
	}

	// A mate sent with lines under it.
	r, g = newGame(t, rules.Chess())
	for _, mv := range []struct {
		c  rules.Color
		mv string
	}{{rules.White, "f3"}, {rules.Black, "e5"}, {rules.White, "g4"}} {
		if out := actMsg(t, r, g, mv.c, mv.mv, "", -1); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", mv.mv, out.Verdict, out.Detail)
		}
	}
	out := actMsg(t, r, g, rules.Black, "Qh4", "if a3 a6", -1)
	if out.Verdict != Applied || g.Status != StatusFinished || g.Result != "0-1" {
		t.Fatalf("Qh4# with lines: %v %s; game %s %s", out.Verdict, out.Detail, g.Status, g.Result)
	}
	if g.State.Cond != nil && len(g.State.Cond.Log) > 0 {
		t.Errorf("lines under the mate were set: %+v", g.State.Cond.Log)
	}
}

// TestDrawOfferWithAMoveTheTreeForesaw: a move sent with a draw offer is
// never answered by the opponent's conditional lines: the offer waits for
// their own answer, their tree is cleared, and they are told why.
func TestDrawOfferWithAMoveTheTreeForesaw(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	if out := actMsg(t, r, g, rules.White, "e4", "if e5 Nf3", -1); out.Verdict != Applied {
		t.Fatalf("e4: %v %s", out.Verdict, out.Detail)
	}
	out := actMsg(t, r, g, rules.Black, "e5 draw", "", -1)
	if out.Verdict != Applied {
		t.Fatalf("e5 with a draw offer: %v %s", out.Verdict, out.Detail)
	}
	if g.Ply() != 2 || g.DrawOffer == nil || g.DrawOffer.By != rules.Black {
		t.Fatalf("after e5 with a draw offer: moves %v, offer %+v; want e5 alone, Black's offer pending", sans(g), g.DrawOffer)
	}
	if standing(g, rules.White) != nil {
		t.Errorf("White's tree is still set: %+v", standing(g, rules.White))
	}
	alice := g.Players[rules.White].Address
	if s := norm(mailTo(t, out, alice)); !strings.Contains(s, "conditional") || !strings.Contains(s, "draw") {
		t.Errorf("White is not told that the offer cleared the lines:\n%s", s)
	}
}
