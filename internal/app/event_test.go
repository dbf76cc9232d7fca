package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"referee/internal/event"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// play sends body from colour c of game id, replying to the referee's
// latest mail, and wants it applied.
func play(t *testing.T, a *App, id int64, c rules.Color, body string) {
	t.Helper()
	g, err := a.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Process(context.Background(), moveMail(a, g, c, "Mon, 23 Nov 2026 10:00:00 +0000", body), 0, 0)
	if err != nil || p.Verdict != referee.Applied {
		t.Fatalf("game #%d, %s sends %q: %+v, %v", id, c, body, p, err)
	}
}

// finish ends game id by mail: "1-0" or "0-1" by the loser's resignation,
// "1/2-1/2" by a draw offered and accepted.
func finish(t *testing.T, a *App, id int64, result string) {
	t.Helper()
	switch result {
	case "1-0":
		play(t, a, id, rules.Black, "resign")
		play(t, a, id, rules.Black, "confirm")
	case "0-1":
		play(t, a, id, rules.White, "resign")
		play(t, a, id, rules.White, "confirm")
	default:
		play(t, a, id, rules.White, "draw")
		play(t, a, id, rules.Black, "accept")
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
		res := send(t, a, &n, p, "", "join autumn")
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
		mails := outboxTo(t, a, p)
		var kinds []string
		for _, o := range mails {
			kinds = append(kinds, o.Kind)
		}
		if len(kinds) < 5 || kinds[1] != "event-start" || kinds[2] != "opening" {
			t.Fatalf("mails to %s: %v; want the join answer, the listing, then three openings", p, kinds)
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
}
