package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"referee/internal/event"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// mustPlay sends body from colour c of game id, replying to the referee's
// latest mail (play), and wants it applied.
func mustPlay(t *testing.T, a *App, id int64, c rules.Color, body string) {
	t.Helper()
	if p, err := play(t, a, id, c, body); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("game #%d, %s sends %q: %+v, %v", id, c, body, p, err)
	}
}

// finish ends game id by mail: "1-0" or "0-1" by the loser's resignation,
// "1/2-1/2" by a draw offered and accepted.
//
// A chess game not begun gets a move from each side first (1. e4 e5): a
// rated game resigned before both players moved is not rated (issue 37).
func finish(t *testing.T, a *App, id int64, result string) {
	t.Helper()
	if g, err := a.Game(context.Background(), id); err == nil && g.Ply() == 0 && g.Variant.Name() == "chess" {
		mustPlay(t, a, id, rules.White, "e4")
		mustPlay(t, a, id, rules.Black, "e5")
	}
	switch result {
	case "1-0":
		mustPlay(t, a, id, rules.Black, "resign")
		mustPlay(t, a, id, rules.Black, "confirm")
	case "0-1":
		mustPlay(t, a, id, rules.White, "resign")
		mustPlay(t, a, id, rules.White, "confirm")
	default:
		mustPlay(t, a, id, rules.White, "draw")
		mustPlay(t, a, id, rules.Black, "accept")
	}
	g, err := a.Game(context.Background(), id)
	if err != nil || g.Result != result {
		t.Fatalf("game #%d: result %q, %v; want %s", id, g.Result, err, result)
	}
}

// outboxKinds lists the queued mails to addr as "kind" in queue order.
func outboxTo(t *testing.T, a *App, addr string) []store.Outgoing {
	t.Helper()
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	var mine []store.Outgoing
	for _, o := range out {
		if o.To == addr {
			mine = append(mine, o)
		}
	}
	return mine
}

