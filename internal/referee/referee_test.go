package referee

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/lang"
	"referee/internal/mail/reader"
	"referee/internal/rules"
)

func newGame(t *testing.T, v rules.Variant) (*Referee, *Game) {
	t.Helper()
	key, err := dice.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	r := New(Config{Catalog: testCatalog(), Address: "referee@example.test", Key: key})
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
	// docs/rules/README.md#common-ground: one player offers, the other accepts before the
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
		if out.Verdict != Answered || len(out.Mails) != 1 || !strings.Contains(textOf(t, out.Mails[0]), tt.want) {
			t.Errorf("%s: %v, %d mails", tt.action, out.Verdict, len(out.Mails))
		}
	}
	if out := act(t, r, g, rules.White, "xyzzy"); out.Verdict != Rejected || !strings.Contains(textOf(t, out.Mails[0]), "xyzzy") {
		t.Errorf("unknown command: %v", out.Verdict)
	}
	act(t, r, g, rules.Black, "resign")
	act(t, r, g, rules.Black, "confirm")
	if g.Result != "1-0" || !strings.Contains(g.ResultReason, "Black resigned") {
		t.Errorf("resign: %s %s", g.Result, g.ResultReason)
	}
}

func TestNoReplyToUnknownFloods(t *testing.T) {
	// Mail that cannot be tied to a game gets a short explanation, at most
	// MaxRefusalsPerHour times per sender; automatic mail gets none.
	r, _ := newGame(t, rules.Chess())
	m := &reader.Mail{From: "stranger@example.org", Action: "hello"}
	if out := r.Handle(Inbound{Mail: m}, nil, Env{RecentRefusals: 0}); out.Verdict != Rejected || len(out.Mails) != 1 {
		t.Errorf("first stray mail: %v", out.Verdict)
	}
	if out := r.Handle(Inbound{Mail: m}, nil, Env{RecentRefusals: 10}); out.Verdict != Ignored || len(out.Mails) != 0 || !strings.Contains(out.Detail, "not answered") {
		t.Errorf("over the limit: %v, %d mails, %q", out.Verdict, len(out.Mails), out.Detail)
	}
	m.Automatic = "Auto-Submitted: auto-replied"
	if out := r.Handle(Inbound{Mail: m}, nil, Env{}); out.Verdict != Ignored || len(out.Mails) != 0 {
		t.Errorf("automatic mail: %v", out.Verdict)
	}
}

func TestStrangersLearnNothingAboutReplyCodes(t *testing.T) {
	// Whether the game exists, whether the code is valid, whose it is: the
	// refusal reads the same, so it confirms nothing to a stranger.
	r, g := newGame(t, rules.Chess())
	tests := []struct {
		name  string
		from  string
		token *reader.Token
		g     *Game
	}{
		{"no reference", "mallory@example.org", nil, nil},
		{"unknown game", "mallory@example.org", &reader.Token{GameID: 99, Secret: "aaaaaaaaaa"}, nil},
		{"wrong code", "mallory@example.org", &reader.Token{GameID: g.ID, Secret: "zzzzzzzzzz"}, g},
		{"valid code, other sender", "mallory@example.org", &reader.Token{GameID: g.ID, Secret: g.Players[0].Secret}, g},
	}
	var first string
	for _, tt := range tests {
		m := &reader.Mail{From: tt.from, MessageID: "<x@y>", Subject: "hi", Action: "e4", Token: tt.token}
		out := r.Handle(Inbound{Mail: m}, tt.g, Env{Now: time.Unix(0, 0)})
		if out.Verdict != Rejected || len(out.Mails) != 1 || out.Game != nil {
			t.Fatalf("%s: %v, %d mails", tt.name, out.Verdict, len(out.Mails))
		}
		body := textOf(t, out.Mails[0])
		if first == "" {
			first = body
		} else if body != first {
			t.Errorf("%s: the refusal differs from the one for a mail without reference:\n%s", tt.name, body)
		}
		for _, leak := range []string{"valid", "belongs", "#5", "alice"} {
			if strings.Contains(body, leak) {
				t.Errorf("%s: the refusal says %q:\n%s", tt.name, leak, body)
			}
		}
	}
}

