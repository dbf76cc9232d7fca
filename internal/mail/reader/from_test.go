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

// TestTwoFromFields: RFC 5322 allows exactly one From field. A mail with
// two is nobody's, whichever one is the player's (issue 36: the first was
// used, so a forger could put the player's address above their own).
func TestTwoFromFields(t *testing.T) {
	for _, hdr := range []string{
		"From: alice@example.test\r\nFrom: mallory@evil.test\r\n",
		"From: mallory@evil.test\r\nFrom: alice@example.test\r\n",
		"From: Alice <alice@example.test>\r\nTo: x@example.test\r\nFrom: Alice <alice@example.test>\r\n",
	} {
		raw := hdr + "To: referee+1.aaaaaaaaaa.1@example.test\r\nSubject: x\r\n\r\ne4\r\n"
		m, err := Read([]byte(raw), "referee@example.test", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if m.From != "" || !strings.Contains(m.BadFrom, "2 From header fields") || !strings.Contains(m.BadFrom, "exactly one") {
			t.Errorf("%q: From %q, BadFrom %q; want no sender and a reason", hdr, m.From, m.BadFrom)
		}
	}
}