func readMail(t *testing.T, o store.Outgoing) *mailreader.Mail {
	t.Helper()
	m, err := mailreader.Read(o.Raw, "someone@example.org", mailreader.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// recomputed is the crosstable recomputed from the games in the store
// alone, by event.Standings, without the event code of the app or core.
func recomputed(t *testing.T, a *App, name string, n int) []event.Standing {
	t.Helper()
	var games []event.Game
	err := a.Store().View(context.Background(), func(tx *store.Tx) error {
		se, err := tx.EventByName(name)
		if err != nil {
			return err
		}
		egs, err := tx.EventGames(se.ID)
		if err != nil {
			return err
		}
		for _, eg := range egs {
			g, err := tx.Game(eg.GameID)
			if err != nil {
				return err
			}
			s := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}
			if v, ok := s[g.Result]; ok {
				games = append(games, event.Game{White: eg.White, Black: eg.Black, WhiteScore: v})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return event.Standings(n, games, event.DefaultChain())
}

// Issue 29: a 4-player round robin filled by mail, played to its end by
// mail. The fourth "join" starts all six games at once with Berger's
// pairings; each player gets one mail listing their three games before
// the games' opening mails; at the end every player gets the final
// crosstable and the winner, and the crosstable equals the one recomputed
// from the games alone.
func TestRoundRobinByMail(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "Autumn", Variant: "chess", Format: "rr", Open: 4, Entry: "open"}); err != nil {
		t.Fatal(err)
	}
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	n := 0
	for i, p := range players {
		res := joinByMail(t, a, &n, p, "autumn")
		if res.Verdict != referee.Applied {
			t.Fatalf("%s joins: %+v", p, res)
		}
		e, err := a.Event(ctx, "autumn")
		if err != nil {
			t.Fatal(err)
		}
		wantStatus := referee.EventOpen
		if i == 3 {
			wantStatus = referee.EventRunning
		}
		if e.Status != wantStatus || len(e.Players) != i+1 {
			t.Fatalf("after %d joins: %s with %d players, want %s", i+1, e.Status, len(e.Players), wantStatus)
		}
	}
	// A stranger cannot see who plays (a running event takes no entries).
	if res := send(t, a, &n, "eve@example.org", "", "standings autumn"); res.Verdict != referee.Rejected {
		t.Errorf("a stranger's standings: %+v, want a refusal", res)
	}
	_, m := lastTo(t, a, "eve@example.org")
	for _, p := range players {
		if strings.Contains(m.Text, p) {
			t.Errorf("the stranger's answer names %s:\n%s", p, m.Text)
		}
	}

	// A fifth player is too late, and told so.
	if res := send(t, a, &n, "fay@example.org", "", "join autumn"); res.Verdict != referee.Rejected {
		t.Errorf("a join after the start: %+v, want a refusal", res)
	}
	_, m = lastTo(t, a, "fay@example.org")
	says(t, "the late join's refusal", m, "cannot join autumn any more: it is running")

	e, err := a.Event(ctx, "autumn")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Games) != 6 {
		t.Fatalf("%d games, want 6", len(e.Games))
	}
	// Berger for 4: round 1 is 1-4 2-3.
	if g := e.Games[0]; g.Round != 1 || g.White != 1 || g.Black != 4 {
		t.Errorf("round 1 board 1 is %d-%d, the FIDE table has 1-4", g.White, g.Black)
	}
	for _, p := range players {
		var mails []store.Outgoing
		var kinds []string
		for _, o := range outboxTo(t, a, p) {
			if o.Kind == string(referee.KindProof) {
				continue // the request to prove a new address comes first (issue 38)
			}
			mails = append(mails, o)
			kinds = append(kinds, o.Kind)
		}
		if len(kinds) < 5 || kinds[1] != "event-start" || kinds[2] != "event-opening" {
			t.Fatalf("mails to %s: %v; want the join answer, the listing, then three openings", p, kinds)
		}
		// An event's openings wait behind the mails of moves in games in
		// play (issue 29: "without stalling other games"), and behind its
		// listing, as event mail (issue 32's order: moves, confirmations,
		// reminders, then spectator and event mail).
		for i, o := range mails[1:5] {
			want := store.PriorityBulk
			if i == 0 {
				want = store.PriorityPlayer // the listing comes first
			}
			if o.Priority != want {
				t.Errorf("the event's %s mail to %s has priority %d, want %d", o.Kind, p, o.Priority, want)
			}
		}
		list := readMail(t, mails[1])
		if c := strings.Count(list.Text, "reply to: referee+"); c != 3 {
			t.Errorf("the listing to %s has %d reply addresses, want 3:\n%s", p, c, list.Text)
		}
	}

	// Ann wins everything; ben and cat draw; ben beats dan, dan beats cat.
	seat := func(s int) string { return e.Players[s-1].Address }
	for _, g := range e.Games {
		w, b := seat(g.White), seat(g.Black)
		var res string
		switch {
		case w == players[0]:
			res = "1-0"
		case b == players[0]:
			res = "0-1"
		case (w == players[1] && b == players[2]) || (w == players[2] && b == players[1]):
			res = "1/2-1/2"
		case w == players[1] || w == players[3] && b == players[2]:
			res = "1-0"
		default:
			res = "0-1"
		}
		finish(t, a, g.GameID, res)
	}
	e, err = a.Event(ctx, "autumn")
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != referee.EventFinished {
		t.Fatalf("after the last game the event is %s, want finished", e.Status)
	}
	got := e.Table().Standings
	want := recomputed(t, a, "autumn", 4)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the event's standings %v differ from those recomputed from the games %v", got, want)
	}
	if got[0].Player != 1 || got[0].Points != 3 || got[1].Player != 2 || got[1].Points != 1.5 {
		t.Errorf("standings %v; want ann 3, then ben 1.5", got)
	}
	for _, p := range players {
		mails := outboxTo(t, a, p)
		last := mails[len(mails)-1]
		if last.Kind != "event-end" {
			t.Errorf("the last mail to %s is %q, want the final crosstable", p, last.Kind)
			continue
		}
		fm := readMail(t, last)
		says(t, "the final mail to "+p, fm, "The winner of autumn is ann@example.org", "ben@example.org", "Pts")
		if !strings.Contains(string(last.Raw), "text/html") {
			t.Errorf("the final mail to %s has no HTML table", p)
		}
	}
	// A finished event stays readable for its players.
	if res := send(t, a, &n, "ben@example.org", "", "standings autumn"); res.Verdict != referee.Answered {
		t.Errorf("standings after the end: %+v", res)
	}
	recs, err := a.ExportEvent(ctx, "autumn")
	if err != nil || len(recs) != 6 {
		t.Fatalf("export: %d records, %v", len(recs), err)
	}
	if r := recs[5]; r.Tag("Event") != "autumn" || r.Tag("Round") != "3" || r.Tag("Board") != "2" {
		t.Errorf("the last record's tags: Event %q Round %q Board %q; want autumn, 3, 2", r.Tag("Event"), r.Tag("Round"), r.Tag("Board"))
	}
	// One game, one record: a game exported alone says what the event's
	// export says of it, word for word.
	for _, r := range recs {
		id, _ := strconv.ParseInt(r.Tag("GameId"), 10, 64)
		alone, err := a.Export(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var inEvent, single strings.Builder
		r.WriteTo(&inEvent)
		alone.WriteTo(&single)
		if single.String() != inEvent.String() {
			t.Errorf("game #%d exported alone:\n%s\nin the event's export:\n%s", id, single.String(), inEvent.String())
		}
	}
}

// newRR creates a round robin of the given players and starts it.
func newRR(t *testing.T, a *App, name string, players ...string) *referee.Event {
	t.Helper()
	ctx := context.Background()
	if _, err := a.CreateEvent(ctx, EventSpec{Name: name, Variant: "chess", Format: "rr", Players: players}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func gamesOf(e *referee.Event, seat int) []referee.EventGame {
	var out []referee.EventGame
	for _, g := range e.Games {
		if g.White == seat || g.Black == seat {
			out = append(out, g)
		}
	}
	return out
}

// Issue 29: a 5-player round robin: 10 games, each player plays four and
// sits out the pairing the dummy sixth player of the Berger table had;
// every pair meets once; each player's listing says so.
func TestRoundRobinWithABye(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{})
	players := []string{"p1@example.org", "p2@example.org", "p3@example.org", "p4@example.org", "p5@example.org"}
	e := newRR(t, a, "five", players...)
	if len(e.Games) != 10 {
		t.Fatalf("%d games, want 10", len(e.Games))
	}
	met := map[[2]int]bool{}
	for _, g := range e.Games {
		met[[2]int{min(g.White, g.Black), max(g.White, g.Black)}] = true
	}
	if len(met) != 10 {
		t.Errorf("%d distinct pairs, want all 10", len(met))
	}
	for s, p := range players {
		if n := len(gamesOf(e, s+1)); n != 4 {
			t.Errorf("%s plays %d games, want 4", p, n)
		}
		list := readMail(t, outboxTo(t, a, p)[0])
		says(t, "the listing to "+p, list, "sits out one pairing")
		if c := strings.Count(list.Text, "reply to: referee+"); c != 4 {
			t.Errorf("the listing to %s has %d games, want 4", p, c)
		}
	}
	// Round 1 of the table for 6 is 1-6 2-5 3-4: player 1 sits out.
	for _, g := range e.Games {
		if g.Round == 1 && (g.White == 1 || g.Black == 1) {
			t.Errorf("player 1 plays in round 1 (%d-%d); the dummy 6 was their opponent", g.White, g.Black)
		}
	}
}

// Issue 29, ICCF's withdrawal rule. Before half: ann completed one of her
// three games, so all her games are annulled (the finished one leaves the
// scores, the others are aborted). After half: ben completed two of
// three, so his last game is lost and his results stay.
func TestWithdrawalBeforeAndAfterHalf(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	e := newRR(t, a, "w", players...)
	// ann (seat 1) wins one game; then withdraws by mail, with confirmation.
	annGames := gamesOf(e, 1)
	res := "1-0"
	if annGames[0].Black == 1 {
		res = "0-1"
	}
	finish(t, a, annGames[0].GameID, res)
	n := 0
	if p := send(t, a, &n, "ann@example.org", "", "withdraw w"); p.Verdict != referee.Answered {
		t.Fatalf("withdraw without confirm: %+v", p)
	}
	_, m := lastTo(t, a, "ann@example.org")
	says(t, "the question", m, "completed 1 of your 3 games", "annulled", "withdraw w confirm")
	if e, _ = a.Event(ctx, "w"); e.Players[0].Withdrawn != referee.NotWithdrawn {
		t.Fatal("a withdrawal without confirm was applied")
	}
	if p := send(t, a, &n, "ann@example.org", "", "withdraw w confirm"); p.Verdict != referee.Applied {
		t.Fatalf("withdraw confirm: %+v", p)
	}
	e, _ = a.Event(ctx, "w")
	if e.Players[0].Withdrawn != referee.WithdrawnAnnulled {
		t.Fatalf("ann withdrawn %d, want annulled", e.Players[0].Withdrawn)
	}
	for _, g := range gamesOf(e, 1)[1:] {
		if g.Status != referee.StatusAborted {
			t.Errorf("ann's unfinished game #%d is %s, want aborted", g.GameID, g.Status)
		}
	}
	for _, s := range e.Table().Standings {
		if s.Points != 0 {
			t.Errorf("seat %d has %v points; ann's win was annulled, no other game is over", s.Player, s.Points)
		}
	}
	says(t, "the crosstable", &mailreader.Mail{Text: e.Table().Text()}, "ann@example.org (w)")

	// ben (seat 2): two of his games done, then the organiser withdraws him.
	var done int
	for _, g := range gamesOf(e, 2) {
		if g.Status == referee.StatusActive && done < 2 {
			finish(t, a, g.GameID, "1/2-1/2")
			done++
		} else if g.Status != referee.StatusActive {
			continue
		}
	}
	e, _ = a.Event(ctx, "w")
	if c, tot := e.SeatGames(2); c != 2 || tot != 3 {
		t.Fatalf("ben completed %d of %d; the test wants 2 of 3 (one was aborted with ann)", c, tot)
	}
	kind, err := a.WithdrawFromEvent(ctx, "w", "ben@example.org")
	if err != nil || kind != referee.WithdrawnLost {
		t.Fatalf("withdraw ben: %d, %v; want unfinished games lost", kind, err)
	}
	e, _ = a.Event(ctx, "w")
	for _, g := range gamesOf(e, 2) {
		if g.Status == referee.StatusActive {
			t.Errorf("ben's game #%d still runs", g.GameID)
		}
	}
	st := e.Table().Standings
	var ben event.Standing
	for _, s := range st {
		if s.Player == 2 {
			ben = s
		}
	}
	if ben.Points != 1 || ben.Games != 2 {
		t.Errorf("ben: %v points from %d games; want his two draws (1 point) kept and the annulled game with ann out", ben.Points, ben.Games)
	}
}

// Issue 29: a substitute takes over a player's unfinished games: the
// substitute's reply address plays, the old player's no longer does, and
// the crosstable names both.
func TestSubstitution(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	e := newRR(t, a, "sub", "ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org")
	g0 := gamesOf(e, 3)[0]
	old, err := a.Game(ctx, g0.GameID)
	if err != nil {
		t.Fatal(err)
	}
	c := rules.White
	if g0.Black == 3 {
		c = rules.Black
	}
	oldMail := moveMail(a, old, c, "Mon, 23 Nov 2026 10:00:00 +0000", "resign")
	n, err := a.ReplaceInEvent(ctx, "sub", "cat@example.org", "zoe@example.org")
	if err != nil || n != 3 {
		t.Fatalf("replace: %d games, %v; want 3", n, err)
	}
	if p, err := a.Process(ctx, oldMail, 0, 0); err != nil || p.Verdict == referee.Applied {
		t.Errorf("cat's old reply address still acts: %+v, %v", p, err)
	}
	o, m := lastTo(t, a, "zoe@example.org")
	says(t, "the substitute's board", m, "You take over cat@example.org's place")
	if o.Kind != "board" {
		t.Errorf("the substitute got a %q mail, want a board", o.Kind)
	}
	ng, _ := a.Game(ctx, g0.GameID)
	if ng.Players[c].Address != "zoe@example.org" {
		t.Fatalf("game #%d is played by %s, want zoe", ng.ID, ng.Players[c].Address)
	}
	mustPlay(t, a, g0.GameID, c, "resign")
	mustPlay(t, a, g0.GameID, c, "confirm")
	e, _ = a.Event(ctx, "sub")
	says(t, "the crosstable", &mailreader.Mail{Text: e.Table().Text()}, "cat@example.org / zoe@example.org")
	if e.Seat("zoe@example.org") != 3 {
		t.Errorf("zoe holds seat %d, want cat's 3", e.Seat("zoe@example.org"))
	}
}

// A player leaves an open event by mail before it starts; a stranger
// cannot join an event with a fixed list, nor learn who plays in it.
func TestLeaveAndClosedEntry(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "club", Variant: "chess", Format: "drr", Players: []string{"ann@example.org", "ben@example.org", "cat@example.org"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "cup", Variant: "toto40", Format: "rr", Open: 3, Entry: "open"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	if p := send(t, a, &n, "eve@example.org", "", "join club"); p.Verdict != referee.Rejected {
		t.Errorf("a stranger joins the fixed-list event: %+v", p)
	}
	_, m := lastTo(t, a, "eve@example.org")
	if strings.Contains(m.Text, "ann@") {
		t.Errorf("the refusal names a player:\n%s", m.Text)
	}
	if p := send(t, a, &n, "eve@example.org", "", "events"); p.Verdict != referee.Answered {
		t.Fatalf("events: %+v", p)
	}
	_, m = lastTo(t, a, "eve@example.org")
	says(t, "the events", m, "cup: Toto40", "3 places left of 3")
	if strings.Contains(m.Text, "club") {
		t.Errorf("the stranger's list shows the closed event:\n%s", m.Text)
	}
	joinByMail(t, a, &n, "eve@example.org", "cup")
	if p := send(t, a, &n, "eve@example.org", "", "leave cup"); p.Verdict != referee.Applied {
		t.Fatalf("leave: %+v", p)
	}
	e, _ := a.Event(ctx, "cup")
	if len(e.Players) != 0 {
		t.Errorf("after leaving, cup has %d players", len(e.Players))
	}
	// The double round robin: 3 players, 6 rounds, 6 games, colours swapped.
	e, err := a.StartEvent(ctx, "club")
	if err != nil || len(e.Games) != 6 {
		t.Fatalf("club: %d games, %v; want 6", len(e.Games), err)
	}
}

// Issue 29: losses on time count as silence; a player who loses half
// their games on time is treated as withdrawn (here after two of three,
// so their last game is lost too), and the event ends with its last game.
func TestSilenceIsWithdrawal(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "quiet", Variant: "chess", Format: "rr", TimeControl: "1d", Players: players}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "quiet")
	if err != nil {
		t.Fatal(err)
	}
	// Nobody moves. White is on move everywhere: ann is White in two of
	// her three games (Berger: 1-4, 1-2; she is Black in 3-1).
	clk.now = clk.now.Add(3 * referee.Day)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	e, _ = a.Event(ctx, "quiet")
	if e.Players[0].Withdrawn != referee.WithdrawnLost {
		t.Errorf("ann lost two of three on time, withdrawn = %d; want treated as withdrawn (unfinished games lost)", e.Players[0].Withdrawn)
	}
	for _, g := range e.Games {
		if g.White == 3 && g.Black == 1 && (g.Result != "1-0" || !strings.Contains(g.Reason, "on time and is withdrawn")) {
			t.Errorf("ann's game as Black: %s, %q; want lost by her withdrawal", g.Result, g.Reason)
		}
	}
	if e.Status != referee.EventFinished {
		t.Errorf("event %s after every game ended, want finished", e.Status)
	}
	says(t, "the crosstable", &mailreader.Mail{Text: e.Table().Text()}, "ann@example.org (w)")
}

// playKnockout finishes every active game of the event, the lower seat
// winning, except that decide may name a result; it returns when no game
// is active.
func playKnockout(t *testing.T, a *App, name string, decide func(g referee.EventGame) string) *referee.Event {
	t.Helper()
	ctx := context.Background()
	for range 100 {
		e, err := a.Event(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		active := 0
		for _, g := range e.Games {
			if g.Status != referee.StatusActive {
				continue
			}
			active++
			res := ""
			if decide != nil {
				res = decide(g)
			}
			if res == "" {
				res = "1-0"
				if g.Black < g.White {
					res = "0-1"
				}
			}
			finish(t, a, g.GameID, res)
		}
		if active == 0 {
			return e
		}
	}
	t.Fatal("the knockout never ended")
	return nil
}

func entrants(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("p%02d@example.org", i))
	}
	return out
}

// Issue 29: an 8-entrant knockout with a tied match. Match 2 of round 1
// (seeds 4 and 5) is won by White twice: 1-1, and the decider chosen at
// creation (another two-game match) adds games 3 and 4, which seed 4
// wins. The best seeds meet last; every player gets the winner.
func TestKnockoutWithATiedMatch(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "cup", Variant: "chess", Format: "ko", Players: entrants(8), Decider: "match"}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "cup")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Games) != 8 {
		t.Fatalf("round 1 has %d games, want 4 matches of 2", len(e.Games))
	}
	e = playKnockout(t, a, "cup", func(g referee.EventGame) string {
		if g.Round == 1 && g.Board == 2 && g.Leg <= 2 {
			return "1-0" // White wins both: 1-1
		}
		return ""
	})
	if e.Status != referee.EventFinished {
		t.Fatalf("the knockout is %s after its games, want finished", e.Status)
	}
	ms := e.Matches()
	if len(ms) != 3 {
		t.Fatalf("%d rounds, want 3", len(ms))
	}
	tied := ms[0][1]
	if tied.A != 4 || tied.B != 5 || len(tied.Games) != 4 || tied.Winner != 4 {
		t.Errorf("the tied match: %d v %d, %d games, winner %d; want 4 v 5 over four games, won by 4", tied.A, tied.B, len(tied.Games), tied.Winner)
	}
	if f := ms[2][0]; f.A != 1 || f.B != 2 || e.Champion() != 1 {
		t.Errorf("final %d v %d, champion %d; want 1 v 2, won by 1", f.A, f.B, e.Champion())
	}
	for _, p := range entrants(8) {
		mails := outboxTo(t, a, p)
		last := readMail(t, mails[len(mails)-1])
		says(t, "the final mail to "+p, last, "The winner of cup is p01@example.org")
	}
}

