package app

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/store"
)

// TestVacationBookedAheadAcrossTheYear: Carol, in Berlin, books leave on
// 1 December from 28 December for 10 days (4 days of 2026, 6 of 2027);
// her opponents are told at once. At most 3 periods may be booked, within
// the 30 days a year; a cancelled one frees its place. At midnight in
// Berlin on 28 December (23:00 UTC; Bob and Dan, in UTC, read "Sun 27
// Dec 23:00 UTC") the tick stops her clocks on its own
// and tells her opponents; the days count against each year's allowance.
func TestVacationBookedAheadAcrossTheYear(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{})
	clk.now = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	g1, err := a.NewTimedGame(ctx, "chess", "carol@example.org", "bob@example.org", nil, "30d")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.NewTimedGame(ctx, "chess", "dan@example.org", "carol@example.org", nil, "30d"); err != nil {
		t.Fatal(err)
	}
	n := 0
	want := func(body string, verdict referee.Verdict) {
		t.Helper()
		if p := send(t, a, &n, "carol@example.org", "", body); p.Verdict != verdict {
			t.Fatalf("%q: %s %s; want %s", body, p.Verdict, p.Detail, verdict)
		}
	}
	want("timezone Europe/Berlin", referee.Applied)
	want("vacation from 2026-12-28 10", referee.Applied)
	for _, to := range []string{"bob@example.org", "dan@example.org"} {
		if _, m := lastTo(t, a, to); !strings.Contains(squash(m.Text), "on vacation from Sun 27 Dec 23:00 UTC for 10 days") {
			t.Errorf("the notice to %s: %q", to, m.Text)
		}
	}
	want("vacation from 2027-03-01 5", referee.Applied)
	want("vacation from 2027-04-01 5", referee.Applied)
	want("vacation from 2027-05-01 5", referee.Rejected) // a fourth
	want("vacation from 2027-01-03 2", referee.Rejected) // overlaps the first
	var april int64
	err = a.Store().View(ctx, func(tx *store.Tx) error {
		bs, err := tx.Bookings("carol@example.org", clk.now)
		for _, b := range bs {
			if b.Start.After(time.Date(2027, 3, 15, 0, 0, 0, 0, time.UTC)) { // 1 April in Berlin
				april = b.ID
			}
		}
		return err
	})
	if err != nil || april == 0 {
		t.Fatalf("the April booking: %d, %v", april, err)
	}
	want("vacation cancel "+strconv.FormatInt(april, 10), referee.Applied)
	want("vacation from 2027-05-01 5", referee.Applied)
	// 2027: 6 + 5 + 5 booked; 15 more would be 31.
	want("vacation from 2027-07-01 15", referee.Rejected)
	want("vacation list", referee.Answered)
	if _, m := lastTo(t, a, "carol@example.org"); !strings.Contains(m.Text, "Mon 28 Dec 2026, 10 days, until Thu 7 Jan 2027 (booked)") {
		t.Errorf("vacation list:\n%s", m.Text)
	}

	deadline := func() time.Time {
		g, err := a.Game(ctx, g1.ID)
		if err != nil {
			t.Fatal(err)
		}
		at, _, _ := g.NextCheck()
		return at
	}
	before := deadline()
	clk.now = time.Date(2026, 12, 27, 22, 59, 0, 0, time.UTC) // 23:59 in Berlin
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := deadline(); !got.Equal(before) {
		t.Fatalf("the clock stopped before the vacation began: %s -> %s", before, got)
	}
	clk.now = time.Date(2026, 12, 27, 23, 0, 0, 0, time.UTC) // midnight in Berlin
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := deadline(); !got.Equal(before.Add(10 * referee.Day)) {
		t.Errorf("Carol's deadline in game #%d: %s; want 10 days later than %s", g1.ID, got, before)
	}
	if _, m := lastTo(t, a, "bob@example.org"); !strings.Contains(squash(m.Text), "White's booked vacation has begun") {
		t.Errorf("Bob was not told the vacation began:\n%s", m.Text)
	}
	err = a.Store().View(ctx, func(tx *store.Tx) error {
		for year, want := range map[int]int{2026: 4, 2027: 6} {
			got, err := tx.VacationDays("carol@example.org", year)
			if err != nil {
				return err
			}
			if got != want {
				t.Errorf("vacation days counted in %d: %d; want %d", year, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A second tick starts nothing again.
	if n, err := a.Tick(ctx); err != nil || n != 0 {
		t.Errorf("a second tick changed %d, %v; want nothing", n, err)
	}
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
