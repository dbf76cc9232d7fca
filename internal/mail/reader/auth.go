package reader

import (
	"fmt"
	"net"
	"regexp"
	"strings"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-msgauth/authres"
)

// AuthResult is one Authentication-Results header field (RFC 8601).
type AuthResult struct {
	Server string       // authserv-id, lower case
	DKIM   []DKIMResult // every dkim= result, in order
	SPF    string       // pass, fail, softfail, none, ... or ""
	// SPFDomain is the domain of smtp.mailfrom (lower case).
	SPFDomain string
	DMARC     string // pass, fail, none, ... or ""
	// DMARCDomain is header.from of the dmarc result (lower case).
	DMARCDomain string
	// Field is the position of this field in the header, 0 for the
	// topmost field. Which positions the receiving server's own fields
	// can hold is AuthVerdict's business (see docs/require-auth.md).
	Field int
}

// DKIMResult is one dkim= result of an Authentication-Results field.
type DKIMResult struct {
	Value  string // pass, fail, none, neutral, temperror, ...
	Domain string // header.d, lower case ("" when none was given)
}

// headField is one field at the top of the header, kept so that
// AuthVerdict can tell the receiving side's fields from the sender's.
type headField struct {
	key   string // lower case
	value string
}

// maxHead caps the fields kept in Mail.head.
const maxHead = 200

// readAuthResults reads the Authentication-Results fields in header
// order, and keeps the top of the header (every field up to and including
// the first one that a receiving server does not add) for AuthVerdict.
func readAuthResults(m *Mail, h gomail.Header) {
	fields := h.Fields()
	inHead := true
	for i := 0; fields.Next(); i++ {
		key := strings.ToLower(fields.Key())
		if inHead && len(m.head) < maxHead {
			m.head = append(m.head, headField{key: key, value: fields.Value()})
			inHead = key == "received" || ReceivingField(key)
		}
		if key != "authentication-results" {
			continue
		}
		id, results, err := parseAuthResults(fields.Value())
		if err != nil {
			m.warn("an Authentication-Results header could not be read (%v): ignored", err)
			continue
		}
		ar := AuthResult{Server: strings.ToLower(id), Field: i}
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DKIMResult:
				ar.DKIM = append(ar.DKIM, DKIMResult{Value: string(r.Value), Domain: strings.ToLower(r.Domain)})
			case *authres.SPFResult:
				ar.SPF = string(r.Value)
				ar.SPFDomain = strings.ToLower(domainOf(r.From))
			case *authres.DMARCResult:
				ar.DMARC = string(r.Value)
				ar.DMARCDomain = strings.ToLower(r.From)
			}
		}
		m.AuthResults = append(m.AuthResults, ar)
	}
}

// parseAuthResults parses one Authentication-Results value leniently: RFC
// 5322 comments (which OpenDKIM fills with "2048-bit key; unprotected")
// are dropped first, and a result the parser does not know ("dkim-atps=")
// is skipped instead of sinking the whole header.
func parseAuthResults(v string) (string, []authres.Result, error) {
	v = stripComments(v)
	id, results, err := authres.Parse(v)
	if err == nil {
		return id, results, nil
	}
	parts := strings.Split(v, ";")
	id = strings.TrimSpace(parts[0])
	if f := strings.Fields(id); len(f) > 0 {
		id = f[0] // an authserv-id may be followed by a version
	}
	if id == "" {
		return "", nil, err
	}
	for _, p := range parts[1:] {
		if _, rs, e := authres.Parse(id + "; " + strings.TrimSpace(p)); e == nil {
			results = append(results, rs...)
		}
	}
	return id, results, nil
}

