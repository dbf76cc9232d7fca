// Package pace keeps the outbox under a mailbox's sending limits: a
// provider allows at most N mails in any window of some length (Google
// Workspace: 2,000 a day), and a mail over the limit is refused, or the
// mailbox is suspended. The functions here are pure: given the times of
// the mails sent lately, they say when the next mail may go and when a
// queue of n mails will have drained.
package pace

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Limit allows at most N mails in any window of length Per: a mail may go
// at t when fewer than N mails went in (t-Per, t].
type Limit struct {
	N   int
	Per time.Duration
}

// String writes the limit as Parse reads it: "100/hour", "2000/day",
// "30/10m".
func (l Limit) String() string {
	for _, u := range units {
		if l.Per == u.d {
			return fmt.Sprintf("%d/%s", l.N, u.name)
		}
	}
	return fmt.Sprintf("%d/%s", l.N, l.Per)
}

var units = []struct {
	name string
	d    time.Duration
}{{"day", 24 * time.Hour}, {"hour", time.Hour}, {"minute", time.Minute}, {"second", time.Second}}

// Parse reads limits such as "2000/day,100/hour": a comma-separated list
// of N/PERIOD, where PERIOD is day, hour, minute (also d, h, min, m) or a
// Go duration ("24h", "10m"). An empty string means no limit.
func Parse(s string) ([]Limit, error) {
	var out []Limit
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		ns, per, ok := strings.Cut(part, "/")
		if !ok {
			return nil, fmt.Errorf("sending limit %q: write it as N/PERIOD, e.g. \"2000/day\" or \"100/hour\"", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(ns))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("sending limit %q: %q is not a number of mails (1 or more); write it as N/PERIOD, e.g. \"100/hour\"", part, ns)
		}
		d, err := period(strings.TrimSpace(per))
		if err != nil {
			return nil, fmt.Errorf("sending limit %q: %w", part, err)
		}
		out = append(out, Limit{N: n, Per: d})
	}
	return out, nil
}

func period(s string) (time.Duration, error) {
	switch strings.ToLower(s) {
	case "day", "d", "24h":
		return 24 * time.Hour, nil
	case "hour", "h":
		return time.Hour, nil
	case "minute", "min", "m":
		return time.Minute, nil
	case "second", "sec", "s":
		return time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a period: use day, hour, minute or a duration such as 24h or 10m", s)
	}
	return d, nil
}

// Format writes limits as Parse reads them.
func Format(ls []Limit) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.String()
	}
	return strings.Join(parts, ",")
}

// Spread adds to each limit N/Per a tenth of it, N/10 per Per/10 (at least
// 1): under "100/hour" the outbox sends at most 10 mails in any 6 minutes,
// so a backlog goes out evenly rather than in one burst each hour (which
// providers read as a spammer's pattern), while up to a tenth of the limit
// still goes out at once.
func Spread(ls []Limit) []Limit {
	out := slices.Clone(ls)
	for _, l := range ls {
		if l.N >= 10 {
			out = append(out, Limit{N: l.N / 10, Per: l.Per / 10})
		}
	}
	return out
}

// Scale returns ls with each N multiplied by factor (at least 1 mail per
// window): the pace after a server said "too many messages".
func Scale(ls []Limit, factor float64) []Limit {
	out := make([]Limit, len(ls))
	for i, l := range ls {
		n := int(float64(l.N) * factor)
		out[i] = Limit{N: max(1, n), Per: l.Per}
	}
	return out
}

// Longest is the longest window of ls (0 for none): sends older than that
// no longer count.
func Longest(ls []Limit) time.Duration {
	var d time.Duration
	for _, l := range ls {
		d = max(d, l.Per)
	}
	return d
}

// Next returns the earliest time, at now or later, when one more mail may
// go under ls, given sent: the times of earlier sends, oldest first (those
// older than the longest window may be left out).
func Next(ls []Limit, sent []time.Time, now time.Time) time.Time {
	t := now
	for _, l := range ls {
		if len(sent) >= l.N {
			// The N-th most recent send must have left the window.
			if at := sent[len(sent)-l.N].Add(l.Per); at.After(t) {
				t = at
			}
		}
	}
	return t
}

// Used counts the sends of sent (oldest first) in the window of l ending
// at now.
func Used(l Limit, sent []time.Time, now time.Time) int {
	from := now.Add(-l.Per)
	i, _ := slices.BinarySearchFunc(sent, from, func(a, b time.Time) int {
		if a.After(b) {
			return 1
		}
		return -1
	})
	n := 0
	for _, s := range sent[i:] {
		if !s.After(now) {
			n++
		}
	}
	return n
}

// Drain returns when the last of n more mails can go if each goes as early
// as ls allow, starting at now, after sent (oldest first). It is now when
// n is 0 or there is no limit.
func Drain(ls []Limit, sent []time.Time, n int, now time.Time) time.Time {
	if n <= 0 || len(ls) == 0 {
		return now
	}
	keep := 0
	for _, l := range ls {
		keep = max(keep, l.N)
	}
	hist := slices.Clone(sent)
	t := now
	for range n {
		t = Next(ls, hist, t)
		hist = append(hist, t)
		if len(hist) > 2*keep {
			hist = append(hist[:0], hist[len(hist)-keep:]...)
		}
	}
	return t
}
