package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// actAt is act at a given time of the fake clock.
func actAt(t *testing.T, r *Referee, g *Game, c rules.Color, action string, now time.Time) Outcome {
	t.Helper()
	m := &reader.Mail{From: g.Players[c].Address, MessageID: "<m" + action + now.String() + "@x>", Action: action,
		Token: &reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}}
	out := r.Handle(Inbound{Mail: m}, g, Env{Now: now})
	if out.Game != nil {
		*g = *out.Game
	}
	return out
}

// checkNextCheck: NextCheck is exact: Tick changes nothing a second
// before it, and acts at it.
func checkNextCheck(t *testing.T, r *Referee, g *Game) time.Time {
	t.Helper()
	at, ok, err := g.NextCheck()
	if err != nil || !ok {
		t.Fatalf("NextCheck: %v %v", ok, err)
	}
	if out := r.Tick(g, at.Add(-time.Second)); out.Game != nil {
		t.Errorf("Tick acted a second before NextCheck (%s): %s", at, out.Detail)
	}
	if out := r.Tick(g, at); out.Game == nil {
		t.Errorf("Tick did nothing at NextCheck (%s)", at)
	}
	return at
}

func TestParseTimeControls(t *testing.T) {
	for _, tc := range []struct {
		in, tag, words string
	}{
		{"3d", "1/259200", "3 days per move"},
		{"10d+1d", "864000+86400", "10 days + 1 day a move, at most 10 days (10d+1d)"},
		{"30d+1d/45d", "2592000+86400", "30 days + 1 day a move, at most 45 days (30d+1d/45d)"},
		{"10/50d", "10/4320000", "10 moves in 50 days, unused time carried over (10/50d)"},
		{"10/50d off sat,sun", "10/4320000", "10 moves in 50 days, unused time carried over (10/50d); " +
			"the clock stops on Saturdays and Sundays (each player's own, in their time zone)"},
	} {
		c, err := ParseTimeControl(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := timeControlTag(c); got != tc.tag {
			t.Errorf("%q: PGN TimeControl %q; want %q", tc.in, got, tc.tag)
		}
		if got := c.Describe(); got != tc.words {
			t.Errorf("%q: described as %q; want %q", tc.in, got, tc.words)
		}
	}
	for _, bad := range []string{"30d+1d/20d", "0/50d", "10/0d", "10/50", "x/50d", "30d+1d/45"} {
		if c, err := ParseTimeControl(bad); err == nil {
			t.Errorf("time control %q accepted: %+v", bad, c)
		}
	}
}

// TestBlockClockCarriesUnusedTimeOver: ICCF's 10 moves in 50 days, here 2
// moves in 10 days to keep it short. White uses 3 days for each of its
// first two moves: the 4 days left carry over, so the second block has 14
// days; a third move after 13 days is in time, the reminder and the loss
// come when the block's time is out, and NextCheck says when exactly.
func TestBlockClockCarriesUnusedTimeOver(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c, err := ParseTimeControl("2/10d")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnStart = t0
	g.State.Clock = c
	now := t0
	moves := []string{"e4", "e5", "Nf3", "Nc6"}
	for i, mv := range moves {
		if i%2 == 0 {
			now = now.Add(3 * Day) // White thinks 3 days
		} else {
			now = now.Add(time.Hour)
		}
		if out := actAt(t, r, g, rules.Color(i%2), mv, now); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", mv, out.Verdict, out.Detail)
		}
	}
	if got, want := g.State.Clock.Left[rules.White], 14*Day; got != want {
		t.Fatalf("White's time after the first block: %s; want %s (4 days carried over + 10)", got, want)
	}
	pos, _ := g.Position()
	if text := g.State.Clock.text(pos.Turn(), now); !strings.Contains(text, "White 14d 0h for 2 moves") {
		t.Errorf("status line: %q; want White's 14 days for 2 moves", text)
	}
	// White's turn: the reminder at a day before the end, the loss at 14 days.
	deadline := now.Add(14 * Day)
	if at := checkNextCheck(t, r, g); !at.Equal(deadline.Add(-Day)) {
		t.Errorf("the reminder's NextCheck %s; want a day before %s", at, deadline)
	}
	out := r.Tick(g, deadline.Add(-Day))
	*g = *out.Game
	if at := checkNextCheck(t, r, g); !at.Equal(deadline) {
		t.Errorf("the loss's NextCheck %s; want %s", at, deadline)
	}
	if out := actAt(t, r, g, rules.White, "Bb5", deadline.Add(-time.Hour)); out.Verdict != Applied {
		t.Fatalf("a move within the carried-over time: %v %s", out.Verdict, out.Detail)
	}
	if got, want := g.State.Clock.Left[rules.White], time.Hour; got != want {
		t.Errorf("White's time after Bb5: %s; want %s (mid-block, nothing added)", got, want)
	}
}

