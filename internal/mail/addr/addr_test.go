package addr

import (
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"alice@example.org", "alice@example.org"},
		{"Alice <Alice@Example.ORG>", "alice@example.org"},
		// A quoted local part keeps its quotes: without them the space
		// would make the address unusable in a header or RCPT TO.
		{`"john doe"@example.org`, `"john doe"@example.org`},
		{`John <"john doe"@example.org>`, `"john doe"@example.org`},
		{`"a\"b"@example.org`, `"a\"b"@example.org`},
		// Quotes that are not needed are dropped (RFC 5321: same mailbox).
		{`"bob"@example.org`, "bob@example.org"},
		{"o'brien+chess@example.org", "o'brien+chess@example.org"},
	}
	for _, tt := range tests {
		got, err := Canonical(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "alice", "@example.org", "alice@", "a b@example.org"} {
		if got, err := Canonical(bad); err == nil {
			t.Errorf("Canonical(%q) = %q, want an error", bad, got)
		}
	}
}

func TestSameMailbox(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"alice@example.org", "ALICE@example.org", true},
		{"alice+chess@example.org", "alice@example.org", true},
		{"referee+1.abcdefghij.0@example.org", "referee@example.org", true},
		{"alice@example.org", "alice@example.com", false},
		{"alice@example.org", "alicia@example.org", false},
		{`"a+b"@example.org`, "a@example.org", false}, // the plus is part of a quoted local part
		{"", "", false},
	}
	for _, tt := range tests {
		if got := SameMailbox(tt.a, tt.b); got != tt.want {
			t.Errorf("SameMailbox(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestPlus(t *testing.T) {
	if got := Plus("referee@example.org", "17.abc.3"); got != "referee+17.abc.3@example.org" {
		t.Errorf("Plus = %q", got)
	}
}

// TestCanonicalLimits: addresses are held to RFC 5321's limits (local part
// 64, domain 255, path 256) and to a host name's labels (issue 28: `referee
// new` took a 5,000-character local part, alice@[127.0.0.1] and
// alice@-bad-.test). Each bad address is refused with a message saying
// what is wrong.
func TestCanonicalLimits(t *testing.T) {
	label63 := strings.Repeat("d", 63)
	for _, tc := range []struct {
		in   string
		want string // "" when valid, else a word the error must contain
	}{
		{strings.Repeat("a", 64) + "@example.org", ""},
		{strings.Repeat("a", 65) + "@example.org", "over the 64"},
		{strings.Repeat("a", 5000) + "@example.org", "over the 64"},
		{`"` + strings.Repeat("a", 63) + ` "@example.org`, "over the 64"}, // 65 with its quotes
		{"a@" + label63 + "." + label63 + "." + label63 + "." + strings.Repeat("d", 60), ""},
		{"a@" + label63 + "." + label63 + "." + label63 + "." + strings.Repeat("d", 61), "over the 254"},
		{"a@" + strings.Repeat("d", 64) + ".org", "over the 63"},
		{"alice@[127.0.0.1]", "IP address"},
		{"alice@-bad-.test", "hyphen"},
		{"alice@bad-.test", "hyphen"},
		{"alice@ex_ample.test", "holds"},
		{"alice@example..test", "not a mail address"},
		{"alice@example.test.", "not a mail address"},
		{"alice@xn--bcher-kva.example", ""},
		{"alice@bücher.example", ""},
		{"alice@localhost", ""},
	} {
		got, err := Canonical(tc.in)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Canonical(%.40q) = %v, want it accepted", tc.in, err)
		case tc.want != "" && err == nil:
			t.Errorf("Canonical(%.40q) = %q, want an error saying %q", tc.in, got, tc.want)
		case tc.want != "" && !strings.Contains(err.Error(), tc.want):
			t.Errorf("Canonical(%.40q) error %q does not say %q", tc.in, err, tc.want)
		}
	}
}

// TestPlayer: an address the referee is asked to mail must be at a mail
// domain (issue 38: alice@1.2.3.4 and alice@localhost were taken by the
// CLI and in challenges). The embedded server's example.test stays valid.
func TestPlayer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" when valid, else words the error must contain
	}{
		{"alice@example.test", ""},
		{"Alice <Alice+chess@Example.ORG>", ""},
		{"alice@mail.1and1.de", ""},     // digits inside a domain are fine
		{"alice@123.example.org", ""},   // a numeric label that is not the last
		{"alice@xn--bcher-kva.ch", ""},  // an internationalised domain, as written in SMTP
		{"alice@1.2.3.4", "IP address"}, // issue 38
		{"alice@10.0.0.1", "IP address"},
		{"alice@example.123", "ends in a number"},
		{"alice@localhost", "has no dot"}, // issue 38
		{"alice@intranet", "has no dot"},
		{"alice@[127.0.0.1]", "IP address"}, // Canonical's own refusal
		{"alice", "not a mail address"},
	} {
		got, err := Player(tc.in)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Player(%q): %v, want it accepted", tc.in, err)
		case tc.want != "" && err == nil:
			t.Errorf("Player(%q) = %q, want an error saying %q", tc.in, got, tc.want)
		case tc.want != "" && !strings.Contains(err.Error(), tc.want):
			t.Errorf("Player(%q): %v, want it to say %q", tc.in, err, tc.want)
		}
	}
}
