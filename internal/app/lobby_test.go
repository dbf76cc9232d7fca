package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// clock is a fake clock the test moves by hand.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func openLobby(t *testing.T, lc referee.LobbyConfig) (*App, *clock) {
	t.Helper()
	c := &clock{now: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
	a, err := Open(context.Background(), Options{Catalog: testCatalog(), DB: filepath.Join(t.TempDir(), "r.db"), Address: "referee@example.test",
		Now: c.Now, Lobby: lc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, c
}

// send processes a mail from from to the referee's plain address (or to
// to, when given) and fails the test on an error.
func send(t *testing.T, a *App, n *int, from, to, body string, extra ...string) Processed {
	t.Helper()
	*n++
	if to == "" {
		to = "referee@example.test"
	}
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: lobby\r\nMessage-ID: <m%d@example.org>\r\n%s\r\n%s\r\n",
		from, to, *n, strings.Join(extra, ""), body)
	p, err := a.Process(context.Background(), []byte(raw), 0, 0)
	if err != nil {
		t.Fatalf("%s: %q: %v", from, body, err)
	}
	return p
}

// lastTo is the newest queued mail to addr, read back as a mail client
// would: header fields and decoded text.
func lastTo(t *testing.T, a *App, addr string) (store.Outgoing, *mailreader.Mail) {
	t.Helper()
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].To == addr {
			m, err := mailreader.Read(out[i].Raw, "someone@example.org", mailreader.Limits{})
			if err != nil {
				t.Fatalf("the referee's mail to %s does not read: %v", addr, err)
			}
			return out[i], m
		}
	}
	t.Fatalf("no mail to %s", addr)
	return store.Outgoing{}, nil
}

func mailCount(t *testing.T, a *App) int {
	t.Helper()
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	return len(out)
}

func says(t *testing.T, what string, m *mailreader.Mail, parts ...string) {
	t.Helper()
	text := strings.Join(strings.Fields(m.Text), " ")
	for _, p := range parts {
		if !strings.Contains(text, strings.Join(strings.Fields(p), " ")) {
			t.Errorf("%s does not say %q:\n%s", what, p, m.Text)
		}
	}
}

// replyAddress is the Reply-To of a queued mail.
func replyAddress(t *testing.T, o store.Outgoing) string {
	t.Helper()
	for _, line := range strings.Split(string(o.Raw), "\r\n") {
		if v, ok := strings.CutPrefix(line, "Reply-To: "); ok {
			if i := strings.IndexByte(v, '<'); i >= 0 {
				v = strings.Trim(v[i:], "<>")
			}
			return v
		}
	}
	t.Fatalf("no Reply-To in the mail to %s", o.To)
	return ""
}

