package app

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"referee/internal/referee"
	"referee/internal/rules"
)

// TestObserveEventFollowsLaterGames (issue 31): "observe cup" follows every
// game of a knockout, the second round's too, which start after it; a
// move in either round reaches the spectator; a player of the event who
// observes it gets no spectator mail of their own games; "unobserve 5" for
// a game of the event says to unobserve the event; "unobserve cup" ends it.
func TestObserveEventFollowsLaterGames(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{Observers: referee.ObserversOpen})
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "cup", Variant: "chess", Format: "ko", Players: entrants(4)}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "cup")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	const eve, p1 = "eve@example.net", "p01@example.org"
	for _, who := range []string{eve, p1} {
		if p := send(t, a, &n, who, "", "observe cup"); p.Verdict != referee.Applied {
			t.Fatalf("%s: observe cup: %+v", who, p)
		}
	}
	_, m := lastTo(t, a, eve)
	says(t, "the answer to observe cup", m, "You now observe the event cup")
	if p := send(t, a, &n, eve, "", "observe cup"); p.Verdict != referee.Rejected {
		t.Errorf("observe cup twice: %+v", p)
	}
	watched := func(id int64) []string {
		g, err := a.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g.Watchers
	}
	first := e.Games[0]
	if w := watched(first.GameID); !slices.Contains(w, eve) {
		t.Fatalf("game #%d of the event: watchers %q", first.GameID, w)
	}
	before, own := mailsTo(t, a, eve), mailsTo(t, a, p1)
	mustPlay(t, a, first.GameID, rules.White, "e4")
	if got := mailsTo(t, a, eve); got != before+1 {
		t.Errorf("after a move of round 1, eve has %d mails, want %d", got, before+1)
	}
	if got := mailsTo(t, a, p1); got != own+1 { // the board of their own game, as a player only
		t.Errorf("after a move in p01's own game, p01 has %d mails, want %d (one, as the player)", got, own+1)
	}

	// Round 1 ends; round 2 (the final) starts and is followed too.
	for _, g := range e.Games {
		res := "1-0"
		if g.Black < g.White {
			res = "0-1"
		}
		finish(t, a, g.GameID, res)
	}
	if e, err = a.Event(ctx, "cup"); err != nil {
		t.Fatal(err)
	}
	var final referee.EventGame
	for _, g := range e.Games {
		if g.Round == 2 {
			final = g
			break
		}
	}
	if final.GameID == 0 {
		t.Fatalf("no round 2 after round 1: %+v", e.Games)
	}
	if w := watched(final.GameID); !slices.Contains(w, eve) {
		t.Fatalf("the final (game #%d), started after observe: watchers %q", final.GameID, w)
	}
	before = mailsTo(t, a, eve)
	mustPlay(t, a, final.GameID, rules.White, "d4")
	if got := mailsTo(t, a, eve); got != before+1 {
		t.Errorf("after a move of the final, eve has %d mails, want %d", got, before+1)
	}
	if p := send(t, a, &n, eve, "", "unobserve "+strconv.FormatInt(final.GameID, 10)); p.Verdict != referee.Rejected {
		t.Errorf("unobserve of one game of an observed event: %+v", p)
	}
	_, m = lastTo(t, a, eve)
	says(t, "the refusal", m, `"unobserve cup"`)
	if p := send(t, a, &n, eve, "", "unobserve cup"); p.Verdict != referee.Applied {
		t.Fatalf("unobserve cup: %+v", p)
	}
	if w := watched(final.GameID); slices.Contains(w, eve) {
		t.Errorf("after unobserve cup the final's watchers %q", w)
	}
	if p := send(t, a, &n, eve, "", "unobserve cup"); p.Verdict != referee.Rejected {
		t.Errorf("unobserve cup twice: %+v", p)
	}
}

// TestObserveEventPolicyAndLimit: "observe EVENT" goes through the
// observer policy and the limit of games observed at once as "observe
// GAME" does: refused under --observers none; refused when the event's
// running games would pass MaxObserved.
func TestObserveEventPolicyAndLimit(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		lc   referee.LobbyConfig
		want referee.Verdict
		says string
	}{
		{"none", referee.LobbyConfig{Observers: referee.ObserversNone}, referee.Rejected, "lets no one observe"},
		{"limit", referee.LobbyConfig{Observers: referee.ObserversOpen, MaxObserved: 5}, referee.Rejected, "has 6 games running"},
		{"open", referee.LobbyConfig{Observers: referee.ObserversOpen, MaxObserved: 6}, referee.Applied, "Its running games: #1, #2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := openLobby(t, tt.lc)
			if _, err := a.CreateEvent(ctx, EventSpec{Name: "club", Variant: "chess", Format: "rr", Players: entrants(4)}); err != nil {
				t.Fatal(err)
			}
			if _, err := a.StartEvent(ctx, "club"); err != nil {
				t.Fatal(err)
			}
			n := 0
			if p := send(t, a, &n, "eve@example.net", "", "observe club"); p.Verdict != tt.want {
				t.Errorf("observe club: %+v, want %s", p, tt.want)
			}
			_, m := lastTo(t, a, "eve@example.net")
			says(t, "the answer", m, tt.says)
			if p := send(t, a, &n, "eve@example.net", "", "observe nosuch"); p.Verdict != referee.Rejected {
				t.Errorf("observe nosuch: %+v", p)
			}
		})
	}
}
