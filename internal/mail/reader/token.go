package reader

import (
	"regexp"
	"strconv"
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

// An invitation token names a challenge (a mail invitation to a game) and
// its secret: "i{challenge}.{secret}", e.g. "i12.k3fux2ab7q". It is the
// second token kind, beside the game Token, and is spelt only here. It
// stands in the same two places as a game token: the plus-detail of the
// reply address of an invitation ("referee+i12.k3fux2ab7q@example.test")
// and the local part of the invitation's Message-ID
// ("<i12.k3fux2ab7q.5f3a9c01@example.test>"), so that a reply names its
// challenge even where the provider drops plus-addresses. The leading "i"
// keeps the two kinds apart: no game token starts with a letter.
type Invite struct {
	ChallengeID int64
	Secret      string
}

var inviteRE = regexp.MustCompile(`^[iI]([0-9]{1,12})\.([a-zA-Z2-7]{10})$`)

// String writes the invitation token: "i12.k3fux2ab7q".
func (t Invite) String() string { return "i" + strconv.FormatInt(t.ChallengeID, 10) + "." + t.Secret }

// ParseInvite reads an invitation token (case-insensitive).
func ParseInvite(s string) (Invite, bool) {
	m := inviteRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Invite{}, false
	}
	id, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || id <= 0 {
		return Invite{}, false
	}
	return Invite{ChallengeID: id, Secret: strings.ToLower(m[2])}, true
}

// MessageID returns the Message-ID of an invitation mail, with its angle
// brackets: "<i12.k3fux2ab7q.5f3a9c01@example.test>". nonce and domain are
// as for Token.MessageID.
func (t Invite) MessageID(nonce, domain string) string {
	return "<" + t.String() + "." + nonce + "@" + strings.ToLower(domain) + ">"
}

// InviteFromMessageID reads the invitation token from a Message-ID written
// by Invite.MessageID; any other id gives false.
func InviteFromMessageID(id, domain string) (Invite, bool) {
	id = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(id), "<"), ">")
	at := strings.LastIndexByte(id, '@')
	if at < 0 || domain == "" || !strings.EqualFold(id[at+1:], domain) {
		return Invite{}, false
	}
	local := id[:at]
	dot := strings.LastIndexByte(local, '.')
	if dot < 0 || !nonceRE.MatchString(strings.ToLower(local[dot+1:])) {
		return Invite{}, false
	}
	return ParseInvite(local[:dot])
}

// findInvite sets m.Invite from the recipients (a plus-address of base),
// else from In-Reply-To, else from References (newest first): the same
// places, in the same order, as the game token.
func (m *Mail) findInvite(base string, inReplyTo []string) {
	base = strings.ToLower(base)
	bat := strings.LastIndexByte(base, '@')
	if bat < 0 {
		return
	}
	set := func(t Invite, source string) {
		if m.Invite == nil {
			m.Invite, m.InviteSource = &t, source
		}
	}
	for _, a := range m.Recipients {
		at := strings.LastIndexByte(a, '@')
		if at < 0 || a[at:] != base[bat:] {
			continue
		}
		if local, detail, ok := strings.Cut(a[:at], "+"); ok && local == base[:bat] {
			if t, ok := ParseInvite(detail); ok {
				set(t, "recipient")
			}
		}
	}
	dom := base[bat+1:]
	for _, id := range inReplyTo {
		if t, ok := InviteFromMessageID(id, dom); ok {
			set(t, "in-reply-to")
		}
	}
	for i := len(m.References) - 1; i >= 0; i-- {
		if t, ok := InviteFromMessageID(m.References[i], dom); ok {
			set(t, "references")
		}
	}
}