// stripComments removes (possibly nested) parenthesised comments outside
// quoted strings.
func stripComments(v string) string {
	var b strings.Builder
	depth, quoted, escaped := 0, false, false
	for _, r := range v {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case quoted:
			if r == '"' {
				quoted = false
			}
		case r == '"' && depth == 0:
			quoted = true
		case r == '(':
			depth++
			continue
		case r == ')' && depth > 0:
			depth--
			continue
		}
		if depth == 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ReceivingField reports whether a field (key in lower case) is one that
// the receiving side adds at the top of a mail besides Received: the delivery agent's
// Return-Path, Delivered-To and X-Original-To, and the fields of
// authentication, ARC, spam and virus filters. A sender may write any of
// them too, but only below the Received field of the reception, so they
// never extend the trusted zone by themselves (see zoneEnd).
func ReceivingField(key string) bool {
	switch key {
	case "return-path", "delivered-to", "x-original-to", "envelope-to", "x-envelope-to", "x-envelope-from",
		"authentication-results", "received-spf", "dkim-filter", "x-dkim", "x-virus-scanned", "x-virus-status",
		"x-quarantine-id", "x-greylist":
		return true
	}
	for _, p := range []string{"arc-", "x-spam-", "x-spamd-", "x-rspamd-", "x-amavis-", "x-policyd-"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// zoneEnd returns the index in head of the first field outside the zone
// that the receiving infrastructure of trusted added above everything the
// sender wrote, and why the zone ends there. Scanning from the top, the
// zone holds receiving-side fields (ReceivingField) and the Received
// fields of internal hops (internalHop); it ends at the first Received
// field that records a reception from another host, or at the first field
// of any other kind.
func zoneEnd(head []headField, trusted string) (int, string) {
	for i, f := range head {
		switch {
		case f.key == "received":
			if !internalHop(f.value, trusted) {
				return i, "the Received field " + hopSummary(f.value)
			}
		case ReceivingField(f.key):
		default:
			return i, "the first field a sender writes (" + f.key + ")"
		}
	}
	return len(head), "the end of the header"
}

// ipLikeRE finds the address literals of a Received field: bracketed or
// parenthesised ("[192.0.2.1]", "[IPv6:::1]", "(192.0.2.1)" as qmail and
// Exchange write them) and bare dotted quads.
var (
	literalRE = regexp.MustCompile(`[\[(]([^\[\]()\s]*)[\])]`)
	quadRE    = regexp.MustCompile(`(^|[^0-9.])([0-9]{1,3}(\.[0-9]{1,3}){3})($|[^0-9.])`)
	byRE      = regexp.MustCompile(`(^|\s)by\s+([^\s;()\[\]]+)`)
	fromRE    = regexp.MustCompile(`^\s*from\s+([^\s;()\[\]]+)`)
)

// internalHop reports whether a Received field records a hop inside the
// receiving machine (Dovecot's LMTP delivery, amavis and its reinjection,
// Postfix re-queueing after alias expansion): every address it names is a
// loopback address ("[127.0.0.1]", "[IPv6:::1]", "[unix socket]"), or it
// names none and comes from the host itself; and it was recorded "by" the
// trusted host. The receiving MTA records the real address of an outside
// peer, which no sender can make a loopback address (unless a proxy on the
// same machine hides it: see docs/require-auth.md).
func internalHop(v, trusted string) bool {
	v = strings.ToLower(oneLine(v))
	if i := strings.LastIndexByte(v, ';'); i >= 0 {
		v = v[:i] // the date
	}
	addrs := 0
	for _, m := range literalRE.FindAllStringSubmatch(v, -1) {
		lit := strings.TrimPrefix(m[1], "ipv6:")
		if m[1] == "" {
			continue
		}
		if ip := net.ParseIP(lit); ip != nil {
			if !ip.IsLoopback() {
				return false
			}
			addrs++
		}
	}
	if strings.Contains(v, "[unix socket]") {
		addrs++
	}
	for _, m := range quadRE.FindAllStringSubmatch(v, -1) {
		ip := net.ParseIP(m[2])
		if ip == nil || !ip.IsLoopback() {
			return false
		}
		addrs++
	}
	by := byRE.FindStringSubmatch(v)
	if by == nil || !localName(by[2], trusted) {
		return false
	}
	if addrs == 0 {
		if from := fromRE.FindStringSubmatch(v); from != nil && !localName(from[1], trusted) && from[1] != by[2] {
			return false
		}
	}
	return true
}

// localName reports whether a host name in a Received field names the
// trusted host itself: the authserv-id (which OpenDKIM, OpenDMARC and
// rspamd take from the host name), its first label, "localhost", or a
// name without a dot (Dovecot writes the short host name).
func localName(name, trusted string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if name == trusted || name == "localhost" || !strings.Contains(name, ".") {
		return true
	}
	first, _, _ := strings.Cut(trusted, ".")
	return name == first
}

// hopSummary words a Received field as "from HOST by HOST".
func hopSummary(v string) string {
	v = strings.ToLower(oneLine(v))
	s := ""
	if m := fromRE.FindStringSubmatch(v); m != nil {
		s = "from " + m[1]
	}
	if m := byRE.FindStringSubmatch(v); m != nil {
		s = strings.TrimSpace(s + " by " + m[2])
	}
	if s == "" {
		return snippet(v)
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// AuthVerdict says whether m is authenticated by trustedServer, the
// authserv-id of the receiving server's Authentication-Results fields.
//
// Only the fields with that id in the trusted zone count: the top of the
// header that the receiving infrastructure added above everything the
// sender wrote (see zoneEnd and docs/require-auth.md); one further down
// may have been written by the sender, and is ignored and reported in the
// reason. Within the zone a failing result wins over a passing one: the
// mail fails when any of those fields says dmarc=fail, or says DKIM did
// not pass for the From domain (dkim=fail, none, neutral, temperror, ...)
// while none says spf=pass for it. Otherwise it passes when one says
// dkim=pass with header.d the From domain, spf=pass with smtp.mailfrom in
// the From domain, or dmarc=pass with header.from the From domain. The
// reason says what was found either way.
func AuthVerdict(m *Mail, trustedServer string) (ok bool, reason string) {
	trusted := strings.ToLower(strings.TrimSpace(trustedServer))
	if trusted == "" {
		return false, "no trusted authentication server is configured"
	}
	if m.From == "" {
		return false, "the mail has no From address to authenticate"
	}
	dom := domainOf(m.From)
	end, why := zoneEnd(m.head, trusted)
	var (
		found, fails                 []string
		ignored                      int
		dkimPass, spfPass, dmarcPass bool
		dkimFail, dmarcBad           bool
	)
	for _, ar := range m.AuthResults {
		if ar.Server != trusted {
			continue
		}
		if ar.Field >= end {
			ignored++
			continue
		}
		dkim := dkimFor(ar.DKIM, dom)
		for _, d := range ar.DKIM {
			found = append(found, "dkim="+d.Value+domainNote(d.Domain))
		}
		if ar.SPF != "" {
			found = append(found, "spf="+ar.SPF+domainNote(ar.SPFDomain))
		}
		if ar.DMARC != "" {
			found = append(found, "dmarc="+ar.DMARC+domainNote(ar.DMARCDomain))
		}
		switch {
		case dkim == "pass":
			dkimPass = true
		case dkim != "":
			dkimFail = true
			fails = append(fails, "dkim="+dkim+" for "+dom)
		}
		if ar.SPF == "pass" && ar.SPFDomain == dom {
			spfPass = true
		}
		switch {
		case ar.DMARC == "fail":
			dmarcBad = true
			fails = append(fails, "dmarc=fail"+domainNote(ar.DMARCDomain))
		case ar.DMARC == "pass" && ar.DMARCDomain == dom:
			dmarcPass = true
		}
	}
	pass := ""
	switch {
	case dkimPass:
		pass = "dkim=pass for " + dom
	case spfPass:
		pass = "spf=pass for " + dom
	case dmarcPass:
		pass = "dmarc=pass for " + dom
	}
	note := ""
	if ignored > 0 {
		note = fmt.Sprintf("; %d header(s) naming %s ignored: they are below %s, where the sender could have written them",
			ignored, trusted, why)
	}
	switch {
	case (dmarcBad || dkimFail && !spfPass) && pass != "":
		return false, trusted + " says " + strings.Join(fails, ", ") + ", which wins over its " + pass + note
	case dmarcBad || dkimFail && !spfPass:
		return false, "neither DKIM nor SPF passed for " + dom + " according to " + trusted +
			" (found " + strings.Join(found, ", ") + ")" + note
	case pass != "":
		return true, pass + " from " + trusted
	case len(found) == 0:
		return false, "no DKIM or SPF result from " + trusted + " at the top of the mail" + note
	}
	return false, "neither DKIM nor SPF passed for " + dom + " according to " + trusted +
		" (found " + strings.Join(found, ", ") + ")" + note
}

// dkimFor sums up the dkim results of one Authentication-Results field for
// domain: "pass" when a signature of domain passed (a signer may sign
// twice, and one passing signature verifies the mail, RFC 6376 §6.1),
// else the first result for domain or without a domain ("dkim=none": no
// signature at all), else "" (the field says nothing about domain).
func dkimFor(rs []DKIMResult, domain string) string {
	got := ""
	for _, r := range rs {
		if r.Domain == domain && r.Value == "pass" {
			return "pass"
		}
		if (r.Domain == domain || r.Domain == "") && r.Value != "pass" && got == "" {
			got = r.Value
		}
	}
	return got
}

func domainNote(d string) string {
	if d == "" {
		return ""
	}
	return " for " + d
}

// DKIMVerdict is what the referee's own DKIM verification of a mail found
// (package dkimcheck, serve --require-auth dkim|either).
type DKIMVerdict struct {
	OK     bool
	Reason string // what was found, for the organiser and the refusal
	// Temporary is true when a DNS failure decided the verdict: the mail
	// may verify later.
	Temporary bool
}
