package pace

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		bad      bool
	}{
		{in: "2000/day,100/hour", want: "2000/day,100/hour"},
		{in: " 500/d ", want: "500/day"},
		{in: "30/10m", want: "30/10m0s"},
		{in: "", want: ""},
		{in: "100", bad: true},
		{in: "0/hour", bad: true},
		{in: "10/fortnight", bad: true},
	} {
		ls, err := Parse(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("Parse(%q) = %v; want an error", tc.in, ls)
			}
			continue
		}
		if err != nil || Format(ls) != tc.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", tc.in, Format(ls), err, tc.want)
		}
	}
}

// TestNextKeepsEveryWindow: under 3/hour, after sends at 0, 10 and 20
// minutes the next may go at 60 minutes (when the first leaves the window),
// not before.
func TestNextKeepsEveryWindow(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	ls := []Limit{{N: 3, Per: time.Hour}}
	sent := []time.Time{t0, t0.Add(10 * time.Minute), t0.Add(20 * time.Minute)}
	if got, want := Next(ls, sent, t0.Add(30*time.Minute)), t0.Add(time.Hour); !got.Equal(want) {
		t.Errorf("Next = %s; want %s", got, want)
	}
	if got, want := Next(ls, sent[:2], t0.Add(30*time.Minute)), t0.Add(30*time.Minute); !got.Equal(want) {
		t.Errorf("Next with room = %s; want now, %s", got, want)
	}
	if got := Used(ls[0], sent, t0.Add(65*time.Minute)); got != 2 {
		t.Errorf("Used at 65 min = %d; want 2 (the send at 0 left the window)", got)
	}
}

// TestDrain: 250 mails under 100/hour, none sent before, drain in two
// hours and a bit (100 at once, 100 an hour later, 50 two hours later);
// with Spread, 10 every 6 minutes: the 250th goes at 24 x 6 min = 2h24m.
func TestDrain(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	ls := []Limit{{N: 100, Per: time.Hour}}
	if got, want := Drain(ls, nil, 250, t0), t0.Add(2*time.Hour); !got.Equal(want) {
		t.Errorf("Drain = %s; want %s", got, want)
	}
	if got, want := Drain(Spread(ls), nil, 250, t0), t0.Add(24*6*time.Minute); !got.Equal(want) {
		t.Errorf("Drain spread = %s; want %s", got, want)
	}
	if got := Drain(nil, nil, 250, t0); !got.Equal(t0) {
		t.Errorf("Drain without limits = %s; want now", got)
	}
	if got, want := Scale(ls, 0.5)[0].N, 50; got != want {
		t.Errorf("Scale(100/hour, 0.5) = %d/hour; want %d", got, want)
	}
}