// Issue 29: a 32-entrant knockout runs to its end on the fake clock: five
// rounds, 31 matches, every game played by mail.
func TestKnockoutOf32RunsToTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("62 games by mail")
	}
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "big", Variant: "chess", Format: "ko", TimeControl: "3d", Players: entrants(32), Decider: "lot"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.StartEvent(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	// Each round: a day passes, the games end by mail, the tick runs.
	for round := 1; round <= 6; round++ {
		clk.now = clk.now.Add(referee.Day)
		if _, err := a.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		e, _ := a.Event(ctx, "big")
		if e.Status == referee.EventFinished {
			break
		}
		for _, g := range e.Games {
			if g.Status == referee.StatusActive {
				res := "1-0"
				if g.Black < g.White {
					res = "0-1"
				}
				finish(t, a, g.GameID, res)
			}
		}
	}
	e, _ := a.Event(ctx, "big")
	ms := e.Matches()
	if e.Status != referee.EventFinished || len(ms) != 5 || len(e.Games) != 62 || e.Champion() != 1 {
		t.Fatalf("%s after %d rounds, %d games, champion %d; want finished after 5 rounds and 62 games, seed 1 first",
			e.Status, len(ms), len(e.Games), e.Champion())
	}
}

// An open event starts at its start date, at the tick, with the players
// who joined; one whose players the format cannot pair is closed then.
func TestEventStartsAtItsDate(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	day := clk.now.Add(2 * referee.Day)
	for _, spec := range []EventSpec{
		{Name: "dated", Variant: "chess", Format: "rr", Open: 8, Entry: "open", Starts: &day},
		{Name: "thin", Variant: "chess", Format: "ko", Open: 8, Entry: "open", Starts: &day},
	} {
		if _, err := a.CreateEvent(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, p := range entrants(3) {
		joinByMail(t, a, &n, p, "dated")
		joinByMail(t, a, &n, p, "thin")
	}
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if e, _ := a.Event(ctx, "dated"); e.Status != referee.EventOpen {
		t.Fatalf("before its date the event is %s", e.Status)
	}
	clk.now = day.Add(time.Minute)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	e, _ := a.Event(ctx, "dated")
	if e.Status != referee.EventRunning || len(e.Games) != 3 {
		t.Errorf("at its date: %s with %d games, want running with 3", e.Status, len(e.Games))
	}
	if e, _ := a.Event(ctx, "thin"); e.Status != referee.EventClosed {
		t.Errorf("a knockout of 3 at its date is %s, want closed", e.Status)
	}
	if _, err := a.Tick(ctx); err != nil {
		t.Errorf("the next tick: %v", err)
	}
}

// The organiser's "referee abort" of an event's last game ends the event,
// as a result would: the aborted game counts for nobody.
func TestAbortingTheLastGameEndsTheEvent(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	e := newRR(t, a, "trio", "ann@example.org", "ben@example.org", "cat@example.org")
	finish(t, a, e.Games[0].GameID, "1-0")
	finish(t, a, e.Games[1].GameID, "0-1")
	if err := a.Abort(ctx, e.Games[2].GameID, "a dispute"); err != nil {
		t.Fatal(err)
	}
	if e, _ = a.Event(ctx, "trio"); e.Status != referee.EventFinished {
		t.Errorf("after its last game was aborted the event is %s, want finished", e.Status)
	}
}

// BenchmarkStartEvent16 starts a 16-player round robin: 120 games and 256
// mails (16 listings, 240 openings) queued in one transaction (issue 29:
// "starts within one IMAP pass").
func BenchmarkStartEvent16(b *testing.B) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a, err := Open(ctx, Options{Catalog: testCatalog(), DB: b.TempDir() + "/r.db", Address: "referee@example.test"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := a.CreateEvent(ctx, EventSpec{Name: "big", Variant: "chess", Format: "rr", Players: entrants(16), TimeControl: "3d"}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		e, err := a.StartEvent(ctx, "big")
		if err != nil || len(e.Games) != 120 {
			b.Fatalf("%v, %d games", err, len(e.Games))
		}
		b.StopTimer()
		a.Close()
	}
}
