package timecontrol

import (
	"strings"
	"time"

	"referee/internal/lang"
)

// DescribeIn is Describe in p's language (issue 42): the opening mail and
// the lobby say the control in each reader's words. English, and a nil
// printer, get Describe itself.
func (c Control) DescribeIn(p *lang.Printer) string {
	if p.Code() == lang.English {
		return c.Describe()
	}
	days := func(d time.Duration) string { return p.Sprintf("%d days", wholeDays(d)) }
	var s string
	switch {
	case c.PerMove > 0:
		s = p.Sprintf("%s per move", days(c.PerMove))
	case c.Block > 0:
		s = p.Sprintf("%s %s, unused time carried over (%s)", p.Sprintf("%d moves", c.Block), p.Sprintf("in %d days", wholeDays(c.Initial)), c.written())
	default:
		s = p.Sprintf("%s + %s a move, at most %s (%s)", days(c.Initial), days(c.Increment), days(c.most()), c.written())
	}
	if len(c.DaysOff) == 0 {
		return s
	}
	names := make([]string, len(c.DaysOff))
	for i, d := range c.DaysOff {
		names[i] = weekdaysIn(p, d)
	}
	list := strings.Join(names, p.Sprintf(" and "))
	if n := len(names); n > 2 {
		list = strings.Join(names[:n-1], ", ") + p.Sprintf(" and ") + names[n-1]
	}
	return p.Sprintf("%s; the clock stops on %s (each player's own, in their time zone)", s, list)
}

// CarryIn is Carry in p's language.
func (c Control) CarryIn(p *lang.Printer) string {
	if p.Code() == lang.English {
		return c.Carry()
	}
	switch {
	case c.PerMove > 0:
		return p.Sprintf("Time not used on a move is not kept.")
	case c.Block > 0:
		return p.Sprintf("After every %s a side has played, %s more are added to what is left.", p.Sprintf("%d moves", c.Block), p.Sprintf("%d days", wholeDays(c.Initial)))
	}
	return p.Sprintf("Each move adds the increment, up to the most a clock may hold.")
}

// weekdaysIn is the day d of every week, as the days a clock stops on
// ("Saturdays"), in p's language.
func weekdaysIn(p *lang.Printer, d time.Weekday) string {
	switch d {
	case time.Monday:
		return p.Sprintf("Mondays")
	case time.Tuesday:
		return p.Sprintf("Tuesdays")
	case time.Wednesday:
		return p.Sprintf("Wednesdays")
	case time.Thursday:
		return p.Sprintf("Thursdays")
	case time.Friday:
		return p.Sprintf("Fridays")
	case time.Saturday:
		return p.Sprintf("Saturdays")
	}
	return p.Sprintf("Sundays")
}

// SyntaxText is Syntax in the reader's language (a test keeps the key
// equal to the constant).
func SyntaxText() lang.Text {
	return lang.M(`days per move ("3d"), Fischer ("10d+1d"), capped Fischer ("30d+1d/45d": 30 days, 1 more per move, never more than 45) or a block ("10/50d": 10 moves in 50 days, unused time carried over)`)
}

// fail is the error of a time control that does not read (Parse): a
// *lang.Error, its reason in each reader's language.
func fail(why lang.Text) error { return &lang.Error{Why: why} }
