// Package addr holds the referee's rules for mail addresses: one canonical
// spelling for storing and comparing them, and what counts as the same
// mailbox. The reader (inbound From), the admin commands (players' addresses)
// and the core (identity checks) all use it, so that an address is spelt the
// same way wherever it is compared or written into a header.
package addr

import (
	"net/mail"
	"strings"

	"referee/internal/lang"
)

// The errors of this package are *lang.Errors: their reason in each
// reader's language (issue 42), their Error() the English.

// Canonical returns the bare address of s ("Alice <Alice@Example.org>" or
// "alice@example.org") in the referee's spelling: lower case, and a local
// part that is not a dot-atom kept in quotes ("john doe"@example.org), so
// that it still names the same mailbox when written into a header or an
// SMTP command.
func Canonical(s string) (string, error) {
	a, err := mail.ParseAddress(strings.TrimSpace(s))
	if err != nil {
		return "", &lang.Error{Why: lang.M("%q is not a mail address (%s): write it like alice@example.org", short(s), err.Error()), Err: err}
	}
	return FromParsed(a.Address)
}

// FromParsed canonicalises an address as net/mail and go-message return it
// (a quoted local part already unquoted).
func FromParsed(bare string) (string, error) {
	at := strings.LastIndexByte(bare, '@')
	if at <= 0 || at == len(bare)-1 {
		return "", &lang.Error{Why: lang.M("an address needs a local part, an @ and a domain")}
	}
	local, domain := bare[:at], strings.ToLower(bare[at+1:])
	local = strings.ToLower(local)
	if !isQuoted(local) && !dotAtom(local) {
		local = quote(local)
	}
	if err := check(local, domain); err != nil {
		return "", err
	}
	return local + "@" + domain, nil
}

// RFC 5321 4.5.3.1: the limits every SMTP server may hold an address to.
const (
	MaxLocal  = 64  // octets of the local part, as written in SMTP (quotes included)
	MaxDomain = 255 // octets of the domain
	MaxPath   = 256 // octets of the path, "<" local "@" domain ">"
	MaxLabel  = 63  // octets of one label of the domain
)

// check holds an address, its local part as written in SMTP, to RFC 5321's
// limits and its domain to a host name's rules (RFC 1035 2.3.1, RFC 1123
// 2.1): labels of letters, digits and inner hyphens, each 1 to 63 octets.
// Letters beyond ASCII are allowed (an internationalised domain). An
// address literal (alice@[127.0.0.1]) is refused: no player's mailbox
// needs one, and it bypasses the domain's own mail setup.
func check(local, domain string) error {
	a := local + "@" + domain
	if len(local) > MaxLocal {
		return &lang.Error{Why: lang.M("the part before the @ of %s is %d characters long, over the %d that mail servers must accept (RFC 5321): use a shorter address",
			short(a), len(local), MaxLocal)}
	}
	if len(domain) > MaxDomain {
		return &lang.Error{Why: lang.M("the domain of %s is %d characters long, over the %d allowed (RFC 5321): use a real mail domain", short(a), len(domain), MaxDomain)}
	}
	if len(a)+2 > MaxPath {
		return &lang.Error{Why: lang.M("the address %s is %d characters long, over the %d allowed (RFC 5321): use a shorter address", short(a), len(a), MaxPath-2)}
	}
	if strings.HasPrefix(domain, "[") {
		return &lang.Error{Why: lang.M("%s names a host by its IP address (%s), not a mail domain: use the address at the player's mail domain", short(a), domain)}
	}
	for _, label := range strings.Split(domain, ".") {
		if why := checkLabel(label); why != nil {
			return &lang.Error{Why: lang.M("the domain %q of %s is not a valid mail domain: %s", short(domain), short(a), why)}
		}
	}
	return nil
}

// checkLabel says what is wrong with one label of a domain (nil if
// nothing).
func checkLabel(label string) lang.Text {
	switch {
	case label == "":
		return lang.M("it has an empty part (two dots in a row, or a dot at an end)")
	case len(label) > MaxLabel:
		return lang.M("its part %s is %d characters long, over the %d allowed", short(label), len(label), MaxLabel)
	case label[0] == '-' || label[len(label)-1] == '-':
		return lang.M("its part %q begins or ends with a hyphen", short(label))
	}
	for _, r := range label {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r >= 0x80:
		default:
			return lang.M("its part %q holds %q; a domain has only letters, digits, hyphens and dots", short(label), r)
		}
	}
	return nil
}

// short cuts s for a message.
func short(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-20:]
	}
	return s
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

// Player returns the canonical spelling of s (as Canonical) when it may
// be a player's or a spectator's address: an address the referee will
// mail because someone named it (the organiser's commands, a challenge,
// an event's list, a join). Besides Canonical's rules its domain must be
// a mail domain on the Internet: one with a dot (alice@localhost names
// this machine, or whichever host reads the mail) and whose last label is
// not all digits (alice@1.2.3.4 is a host's IP address written as a
// domain; no top-level domain is numeric, RFC 3696 2). The referee's own
// address is held to Canonical only: a test set-up may run it on
// localhost.
func Player(s string) (string, error) {
	a, err := Canonical(s)
	if err != nil {
		return "", err
	}
	if why := notMailDomain(Domain(a)); why != nil {
		return "", &lang.Error{Why: lang.M("%s is not a player's mail address: its domain %s; write the address at the player's mail domain, like alice@example.org", short(a), why)}
	}
	return a, nil
}

// notMailDomain says why domain, valid as a host name, is not a mail
// domain on the Internet (nil when it may be one).
func notMailDomain(domain string) lang.Text {
	dot := strings.LastIndexByte(domain, '.')
	if dot < 0 {
		return lang.M("%q has no dot: it names a single host, not a mail domain", short(domain))
	}
	tld := domain[dot+1:]
	if strings.Trim(tld, "0123456789") == "" {
		return lang.M("%q ends in a number: it is written like an IP address, and no mail domain ends in digits", short(domain))
	}
	return nil
}
