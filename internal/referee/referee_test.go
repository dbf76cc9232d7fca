package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/reader"
	"referee/internal/rules"
)

func newGame(t *testing.T, v rules.Variant) (*Referee, *Game) {
	t.Helper()
	key, err := dice.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	r := New(Config{Address: "referee@example.test", Key: key})
	g := &Game{ID: 5, Variant: v, Status: StatusActive, Start: v.Start().String(),
		Players: [2]Player{{Address: "alice@example.test", Secret: "aaaaaaaaaa"}, {Address: "bob@example.test", Secret: "bbbbbbbbbb"}}}
	return r, g
}

// act sends action as color c and returns the outcome, updating g when it changed.
func act(t *testing.T, r *Referee, g *Game, c rules.Color, action string) Outcome {
	t.Helper()
	m := &reader.Mail{From: g.Players[c].Address, MessageID: "<m@x>", Action: action,
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
	if out.Game != nil {
		*g = *out.Game
	}
	return out
}

func TestDrawOfferAcceptDecline(t *testing.T) {
	// RULES.md §1: one player offers, the other accepts before the
	// offerer's next action; any other action by the offered-to player
	// declines it.
	r, g := newGame(t, rules.Chess())
	if out := act(t, r, g, rules.White, "draw"); out.Verdict != Applied || g.DrawOffer == nil || len(out.Mails) != 2 {
		t.Fatalf("offer: %v %+v", out.Verdict, g.DrawOffer)
	}
	act(t, r, g, rules.White, "e4") // the offerer moves: the offer lapses
	if g.DrawOffer != nil {
		t.Fatal("the offer survived the offerer's next action")
	}
	act(t, r, g, rules.Black, "draw")
	act(t, r, g, rules.White, "Nf3") // refused: it is Black's turn, so the offer stands
	if g.DrawOffer == nil {
		t.Fatal("a refused (not your turn) action declined the offer")
	}
	act(t, r, g, rules.White, "draw")
	if g.Status != StatusFinished || g.Result != "1/2-1/2" || g.ResultReason != "agreed" {
		t.Errorf("after acceptance: %s %s %s", g.Status, g.Result, g.ResultReason)
	}
	if out := act(t, r, g, rules.Black, "e5"); out.Verdict != Rejected || !strings.Contains(out.Detail, "over") {
		t.Errorf("a move after the game: %v %s", out.Verdict, out.Detail)
	}
}

func TestDrawClaimByRepetition(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	for _, m := range []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"} {
		c := rules.Color(g.Ply() % 2)
		if out := act(t, r, g, c, m); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", m, out.Verdict, out.Detail)
		}
	}
	// The start position now stands for the third time, White to move.
	act(t, r, g, rules.White, "draw")
	if g.Status != StatusFinished || !strings.Contains(g.ResultReason, "threefold") {
		t.Errorf("claim: %s %q", g.Status, g.ResultReason)
	}
}

func TestResignAndCommands(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	for _, tt := range []struct{ action, want string }{
		{"help", "How to play by mail"},
		{"moves", "Legal moves (20)"},
		{"board", "Here is the board"},
	} {
		out := act(t, r, g, rules.White, tt.action)
		if out.Verdict != Answered || len(out.Mails) != 1 || !strings.Contains(string(out.Mails[0].Raw), tt.want) {
			t.Errorf("%s: %v, %d mails", tt.action, out.Verdict, len(out.Mails))
		}
	}
	if out := act(t, r, g, rules.White, "xyzzy"); out.Verdict != Rejected || !strings.Contains(string(out.Mails[0].Raw), "xyzzy") {
		t.Errorf("unknown command: %v", out.Verdict)
	}
	act(t, r, g, rules.Black, "resign")
	if g.Result != "1-0" || !strings.Contains(g.ResultReason, "Black resigned") {
		t.Errorf("resign: %s %s", g.Result, g.ResultReason)
	}
}

func TestNoReplyToUnknownFloods(t *testing.T) {
	// Mail that cannot be tied to a game gets a short explanation, at most
	// MaxRepliesPerHour times per sender; automatic mail gets none.
	r, _ := newGame(t, rules.Chess())
	m := &reader.Mail{From: "stranger@example.org", Action: "hello"}
	if out := r.Handle(Inbound{Mail: m}, nil, Env{RecentReplies: 0}); out.Verdict != Rejected || len(out.Mails) != 1 {
		t.Errorf("first stray mail: %v", out.Verdict)
	}
	if out := r.Handle(Inbound{Mail: m}, nil, Env{RecentReplies: 10}); out.Verdict != Ignored || len(out.Mails) != 0 {
		t.Errorf("over the limit: %v, %d mails", out.Verdict, len(out.Mails))
	}
	m.Automatic = "Auto-Submitted: auto-replied"
	if out := r.Handle(Inbound{Mail: m}, nil, Env{}); out.Verdict != Ignored || len(out.Mails) != 0 {
		t.Errorf("automatic mail: %v", out.Verdict)
	}
}

func TestChecToeRollsAreSignedAndDerived(t *testing.T) {
	// Starting a Chec Toe game rolls for White's first turn from the seed;
	// every roll is the documented derivation, signed by the referee.
	r, g := newGame(t, rules.ChecToe())
	seed, _ := dice.ParseSeed("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	g.Seed, g.Commitment = seed, seed.Commitment()
	ng, rolls, mails, err := r.Start(g, time.Unix(0, 0))
	if err != nil || len(rolls) == 0 || len(mails) != 2 {
		t.Fatalf("start: %v, %d rolls, %d mails", err, len(rolls), len(mails))
	}
	*g = *ng
	for range 4 {
		c := rules.White
		rep, _ := g.Replay()
		if rep.Final.Turn() == rules.Black {
			c = rules.Black
		}
		act(t, r, g, c, "pass")
	}
	for _, x := range g.Rolls {
		if x.Value != dice.Roll(seed, "5", x.N) || !dice.VerifySignature(r.cfg.Key.Public(), "5", x.N, x.Value, x.Sig) {
			t.Errorf("roll %d = %d: not the derivation, or a bad signature", x.N, x.Value)
		}
	}
	if !strings.Contains(string(mails[0].Raw), g.Commitment) {
		t.Error("the opening mail does not show the commitment")
	}
}