func TestRefusalsToAPlayerAreLimited(t *testing.T) {
	// An out-of-office bot keeps the subject and the reply address and
	// omits Auto-Submitted: it gets MaxGameRefusalsPerHour refusals an hour
	// at most, and never the same refusal twice in a row.
	r, g := newGame(t, rules.Chess())
	bot := func(env Env) Outcome {
		m := &reader.Mail{From: g.Players[1].Address, MessageID: "<ooo@x>", Action: "I am out of the office until Monday.",
			Token: &reader.Token{GameID: g.ID, Secret: g.Players[1].Secret, Ply: g.Ply()}}
		env.Now = time.Unix(0, 0)
		return r.Handle(Inbound{Mail: m}, g, env)
	}
	first := bot(Env{})
	if first.Verdict != Rejected || len(first.Mails) != 1 {
		t.Fatalf("first: %v %s", first.Verdict, first.Detail)
	}
	if out := bot(Env{GameRefusals: 1, LastRefusal: first.Detail}); out.Verdict != Ignored || len(out.Mails) != 0 {
		t.Errorf("the same refusal again: %v, %d mails", out.Verdict, len(out.Mails))
	}
	if out := bot(Env{GameRefusals: 2, LastRefusal: "something else"}); out.Verdict != Rejected {
		t.Errorf("a different previous refusal, under the limit: %v", out.Verdict)
	}
	if out := bot(Env{GameRefusals: 3}); out.Verdict != Ignored || !strings.Contains(out.Detail, "limit is 3") {
		t.Errorf("at the limit: %v %q", out.Verdict, out.Detail)
	}
}

func TestFinishedGamesStillAnswer(t *testing.T) {
	// Game-over mails carry a reply address, and board, help and record
	// work on a finished game.
	r, g := newGame(t, rules.Chess())
	for _, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		if out := act(t, r, g, rules.Color(g.Ply()%2), mv); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", mv, out.Verdict, out.Detail)
		}
	}
	if g.Status != StatusFinished {
		t.Fatalf("status %s after Qh4#", g.Status)
	}
	out := act(t, r, g, rules.White, "board")
	if out.Verdict != Answered || out.Mails[0].ReplyTo == "" {
		t.Fatalf("board after the end: %v, Reply-To %q", out.Verdict, out.Mails[0].ReplyTo)
	}
	out = act(t, r, g, rules.Black, "record")
	if out.Verdict != Answered || !strings.Contains(textOf(t, out.Mails[0]), "Qh4#") || !strings.Contains(textOf(t, out.Mails[0]), "0-1") {
		t.Errorf("record after the end: %v\n%s", out.Verdict, textOf(t, out.Mails[0]))
	}
}

