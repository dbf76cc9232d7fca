package app

import (
	"context"
	"strings"
	"testing"
	"time"

	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/rules"
)

// TestEventGameMailsNameTheEvent (issue 37): the opening, move and
// game-over mails of an event game name the event, round and board; the
// game-over mail points to "standings"; "standings EVENT" in a reply to
// a game mail is answered, not read as a move; "referee show" says the
// event and the time control.
func TestEventGameMailsNameTheEvent(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "autumn", Variant: "chess", Format: "rr", Players: players,
		TimeControl: "10/50d off sat,sun"}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "autumn")
	if err != nil {
		t.Fatal(err)
	}
	eg := e.Games[0] // round 1, board 1: seat 1 (ann) against seat 4 (dan)
	place := "autumn, round 1, board 1"
	opening := outboxTo(t, a, "ann@example.org")
	var found bool
	for _, o := range opening {
		if m := readMail(t, o); o.Kind == "event-opening" && strings.Contains(m.Subject, place) {
			found = true
			says(t, "the opening mail", m, "in the event "+place, "10 moves in 50 days",
				"the clock stops on Saturdays and Sundays")
		}
	}
	if !found {
		t.Fatalf("no opening mail to ann names %q", place)
	}
	show, err := a.Show(ctx, eg.GameID)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Event: " + place, "Time control: 10 moves in 50 days", "Clock: time left: White 50d"} {
		if !strings.Contains(show, want) {
			t.Errorf("show does not say %q:\n%s", want, show)
		}
	}
	mustPlay(t, a, eg.GameID, rules.White, "e4")
	if _, m := lastTo(t, a, "dan@example.org"); !strings.Contains(m.Subject, place) {
		t.Errorf("the move mail's subject %q does not name %q", m.Subject, place)
	}
	p, err := play(t, a, eg.GameID, rules.Black, "standings autumn")
	if err != nil || p.Verdict != referee.Answered {
		t.Fatalf("standings in a reply to a game mail: %+v, %v; want it answered", p, err)
	}
	if _, m := lastTo(t, a, "dan@example.org"); !strings.Contains(m.Text, "ann@example.org") {
		t.Errorf("the standings answer does not show the crosstable:\n%s", m.Text)
	}
	finish(t, a, eg.GameID, "0-1")
	_, m := lastTo(t, a, "ann@example.org")
	says(t, "the game-over mail", m, `reply "standings autumn" for its crosstable`)
}

// TestVacationCancelTheOnlyBooking (issue 37): "vacation cancel" with no
// vacation running cancels the only booking; with two booked it cancels
// nothing and names each with its "vacation cancel ID". The booking's
// confirmation says how to cancel it.
func TestVacationCancelTheOnlyBooking(t *testing.T) {
	a, clk := openLobby(t, referee.LobbyConfig{})
	clk.now = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	if _, err := a.NewTimedGame(context.Background(), "chess", "carol@example.org", "bob@example.org", nil, "30d"); err != nil {
		t.Fatal(err)
	}
	n := 0
	want := func(body string, verdict referee.Verdict) *mailreader.Mail {
		t.Helper()
		if p := send(t, a, &n, "carol@example.org", "", body); p.Verdict != verdict {
			t.Fatalf("%q: %s %s; want %s", body, p.Verdict, p.Detail, verdict)
		}
		_, m := lastTo(t, a, "carol@example.org")
		return m
	}
	m := want("vacation from 2026-12-20 5", referee.Applied)
	says(t, "the booking's confirmation", m, `To cancel it before it begins, send "vacation cancel" (it is your only booking).`)
	m = want("vacation cancel", referee.Applied)
	says(t, "the cancellation", m, "is cancelled; its days are free again")
	want("vacation list", referee.Answered)
	if _, m := lastTo(t, a, "carol@example.org"); !strings.Contains(m.Text, "You have no vacation booked.") {
		t.Errorf("the booking was not cancelled:\n%s", m.Text)
	}
	want("vacation from 2026-12-20 5", referee.Applied)
	m = want("vacation from 2027-02-01 5", referee.Applied)
	says(t, "the second booking's confirmation", m, `send "vacation list" for their numbers, then "vacation cancel ID"`)
	m = want("vacation cancel", referee.Answered)
	says(t, "the answer to an ambiguous cancel", m, "nothing was cancelled", "cancels the one from Sun 20 Dec 2026, 5 days",
		"cancels the one from Mon 1 Feb 2027, 5 days")
}

