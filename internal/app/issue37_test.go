package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// Issue 37: a club's season by mail, what went wrong.

// TestAcceptWithNothingPending: "accept" with no draw offer and no
// takeback request pending is refused, to its sender alone, as "confirm"
// without "resign" is; it offers nothing in their name (before, it was
// "Your draw offer was sent to White", and White and the spectators read
// "Black offers a draw"). With the player's own offer pending the answer
// says the offer is theirs.
func TestAcceptWithNothingPending(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewGame(ctx, "chess", "white@example.org", "black@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPlay(t, a, g.ID, rules.White, "e4")
	for _, tc := range []struct {
		name  string
		setup string // what White sends first
		file  string
	}{
		{"nothing pending", "", "accept-nothing.txt"},
		{"own offer pending", "draw", "accept-own-offer.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := rules.Black
			if tc.setup != "" {
				mustPlay(t, a, g.ID, rules.Black, tc.setup)
			}
			before := mailCount(t, a)
			p, err := a.Process(ctx, moveMail(a, after0(t, a, g.ID), c, "Mon, 23 Nov 2026 11:00:00 +0000", "accept\r\n("+tc.name+")"), 0, 0)
			if err != nil || p.Verdict != referee.Rejected {
				t.Fatalf("accept: %+v, %v; want it refused", p, err)
			}
			after, err := a.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if after.Status != referee.StatusActive || (tc.setup == "" && after.DrawOffer != nil) {
				t.Errorf("after accept: status %s, draw offer %+v; want the game going on, no offer made", after.Status, after.DrawOffer)
			}
			mails := sentSince(t, a, before)
			if len(mails) != 1 || mails[0].To != "black@example.org" {
				t.Fatalf("%d mails after accept (first to %v); want one, to Black alone", len(mails), mails)
			}
			golden(t, tc.file, mailText(t, mails[0]))
		})
	}
}

