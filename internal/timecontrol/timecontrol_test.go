package timecontrol

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestParseAndPrint: every form reads into its control and is written
// back in its canonical form, which reads as the same control; the words
// of mails and the PGN tag (standard §9.6.1: seconds) and comment follow.
func TestParseAndPrint(t *testing.T) {
	for _, tc := range []struct {
		in        string
		want      Control
		canonical string
		words     string
		tag       string
		comment   string
	}{
		{in: "3d", want: Control{PerMove: 3 * Day}, canonical: "3d",
			words: "3 days per move", tag: "1/259200"},
		{in: "1d", want: Control{PerMove: Day}, canonical: "1d",
			words: "1 day per move", tag: "1/86400"},
		{in: "10d+1d", want: Control{Initial: 10 * Day, Increment: Day}, canonical: "10d+1d",
			words: "10 days + 1 day a move, at most 10 days (10d+1d)", tag: "864000+86400",
			comment: "Time control 10d+1d: 10d 0h, 1d 0h added after each move, never more than 10d 0h."},
		{in: "3d+0d", want: Control{Initial: 3 * Day}, canonical: "3d+0d",
			words: "3 days + 0 days a move, at most 3 days (3d+0d)", tag: "259200+0",
			comment: "Time control 3d+0d: 3d 0h, none added after each move, never more than 3d 0h."},
		{in: "30d+1d/45d", want: Control{Initial: 30 * Day, Increment: Day, Cap: 45 * Day}, canonical: "30d+1d/45d",
			words: "30 days + 1 day a move, at most 45 days (30d+1d/45d)", tag: "2592000+86400",
			comment: "Time control 30d+1d/45d: 30d 0h, 1d 0h added after each move, never more than 45d 0h."},
		{in: "10d+1d/10d", want: Control{Initial: 10 * Day, Increment: Day, Cap: 10 * Day}, canonical: "10d+1d/10d",
			words: "10 days + 1 day a move, at most 10 days (10d+1d/10d)", tag: "864000+86400",
			comment: "Time control 10d+1d/10d: 10d 0h, 1d 0h added after each move, never more than 10d 0h."},
		{in: "10/50d", want: Control{Block: 10, Initial: 50 * Day}, canonical: "10/50d",
			words: "10 moves in 50 days, unused time carried over (10/50d)", tag: "10/4320000",
			comment: "Time control 10/50d: 10 moves in 50d 0h, again and again, unused time carried over."},
		{in: "2/3d", want: Control{Block: 2, Initial: 3 * Day}, canonical: "2/3d",
			words: "2 moves in 3 days, unused time carried over (2/3d)", tag: "2/259200",
			comment: "Time control 2/3d: 2 moves in 3d 0h, again and again, unused time carried over."},
		{in: "3d off sat,sun", want: Control{PerMove: 3 * Day, DaysOff: []time.Weekday{time.Saturday, time.Sunday}}, canonical: "3d off sat,sun",
			words: "3 days per move; the clock stops on Saturdays and Sundays (each player's own, in their time zone)", tag: "1/259200"},
		{in: "10/50d off sat,sun", want: Control{Block: 10, Initial: 50 * Day, DaysOff: []time.Weekday{time.Saturday, time.Sunday}},
			canonical: "10/50d off sat,sun",
			words:     "10 moves in 50 days, unused time carried over (10/50d); the clock stops on Saturdays and Sundays (each player's own, in their time zone)",
			tag:       "10/4320000",
			comment:   "Time control 10/50d off sat,sun: 10 moves in 50d 0h, again and again, unused time carried over."},
		// Case, spaces, full names, order and repeats do not matter; the
		// canonical form writes the days Monday first, by three letters.
		{in: "  2D+1D   OFF Sunday,fri,SAT,sun ", want: Control{Initial: 2 * Day, Increment: Day, DaysOff: []time.Weekday{time.Friday, time.Saturday, time.Sunday}},
			canonical: "2d+1d off fri,sat,sun",
			words:     "2 days + 1 day a move, at most 2 days (2d+1d); the clock stops on Fridays, Saturdays and Sundays (each player's own, in their time zone)",
			tag:       "172800+86400",
			comment:   "Time control 2d+1d off fri,sat,sun: 2d 0h, 1d 0h added after each move, never more than 2d 0h."},
		{in: "5d off wednes", want: Control{PerMove: 5 * Day, DaysOff: []time.Weekday{time.Wednesday}}, canonical: "5d off wed",
			words: "5 days per move; the clock stops on Wednesdays (each player's own, in their time zone)", tag: "1/432000"},
		{in: "010d+01d", want: Control{Initial: 10 * Day, Increment: Day}, canonical: "10d+1d",
			words: "10 days + 1 day a move, at most 10 days (10d+1d)", tag: "864000+86400",
			comment: "Time control 10d+1d: 10d 0h, 1d 0h added after each move, never more than 10d 0h."},
	} {
		c, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(c, tc.want) {
			t.Errorf("Parse(%q) = %+v; want %+v", tc.in, c, tc.want)
		}
		if got := c.String(); got != tc.canonical {
			t.Errorf("Parse(%q).String() = %q; want %q", tc.in, got, tc.canonical)
		}
		if again, err := Parse(c.String()); err != nil || !reflect.DeepEqual(again, c) {
			t.Errorf("%q does not read back: %+v, %v; want %+v", c.String(), again, err, c)
		}
		if got := c.Describe(); got != tc.words {
			t.Errorf("%q described as\n%q; want\n%q", tc.in, got, tc.words)
		}
		if got := c.PGNTag(); got != tc.tag {
			t.Errorf("%q: PGN TimeControl %q; want %q", tc.in, got, tc.tag)
		}
		if got := c.PGNComment(); got != tc.comment {
			t.Errorf("%q: PGN comment %q; want %q", tc.in, got, tc.comment)
		}
	}
}