// TestChallengeAcceptPlayAndAsk: carol challenges bob by mail, bob accepts,
// they play three moves, and carol asks for her games and the record.
func TestChallengeAcceptPlayAndAsk(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	if _, err := a.SetPlayer(ctx, "carol@example.org", true); err != nil {
		t.Fatal(err)
	}
	n := 0
	if p := send(t, a, &n, "carol@example.org", "", "challenge chess bob@example.org 3d white"); p.Verdict != referee.Applied {
		t.Fatalf("challenge: %+v", p)
	}
	inv, invText := lastTo(t, a, "bob@example.org")
	says(t, "the invitation", invText, "carol@example.org invites you to a game of Chess", "reply to this mail with \"accept\"")
	_, conf := lastTo(t, a, "carol@example.org")
	says(t, "carol's confirmation", conf, "bob@example.org is invited")

	// Bob's client replies to the invitation: the reply address and
	// In-Reply-To carry the invitation token.
	clk.now = clk.now.Add(time.Hour)
	p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept\r\n\r\n> carol@example.org invites you",
		"In-Reply-To: "+inv.MessageID+"\r\n")
	if p.Verdict != referee.Applied || p.GameID == 0 {
		t.Fatalf("accept: %+v", p)
	}
	g, err := a.Game(ctx, p.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[0].Address != "carol@example.org" || g.Players[1].Address != "bob@example.org" || g.State.Clock == nil || g.State.Clock.Control != "3d" {
		t.Fatalf("game #%d: %s v %s, clock %+v", g.ID, g.Players[0].Address, g.Players[1].Address, g.State.Clock)
	}
	// Issue 33: the notice says "the referee's first mail for the game
	// follows", so it is queued before carol's opening mail (the outbox
	// sends in queue order within a priority, and both are the game's).
	var toCarol []store.Outgoing
	all, err := renderedOutbox(a) // each mail written as the sender writes it
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all {
		if o.To == "carol@example.org" {
			toCarol = append(toCarol, o)
		}
	}
	if len(toCarol) < 3 {
		t.Fatalf("%d mails to carol, want the confirmation, the notice and the opening mail", len(toCarol))
	}
	noticeOut, openingOut := toCarol[len(toCarol)-2], toCarol[len(toCarol)-1]
	if noticeOut.ID >= openingOut.ID || !strings.Contains(string(openingOut.Raw), "Reply to this mail to act") {
		t.Errorf("carol's last two mails: #%d then #%d; want the notice, then the opening mail", noticeOut.ID, openingOut.ID)
	}
	notice, err := mailreader.Read(noticeOut.Raw, "someone@example.org", mailreader.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	says(t, "carol's notice", notice, fmt.Sprintf("bob@example.org accepted your challenge 1: game #%d", g.ID), "you play White",
		"The referee's first mail for the game follows")
	opening, _ := lastTo(t, a, "bob@example.org")
	if opening.GameID == nil || *opening.GameID != g.ID {
		t.Errorf("bob's newest mail is not the game's opening mail: %+v", opening.GameID)
	}
	// A second acceptance changes nothing.
	if p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept"); p.Verdict != referee.Rejected {
		t.Errorf("a second accept: %+v", p)
	}

	for i, mv := range []string{"e4", "e5", "Nf3"} {
		g, _ = a.Game(ctx, g.ID)
		c := rules.Color(i % 2)
		if p, err := a.Process(ctx, moveMail(a, g, c, "Mon, 23 Nov 2026 12:00:00 +0000", mv), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", mv, p, err)
		}
	}
	g, _ = a.Game(ctx, g.ID)

	if p := send(t, a, &n, "carol@example.org", "", "games"); p.Verdict != referee.Answered {
		t.Fatalf("games: %+v", p)
	}
	_, games := lastTo(t, a, "carol@example.org")
	says(t, "the games list", games, fmt.Sprintf("#%d Chess: you play White against bob@example.org", g.ID),
		"move 2, bob@example.org's move", "reply to: "+a.Referee().ReplyAddress(g, rules.White))
	if strings.Contains(games.Text, g.Players[1].Secret) {
		t.Errorf("carol's games list holds bob's secret:\n%s", games.Text)
	}

	if p := send(t, a, &n, "carol@example.org", "", fmt.Sprintf("record %d", g.ID)); p.Verdict != referee.Answered {
		t.Fatalf("record: %+v", p)
	}
	_, rec := lastTo(t, a, "carol@example.org")
	says(t, "the record", rec, "[White \"carol@example.org\"]", "[Black \"bob@example.org\"]", "1. e4 {[%date 2026.11.23]} e5 {[%date 2026.11.23]} 2. Nf3")

	// Mallory forges carol's address: the answer goes to carol, never to
	// mallory; mallory's own request about the game is refused.
	before := mailCount(t, a)
	send(t, a, &n, "mallory@example.org", "", fmt.Sprintf("record %d", g.ID))
	// The words are looked for in the decoded text parts: the raw mail's
	// random Message-ID and reply address may hold "e4" by chance.
	o, refusal := lastTo(t, a, "mallory@example.org")
	if mailCount(t, a) != before+1 || strings.Contains(bodyText(t, o.Raw), "e4") {
		t.Errorf("mallory learnt the game:\n%s", refusal.Text)
	}
}

