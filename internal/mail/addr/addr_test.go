package addr

import "testing"

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