func TestSubjectsCarryNoSecret(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	out := act(t, r, g, rules.White, "e4")
	for _, m := range out.Mails {
		subj := m.Subject
		for _, p := range g.Players {
			if strings.Contains(subj, p.Secret) {
				t.Errorf("subject %q carries a player's secret", subj)
			}
		}
		if !strings.HasPrefix(subj, "[chess #5] ") {
			t.Errorf("subject %q", subj)
		}
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
	if !strings.Contains(textOf(t, mails[0]), g.Commitment) {
		t.Error("the opening mail does not show the commitment")
	}
}

func TestResignNeedsConfirmation(t *testing.T) {
	// A stray "resign" never ends a game: it asks for "confirm", and any
	// other action cancels it.
	r, g := newGame(t, rules.Chess())
	act(t, r, g, rules.White, "resign")
	if g.Status != StatusActive || g.State.ResignPending == nil {
		t.Fatalf("after resign: %s, pending %v", g.Status, g.State.ResignPending)
	}
	act(t, r, g, rules.White, "e4") // changes its mind by playing
	if g.State.ResignPending != nil {
		t.Fatal("a move did not cancel the pending resignation")
	}
	if out := act(t, r, g, rules.White, "confirm"); out.Verdict != Rejected || g.Status != StatusActive {
		t.Errorf("confirm without resign: %v, %s", out.Verdict, g.Status)
	}
	act(t, r, g, rules.Black, "resign")
	act(t, r, g, rules.Black, "confirm")
	if g.Result != "1-0" {
		t.Errorf("resign + confirm: %q", g.Result)
	}
}

func TestTakeback(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	act(t, r, g, rules.White, "e4")
	act(t, r, g, rules.White, "takeback")
	if out := act(t, r, g, rules.Black, "accept"); out.Verdict != Applied || !out.Undo || len(g.Actions) != 0 {
		t.Fatalf("accepted takeback: %v undo %v, %d actions", out.Verdict, out.Undo, len(g.Actions))
	}
	// Declined by any other action of the opponent.
	act(t, r, g, rules.White, "d4")
	act(t, r, g, rules.White, "takeback")
	act(t, r, g, rules.Black, "d5")
	if g.State.TakebackBy != nil || len(g.Actions) != 2 {
		t.Errorf("a move did not decline the takeback: %v, %d actions", g.State.TakebackBy, len(g.Actions))
	}
}

func TestTakebackRefusedAfterRoll(t *testing.T) {
	// Chec Toe: the die is rolled for the next turn right after each action,
	// so no action can be taken back.
	r, g := newGame(t, rules.ChecToe())
	ng, _, _, err := r.Start(g, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	*g = *ng
	act(t, r, g, rules.White, "pass")
	out := act(t, r, g, rules.White, "takeback")
	// The roll named is the one after the pass (Black's), not White's
	// roll that came before it.
	after := g.Rolls[len(g.Rolls)-1]
	want := fmt.Sprintf("pass cannot be taken back: the die has been rolled since (roll %d)", after.N)
	if text := strings.Join(strings.Fields(textOf(t, out.Mails[0])), " "); out.Verdict != Rejected || after.Ply != 1 || !strings.Contains(text, want) {
		t.Errorf("takeback after a roll: %v, last roll %+v\n%s\nwant: %s", out.Verdict, after, text, want)
	}
}

func TestSpectators(t *testing.T) {
	// Watchers get every board mail, without a Reply-To; their own mail
	// acts for nobody.
	r, g := newGame(t, rules.Chess())
	g.Watchers = []string{"carol@example.test"}
	out := act(t, r, g, rules.White, "e4")
	var watcher *Mail
	for i := range out.Mails {
		if out.Mails[i].To == "carol@example.test" {
			watcher = &out.Mails[i]
		}
	}
	if watcher == nil {
		t.Fatal("no mail to the watcher")
	}
	if watcher.ReplyTo != "" || !strings.Contains(watcher.Subject, "(watching)") {
		t.Fatalf("watcher mail: Reply-To %q, subject %q", watcher.ReplyTo, watcher.Subject)
	}
	m := &reader.Mail{From: "carol@example.test", Action: "e5"}
	if res := r.Handle(Inbound{Mail: m}, g, Env{}); res.Game != nil || res.Verdict == Applied {
		t.Errorf("a spectator's mail acted: %v", res.Verdict)
	}
}

func TestClockRemindersTimeoutVacation(t *testing.T) {
	// On a fake clock: 3 days per move. The reminder comes once in the last
	// day; after the limit the side to act loses; a vacation stops it.
	r, g := newGame(t, rules.Chess())
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	c, err := ParseTimeControl("3d")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnStart = t0
	g.State.Clock = c
	tick := func(at time.Time) Outcome {
		out := r.Tick(g, at)
		if out.Game != nil {
			*g = *out.Game
		}
		return out
	}
	if out := tick(t0.Add(36 * time.Hour)); out.Game != nil {
		t.Errorf("something due after 1.5 of 3 days: %s", out.Detail)
	}
	// A quarter of the 3 days (18 h) before the limit, at 54 h, the reminder is due.
	if out := tick(t0.Add(50 * time.Hour)); out.Game != nil {
		t.Error("a reminder 22 h before the limit")
	}
	out := tick(t0.Add(60 * time.Hour))
	if len(out.Mails) != 1 || out.Mails[0].To != "alice@example.test" || !strings.Contains(textOf(t, out.Mails[0]), "Reminder") {
		t.Fatalf("reminder: %d mails", len(out.Mails))
	}
	if out := tick(t0.Add(66 * time.Hour)); out.Game != nil {
		t.Error("a second reminder for the same turn")
	}
	// Vacation: White takes 2 days; the limit moves from day 3 to day 5.
	m := &reader.Mail{From: "alice@example.test", MessageID: "<v@x>", Action: "vacation 2",
		Token: &reader.Token{GameID: g.ID, Secret: "aaaaaaaaaa", Ply: g.Ply()}}
	if out := r.Handle(Inbound{Mail: m}, g, Env{Now: t0.Add(67 * time.Hour)}); out.Verdict != Applied {
		t.Fatalf("vacation: %v %s", out.Verdict, out.Detail)
	} else {
		*g = *out.Game
	}
	if out := tick(t0.Add(4 * Day)); g.Status != StatusActive {
		t.Fatalf("lost on day 4 despite the vacation: %s", out.Detail)
	}
	tick(t0.Add(5*Day + time.Minute))
	if g.Status != StatusFinished || g.Result != "0-1" || !strings.Contains(g.ResultReason, "on time") {
		t.Errorf("after the limit: %s %s %q", g.Status, g.Result, g.ResultReason)
	}
	// Fischer control text parses; nonsense does not.
	if _, err := ParseTimeControl("10d+1d"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"3", "0d", "d+1d", "3h"} {
		if _, err := ParseTimeControl(bad); err == nil {
			t.Errorf("time control %q accepted", bad)
		}
	}
}

func TestTimeoutIsDrawAgainstBareKing(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Start = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1" // Black has only its king
	c, _ := ParseTimeControl("1d")
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	c.TurnStart = t0
	g.State.Clock = c
	r.Tick(g, t0) // nothing due yet
	out := r.Tick(g, t0.Add(Day+time.Second))
	if out.Game == nil || out.Game.Result != "1/2-1/2" {
		t.Errorf("White's timeout against a bare king: %+v", out.Game)
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	r, g := newGame(t, rules.ChecToe())
	g.State.Clock = &Clock{Control: "3d"}
	out := act(t, r, g, rules.White, "help")
	if out.Verdict != Answered {
		t.Fatalf("help: %v %s", out.Verdict, out.Detail)
	}
	raw := textOf(t, out.Mails[0])
	for _, c := range []string{"board", "moves", "record", "draw", "resign", "confirm", "takeback", "accept", "vacation N", "reroll", "roll", "pass", "help"} {
		if !strings.Contains(raw, "  "+c+" ") {
			t.Errorf("the help mail does not list %q", c)
		}
	}
}

func TestBoardMailsCarryTheTokenInTheirMessageID(t *testing.T) {
	// A provider that drops plus-addresses leaves only In-Reply-To: the
	// referee's Message-ID must name the game and the player, and nothing
	// in the subject may.
	r, g := newGame(t, rules.Chess())
	out := act(t, r, g, rules.White, "e4")
	for i, m := range out.Mails[:2] {
		c := rules.Color(i)
		tok, ok := reader.TokenFromMessageID(m.MessageID, "example.test")
		want := reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}
		if !ok || tok != want {
			t.Errorf("mail to %s: Message-ID %s gives %v, %v; want %v", m.To, m.MessageID, tok, ok, want)
		}
	}
}

func TestMovesAreReadWholeAndShownAsRead(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	// "Vc3": chess has no V, and no language a V piece; a reading as the
	// pawn move c3 would be a silent wrong answer. (It was "Cc3" until
	// issue 42: C is the knight in French, Spanish, Italian and
	// Portuguese, and is read so, saying it: TestForeignLettersAreConfirmed.)
	out := act(t, r, g, rules.White, "Vc3")
	if out.Verdict != Rejected || g.Ply() != 0 || !strings.Contains(textOf(t, out.Mails[0]), "letter V") {
		t.Fatalf("Vc3: %v, ply %d\n%s", out.Verdict, g.Ply(), textOf(t, out.Mails[0]))
	}
	out = act(t, r, g, rules.White, "1. N c3")
	if out.Verdict != Applied || g.Actions[0].SAN != "Nc3" || !strings.Contains(textOf(t, out.Mails[0]), "read as Nc3") {
		t.Fatalf("1. N c3: %v %s", out.Verdict, out.Detail)
	}
	if strings.Contains(textOf(t, out.Mails[1]), "read as") {
		t.Error("the opponent's mail shows the mover's reading")
	}
	// A move with a draw offer: both happen.
	out = act(t, r, g, rules.Black, "Nf6, and I offer a draw")
	if out.Verdict != Applied || g.Ply() != 2 || g.DrawOffer == nil || g.DrawOffer.By != rules.Black {
		t.Fatalf("move with a draw offer: %v %s, offer %+v", out.Verdict, out.Detail, g.DrawOffer)
	}
	act(t, r, g, rules.White, "draw")
	if g.Status != StatusFinished || g.Result != "1/2-1/2" {
		t.Errorf("accepting the offer made with a move: %s %s", g.Status, g.Result)
	}
}

func TestOffersTellTheOffererItWasSent(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	out := act(t, r, g, rules.White, "draw")
	mine, theirs := textOf(t, out.Mails[0]), textOf(t, out.Mails[1])
	if !strings.Contains(mine, "Your draw offer was sent to Black") || strings.Contains(mine, "To accept") {
		t.Errorf("the offerer's mail:\n%s", mine)
	}
	if !strings.Contains(theirs, `White offers a draw.`) || !strings.Contains(theirs, `To accept White's draw offer, reply "draw"`) {
		t.Errorf("the opponent's mail:\n%s", theirs)
	}
	// Issue 33: the offer is stated once (the headline) and how to accept
	// it once (the prompt), in the mail of the offer and of a move with one.
	r2, g2 := newGame(t, rules.Chess())
	out2 := act(t, r2, g2, rules.White, "e4 draw")
	for i, text := range []string{theirs, textOf(t, out2.Mails[1])} {
		flat := strings.Join(strings.Fields(text), " ")
		if n := strings.Count(flat, "offers a draw"); n != 1 {
			t.Errorf("mail %d states the offer %d times, want once:\n%s", i, n, text)
		}
		if n := strings.Count(flat, `reply "draw"`); n != 1 {
			t.Errorf("mail %d says how to accept %d times, want once:\n%s", i, n, text)
		}
	}
}

func TestResignCommentIsPassedOn(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	m := &reader.Mail{From: g.Players[1].Address, MessageID: "<r@x>", Action: "resign", Message: "Well played, Alice.",
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[1].Secret, Ply: 0}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: time.Unix(0, 0)})
	*g = *out.Game
	out = act(t, r, g, rules.Black, "confirm")
	if g.Status != StatusFinished {
		t.Fatalf("confirm: %v %s", out.Verdict, out.Detail)
	}
	if alice := textOf(t, out.Mails[1]); !strings.Contains(alice, "Well played, Alice.") {
		t.Errorf("White's mail lacks Black's comment:\n%s", alice)
	}
}

