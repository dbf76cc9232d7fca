package reader

import (
	"regexp"
	"strings"
)

// The referee's Message-IDs carry the token of the player they are sent to,
// so that a reply names its game even when the player's provider dropped
// the plus-address: "<{game}.{secret}.{ply}.{nonce}@{domain}>", where
// "{game}.{secret}.{ply}" is Token.String(), {nonce} is 8 to 40 lower-case
// hex digits that make the id unique, and {domain} is the domain of the
// referee's own address. Token.MessageID writes it, TokenFromMessageID
// reads it back; nothing else in the program spells this format.

var nonceRE = regexp.MustCompile(`^[0-9a-f]{8,40}$`)

// MessageID returns the Message-ID, with its angle brackets, of a mail the
// referee sends to the player of t: "<17.k3fux2ab7q.23.5f3a9c01@example.test>".
// nonce must be 8 to 40 lower-case hex digits (unique per mail) and domain
// the domain of the referee's address; TokenFromMessageID reads the token
// back only from ids of that shape.
func (t Token) MessageID(nonce, domain string) string {
	return "<" + t.String() + "." + nonce + "@" + strings.ToLower(domain) + ">"
}

// TokenFromMessageID reads the token from a Message-ID written by
// Token.MessageID (with or without angle brackets). Only ids on domain, the
// referee's own domain (compared case-insensitively), count: any other id,
// or one not of the exact shape, gives false.
func TokenFromMessageID(id, domain string) (Token, bool) {
	id = strings.TrimSpace(id)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	at := strings.LastIndexByte(id, '@')
	if at < 0 || domain == "" || !strings.EqualFold(id[at+1:], domain) {
		return Token{}, false
	}
	local := id[:at]
	dot := strings.LastIndexByte(local, '.')
	if dot < 0 || !nonceRE.MatchString(strings.ToLower(local[dot+1:])) {
		return Token{}, false
	}
	tok := local[:dot]
	if strings.TrimSpace(tok) != tok {
		return Token{}, false
	}
	return ParseToken(tok)
}

// msgIDRE finds the ids of a Message-ID list leniently (In-Reply-To,
// References), whatever else a client wrote around them.
var msgIDRE = regexp.MustCompile(`<([^<>\s]+)>`)

// msgIDs returns the ids of a header value, with their angle brackets.
func msgIDs(v string) []string {
	var out []string
	for _, m := range msgIDRE.FindAllStringSubmatch(v, -1) {
		out = append(out, "<"+m[1]+">")
	}
	return out
}
