package app

import (
	"context"
	"slices"
	"strings"
	"testing"

	"referee/internal/referee"
)

// playRR plays every game of a started round robin to a result by mail:
// White wins on even boards, Black on odd ones, and the first game of
// each round is drawn, so that the ratings move apart.
func playRR(t *testing.T, a *App, name string) *referee.Event {
	t.Helper()
	ctx := context.Background()
	e, err := a.Event(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range e.Games {
		switch {
		case g.Board == 1:
			finish(t, a, g.GameID, "1/2-1/2")
		case i%2 == 0:
			finish(t, a, g.GameID, "1-0")
		default:
			finish(t, a, g.GameID, "0-1")
		}
	}
	if e, err = a.Event(ctx, name); err != nil {
		t.Fatal(err)
	}
	if e.Status != referee.EventFinished {
		t.Fatalf("event %s is %s after its last game", name, e.Status)
	}
	return e
}

// Issue 30: an event is rated unless created --casual. A rated round
// robin's games are rated games: when the event has ended every player
// has a rating from its three games, and "referee ratings --rebuild"
// recomputes exactly the stored values. The listing says "rated".
func TestRatedRoundRobinEqualsRebuild(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	e := newRR(t, a, "rated", players...)
	if !e.Rated || !strings.Contains(e.Summary(), "Chess, round robin, no time limit, rated") {
		t.Errorf("a new event without --casual: rated %v, summary %q", e.Rated, e.Summary())
	}
	for _, eg := range e.Games {
		g, err := a.Game(ctx, eg.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Rated {
			t.Fatalf("game #%d of a rated event is casual", g.ID)
		}
	}
	_, opening := lastTo(t, a, "ann@example.org")
	says(t, "an opening mail of the rated event", opening, "This game is rated")
	playRR(t, a, "rated")
	stored, err := a.Ratings(ctx, "chess")
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(players) {
		t.Fatalf("after a rated round robin of 4, %d chess ratings: %+v", len(stored), stored)
	}
	for _, r := range stored {
		if r.Games != 3 {
			t.Errorf("%s has %d rated games after a round robin of 4; want 3", r.Address, r.Games)
		}
	}
	if stored[0].R == stored[len(stored)-1].R {
		t.Errorf("every rating equal after decisive games: %+v", stored)
	}
	rep, err := a.RebuildRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != len(e.Games) || len(rep.Differ) != 0 {
		t.Fatalf("rebuild: %d rated games (want %d), differed %v", rep.Games, len(e.Games), rep.Differ)
	}
	rebuilt, err := a.Ratings(ctx, "chess")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rebuilt, stored) {
		t.Errorf("ratings after the event:\n%+v\nafter the rebuild:\n%+v", stored, rebuilt)
	}
}

// Issue 30: an event created --casual makes casual games and changes no
// rating, not even of players rated before it; its listing and opening
// mails say casual.
func TestCasualEventChangesNoRating(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	// ann and ben are rated before the event.
	g, err := a.NewRatedGame(ctx, "chess", "ann@example.org", "ben@example.org", nil, "", true)
	if err != nil {
		t.Fatal(err)
	}
	finish(t, a, g.ID, "1-0")
	before, err := a.Ratings(ctx, "chess")
	if err != nil || len(before) != 2 {
		t.Fatalf("ratings before the event: %+v, %v", before, err)
	}
	players := []string{"ann@example.org", "ben@example.org", "cat@example.org", "dan@example.org"}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "friendly", Variant: "chess", Format: "rr", Players: players, Casual: true}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "friendly")
	if err != nil {
		t.Fatal(err)
	}
	if e.Rated || !strings.Contains(e.Summary(), "no time limit, casual") {
		t.Errorf("an event created --casual: rated %v, summary %q", e.Rated, e.Summary())
	}
	_, opening := lastTo(t, a, "cat@example.org")
	says(t, "an opening mail of the casual event", opening, "This game is casual")
	playRR(t, a, "friendly")
	after, err := a.Ratings(ctx, "chess")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after, before) {
		t.Errorf("a casual event changed the ratings:\nbefore %+v\nafter  %+v", before, after)
	}
}