// TestParseErrors: a control that cannot be read is refused with what
// was read, what is wrong and what to write instead.
func TestParseErrors(t *testing.T) {
	days := "; the controls are " + Syntax
	for _, tc := range []struct{ in, want string }{
		{"3x", `time control "3x": write days as a number with d` + days},
		{"3", `time control "3": write days as a number with d` + days},
		{"366d", `time control "366d": write days as a number with d` + days},
		{"-1d", `time control "-1d": write days as a number with d` + days},
		{"3 d", `time control "3 d": write days as a number with d` + days},
		{"0d", `time control "0d": give at least 1d per move`},
		{"0d+1d", `time control "0d+1d": the initial time must be at least 1d`},
		{"10d+1", `time control "10d+1": write days as a number with d` + days},
		{"30d+1d/45", `time control "30d+1d/45": write days as a number with d` + days},
		{"30d+1d/20d", `time control "30d+1d/20d": the cap 20d is less than the initial time 30d; give a cap of at least 30d`},
		{"0/50d", `time control "0/50d": "0" is not a number of moves from 1 to 200; write a block as e.g. 10/50d (10 moves in 50 days)`},
		{"201/50d", `time control "201/50d": "201" is not a number of moves from 1 to 200; write a block as e.g. 10/50d (10 moves in 50 days)`},
		{"x/50d", `time control "x/50d": "x" is not a number of moves from 1 to 200; write a block as e.g. 10/50d (10 moves in 50 days)`},
		{"10/0d", `time control "10/0d": give the block at least 1d`},
		{"10/50", `time control "10/50": write days as a number with d` + days},
		{"3d off", `time control "3d off": write days as a number with d` + days},
		{"3d off sat,xyz", `days off "sat,xyz": "xyz" is not a weekday; write e.g. "sat,sun"`},
		{"3d off sa", `days off "sa": "sa" is not a weekday; write e.g. "sat,sun"`},
		{"3d off saturdays", `days off "saturdays": "saturdays" is not a weekday; write e.g. "sat,sun"`},
		{"3d off mon,tue,wed,thu", `days off "mon,tue,wed,thu": give 1 to 3 weekdays, e.g. "sat,sun"`},
		// The days off are read first; then the control before them.
		{"3x off sat", `time control "3x": write days as a number with d` + days},
	} {
		c, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) = %+v; want the error %q", tc.in, c, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Parse(%q): %q\nwant %q", tc.in, err, tc.want)
		}
	}
}

// TestSyntaxExamplesRead: every control the syntax texts show as an
// example reads, is written back the same, and (without days off) is
// one word LooksLike knows.
func TestSyntaxExamplesRead(t *testing.T) {
	quoted := regexp.MustCompile(`"([^"]+)"`)
	examples := quoted.FindAllStringSubmatch(Syntax, -1)
	if len(examples) != 4 {
		t.Fatalf("Syntax has %d examples; want one per kind (4): %s", len(examples), Syntax)
	}
	for _, m := range examples {
		c, err := Parse(m[1])
		if err != nil {
			t.Errorf("the example %q in Syntax: %v", m[1], err)
			continue
		}
		if c.String() != m[1] {
			t.Errorf("the example %q in Syntax is written %q", m[1], c)
		}
		if !LooksLike(m[1]) {
			t.Errorf("LooksLike(%q) = false for an example of Syntax", m[1])
		}
	}
	for _, m := range quoted.FindAllStringSubmatch(DaysOffSyntax, -1) {
		if !strings.Contains(m[1], " off ") {
			continue // "off" itself
		}
		if c, err := Parse(m[1]); err != nil || c.String() != m[1] {
			t.Errorf("the example %q in DaysOffSyntax: %v, written %q", m[1], err, c)
		}
	}
}

// TestLooksLike: the shapes of controls, refused or not, are told from
// other words of a challenge (variants, colours, addresses).
func TestLooksLike(t *testing.T) {
	for _, w := range []string{"3d", "10d+1d", "30d+1d/45d", "10/50d", "0d", "0/50d", "999d"} {
		if !LooksLike(w) {
			t.Errorf("LooksLike(%q) = false; want true", w)
		}
	}
	for _, w := range []string{"", "d", "3", "3days", "10/50", "10d+", "10d/50d", "chess", "white", "bob@example.org", "3D", "3d off sat"} {
		if LooksLike(w) {
			t.Errorf("LooksLike(%q) = true; want false", w)
		}
	}
}

func TestSpan(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "none"},
		{-time.Hour, "none"},
		{time.Minute, "1h"},
		{7*time.Hour + 59*time.Minute, "7h"},
		{Day, "1d 0h"},
		{2*Day + 5*time.Hour + 30*time.Minute, "2d 5h"},
	} {
		if got := Span(tc.d); got != tc.want {
			t.Errorf("Span(%s) = %q; want %q", tc.d, got, tc.want)
		}
	}
}