// TestNameByMail (issue 37): "name Ann Smith" is stored for the sender;
// from then on the game's spectators, the event's crosstable and the
// web's view of the game show it instead of the masked address; another
// player cannot take the same name in another case; the From display
// name is never taken on its own.
func TestNameByMail(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{Observers: referee.ObserversOpen})
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "autumn", Variant: "chess", Format: "rr", Players: players, Casual: true}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "autumn")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	// A From display name alone changes nothing.
	if p := send(t, a, &n, "Ann Smith <ann@example.org>", "", "games"); p.Verdict != referee.Answered {
		t.Fatalf("games: %+v", p)
	}
	g, err := a.Game(ctx, e.Games[0].GameID)
	if err != nil {
		t.Fatal(err)
	}
	if name := referee.PublicName(g.Players[0]); name != "an…@example.org" {
		t.Fatalf("before any \"name\", ann is shown as %q; want her masked address", name)
	}
	if p := send(t, a, &n, "ann@example.org", "", "name Ann Smith"); p.Verdict != referee.Applied {
		t.Fatalf("name: %+v", p)
	}
	if p := send(t, a, &n, "ben@example.org", "", "name ANN  smith"); p.Verdict != referee.Rejected {
		t.Fatalf("the same name for ben: %+v; want a refusal", p)
	}
	_, m := lastTo(t, a, "ben@example.org")
	says(t, "ben's refusal", m, `another player here is called "ANN smith"`)
	if strings.Contains(m.Text, "ann@example.org") {
		t.Errorf("the refusal tells ben whose name it is:\n%s", m.Text)
	}
	if g, err = a.Game(ctx, e.Games[0].GameID); err != nil {
		t.Fatal(err)
	}
	if name := referee.PublicName(g.Players[0]); name != "Ann Smith" {
		t.Errorf("after \"name\", ann is shown as %q; want Ann Smith", name)
	}
	if p := send(t, a, &n, "eve@example.net", "", "observe autumn"); p.Verdict != referee.Applied {
		t.Fatalf("observe: %+v", p)
	}
	mustPlay(t, a, g.ID, rules.White, "e4")
	_, m = lastTo(t, a, "eve@example.net")
	says(t, "the spectator's mail", m, "You are watching game #1 (Ann Smith v da…@example.org)")
	if p := send(t, a, &n, "ben@example.org", "", "standings autumn"); p.Verdict != referee.Answered {
		t.Fatalf("standings: %+v", p)
	}
	_, m = lastTo(t, a, "ben@example.org")
	says(t, "the crosstable", m, "Ann Smith")
	if strings.Contains(m.Text, "ann@example.org") {
		t.Errorf("the crosstable shows ann's address beside her name:\n%s", m.Text)
	}
}

// TestResignationBeforeBothMovedIsUnrated (issue 37): a rated game
// resigned before both players have moved is stored casual and changes
// no rating; the game-over mails say so. One resigned after both moved
// is rated as before.
func TestResignationBeforeBothMovedIsUnrated(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{Rated: true})
	early, err := a.NewGame(ctx, "chess", "carol@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPlay(t, a, early.ID, rules.White, "e4")
	finish(t, a, early.ID, "1-0") // Black resigns before moving
	g, err := a.Game(ctx, early.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Rated {
		t.Errorf("game #%d, resigned after one move, is still rated", g.ID)
	}
	_, m := lastTo(t, a, "carol@example.org")
	says(t, "the game-over mail", m, "so it is not rated (as lichess aborts such games): no rating changes")
	if rs, err := a.Ratings(ctx, "chess"); err != nil || len(rs) != 0 {
		t.Errorf("ratings after the early resignation: %+v, %v; want none", rs, err)
	}
	later, err := a.NewGame(ctx, "chess", "carol@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPlay(t, a, later.ID, rules.White, "e4")
	mustPlay(t, a, later.ID, rules.Black, "e5")
	finish(t, a, later.ID, "1-0")
	if rs, err := a.Ratings(ctx, "chess"); err != nil || len(rs) != 2 {
		t.Errorf("ratings after a resignation once both moved: %+v, %v; want two", rs, err)
	}
}
