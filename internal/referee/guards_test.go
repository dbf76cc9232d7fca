package referee

import (
	"errors"
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// TestEveryRefusalOfTheCoreHolds walks each early return of Handle, act,
// dispatch and move that refuses a mail, and checks that the mail changes
// nothing, gets the answer it should (a refusal, or silence), and is
// recorded with the reason of that very check: with a check removed, the
// mail either acts or is refused by a later check with another reason, and
// the case fails.
//
// The game is chess at ply 1 (White played e4), so Black is to move.
func TestEveryRefusalOfTheCoreHolds(t *testing.T) {
	const (
		alice = "alice@example.test" // White
		bob   = "bob@example.test"   // Black
	)
	tok := func(secret string, ply int) *reader.Token {
		return &reader.Token{GameID: 5, Secret: secret, Ply: ply}
	}
	finished := func(g *Game) {
		g.Status = StatusFinished
		g.Result = "1-0"
	}
	tests := []struct {
		name    string
		mail    *reader.Mail // nil: an unreadable mail
		readErr error
		game    func(*Game) // changes the game before the mail, if set
		env     Env
		noGame  bool // the token names no stored game
		auth    bool // the referee requires authentication
		verdict Verdict
		detail  string // what the recorded reason must contain
	}{
		{name: "unreadable mail, nothing to answer", readErr: errors.New("bad MIME"),
			verdict: Ignored, detail: "unreadable mail"},
		{name: "automatic mail", mail: &reader.Mail{From: bob, Action: "e5", Token: tok("bbbbbbbbbb", 1), Automatic: "Auto-Submitted: auto-replied"},
			verdict: Ignored, detail: "automatic mail"},
		{name: "two senders in From", mail: &reader.Mail{BadFrom: "two From fields", Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			verdict: Ignored, detail: "not read as anyone's"},
		{name: "no From field at all", mail: &reader.Mail{Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			verdict: Ignored, detail: "no usable sender"},
		{name: "the referee's own address", mail: &reader.Mail{From: "referee@example.test", Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			verdict: Ignored, detail: "the referee's own address"},
		{name: "too big", mail: &reader.Mail{From: bob, Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			readErr: &reader.TooBigError{Size: 9 << 20, Limit: 1 << 20}, verdict: Rejected, detail: "too big"},
		{name: "read error", mail: &reader.Mail{From: bob, Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			readErr: errors.New("unknown charset"), verdict: Rejected, detail: "unreadable mail: unknown charset"},
		{name: "no game reference", mail: &reader.Mail{From: bob, Action: "e5"},
			verdict: Rejected, detail: "no game reference"},
		{name: "unknown game", mail: &reader.Mail{From: bob, Action: "e5", Token: &reader.Token{GameID: 99, Secret: "bbbbbbbbbb", Ply: 1}},
			noGame: true, verdict: Rejected, detail: "unknown game #99"},
		{name: "another game's token", mail: &reader.Mail{From: bob, Action: "e5", Token: &reader.Token{GameID: 6, Secret: "bbbbbbbbbb", Ply: 1}},
			verdict: Rejected, detail: "unknown game #6"},
		{name: "wrong secret from the player's own address", mail: &reader.Mail{From: bob, Action: "e5", Token: tok("zzzzzzzzzz", 1)},
			verdict: Rejected, detail: "wrong secret"},
		{name: "wrong secret from White's address on Black's turn", mail: &reader.Mail{From: alice, Action: "e5", Token: tok("zzzzzzzzzz", 1)},
			verdict: Rejected, detail: "wrong secret"},
		{name: "Black's reply code sent from White's address", mail: &reader.Mail{From: alice, Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			verdict: Rejected, detail: "Black's reply code used from alice"},
		{name: "authentication required and missing", mail: &reader.Mail{From: bob, Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			auth: true, verdict: Rejected, detail: "authentication failed"},
		{name: "conditional lines under a command", mail: &reader.Mail{From: bob, Action: "draw", Message: "if Nf3 Nc6", Token: tok("bbbbbbbbbb", 1)},
			verdict: Rejected, detail: "conditional lines with draw"},
		{name: "after-the-game command in a running game", mail: &reader.Mail{From: bob, Action: "rematch", Token: tok("bbbbbbbbbb", 1)},
			env: Env{Lobby: &Lobby{}}, verdict: Rejected, detail: "rematch: game #5 is active"},
		{name: "move in a finished game", mail: &reader.Mail{From: bob, Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			game: finished, verdict: Rejected, detail: "game #5 is over"},
		{name: "empty action", mail: &reader.Mail{From: bob, Action: "  ", Token: tok("bbbbbbbbbb", 1)},
			verdict: Rejected, detail: "empty action"},
		{name: "stale count", mail: &reader.Mail{From: bob, Action: "e5", Token: tok("bbbbbbbbbb", 0)},
			verdict: Rejected, detail: "stale: sent against ply 0, game at ply 1"},
		// The mutant the issue found: White answers their own
		// confirmation of e4 with "e5"; the count is current, so only the
		// turn check stops e5 being played for Black.
		{name: "not your turn", mail: &reader.Mail{From: alice, Action: "e5", Token: tok("aaaaaaaaaa", 1)},
			verdict: Rejected, detail: "not your turn"},
		{name: "illegal move", mail: &reader.Mail{From: bob, Action: "e4", Token: tok("bbbbbbbbbb", 1)},
			verdict: Rejected, detail: "illegal or unreadable"},
		{name: "stranger over the hourly limit", mail: &reader.Mail{From: "mallory@example.org", Action: "e5", Token: tok("bbbbbbbbbb", 1)},
			env: Env{RecentRefusals: 10}, verdict: Ignored, detail: "refusals to mallory@example.org in the last hour, the limit is 10"},
		{name: "player over the game's hourly limit", mail: &reader.Mail{From: alice, Action: "e5", Token: tok("aaaaaaaaaa", 1)},
			env: Env{GameRefusals: 3}, verdict: Ignored, detail: "about game #5 in the last hour, the limit is 3"},
		{name: "the same refusal twice in a row", mail: &reader.Mail{From: alice, Action: "e5", Token: tok("aaaaaaaaaa", 1)},
			env: Env{GameRefusals: 1, LastRefusal: "not your turn"}, verdict: Ignored, detail: "the same refusal answered this player's previous mail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, err := dice.NewKey()
			if err != nil {
				t.Fatal(err)
			}
			r := New(Config{Catalog: testCatalog(), Address: "referee@example.test", Key: key, RequireAuth: tt.auth, TrustedAuthServ: "mx.example.test"})
			g := &Game{ID: 5, Variant: rules.Chess(), Status: StatusActive, Start: rules.Chess().Start().String(),
				Players: [2]Player{{Address: alice, Secret: "aaaaaaaaaa"}, {Address: bob, Secret: "bbbbbbbbbb"}}}
			setup := New(Config{Catalog: testCatalog(), Address: "referee@example.test", Key: key})
			if out := act(t, setup, g, rules.White, "e4"); out.Verdict != Applied {
				t.Fatalf("e4: %v %s", out.Verdict, out.Detail)
			}
			if tt.game != nil {
				tt.game(g)
			}
			before := g.clone()
			stored := g
			if tt.noGame {
				stored = nil
			}
			if tt.mail != nil && tt.mail.MessageID == "" {
				tt.mail.MessageID = "<guard@example.test>"
			}
			env := tt.env
			env.Now = time.Unix(3600, 0)
			out := r.Handle(Inbound{Mail: tt.mail, ReadErr: tt.readErr}, stored, env)
			if out.Verdict != tt.verdict {
				t.Errorf("verdict %v (%s), want %v", out.Verdict, out.Detail, tt.verdict)
			}
			if !strings.Contains(out.Detail, tt.detail) {
				t.Errorf("recorded as %q, want the reason %q", out.Detail, tt.detail)
			}
			if out.Game != nil {
				t.Errorf("the game changed: ply %d, actions %v", out.Game.Ply(), out.Game.Actions)
			}
			if g.Ply() != before.Ply() || g.Status != before.Status {
				t.Errorf("the stored game was changed in place")
			}
			switch {
			case tt.verdict == Ignored && len(out.Mails) != 0:
				t.Errorf("%d mails sent for a mail that gets no answer", len(out.Mails))
			case tt.verdict == Rejected:
				if len(out.Mails) != 1 {
					t.Fatalf("%d mails, want the one refusal", len(out.Mails))
				}
				if to := out.Mails[0].To; tt.mail != nil && to != tt.mail.From {
					t.Errorf("the refusal went to %s, not to the sender %s", to, tt.mail.From)
				}
			}
		})
	}
}

// TestNotYourTurnSaysWhoseTurnItIs: a move sent out of turn is refused
// naming the side to move, whichever player sent it.
func TestNotYourTurnSaysWhoseTurnItIs(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	out := act(t, r, g, rules.Black, "e5")
	if text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " "); out.Verdict != Rejected || !strings.Contains(text, "was not played: it is White's turn.") {
		t.Errorf("Black at the start: %v\n%s", out.Verdict, text)
	}
	act(t, r, g, rules.White, "e4")
	out = act(t, r, g, rules.White, "d4")
	if text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " "); out.Verdict != Rejected || !strings.Contains(text, "was not played: it is Black's turn.") {
		t.Errorf("White after e4: %v\n%s", out.Verdict, text)
	}
}

// TestDrawOfferedTwice: a second "draw" while one's own offer waits is
// refused, and the offer stays as it was.
func TestDrawOfferedTwice(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	if out := act(t, r, g, rules.White, "draw"); out.Verdict != Applied || g.DrawOffer == nil {
		t.Fatalf("draw: %v %s", out.Verdict, out.Detail)
	}
	offer := *g.DrawOffer
	out := act(t, r, g, rules.White, "draw")
	if out.Verdict != Rejected || out.Game != nil || g.DrawOffer == nil || *g.DrawOffer != offer {
		t.Fatalf("a second draw: %v %s, offer %+v; want a refusal and the first offer kept", out.Verdict, out.Detail, g.DrawOffer)
	}
	if text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " "); !strings.Contains(text, "You have already offered a draw; your opponent has not answered yet.") {
		t.Errorf("refusal:\n%s", text)
	}
}

// TestReadAsNoteWithADrawOffer: the confirmation says how a line was read,
// with the draw offer when one was made, and without it when the move
// ended the game (there is nothing left to offer).
func TestReadAsNoteWithADrawOffer(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	out := act(t, r, g, rules.White, "f3 draw")
	if text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " "); out.Verdict != Applied || !strings.Contains(text, `Your line "f3 draw" was read as f3 with a draw offer.`) {
		t.Errorf("f3 draw: %v\n%s", out.Verdict, text)
	}
	act(t, r, g, rules.Black, "e5")
	act(t, r, g, rules.White, "g4")
	out = act(t, r, g, rules.Black, "Qh4 draw")
	text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " ")
	if g.Result != "0-1" || !strings.Contains(text, `Your line "Qh4 draw" was read as Qh4#.`) || strings.Contains(text, "with a draw offer") {
		t.Errorf("Qh4 draw, mate: result %q\n%s", g.Result, text)
	}
}

// TestTakebackAskedTwice: a second "takeback" while one's own request
// waits is refused, and the request stays.
func TestTakebackAskedTwice(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	act(t, r, g, rules.White, "e4")
	if out := act(t, r, g, rules.White, "takeback"); out.Verdict != Applied || g.State.TakebackBy == nil {
		t.Fatalf("takeback: %v %s", out.Verdict, out.Detail)
	}
	out := act(t, r, g, rules.White, "takeback")
	if out.Verdict != Rejected || out.Game != nil || g.State.TakebackBy == nil || *g.State.TakebackBy != rules.White {
		t.Fatalf("a second takeback: %v %s; want a refusal and White's request kept", out.Verdict, out.Detail)
	}
	if text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " "); !strings.Contains(text, "You have already asked to take back the last move; your opponent has not answered.") {
		t.Errorf("refusal:\n%s", text)
	}
}
