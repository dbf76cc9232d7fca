// Package timecontrol holds the time controls of correspondence play: how
// they are written ("3d", "10d+1d", "30d+1d/45d", "10/50d", "3d off
// sat,sun"), how they are said in words and in a PGN tag, and how a clock
// under one runs: what a move adds, which days it stops on, when a side's
// time runs out and when it is reminded. It is pure: it knows nothing of
// mail, storage or the rules of any game. The caller passes the instants,
// the player's time zone and each side's clock.
package timecontrol

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"referee/internal/lang"
)

// Day is the unit of correspondence time controls.
const Day = 24 * time.Hour

// Syntax says how time controls are written, for help texts and errors:
// every text that tells a player or an organiser how to write one uses
// it, so that it is written out once.
const Syntax = `days per move ("3d"), Fischer ("10d+1d"), capped Fischer ("30d+1d/45d": 30 days, 1 more per move, never more than 45) or a block ("10/50d": 10 moves in 50 days, unused time carried over)`

// DaysOffSyntax says how days off are added to a time control, for help
// texts where a whole control is written (not in a mail's challenge,
// where a time is one word).
const DaysOffSyntax = `a control may end in "off" and 1 to 3 weekdays ("3d off sat,sun"): the clocks stop on those days, each player's in their own time zone`

// Control is a time control: how much time a side has, and how it grows.
// Exactly one kind is set: PerMove, Block (with Initial), or Fischer
// (Initial, Increment and perhaps Cap). The JSON names are those games
// have stored their clocks under since the first time control.
type Control struct {
	// PerMove is the time for each move; time not used is not kept.
	PerMove time.Duration `json:"per_move,omitempty"`
	// Initial is a Fischer clock's starting time (also its cap, unless
	// Cap), or the time of each block of a block clock.
	Initial time.Duration `json:"initial,omitempty"`
	// Increment is added to a Fischer clock after each move.
	Increment time.Duration `json:"increment,omitempty"`
	// Cap is the most a capped Fischer clock holds (0: Initial).
	Cap time.Duration `json:"cap,omitempty"`
	// Block is a block clock's number of moves per block.
	Block int `json:"block,omitempty"`
	// DaysOff are the weekdays on which the clocks do not run, Monday
	// first; each player's days in their own time zone.
	DaysOff []time.Weekday `json:"days_off,omitempty"`
}

// Parse reads a time control: "3d" (three days per move), "10d+1d"
// (Fischer: ten days, one more per move, never more than ten),
// "30d+1d/45d" (capped Fischer: thirty days, one more per move, never more
// than forty-five) or "10/50d" (a block clock, as ICCF plays: ten moves in
// fifty days, then the next ten in fifty more, unused time carried over),
// each perhaps followed by "off" and 1 to 3 weekdays ("3d off sat,sun").
// Case and runs of spaces do not matter.
func Parse(s string) (Control, error) {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	if ctl, off, ok := strings.Cut(s, " off "); ok {
		days, err := parseDaysOff(off)
		if err != nil {
			return Control{}, err
		}
		c, err := Parse(ctl)
		if err != nil {
			return Control{}, err
		}
		c.DaysOff = days
		return c, nil
	}
	days := func(x string) (time.Duration, error) {
		n, err := strconv.Atoi(strings.TrimSuffix(x, "d"))
		if err != nil || n < 0 || n > 365 || !strings.HasSuffix(x, "d") {
			return 0, fail(lang.M("time control %q: write days as a number with d; the controls are %s", s, SyntaxText()))
		}
		return time.Duration(n) * Day, nil
	}
	if a, b, ok := strings.Cut(s, "+"); ok {
		ini, err := days(a)
		if err != nil {
			return Control{}, err
		}
		inc, capText, capped := strings.Cut(b, "/")
		incd, err := days(inc)
		if err != nil {
			return Control{}, err
		}
		if ini == 0 {
			return Control{}, fail(lang.M("time control %q: the initial time must be at least 1d", s))
		}
		c := Control{Initial: ini, Increment: incd}
		if capped {
			cp, err := days(capText)
			if err != nil {
				return Control{}, err
			}
			if cp < ini {
				return Control{}, fail(lang.M("time control %q: the cap %s is less than the initial time %s; give a cap of at least %dd", s, capText, a, int(ini/Day)))
			}
			c.Cap = cp
		}
		return c, nil
	}
	if n, d, ok := strings.Cut(s, "/"); ok {
		moves, err := strconv.Atoi(n)
		if err != nil || moves < 1 || moves > 200 {
			return Control{}, fail(lang.M("time control %q: %q is not a number of moves from 1 to 200; write a block as e.g. 10/50d (10 moves in 50 days)", s, n))
		}
		per, err := days(d)
		if err != nil {
			return Control{}, err
		}
		if per == 0 {
			return Control{}, fail(lang.M("time control %q: give the block at least 1d", s))
		}
		return Control{Block: moves, Initial: per}, nil
	}
	per, err := days(s)
	if err != nil {
		return Control{}, err
	}
	if per == 0 {
		return Control{}, fail(lang.M("time control %q: give at least 1d per move", s))
	}
	return Control{PerMove: per}, nil
}