// TestInvitationExpires: on a fake clock, an unanswered invitation
// expires at the tick, the challenger is told, a late accept is refused,
// and the same challenger may invite bob again only a day later.
func TestInvitationExpires(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	n := 0
	if p := send(t, a, &n, "carol@example.org", "", "challenge toto40 bob@example.org"); p.Verdict != referee.Applied {
		t.Fatalf("challenge: %+v", p)
	}
	inv, _ := lastTo(t, a, "bob@example.org")
	clk.now = clk.now.Add(7*referee.Day - time.Minute)
	if changed, err := a.Tick(ctx); err != nil || changed != 0 {
		t.Fatalf("a minute before the end: %d changed, %v", changed, err)
	}
	clk.now = clk.now.Add(2 * time.Minute)
	if changed, err := a.Tick(ctx); err != nil || changed != 1 {
		t.Fatalf("after the end: %d changed, %v; want the invitation expired", changed, err)
	}
	_, told := lastTo(t, a, "carol@example.org")
	says(t, "the expiry notice", told, "bob@example.org did not answer your challenge 1")
	if changed, err := a.Tick(ctx); err != nil || changed != 0 {
		t.Errorf("a second tick: %d changed, %v", changed, err)
	}
	if p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept"); p.Verdict != referee.Rejected || p.GameID != 0 {
		t.Errorf("a late accept: %+v", p)
	}
	_, late := lastTo(t, a, "bob@example.org")
	says(t, "the late accept's refusal", late, "no longer open: it was expired")
	if p := send(t, a, &n, "carol@example.org", "", "challenge toto40 bob@example.org"); p.Verdict != referee.Rejected {
		t.Errorf("a new invitation to bob the same day: %+v", p)
	}
	clk.now = clk.now.Add(referee.Day + time.Minute)
	if p := send(t, a, &n, "carol@example.org", "", "challenge toto40 bob@example.org"); p.Verdict != referee.Applied {
		t.Errorf("a new invitation to bob a day later: %+v", p)
	}
}

// TestStrangerChallengeRefusedUnderKnown: under --players known, an
// address that never played and was not added cannot challenge; once the
// organiser adds it, it can; a removed player cannot, though it played.
func TestStrangerChallengeRefusedUnderKnown(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	n := 0
	p := send(t, a, &n, "mallory@example.org", "", "challenge chess bob@example.org")
	if p.Verdict != referee.Rejected {
		t.Fatalf("a stranger's challenge: %+v", p)
	}
	_, refusal := lastTo(t, a, "mallory@example.org")
	says(t, "the refusal", refusal, "only known players", "Ask the organiser to add you")
	if o, err := renderedOutbox(a); err != nil || len(o) != 1 {
		t.Errorf("outbox: %d mails, %v; want only the refusal (no invitation to bob)", len(o), err)
	}
	// Alice played a game: she is known.
	if _, err := a.NewGame(ctx, "chess", "alice@example.org", "dan@example.org", nil); err != nil {
		t.Fatal(err)
	}
	if p := send(t, a, &n, "alice@example.org", "", "challenge chess bob@example.org"); p.Verdict != referee.Applied {
		t.Errorf("alice, who played: %+v", p)
	}
	if _, err := a.SetPlayer(ctx, "Mallory@Example.org", true); err != nil {
		t.Fatal(err)
	}
	if p := send(t, a, &n, "mallory@example.org", "", "challenge chess bob@example.org"); p.Verdict != referee.Applied {
		t.Errorf("mallory after player add: %+v", p)
	}
	if _, err := a.SetPlayer(ctx, "dan@example.org", false); err != nil {
		t.Fatal(err)
	}
	if p := send(t, a, &n, "dan@example.org", "", "challenge chess erin@example.org"); p.Verdict != referee.Rejected {
		t.Errorf("dan after player remove: %+v", p)
	}
	list, err := a.KnownPlayers(ctx)
	if err != nil || len(list) != 2 || list[0].Address != "dan@example.org" || list[0].Allowed || !list[1].Allowed {
		t.Errorf("known players %+v, %v", list, err)
	}
}