// Issue 30: an event's --min-rating, --max-rating and --min-reliability
// limit who joins by mail, in the event's variant (a player without a
// rated game there counts as 1500 and 100%); each refusal names the limit
// and the player's value. The organiser's --players are not limited.
func TestEventJoinRatingLimits(t *testing.T) {
	ctx := context.Background()
	const (
		strong = "strong@example.org" // won a rated chess game: about 1662
		flaky  = "flaky@example.org"  // lost one on time without a move: reliability 0%
		fresh  = "fresh@example.org"  // no rated game: 1500, 100%
	)
	for _, tc := range []struct {
		name    string
		limits  referee.RatingLimits
		refused map[string]string // who is refused, with what the refusal says
		joins   []string
	}{
		{"min rating", referee.RatingLimits{MinRating: 1600},
			map[string]string{fresh: "your Chess rating is 1500?, and event cup asks for at least 1600"}, []string{strong}},
		{"max rating", referee.RatingLimits{MaxRating: 1600},
			map[string]string{strong: "your Chess rating is 1662?, and event cup allows at most 1600"}, []string{fresh}},
		{"min reliability", referee.RatingLimits{MinReliability: 0.9},
			map[string]string{flaky: "your reliability in Chess is 0% (1 of 1 rated games lost on time or abandoned), and event cup asks for at least 90%"},
			[]string{strong, fresh}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, clk := openLobby(t, referee.LobbyConfig{})
			g, err := a.NewRatedGame(ctx, "chess", flaky, strong, nil, "1d", true)
			if err != nil {
				t.Fatal(err)
			}
			clk.now = clk.now.AddDate(0, 0, 3)
			if _, err := a.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			if g, _ = a.Game(ctx, g.ID); g.Result != "0-1" {
				t.Fatalf("the setup game: %q (%s); want 0-1 on time", g.Result, g.ResultReason)
			}
			if _, err := a.CreateEvent(ctx, EventSpec{Name: "cup", Variant: "chess", Format: "rr", Open: 6, Entry: "open",
				Limits: tc.limits}); err != nil {
				t.Fatal(err)
			}
			// The organiser's --players are not limited: the players
			// refused by mail below may be listed.
			var listed []string
			for who := range tc.refused {
				listed = append(listed, who)
			}
			league, err := a.CreateEvent(ctx, EventSpec{Name: "league", Variant: "chess", Format: "rr", Open: 6, Entry: "open",
				Players: listed, Limits: tc.limits})
			if err != nil || len(league.Players) != len(listed) {
				t.Fatalf("an event listing %v with limits %+v: %+v, %v", listed, tc.limits, league, err)
			}
			n := 0
			if p := send(t, a, &n, "other@example.org", "", "events"); p.Verdict != referee.Answered {
				t.Fatalf("events: %+v", p)
			}
			_, list := lastTo(t, a, "other@example.org")
			says(t, "the events answer", list, "cup: Chess, round robin, no time limit, rated", "entry by mail: "+tc.limits.Text())
			for who, why := range tc.refused {
				p := send(t, a, &n, who, "", "join cup")
				if p.Verdict != referee.Rejected {
					t.Fatalf("%s joins outside the limits: %+v", who, p)
				}
				_, m := lastTo(t, a, who)
				says(t, "the refusal", m, "You cannot join cup: "+why, `"rating" shows your ratings`)
			}
			for _, who := range tc.joins {
				if p := joinByMail(t, a, &n, who, "cup"); p.Verdict != referee.Applied {
					_, m := lastTo(t, a, who)
					t.Fatalf("%s joins within the limits: %+v\n%s", who, p, m.Text)
				}
			}
			e, err := a.Event(ctx, "cup")
			if err != nil {
				t.Fatal(err)
			}
			var in []string
			for _, p := range e.Players {
				in = append(in, p.Address)
			}
			if !slices.Equal(in, tc.joins) {
				t.Errorf("cup's players: %v; want %v (those within the limits)", in, tc.joins)
			}
		})
	}
}

// Issue 30: rating limits that could never apply, or bound nothing, are
// refused at creation with what to do instead.
func TestEventLimitsRefused(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	for _, tc := range []struct {
		spec EventSpec
		says string
	}{
		{EventSpec{Players: []string{"a@x.test", "b@x.test", "c@x.test"}, Limits: referee.RatingLimits{MinRating: 1400}},
			"this event takes no entries by mail (no --open N)"},
		{EventSpec{Open: 4, Limits: referee.RatingLimits{MinRating: 1800, MaxRating: 1600}}, "--min-rating 1800 is above --max-rating 1600"},
		{EventSpec{Open: 4, Limits: referee.RatingLimits{MinReliability: 1.5}}, "--min-reliability 150: a reliability is a percentage from 0 to 100"},
	} {
		tc.spec.Name, tc.spec.Variant, tc.spec.Format = "bad", "chess", "rr"
		_, err := a.CreateEvent(ctx, tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("CreateEvent(%+v) = %v; want an error saying %q", tc.spec.Limits, err, tc.says)
		}
	}
}
