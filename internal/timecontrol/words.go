package timecontrol

import (
	"fmt"
	"strings"
	"time"
)

// Describe says the control in words, as mails and pages do: "3 days per
// move", "10 moves in 50 days, unused time carried over (10/50d)", "10
// days + 1 day a move, at most 10 days (10d+1d)", and the days off:
// "...; the clock stops on Saturdays and Sundays (each player's own, in
// their time zone)".
func (c Control) Describe() string {
	var s string
	switch {
	case c.PerMove > 0:
		s = plural(wholeDays(c.PerMove), "day") + " per move"
	case c.Block > 0:
		s = fmt.Sprintf("%s in %s, unused time carried over (%s)", plural(c.Block, "move"), plural(wholeDays(c.Initial), "day"), c.written())
	default:
		s = fmt.Sprintf("%s + %s a move, at most %s (%s)", plural(wholeDays(c.Initial), "day"), plural(wholeDays(c.Increment), "day"),
			plural(wholeDays(c.most()), "day"), c.written())
	}
	if len(c.DaysOff) == 0 {
		return s
	}
	names := make([]string, len(c.DaysOff))
	for i, d := range c.DaysOff {
		names[i] = d.String() + "s"
	}
	list := strings.Join(names, " and ")
	if n := len(names); n > 2 {
		list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return s + "; the clock stops on " + list + " (each player's own, in their time zone)"
}

// Carry says in a sentence what becomes of the time a side does not use:
// lost (per move), carried over into the next block, or kept with the
// increment added (Fischer).
func (c Control) Carry() string {
	switch {
	case c.PerMove > 0:
		return "Time not used on a move is not kept."
	case c.Block > 0:
		return fmt.Sprintf("After every %s a side has played, %d more days are added to what is left.", plural(c.Block, "move"), wholeDays(c.Initial))
	}
	return "Each move adds the increment, up to the most a clock may hold."
}

// PGNTag is the value of the PGN TimeControl tag (standard §9.6.1): "1/S"
// for S seconds per move, "N/S" for a block of N moves in S seconds, "I+N"
// for Fischer (its cap, which PGN cannot say, is in PGNComment), "?" for a
// control of no known kind.
func (c Control) PGNTag() string {
	secs := func(d time.Duration) int64 { return int64(d / time.Second) }
	switch {
	case c.PerMove > 0:
		return fmt.Sprintf("1/%d", secs(c.PerMove))
	case c.Block > 0:
		return fmt.Sprintf("%d/%d", c.Block, secs(c.Initial))
	case c.Initial > 0:
		return fmt.Sprintf("%d+%d", secs(c.Initial), secs(c.Increment))
	}
	return "?"
}

// PGNComment says what the PGN tag cannot, for the comment before a
// record's result: a block's carry-over, a Fischer clock's cap. It is ""
// for a control the tag says in full.
func (c Control) PGNComment() string {
	switch {
	case c.Block > 0:
		return fmt.Sprintf("Time control %s: %d moves in %s, again and again, unused time carried over.", c, c.Block, Span(c.Initial))
	case c.PerMove == 0 && c.Initial > 0:
		return fmt.Sprintf("Time control %s: %s, %s added after each move, never more than %s.", c, Span(c.Initial), Span(c.Increment), Span(c.most()))
	}
	return ""
}

// Span writes a stretch of clock time as status lines show it: "2d 5h",
// "7h" (at least "1h" while any is left), "none" when it is used up.
func Span(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	days, hours := int(d/Day), int((d%Day)/time.Hour)
	if days == 0 {
		return fmt.Sprintf("%dh", max(hours, 1))
	}
	return fmt.Sprintf("%dd %dh", days, hours)
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
