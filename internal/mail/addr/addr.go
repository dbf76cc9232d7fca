// Package addr holds the referee's rules for mail addresses: one canonical
// spelling for storing and comparing them, and what counts as the same
// mailbox. The reader (inbound From), the admin commands (players' addresses)
// and the core (identity checks) all use it, so that an address is spelt the
// same way wherever it is compared or written into a header.
package addr

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
)

// Canonical returns the bare address of s ("Alice <Alice@Example.org>" or
// "alice@example.org") in the referee's spelling: lower case, and a local
// part that is not a dot-atom kept in quotes ("john doe"@example.org), so
// that it still names the same mailbox when written into a header or an
// SMTP command.
func Canonical(s string) (string, error) {
	a, err := mail.ParseAddress(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("%q is not a mail address: %w", s, err)
	}
	return FromParsed(a.Address)
}

// FromParsed canonicalises an address as net/mail and go-message return it
// (a quoted local part already unquoted).
func FromParsed(bare string) (string, error) {
	at := strings.LastIndexByte(bare, '@')
	if at <= 0 || at == len(bare)-1 {
		return "", errors.New("an address needs a local part, an @ and a domain")
	}
	local, domain := bare[:at], strings.ToLower(bare[at+1:])
	local = strings.ToLower(local)
	if isQuoted(local) {
		return local + "@" + domain, nil
	}
	if !dotAtom(local) {
		local = quote(local)
	}
	return local + "@" + domain, nil
}

func isQuoted(local string) bool {
	return len(local) >= 2 && local[0] == '"' && local[len(local)-1] == '"'
}

// dotAtom reports whether local may stand without quotes (RFC 5322 3.2.3).
func dotAtom(local string) bool {
	if local == "" || local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return false
	}
	for _, r := range local {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r >= 0x80:
		case strings.ContainsRune("!#$%&'*+-/=?^_`{|}~", r):
		default:
			return false
		}
	}
	return true
}

func quote(local string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range local {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// Domain returns the part after the last @, lower case ("" without one).
func Domain(a string) string {
	if at := strings.LastIndexByte(a, '@'); at >= 0 {
		return strings.ToLower(a[at+1:])
	}
	return ""
}

// Mailbox returns a with any plus-detail removed from its local part, lower
// case: alice+chess@example.org and Alice@example.org are both
// alice@example.org. A quoted local part keeps its plus signs.
func Mailbox(a string) string {
	a = strings.ToLower(strings.TrimSpace(a))
	at := strings.LastIndexByte(a, '@')
	if at < 0 {
		return a
	}
	local := a[:at]
	if !isQuoted(local) {
		if p := strings.IndexByte(local, '+'); p >= 0 {
			local = local[:p]
		}
	}
	return local + a[at:]
}

// SameMailbox reports whether a and b deliver to the same mailbox,
// ignoring case and plus-details.
func SameMailbox(a, b string) bool {
	return a != "" && b != "" && Mailbox(a) == Mailbox(b)
}

// Plus returns base with detail as its plus-detail:
// Plus("referee@example.org", "17.x.3") is "referee+17.x.3@example.org".
func Plus(base, detail string) string {
	at := strings.LastIndexByte(base, '@')
	if at < 0 {
		return base
	}
	return base[:at] + "+" + detail + base[at:]
}
