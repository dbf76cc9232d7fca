package timecontrol

import (
	"slices"
	"time"
)

// Side is one side's clock under a control. Left is the time it has
// (Fischer and block clocks; a per-move control gives each move the same
// time and keeps none), Moved the moves it has made under a block clock.
type Side struct {
	Left  time.Duration
	Moved int
}

// Start is each side's clock when a game begins: the initial time, or
// nothing kept under a per-move control.
func (c Control) Start() Side {
	if c.PerMove > 0 {
		return Side{}
	}
	return Side{Left: c.Initial}
}

// Allowance is the clock time a side with clock s has for its turn.
func (c Control) Allowance(s Side) time.Duration {
	if c.PerMove > 0 {
		return c.PerMove
	}
	return s.Left
}

// Advance is s after a move that took used of clock time (Running from
// the start of the turn to the move). A per-move clock keeps nothing. A
// block clock counts the move and, when a block is done, adds the next
// block's time to what is left of this one. A Fischer clock adds the
// increment, up to the cap.
func (c Control) Advance(s Side, used time.Duration) Side {
	if c.PerMove > 0 {
		return s
	}
	s.Left -= used
	if c.Block > 0 {
		s.Moved++
		if s.Moved%c.Block == 0 {
			s.Left += c.Initial
		}
	} else {
		s.Left = min(s.Left+c.Increment, c.most())
	}
	return s
}

// MovesLeft is how many moves are left in a block clock's current block
// (0 for other controls).
func (c Control) MovesLeft(s Side) int {
	if c.Block == 0 {
		return 0
	}
	return c.Block - s.Moved%c.Block
}

// most is the most time a Fischer clock may hold.
func (c Control) most() time.Duration {
	if c.Cap > 0 {
		return c.Cap
	}
	return c.Initial
}

// Running is the clock time that passes from a to b for a player in loc
// (UTC when nil): all of it, less the days off, counted from midnight to
// midnight in loc (a day is 23 or 25 hours long when summer time begins
// or ends).
func (c Control) Running(a, b time.Time, loc *time.Location) time.Duration {
	if !b.After(a) {
		return 0
	}
	if len(c.DaysOff) == 0 {
		return b.Sub(a)
	}
	loc = orUTC(loc)
	var d time.Duration
	for t := a; t.Before(b); {
		end := nextMidnight(t, loc)
		if end.After(b) {
			end = b
		}
		if !c.off(t.In(loc).Weekday()) {
			d += end.Sub(t)
		}
		t = end
	}
	return d
}

// After is the moment when d of clock time has run from a, for a player
// in loc (UTC when nil): d later, plus the days off on the way.
func (c Control) After(a time.Time, d time.Duration, loc *time.Location) time.Time {
	if len(c.DaysOff) == 0 {
		return a.Add(d)
	}
	loc = orUTC(loc)
	for t := a; ; {
		next := nextMidnight(t, loc)
		if !c.off(t.In(loc).Weekday()) {
			seg := next.Sub(t)
			if d <= seg {
				return t.Add(d)
			}
			d -= seg
		}
		t = next
	}
}

// Deadline is when a side with clock s, whose turn began at turnStart,
// runs out of time, in loc's calendar (UTC when nil).
func (c Control) Deadline(turnStart time.Time, s Side, loc *time.Location) time.Time {
	return c.After(turnStart, c.Allowance(s), loc)
}

// ReminderAt is when that side is reminded of its turn: when a quarter of
// its time, or a day, is left, whichever is less.
func (c Control) ReminderAt(turnStart time.Time, s Side, loc *time.Location) time.Time {
	return c.Deadline(turnStart, s, loc).Add(-min(c.Allowance(s)/4, Day))
}

// off reports whether the clocks stop on weekday d.
func (c Control) off(d time.Weekday) bool {
	return slices.Contains(c.DaysOff, d)
}

// nextMidnight is the start of the calendar day after t's in loc.
func nextMidnight(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, loc)
}

func orUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}