// TestVacationByMailStopsTwoClocks: "vacation 3" to the plain address
// stops carol's clocks in both her timed games at once, tells both
// opponents, and counts 3 days once against her yearly allowance, which a
// vacation by reply in one game then shares.
func TestVacationByMailStopsTwoClocks(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	g1, err := a.NewTimedGame(ctx, "chess", "carol@example.org", "bob@example.org", nil, "3d")
	if err != nil {
		t.Fatal(err)
	}
	g2, err := a.NewTimedGame(ctx, "chess", "dan@example.org", "carol@example.org", nil, "3d")
	if err != nil {
		t.Fatal(err)
	}
	start := clk.now
	clk.now = clk.now.Add(time.Hour)
	before := mailCount(t, a)
	n := 0
	if p := send(t, a, &n, "carol@example.org", "", "vacation 3"); p.Verdict != referee.Applied {
		t.Fatalf("vacation: %+v", p)
	}
	if got := mailCount(t, a) - before; got != 3 {
		t.Errorf("%d mails, want carol's summary and one to each opponent", got)
	}
	_, toBob := lastTo(t, a, "bob@example.org")
	_, toDan := lastTo(t, a, "dan@example.org")
	says(t, "bob's mail", toBob, "White is on vacation")
	says(t, "dan's mail", toDan, "Black is on vacation")
	until := clk.now.Add(3 * referee.Day)
	g1, _ = a.Game(ctx, g1.ID)
	g2, _ = a.Game(ctx, g2.ID)
	if !g1.State.Clock.Vacation[rules.White].Equal(until) || !g2.State.Clock.Vacation[rules.Black].Equal(until) {
		t.Errorf("vacations until %v and %v, want %v", g1.State.Clock.Vacation[rules.White], g2.State.Clock.Vacation[rules.Black], until)
	}
	// In game 1 carol is to move: her running clock is pushed back 3 days.
	if want := start.Add(3 * referee.Day); !g1.State.Clock.TurnStart.Equal(want) {
		t.Errorf("game #%d turn start %v, want %v", g1.ID, g1.State.Clock.TurnStart, want)
	}
	// Day 4: without the vacation carol would have lost game 1 on time.
	clk.now = start.Add(4 * referee.Day)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if g1, _ = a.Game(ctx, g1.ID); g1.Status != referee.StatusActive {
		t.Errorf("game #%d ended during the vacation: %s", g1.ID, g1.ResultReason)
	}
	// (Dan, to move in game 2, has lost on time meanwhile.) 27 days are
	// left: a vacation by reply in game 1 of 28 is refused.
	reply := func(days int) Processed {
		p, err := a.Process(ctx, moveMail(a, g1, rules.White, "Mon, 23 Nov 2026 12:00:00 +0000", fmt.Sprintf("vacation %d", days)), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := reply(28); p.Verdict != referee.Rejected {
		t.Errorf("vacation 28 by reply after 3 by mail: %+v", p)
	}
	if p := reply(27); p.Verdict != referee.Applied {
		t.Errorf("vacation 27 by reply after 3 by mail: %+v", p)
	}
	err = a.Store().Update(ctx, func(tx *store.Tx) error {
		days, err := tx.VacationDays("carol@example.org", 2026)
		if err == nil && days != 30 {
			t.Errorf("carol's vacation days in 2026: %d, want 30", days)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRematchThroughTheStore: after a finished game, "rematch" in a reply
// to the game's mail invites the opponent (the app loads what the command
// table says the row needs); their "accept" starts a game of the same
// variant and time control with the colours swapped.
func TestRematchThroughTheStore(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewTimedGame(ctx, "toto40", "carol@example.org", "bob@example.org", nil, "3d")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"resign", "confirm"} {
		g, _ = a.Game(ctx, g.ID)
		if p, err := a.Process(ctx, moveMail(a, g, rules.White, "Mon, 23 Nov 2026 12:00:00 +0000", line), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("%s: %+v, %v", line, p, err)
		}
	}
	g, _ = a.Game(ctx, g.ID)
	if g.Status != referee.StatusFinished {
		t.Fatalf("game #%d is %s", g.ID, g.Status)
	}
	if p, err := a.Process(ctx, moveMail(a, g, rules.Black, "Mon, 23 Nov 2026 12:05:00 +0000", "rematch"), 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("rematch: %+v, %v", p, err)
	}
	inv, invText := lastTo(t, a, "carol@example.org")
	says(t, "the invitation", invText, fmt.Sprintf("After game #%d of Toto40", g.ID), "bob@example.org plays White", "reply to this mail with \"accept\"")

	clk.now = clk.now.Add(time.Hour)
	n := 0
	p := send(t, a, &n, "carol@example.org", replyAddress(t, inv), "accept", "In-Reply-To: "+inv.MessageID+"\r\n")
	if p.Verdict != referee.Applied || p.GameID == 0 || p.GameID == g.ID {
		t.Fatalf("accept: %+v", p)
	}
	ng, err := a.Game(ctx, p.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if ng.Variant.Name() != "toto40" || ng.Players[0].Address != "bob@example.org" || ng.Players[1].Address != "carol@example.org" ||
		ng.State.Clock == nil || ng.State.Clock.Control != "3d" {
		t.Errorf("the rematch is game #%d: %s, %s v %s, clock %+v", ng.ID, ng.Variant.Name(), ng.Players[0].Address, ng.Players[1].Address, ng.State.Clock)
	}
}
