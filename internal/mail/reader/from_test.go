package reader

import (
	"strings"
	"testing"
)

// TestFromNotGuessed: a From header that is not exactly one valid address
// is refused, never guessed (issue 28: "alice@example.test
// <mallory@evil.test>" was read as alice and, with her leaked token,
// played as her move).
func TestFromNotGuessed(t *testing.T) {
	for _, tc := range []struct{ from, want, bad string }{
		{"alice@example.test <mallory@evil.test>", "", "not a mail address"},
		{"Alice <alice@example.test>, Mallory <mallory@evil.test>", "", "names 2 senders"},
		{"alice@[127.0.0.1]", "", "IP address"},
		{"alice@-bad-.test", "", "hyphen"},
		{`"alice@example.test" <mallory@evil.test>`, "mallory@evil.test", ""},
		{"Alice <Alice@Example.test>", "alice@example.test", ""},
	} {
		raw := "From: " + tc.from + "\r\nTo: referee+1.aaaaaaaaaa.1@example.test\r\nSubject: x\r\n\r\ne4\r\n"
		m, err := Read([]byte(raw), "referee@example.test", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if m.From != tc.want {
			t.Errorf("From: %s read as %q, want %q", tc.from, m.From, tc.want)
		}
		if tc.bad == "" && m.BadFrom != "" || tc.bad != "" && !strings.Contains(m.BadFrom, tc.bad) {
			t.Errorf("From: %s: BadFrom = %q, want it to say %q", tc.from, m.BadFrom, tc.bad)
		}
	}
}
