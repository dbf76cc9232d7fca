package timecontrol

import (
	"testing"
	"time"
)

func mustParse(t *testing.T, s string) Control {
	t.Helper()
	c, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAdvance: what a move does to a side's clock. Per move: nothing is
// kept. Fischer: the time used goes, the increment comes, up to the cap
// (the initial time unless one is given). Block: the moves are counted,
// and when a block is done the next block's time is added to what is left.
func TestAdvance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		control string
		from    Side
		used    time.Duration
		want    Side
	}{
		{"per move keeps nothing", "3d", Side{}, 2 * Day, Side{}},
		{"Fischer adds the increment", "10d+1d", Side{Left: 10 * Day}, 3 * Day, Side{Left: 8 * Day}},
		{"Fischer never over the initial time", "10d+1d", Side{Left: 10 * Day}, time.Hour, Side{Left: 10 * Day}},
		{"capped Fischer grows to the cap", "30d+1d/45d", Side{Left: 30 * Day}, time.Hour, Side{Left: 31*Day - time.Hour}},
		{"capped Fischer stops at the cap", "30d+1d/45d", Side{Left: 45 * Day}, time.Hour, Side{Left: 45 * Day}},
		{"Fischer past zero", "3d+1d", Side{Left: Day}, 2 * Day, Side{Left: 0}},
		{"block mid-way adds nothing", "2/10d", Side{Left: 10 * Day}, 3 * Day, Side{Left: 7 * Day, Moved: 1}},
		{"block done carries the rest over", "2/10d", Side{Left: 7 * Day, Moved: 1}, 3 * Day, Side{Left: 14 * Day, Moved: 2}},
		{"the next block counts from there", "2/10d", Side{Left: 14 * Day, Moved: 2}, 13 * Day, Side{Left: Day, Moved: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, tc.control)
			if got := c.Advance(tc.from, tc.used); got != tc.want {
				t.Errorf("%s: %+v after %s used = %+v; want %+v", tc.control, tc.from, tc.used, got, tc.want)
			}
		})
	}
}

// TestStartAllowanceMovesLeft: a side starts with the initial time (a
// per-move control keeps none, and gives each turn its time); a block
// clock counts down the moves of its current block.
func TestStartAllowanceMovesLeft(t *testing.T) {
	for _, tc := range []struct {
		control   string
		start     Side
		allowance time.Duration
	}{
		{"3d", Side{}, 3 * Day},
		{"10d+1d", Side{Left: 10 * Day}, 10 * Day},
		{"30d+1d/45d", Side{Left: 30 * Day}, 30 * Day},
		{"10/50d", Side{Left: 50 * Day}, 50 * Day},
	} {
		c := mustParse(t, tc.control)
		if got := c.Start(); got != tc.start {
			t.Errorf("%s: start %+v; want %+v", tc.control, got, tc.start)
		}
		if got := c.Allowance(c.Start()); got != tc.allowance {
			t.Errorf("%s: first allowance %s; want %s", tc.control, got, tc.allowance)
		}
	}
	block := mustParse(t, "10/50d")
	for moved, want := range map[int]int{0: 10, 1: 9, 9: 1, 10: 10, 23: 7} {
		if got := block.MovesLeft(Side{Moved: moved}); got != want {
			t.Errorf("10/50d after %d moves: %d left in the block; want %d", moved, got, want)
		}
	}
	if got := mustParse(t, "3d").MovesLeft(Side{Moved: 4}); got != 0 {
		t.Errorf("3d: %d moves left in a block; want 0 (no blocks)", got)
	}
}

