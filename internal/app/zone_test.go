package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"referee/internal/letters"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// TestTimezoneIsStoredPerPlayer: "timezone Europe/Berlin" sent in one
// game is the player's setting for all their games: the reminder of
// another game, after summer time ended, gives the deadline in CET.
func TestTimezoneIsStoredPerPlayer(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	clk.now = time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC)
	g1, err := a.NewTimedGame(ctx, "chess", "carol@example.org", "bob@example.org", nil, "3d")
	if err != nil {
		t.Fatal(err)
	}
	g2, err := a.NewTimedGame(ctx, "chess", "carol@example.org", "dan@example.org", nil, "3d")
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Process(ctx, moveMail(a, g1, rules.White, clk.now.Format(time.RFC1123Z), "timezone Europe/Berlin"), 0, 0)
	if err != nil || p.Verdict != referee.Applied {
		t.Fatalf("timezone: %+v %v", p, err)
	}
	g2, err = a.Game(ctx, g2.ID)
	if err != nil || g2.Players[rules.White].Zone != "Europe/Berlin" || g2.Players[rules.Black].Zone != "" {
		t.Fatalf("game #%d's players' zones: %q, %q, %v; want Carol's Europe/Berlin and Dan's none", g2.ID,
			g2.Players[rules.White].Zone, g2.Players[rules.Black].Zone, err)
	}
	clk.now = time.Date(2026, 10, 25, 18, 0, 0, 0, time.UTC) // the reminder of both games is due
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := a.Store().Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reminders := 0
	for _, o := range out {
		if o.Kind != "reminder" {
			continue
		}
		m, err := letters.Decode(o.Data)
		if err != nil {
			t.Fatal(err)
		}
		reminders++
		if !strings.Contains(m.Board.Headline, "(Mon 26 Oct 13:00 CET)") {
			t.Errorf("reminder to %s: %q; want the deadline in Berlin's winter time", o.To, m.Board.Headline)
		}
	}
	if reminders != 2 {
		t.Errorf("%d reminders; want one in each game", reminders)
	}
}

// TestTimezoneMovesTheDeadlineOfDaysOff: in a game with days off, the
// stored deadline (which the tick reads) follows the player's new zone.
func TestTimezoneMovesTheDeadlineOfDaysOff(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	clk.now = time.Date(2027, 1, 2, 3, 0, 0, 0, time.UTC) // Saturday in UTC, still Friday evening in New York
	g, err := a.NewTimedGame(ctx, "chess", "carol@example.org", "bob@example.org", nil, "1d off sat,sun")
	if err != nil {
		t.Fatal(err)
	}
	stored := func() time.Time {
		t.Helper()
		var d time.Time
		err := a.Store().View(ctx, func(tx *store.Tx) error {
			sg, err := tx.Game(g.ID)
			if err == nil && sg.Deadline != nil {
				d = *sg.Deadline
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	before := stored()
	if p, err := a.Process(ctx, moveMail(a, g, rules.White, clk.now.Format(time.RFC1123Z), "timezone America/New_York"), 0, 0); err != nil || p.Verdict != referee.Applied {
		t.Fatalf("timezone: %+v %v", p, err)
	}
	g, err = a.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := g.NextCheck()
	if got := stored(); !got.Equal(want) || got.Equal(before) {
		t.Errorf("stored deadline %s (before the zone: %s); want %s, as the clock in New York says", got, before, want)
	}
}