func TestMoveRefusalsSayEachThingOnce(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	for _, mv := range []string{"Qxe8", "Vc3", "Nf3 please", "Nd2"} {
		text := textOf(t, act(t, r, g, rules.White, mv).Mails[0])
		flat := strings.Join(strings.Fields(text), " ")
		if n := strings.Count(flat, "was not played"); n != 1 {
			t.Errorf("%s: %q appears %d times:\n%s", mv, "was not played", n, text)
		}
		if n := strings.Count(flat, fmt.Sprintf("%q", mv)); n != 1 {
			t.Errorf("%s: the move is quoted %d times:\n%s", mv, n, text)
		}
		if strings.Contains(flat, "Reply with another move") {
			t.Errorf("%s: the refusal repeats how to reply:\n%s", mv, text)
		}
	}
}

func TestSuggestionNeverLosesOnTheSpot(t *testing.T) {
	// Toto40 (docs/rules/toto40.md): once the line is entered, a turn that leaves it
	// empty loses. White's rook on c8 holds the line; moving it off loses.
	pos, err := rules.Toto40().ParsePosition("k/2/3/4/2R2/5/2p2/5/4/3/2/K w L 1")
	if err != nil {
		t.Fatal(err)
	}
	var losing, safe []rules.Move
	for _, m := range pos.Legal() {
		next, _ := pos.Play(m)
		if res := next.Result(); res.Over && res.Winner == rules.Black {
			losing = append(losing, m)
		} else {
			safe = append(safe, m)
		}
	}
	if len(losing) == 0 || len(safe) == 0 {
		t.Fatalf("%d losing, %d safe moves: the position no longer shows the rule", len(losing), len(safe))
	}
	got := suggestion(pos, append(append([]rules.Move{}, losing...), safe...))
	for _, m := range losing {
		if got == notationSAN(pos, m) {
			t.Errorf("suggested %s, which loses at once", got)
		}
	}
	if got := suggestion(pos, losing); got == "" {
		t.Error("no suggestion when every move loses")
	}
}

