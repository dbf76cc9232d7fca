package reader

import (
	"regexp"
	"strings"
)

// A proof token shows that a mail answers one the referee sent to its
// sender's address: "c" and 16 lower-case base32 characters, e.g.
// "cab2cd3ef4gh5ij6k". The referee asks an address it cannot trust from
// From alone (an address never seen joining an event, a "start" after a
// "stop") to reply to its mail, and that mail carries the token in the
// same two places as the other tokens: the plus-detail of its reply
// address ("referee+cab2cd3ef4gh5ij6k@example.test") and the local part
// of its Message-ID ("<cab2cd3ef4gh5ij6k.5f3a9c01@example.test>"). The
// token is the third kind, beside the game Token and the Invite, and is
// spelt only here; the referee derives its secret from what the reply
// confirms and the address it was sent to, so nothing is stored.
var proofRE = regexp.MustCompile(`^[cC]([a-zA-Z2-7]{16})$`)

// ProofToken writes the proof token of secret (16 base32 characters).
func ProofToken(secret string) string { return "c" + strings.ToLower(secret) }

// ParseProof reads a proof token and returns its secret, lower case.
func ParseProof(s string) (string, bool) {
	m := proofRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", false
	}
	return strings.ToLower(m[1]), true
}

// ProofMessageID returns the Message-ID, with its angle brackets, of a
// mail that carries the proof token of secret; nonce and domain are as for
// Token.MessageID.
func ProofMessageID(secret, nonce, domain string) string {
	return "<" + ProofToken(secret) + "." + nonce + "@" + strings.ToLower(domain) + ">"
}

// ProofFromMessageID reads the proof secret from a Message-ID written by
// ProofMessageID; any other id gives false.
func ProofFromMessageID(id, domain string) (string, bool) {
	id = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(id), "<"), ">")
	at := strings.LastIndexByte(id, '@')
	if at < 0 || domain == "" || !strings.EqualFold(id[at+1:], domain) {
		return "", false
	}
	local := id[:at]
	dot := strings.LastIndexByte(local, '.')
	if dot < 0 || !nonceRE.MatchString(strings.ToLower(local[dot+1:])) {
		return "", false
	}
	return ParseProof(local[:dot])
}

// findProof sets m.Proof from the recipients (a plus-address of base),
// else from In-Reply-To, else from References (newest first): the places,
// and the order, of the other tokens.
func (m *Mail) findProof(base string, inReplyTo []string) {
	base = strings.ToLower(base)
	bat := strings.LastIndexByte(base, '@')
	if bat < 0 {
		return
	}
	set := func(secret, source string) {
		if m.Proof == "" {
			m.Proof, m.ProofSource = secret, source
		}
	}
	for _, a := range m.Recipients {
		at := strings.LastIndexByte(a, '@')
		if at < 0 || a[at:] != base[bat:] {
			continue
		}
		if local, detail, ok := strings.Cut(a[:at], "+"); ok && local == base[:bat] {
			if s, ok := ParseProof(detail); ok {
				set(s, "recipient")
			}
		}
	}
	dom := base[bat+1:]
	for _, id := range inReplyTo {
		if s, ok := ProofFromMessageID(id, dom); ok {
			set(s, "in-reply-to")
		}
	}
	for i := len(m.References) - 1; i >= 0; i-- {
		if s, ok := ProofFromMessageID(m.References[i], dom); ok {
			set(s, "references")
		}
	}
}
