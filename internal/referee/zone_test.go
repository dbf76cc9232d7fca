package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/rules"
)

func TestParseZone(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Europe/Berlin", "Europe/Berlin"},
		{"europe/berlin", "Europe/Berlin"},
		{"america/new_york", "America/New_York"},
		{"UTC", ""},
		{"utc", ""},
	} {
		if got, err := parseZone(tc.in); err != nil || got != tc.want {
			t.Errorf("parseZone(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"Berlin", "Mars/Olympus", "Local", "+0100", ""} {
		if got, err := parseZone(bad); err == nil {
			t.Errorf("parseZone(%q) = %q; want an error", bad, got)
		}
	}
}

// TestDeadlinesInThePlayersZoneAcrossDST: Berlin leaves summer time on
// Sunday 25 October 2026 at 03:00 CEST (01:00 UTC). A deadline of 24
// October 12:00 UTC is 14:00 CEST for a player in Berlin, one of 26
// October 12:00 UTC is 13:00 CET; a player who set no zone reads UTC.
func TestDeadlinesInThePlayersZoneAcrossDST(t *testing.T) {
	for _, tc := range []struct {
		name      string
		zone      string
		turnStart time.Time
		control   string
		want      string
	}{
		{"before the change", "Europe/Berlin", time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC), "1d", "Sat 24 Oct 14:00 CEST"},
		{"after the change", "Europe/Berlin", time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC), "3d", "Mon 26 Oct 13:00 CET"},
		{"no zone set", "", time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC), "3d", "Mon 26 Oct 12:00 UTC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, g := newGame(t, rules.Chess())
			g.Players[rules.White].Zone = tc.zone
			c, err := ParseTimeControl(tc.control)
			if err != nil {
				t.Fatal(err)
			}
			c.TurnStart = tc.turnStart
			g.State.Clock = c
			at, _, _ := g.NextCheck() // the reminder
			out := r.Tick(g, at)
			if len(out.Mails) != 1 {
				t.Fatalf("reminder: %d mails", len(out.Mails))
			}
			text := norm(textOf(t, out.Mails[0])) // lines are wrapped
			if !strings.Contains(text, "your time runs out in") || !strings.Contains(text, "("+tc.want+")") {
				t.Errorf("the reminder does not give the deadline as %q:\n%s", tc.want, text)
			}
			if !strings.Contains(text, "your time runs out "+tc.want) {
				t.Errorf("the status line does not give the deadline as %q:\n%s", tc.want, text)
			}
		})
	}
}

// TestTimezoneCommand: "timezone europe/berlin" in a game records the
// zone for the sender (the app stores it for all their games) and
// answers in it; a zone that does not exist is refused with an example.
func TestTimezoneCommand(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	out := actAt(t, r, g, rules.Black, "timezone europe/berlin", time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC))
	if out.Verdict != Applied || out.Lobby == nil || out.Lobby.TimeZone == nil ||
		out.Lobby.TimeZone.Zone != "Europe/Berlin" || out.Lobby.TimeZone.Address != g.Players[rules.Black].Address {
		t.Fatalf("timezone: %v %s %+v", out.Verdict, out.Detail, out.Lobby)
	}
	if len(out.Mails) != 1 || !strings.Contains(norm(out.Mails[0].Text), "Fri 1 Jan 00:30 CET") {
		t.Errorf("the answer does not give the time in Berlin (already 2027 there): %+v", out.Mails)
	}
	out = actAt(t, r, g, rules.Black, "timezone Mars/Olympus", time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC))
	if out.Verdict == Applied || len(out.Mails) != 1 || !strings.Contains(norm(out.Mails[0].Text), "Europe/Berlin") {
		t.Errorf("an unknown zone: %v %+v", out.Verdict, out.Mails)
	}
}