func TestFooterListsTheDieCommandsWhenLegal(t *testing.T) {
	r, g := newGame(t, rules.ChecToe())
	seed, _ := dice.ParseSeed("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	g.Seed, g.Commitment = seed, seed.Commitment()
	ng, _, mails, err := r.Start(g, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ng.Replay()
	if err != nil {
		t.Fatal(err)
	}
	white, black := textOf(t, mails[0]), textOf(t, mails[1])
	// Passing is always allowed to the player on turn; the re-roll and the
	// apocalypse roll exactly when the rules list them. Black, not on
	// turn, is offered none.
	legal := map[string]bool{}
	for _, m := range rep.Final.Legal() {
		legal[notationSAN(rep.Final, m)] = true
	}
	if !legal["pass"] {
		t.Fatal("pass is not legal for White")
	}
	offers := func(text string) map[string]bool {
		_, list, _ := strings.Cut(text, "or one of:")
		list, _, _ = strings.Cut(list, "\n\n")
		out := map[string]bool{}
		for _, w := range strings.Split(list, ",") {
			out[strings.TrimSpace(w)] = true
		}
		return out
	}
	ow, ob := offers(white), offers(black)
	for _, c := range []string{"reroll", "roll", "pass"} {
		if ow[c] != legal[c] {
			t.Errorf("White's opening mail offers %q: %v, legal: %v\n%s", c, ow[c], legal[c], white)
		}
		if ob[c] {
			t.Errorf("Black's opening mail offers %q", c)
		}
	}
}

func TestHelpCommandLinesAreNotRewrapped(t *testing.T) {
	// Every line of the command list fits in 72 columns, so no mail
	// client or wrapper breaks a command from its description.
	r, g := newGame(t, rules.ChecToe())
	g.State.Clock = &Clock{Control: "3d"}
	rep, _ := g.Replay()
	for _, c := range r.helpRows(r.english(), g, rep.Final) {
		if n := len(fmt.Sprintf("  %-12s %s", c[0], c[1])); n > 72 {
			t.Errorf("%s: a %d-column line", c[0], n)
		}
	}
}

func TestDeploymentListsAreReadable(t *testing.T) {
	// Toe-to-Toe's deployments are one item each, "K@a1,G@b1": the list
	// separates items with semicolons so the commas inside stay clear.
	r, g := newGame(t, rules.ToeToToe())
	out := act(t, r, g, rules.White, "moves")
	text := textOf(t, out.Mails[0])
	if !strings.Contains(text, "K@a1,G@b1; ") || strings.Contains(text, "K@a1,G@b1, ") {
		t.Errorf("the legal-move list:\n%s", text)
	}
}

// testCatalog is the embedded catalog, loaded once for the package's
// tests: each load takes tens of milliseconds, and the tests make
// thousands of referees.
var testCatalog = sync.OnceValue(lang.MustLoad)