// TestCappedFischer: SchemingMind's 30 days + 1 a move, at most 45, here
// 3d+1d/4d: quick moves gain a day each until the cap.
func TestCappedFischer(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c, err := ParseTimeControl("3d+1d/4d")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnStart = t0
	g.State.Clock = c
	now := t0
	for _, mv := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5"} {
		now = now.Add(time.Hour)
		if out := actAt(t, r, g, g.mustTurn(t), mv, now); out.Verdict != Applied {
			t.Fatalf("%s: %v %s", mv, out.Verdict, out.Detail)
		}
	}
	if got, want := g.State.Clock.Left[rules.White], 4*Day; got != want {
		t.Errorf("White's time after 3 quick moves: %s; want the cap, %s", got, want)
	}
	if got, want := g.State.Clock.Left[rules.Black], 4*Day; got != want {
		t.Errorf("Black's time after 2 quick moves: %s; want the cap, %s", got, want)
	}
	checkNextCheck(t, r, g)
	rec, err := r.Record(g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Comment, "never more than 4d 0h") {
		t.Errorf("the record's comment %q does not name the cap", rec.Comment)
	}
}

func (g *Game) mustTurn(t *testing.T) rules.Color {
	t.Helper()
	c, err := g.turn()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDaysOffInThePlayersZoneAcrossTheYear: "2d off sat,sun" for a
// player in New York whose turn starts on Thursday 31 December 2026 at
// 07:00 EST. The clock runs 17 hours that Thursday and 24 on Friday 1
// January 2027, stops on Saturday and Sunday in New York, and the last 7
// hours run out on Monday 4 January at 07:00 EST (12:00 UTC). A move on
// Monday at 06:00 EST used 47 hours of a Fischer 2d+1d, so 25 are left.
func TestDaysOffInThePlayersZoneAcrossTheYear(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	g.Players[rules.White].Zone = "America/New_York"
	turn := time.Date(2026, 12, 31, 12, 0, 0, 0, time.UTC)
	c, err := ParseTimeControl("2d+1d off sat,sun")
	if err != nil {
		t.Fatal(err)
	}
	c.TurnStart = turn
	g.State.Clock = c
	want := time.Date(2027, 1, 4, 12, 0, 0, 0, time.UTC)
	if got := g.clock().Deadline(rules.White); !got.Equal(want) {
		t.Errorf("deadline %s; want %s (Monday 07:00 in New York)", got, want)
	}
	// Each player's own days: from Friday 1 January 20:00 UTC to Saturday
	// 10:00 UTC, the clock runs 4 hours for a player in UTC (to midnight
	// UTC) and 9 for one in New York (Friday 15:00 to midnight EST).
	from, to := time.Date(2027, 1, 1, 20, 0, 0, 0, time.UTC), time.Date(2027, 1, 2, 10, 0, 0, 0, time.UTC)
	if got := c.running(from, to, time.UTC); got != 4*time.Hour {
		t.Errorf("running in UTC: %s; want 4h", got)
	}
	if got := c.running(from, to, zoneLocation("America/New_York")); got != 9*time.Hour {
		t.Errorf("running in New York: %s; want 9h", got)
	}
	checkNextCheck(t, r, g)
	if out := actAt(t, r, g, rules.White, "e4", time.Date(2027, 1, 4, 11, 0, 0, 0, time.UTC)); out.Verdict != Applied {
		t.Fatalf("e4: %v %s", out.Verdict, out.Detail)
	}
	if got, want := g.State.Clock.Left[rules.White], 25*time.Hour; got != want {
		t.Errorf("White's time after e4: %s; want %s (47h used, 1d added)", got, want)
	}
	if !strings.Contains(g.State.Clock.Describe(), "the clock stops on Saturdays and Sundays") {
		t.Errorf("description %q does not name the days off", g.State.Clock.Describe())
	}
	// Whose weekend: a turn starting on Saturday 2 January at 03:00 UTC
	// (Friday 22:00 in New York) runs 2 hours on Friday for White in New
	// York, whose 46 hours left run from Monday 00:00 EST (05:00 UTC):
	// Wednesday 6 January 03:00 UTC. For Black, in UTC, it is already
	// the weekend: 48 hours from Monday 00:00 UTC, Wednesday 00:00 UTC.
	c2, err := ParseTimeControl("2d off sat,sun")
	if err != nil {
		t.Fatal(err)
	}
	c2.TurnStart = time.Date(2027, 1, 2, 3, 0, 0, 0, time.UTC)
	g.State.Clock = c2
	for side, want := range map[rules.Color]time.Time{
		rules.White: time.Date(2027, 1, 6, 3, 0, 0, 0, time.UTC),
		rules.Black: time.Date(2027, 1, 6, 0, 0, 0, 0, time.UTC),
	} {
		if got := g.clock().Deadline(side); !got.Equal(want) {
			t.Errorf("%s's deadline from Saturday 03:00 UTC: %s; want %s", side, got, want)
		}
	}
	for _, bad := range []string{"3d off", "3d off sat,xyz", "3d off mon,tue,wed,thu"} {
		if _, err := ParseTimeControl(bad); err == nil {
			t.Errorf("time control %q accepted", bad)
		}
	}
}

// TestTickActsOnlyOnRunningClocks: the minute's tick and the stored
// deadline (NextCheck) concern only a game in play with a clock: a game
// without one, a finished game and an aborted one are never reminded or
// lost on time, however late it is; in play, NextCheck follows the side to
// act after each move.
func TestTickActsOnlyOnRunningClocks(t *testing.T) {
	start := time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)
	late := start.AddDate(1, 0, 0)
	timed := func(t *testing.T) (*Referee, *Game) {
		r, g := newGame(t, rules.Chess())
		c, err := ParseTimeControl("3d")
		if err != nil {
			t.Fatal(err)
		}
		c.TurnStart = start
		g.State.Clock = c
		return r, g
	}
	t.Run("untimed", func(t *testing.T) {
		r, g := newGame(t, rules.Chess())
		if _, ok, err := g.NextCheck(); ok || err != nil {
			t.Errorf("NextCheck of an untimed game: ok %v, %v", ok, err)
		}
		if out := r.Tick(g, late); out.Game != nil || len(out.Mails) > 0 {
			t.Errorf("Tick acted on an untimed game: %s", out.Detail)
		}
	})
	for _, end := range []struct {
		name string
		set  func(*Game)
	}{
		{"finished", func(g *Game) { g.Status, g.Result = StatusFinished, "1/2-1/2" }},
		{"aborted", func(g *Game) { g.Status = StatusAborted }},
	} {
		t.Run(end.name, func(t *testing.T) {
			r, g := timed(t)
			end.set(g)
			if _, ok, err := g.NextCheck(); ok || err != nil {
				t.Errorf("NextCheck: ok %v, %v; want no check", ok, err)
			}
			if out := r.Tick(g, late); out.Game != nil || len(out.Mails) > 0 {
				t.Errorf("Tick acted a year after the deadline: %s", out.Detail)
			}
		})
	}
	t.Run("in play", func(t *testing.T) {
		r, g := timed(t)
		// 3 days a move: White is reminded when a quarter (18 hours) is left.
		if at, ok, err := g.NextCheck(); !ok || err != nil || !at.Equal(start.Add(54*time.Hour)) {
			t.Errorf("White's NextCheck: %s %v %v; want %s", at, ok, err, start.Add(54*time.Hour))
		}
		moved := start.Add(time.Hour)
		if out := actAt(t, r, g, rules.White, "e4", moved); out.Verdict != Applied {
			t.Fatalf("e4: %v %s", out.Verdict, out.Detail)
		}
		if at, ok, err := g.NextCheck(); !ok || err != nil || !at.Equal(moved.Add(54*time.Hour)) {
			t.Errorf("Black's NextCheck after e4: %s %v %v; want %s", at, ok, err, moved.Add(54*time.Hour))
		}
		checkNextCheck(t, r, g)
	})
}