// TestDaysOffAcrossSummerTime: Berlin leaves summer time on Sunday 25
// October 2026 at 03:00 CEST (01:00 UTC), so that Sunday is 25 hours
// long. The clock stops from midnight to midnight of the player's own
// calendar, whatever the length of the day.
func TestDaysOffAcrossSummerTime(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	at := func(month time.Month, day, hour int) time.Time {
		return time.Date(2026, month, day, hour, 0, 0, 0, berlin)
	}
	for _, tc := range []struct {
		name     string
		control  string
		from, to time.Time
		running  time.Duration // from from to to
		after    time.Time     // a day of clock time from from
	}{
		// Saturday 12:00 CEST to Monday 12:00 CET is 49 hours; the
		// 25-hour Sunday is off: 12 hours on Saturday, 12 on Monday.
		{"the long Sunday off", "1d off sun", at(10, 24, 12), at(10, 26, 12), 24 * time.Hour, at(10, 26, 12)},
		// Saturday off: 12 hours on Friday, then the day of clock time
		// ends 12 hours into the 25-hour Sunday, at 11:00 CET.
		{"the long Sunday on", "1d off sat", at(10, 23, 12), at(10, 25, 11), 24 * time.Hour, at(10, 25, 11)},
		// No days off: clock time is time, summer or not.
		{"no days off", "1d", at(10, 24, 12), at(10, 25, 11), 24 * time.Hour, at(10, 25, 11)},
		// Both weekend days off, from Friday noon: Friday's 12 hours,
		// then Monday's first 12.
		{"a weekend off", "1d off sat,sun", at(10, 23, 12), at(10, 26, 12), 24 * time.Hour, at(10, 26, 12)},
		// Starting on a day off: the clock waits for Monday.
		{"starting on a day off", "1d off sat,sun", at(10, 24, 20), at(10, 26, 6), 6 * time.Hour, at(10, 27, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, tc.control)
			if got := c.Running(tc.from, tc.to, berlin); got != tc.running {
				t.Errorf("running from %s to %s: %s; want %s", tc.from, tc.to, got, tc.running)
			}
			if got := c.After(tc.from, Day, berlin); !got.Equal(tc.after) {
				t.Errorf("a day of clock time from %s ends %s; want %s", tc.from, got.In(berlin), tc.after)
			}
			if got := c.Running(tc.from, c.After(tc.from, Day, berlin), berlin); got != Day {
				t.Errorf("Running to After(%s) = %s; want a day", tc.from, got)
			}
		})
	}
	if got := mustParse(t, "1d off sun").Running(at(10, 26, 12), at(10, 24, 12), berlin); got != 0 {
		t.Errorf("running backwards: %s; want 0", got)
	}
}

// TestDaysOffInTheirOwnZone: from Friday 20:00 UTC to Saturday 10:00 UTC
// with Saturdays and Sundays off, the clock runs 4 hours for a player in
// UTC (to midnight UTC) and 9 for one in New York (Friday 15:00 to
// midnight EST); a nil zone is UTC.
func TestDaysOffInTheirOwnZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	c := mustParse(t, "2d+1d off sat,sun")
	from, to := time.Date(2027, 1, 1, 20, 0, 0, 0, time.UTC), time.Date(2027, 1, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		loc  *time.Location
		want time.Duration
	}{{time.UTC, 4 * time.Hour}, {nil, 4 * time.Hour}, {ny, 9 * time.Hour}} {
		if got := c.Running(from, to, tc.loc); got != tc.want {
			t.Errorf("running in %v: %s; want %s", tc.loc, got, tc.want)
		}
	}
}

// TestDeadlineAndReminder: the deadline is the allowance of clock time
// after the turn began; the reminder comes when a quarter of it, or a
// day, is left, whichever is less.
func TestDeadlineAndReminder(t *testing.T) {
	turn := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC) // a Monday
	for _, tc := range []struct {
		name     string
		control  string
		side     Side
		deadline time.Time
		reminder time.Time
	}{
		{"per move: a quarter of 3 days is 18 hours", "3d", Side{}, turn.Add(3 * Day), turn.Add(3*Day - 18*time.Hour)},
		{"per move: a day of 10", "10d", Side{}, turn.Add(10 * Day), turn.Add(9 * Day)},
		{"Fischer: the time left counts", "10d+1d", Side{Left: 2 * Day}, turn.Add(2 * Day), turn.Add(2*Day - 12*time.Hour)},
		{"block: the block's time left", "10/50d", Side{Left: 14 * Day, Moved: 12}, turn.Add(14 * Day), turn.Add(13 * Day)},
		// Monday noon plus 5 days of clock time with the weekend off:
		// Monday's 12 hours, Tuesday to Friday, and Monday's next 12.
		{"days off move the deadline", "5d off sat,sun", Side{}, turn.Add(7 * Day), turn.Add(6 * Day)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, tc.control)
			if got := c.Deadline(turn, tc.side, time.UTC); !got.Equal(tc.deadline) {
				t.Errorf("deadline %s; want %s", got, tc.deadline)
			}
			if got := c.ReminderAt(turn, tc.side, nil); !got.Equal(tc.reminder) {
				t.Errorf("reminder %s; want %s", got, tc.reminder)
			}
		})
	}
}