// after0 is game id as stored now.
func after0(t *testing.T, a *App, id int64) *referee.Game {
	t.Helper()
	g, err := a.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDigestPlayerHearsOfStartsAndEnds: Carol takes "mail digest 18:00".
// A game's start and a game's end reach her at once (a mate, an agreed
// draw, a resignation, a loss on time: every end is KindGameEnd), never
// only in a digest that lists games still in play; the moves of the day
// wait for the digest, which names each opponent and gives each game's
// clock and deadline (or says it has none) and any draw offer waiting.
func TestDigestPlayerHearsOfStartsAndEnds(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	clk.now = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	n := 0
	for _, body := range []string{"timezone Europe/Berlin", "mail digest 18:00"} {
		if p := send(t, a, &n, "carol@example.org", "", body); p.Verdict != referee.Applied {
			t.Fatalf("%q: %s %s", body, p.Verdict, p.Detail)
		}
	}
	kindsTo := func(from int) []string {
		t.Helper()
		var k []string
		for _, o := range sentSince(t, a, from) {
			if o.To == "carol@example.org" {
				k = append(k, o.Kind)
			}
		}
		return k
	}
	before := mailCount(t, a)
	timed, err := a.NewTimedGame(ctx, "chess", "dave@example.org", "carol@example.org", nil, "10d")
	if err != nil {
		t.Fatal(err)
	}
	untimed, err := a.NewGame(ctx, "chess", "erin@example.org", "carol@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	ending, err := a.NewGame(ctx, "chess", "carol@example.org", "fred@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	if k := kindsTo(before); len(k) != 3 || k[0] != "opening" {
		t.Fatalf("Carol got %v when three games started; want three openings at once", k)
	}
	before = mailCount(t, a)
	at := func(h, m int) string {
		clk.now = time.Date(2026, 12, 1, h, m, 0, 0, time.UTC)
		return clk.now.Format(time.RFC1123Z)
	}
	for _, s := range []struct {
		g    *referee.Game
		c    rules.Color
		h, m int
		body string
	}{
		{timed, rules.White, 9, 0, "d4\r\nGood luck, Carol."},
		{untimed, rules.White, 9, 30, "e4 draw"},
		{ending, rules.White, 10, 0, "f3"},
		{ending, rules.Black, 10, 5, "e5"},
		{ending, rules.White, 10, 10, "g4"},
	} {
		g := after0(t, a, s.g.ID)
		if p, err := a.Process(ctx, moveMail(a, g, s.c, at(s.h, s.m), s.body), 0, 0); err != nil || p.Verdict != referee.Applied {
			t.Fatalf("game #%d %q: %+v %v", g.ID, s.body, p, err)
		}
	}
	if k := kindsTo(before); len(k) != 0 {
		t.Fatalf("Carol got %v for moves during the day; want them in her digest", k)
	}
	before = mailCount(t, a)
	g := after0(t, a, ending.ID)
	if p, err := a.Process(ctx, moveMail(a, g, rules.Black, at(10, 20), "Qh4#"), 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("Qh4#: %+v %v", p, err)
	}
	mails := sentSince(t, a, before)
	var toCarol []string
	for _, o := range mails {
		if o.To == "carol@example.org" {
			toCarol = append(toCarol, o.Kind)
			golden(t, "digest-player-mated.txt", mailText(t, o))
		}
	}
	if len(toCarol) != 1 || toCarol[0] != string(referee.KindGameEnd) {
		t.Fatalf("Carol got %v when she was mated; want the game's end at once", toCarol)
	}
	clk.now = time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC) // 18:00 in Berlin
	before = mailCount(t, a)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	mails = sentSince(t, a, before)
	if len(mails) != 1 || mails[0].Kind != string(referee.KindDigest) {
		t.Fatalf("%d mails at 18:00 (%v); want Carol's digest", len(mails), mails)
	}
	golden(t, "digest.txt", mailText(t, mails[0]))
	// Carol accepts the draw from the digest's address: the end comes at
	// once to both.
	before = mailCount(t, a)
	g = after0(t, a, untimed.ID)
	if p, err := a.Process(ctx, moveMail(a, g, rules.Black, at(17, 5), "draw"), 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("Carol's draw: %+v %v", p, err)
	}
	if k := kindsTo(before); len(k) != 1 || k[0] != string(referee.KindGameEnd) {
		t.Errorf("Carol got %v after agreeing a draw; want the game's end at once", k)
	}
}

// firstTo is the first of mails to addr whose kind is kind.
func firstTo(t *testing.T, mails []store.Outgoing, addr, kind string) store.Outgoing {
	t.Helper()
	for _, o := range mails {
		if o.To == addr && o.Kind == kind {
			return o
		}
	}
	t.Fatalf("no %s mail to %s among %d", kind, addr, len(mails))
	return store.Outgoing{}
}

// TestTiedKnockoutMatchMails: a 4-entrant knockout decided by more games
// (--decider match, which draws no lot: no mail speaks of lots). Match 1
// of round 1 (seeds 1 and 4) is won by White twice. The end of its first
// game says the match goes on; the end of the second says it is tied 1-1
// and two more games decide it; those games come with a mail that says
// so (not "The event has started: your first-round match"); the PGN
// numbers them 1.3 and 1.4, apart from 1.1 and 1.2.
func TestTiedKnockoutMatchMails(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	seed := dice.Seed{7}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "cup", Variant: "chess", Format: "ko", Players: entrants(4), Decider: "match", Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	before := mailCount(t, a)
	e, err := a.StartEvent(ctx, "cup")
	if err != nil {
		t.Fatal(err)
	}
	start := mailText(t, firstTo(t, sentSince(t, a, before), "p01@example.org", string(referee.KindEventStart)))
	golden(t, "ko-start.txt", start)
	var match1 []referee.EventGame
	for _, g := range e.Games {
		if g.Board == 1 {
			match1 = append(match1, g)
		}
	}
	before = mailCount(t, a)
	finish(t, a, match1[0].GameID, "1-0")
	golden(t, "ko-first-game-end.txt", mailText(t, firstTo(t, sentSince(t, a, before), "p01@example.org", string(referee.KindGameEnd))))
	before = mailCount(t, a)
	finish(t, a, match1[1].GameID, "1-0")
	sent := sentSince(t, a, before)
	golden(t, "ko-tied-game-end.txt", mailText(t, firstTo(t, sent, "p01@example.org", string(referee.KindGameEnd))))
	golden(t, "ko-deciders-start.txt", mailText(t, firstTo(t, sent, "p04@example.org", string(referee.KindEventStart))))
	e = playKnockout(t, a, "cup", nil)
	if e.Status != referee.EventFinished {
		t.Fatalf("cup is %s after its games; want finished", e.Status)
	}
	final := mailText(t, firstTo(t, sentSince(t, a, 0), "p01@example.org", string(referee.KindEventEnd)))
	golden(t, "ko-final.txt", final)
	for _, text := range []string{start, final} {
		if strings.Contains(text, "Lots") || strings.Contains(text, "seed") {
			t.Errorf("a knockout decided by more games speaks of lots:\n%s", text)
		}
	}
	recs, err := a.ExportEvent(ctx, "cup")
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, r := range recs {
		tags = append(tags, r.Tag("Round")+"/"+r.Tag("Board"))
	}
	if got, want := strings.Join(tags, " "), "1.1/1 1.2/1 1.3/1 1.4/1 1.1/2 1.2/2 2.1/1 2.2/1"; got != want {
		t.Errorf("the PGN's Round/Board tags: %s; want %s", got, want)
	}
}

// TestKnockoutLotTexts: with --decider lot, a tied match's line in the
// bracket says it was won by lot and which roll, without the score again
// (the score stands beside it), and the final mail reveals the seed whose
// commitment the first mail gave.
func TestKnockoutLotTexts(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	seed := dice.Seed{7}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "lotko", Variant: "chess", Format: "ko", Players: entrants(2), Decider: "lot", Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.StartEvent(ctx, "lotko"); err != nil {
		t.Fatal(err)
	}
	golden(t, "ko-lot-start.txt", mailText(t, firstTo(t, sentSince(t, a, 0), "p01@example.org", string(referee.KindEventStart))))
	playKnockout(t, a, "lotko", func(referee.EventGame) string { return "1/2-1/2" })
	golden(t, "ko-lot-final.txt", mailText(t, firstTo(t, sentSince(t, a, 0), "p02@example.org", string(referee.KindEventEnd))))
}

// TestWithdrawalMails: ann withdraws from a 6-player round robin by mail
// after winning one of her five games. Her games are annulled; she gets
// one mail (the answer to her "withdraw club confirm", listing her games),
// never an "organiser aborted this game" board mail per game; each of her
// five opponents gets one mail saying that ann withdrew and what became of
// their game with her. The text crosstable marks the annulled games "-"
// (as the web page's legend does), not "." (not yet over). Then the
// organiser withdraws ben past half his games: his unfinished games are
// lost, and he is told so in one mail too.
func TestWithdrawalMails(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org", "eve@example.org", "fay@example.org"}
	e := newRR(t, a, "club", players...)
	annGames := gamesOf(e, 1)
	res := "1-0"
	if annGames[0].Black == 1 {
		res = "0-1"
	}
	finish(t, a, annGames[0].GameID, res)
	n := 0
	before := mailCount(t, a)
	if p := send(t, a, &n, "ann@example.org", "", "withdraw club confirm"); p.Verdict != referee.Applied {
		t.Fatalf("withdraw confirm: %+v", p)
	}
	count := map[string]int{}
	for _, o := range sentSince(t, a, before) {
		count[o.To]++
		text := mailText(t, o)
		if strings.Contains(text, "organiser") {
			t.Errorf("a mail of ann's own withdrawal speaks of the organiser:\n%s", text)
		}
		switch o.To {
		case "ann@example.org":
			golden(t, "withdraw-self.txt", text)
		case e.Players[annGames[0].White+annGames[0].Black-2].Address: // the one she beat
			golden(t, "withdraw-opponent-finished.txt", text)
		case "ben@example.org": // ann's first game was with fay
			golden(t, "withdraw-opponent.txt", text)
		}
	}
	for _, p := range players {
		if count[p] != 1 {
			t.Errorf("%s got %d mails for ann's withdrawal; want one", p, count[p])
		}
	}
	e, _ = a.Event(ctx, "club")
	golden(t, "withdraw-standings.txt", e.StandingsText())

	// ben, past half his games (three draws of five, the game with ann
	// annulled), is withdrawn by the organiser: his last game is lost.
	done := 0
	for _, g := range gamesOf(e, 2) {
		if g.Status == referee.StatusActive && done < 3 {
			finish(t, a, g.GameID, "1/2-1/2")
			done++
		}
	}
	before = mailCount(t, a)
	if kind, err := a.WithdrawFromEvent(ctx, "club", "ben@example.org"); err != nil || kind != referee.WithdrawnLost {
		t.Fatalf("withdraw ben: %d, %v; want his unfinished games lost", kind, err)
	}
	count = map[string]int{}
	for _, o := range sentSince(t, a, before) {
		count[o.To]++
		if o.To == "ben@example.org" {
			golden(t, "withdraw-organiser-self.txt", mailText(t, o))
		}
	}
	if count["ben@example.org"] != 1 || len(count) != 2 {
		t.Errorf("mails for ben's withdrawal: %v; want one to ben and one to his one opponent left", count)
	}
}

// TestFinalCrosstableMail: a 4-player round robin where ann and ben end
// on 1.5 points with one win each and equal Sonneborn-Berger: the final
// mail says ann stands above on the direct encounter (she beat ben). An
// observer of the event ("observe tie") gets the final crosstable too,
// once.
func TestFinalCrosstableMail(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{Observers: referee.ObserversOpen})
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	e := newRR(t, a, "tie", players...)
	n := 0
	if p := send(t, a, &n, "obs@example.net", "", "observe tie"); p.Verdict != referee.Applied {
		t.Fatalf("observe tie: %+v", p)
	}
	winner := map[[2]int]int{{1, 2}: 1, {1, 3}: 0, {1, 4}: 4, {2, 3}: 2, {2, 4}: 0, {3, 4}: 0}
	before := 0
	for i, g := range e.Games {
		w := winner[[2]int{min(g.White, g.Black), max(g.White, g.Black)}]
		res := map[bool]string{true: "1-0", false: "0-1"}[w == g.White]
		if w == 0 {
			res = "1/2-1/2"
		}
		if i == len(e.Games)-1 {
			before = mailCount(t, a)
		}
		finish(t, a, g.GameID, res)
	}
	var ends []store.Outgoing
	for _, o := range sentSince(t, a, before) {
		if o.Kind == string(referee.KindEventEnd) {
			ends = append(ends, o)
		}
	}
	if len(ends) != 5 {
		t.Fatalf("%d final crosstables; want one to each of the 4 players and one to the observer", len(ends))
	}
	for _, o := range ends {
		switch o.To {
		case "ann@example.org":
			golden(t, "final-crosstable.txt", mailText(t, o))
		case "obs@example.net":
			golden(t, "final-crosstable-observer.txt", mailText(t, o))
		}
	}
}