var weekdays = map[string]time.Weekday{"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday}

// parseDaysOff reads "sat,sun": at most 3 weekdays, by their first three
// letters or full English names.
func parseDaysOff(s string) ([]time.Weekday, error) {
	var out []time.Weekday
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(strings.ToLower(w))
		if len(w) >= 3 {
			if d, ok := weekdays[w[:3]]; ok && strings.HasPrefix(strings.ToLower(d.String()), w) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
				continue
			}
		}
		return nil, fail(lang.M("days off %q: %q is not a weekday; write e.g. \"sat,sun\"", s, w))
	}
	if len(out) == 0 || len(out) > 3 {
		return nil, fail(lang.M("days off %q: give 1 to 3 weekdays, e.g. \"sat,sun\"", s))
	}
	slices.SortFunc(out, func(a, b time.Weekday) int { return mondayFirst(a) - mondayFirst(b) })
	return out, nil
}

// mondayFirst numbers the weekdays from Monday (0) to Sunday (6).
func mondayFirst(d time.Weekday) int { return (int(d) + 6) % 7 }

// word is what LooksLike accepts: the shapes of the controls, without
// their days off.
var word = regexp.MustCompile(`^([0-9]+d(\+[0-9]+d(/[0-9]+d)?)?|[0-9]+/[0-9]+d)$`)

// LooksLike reports whether a single word is written as a time control
// ("3d", "10d+1d", "30d+1d/45d", "10/50d"; lower case, no days off), for
// a reader of several kinds of words that must tell a control Parse
// refuses ("0/50d") from a word of another kind.
func LooksLike(w string) bool { return word.MatchString(w) }

// String writes the control as Parse reads it, in its canonical form:
// "3d", "10d+1d", "30d+1d/45d", "10/50d", "3d off sat,sun".
func (c Control) String() string {
	s := c.written()
	if len(c.DaysOff) > 0 {
		names := make([]string, len(c.DaysOff))
		for i, d := range c.DaysOff {
			names[i] = strings.ToLower(d.String()[:3])
		}
		s += " off " + strings.Join(names, ",")
	}
	return s
}

// written is the control without its days off.
func (c Control) written() string {
	switch {
	case c.PerMove > 0:
		return fmt.Sprintf("%dd", wholeDays(c.PerMove))
	case c.Block > 0:
		return fmt.Sprintf("%d/%dd", c.Block, wholeDays(c.Initial))
	case c.Cap > 0:
		return fmt.Sprintf("%dd+%dd/%dd", wholeDays(c.Initial), wholeDays(c.Increment), wholeDays(c.Cap))
	}
	return fmt.Sprintf("%dd+%dd", wholeDays(c.Initial), wholeDays(c.Increment))
}

// wholeDays is d in whole days.
func wholeDays(d time.Duration) int { return int(d / Day) }
