package reader

import (
	"strings"
	"testing"
)

// TestMessageIDFormat: the referee's Message-ID is
// "<{game}.{secret}.{ply}.{nonce}@{domain}>" with "{game}.{secret}.{ply}"
// exactly Token.String(), and TokenFromMessageID reads back what
// Token.MessageID wrote.
func TestMessageIDFormat(t *testing.T) {
	tok := Token{GameID: 17, Secret: "k3fux2ab7q", Ply: 23}
	id := tok.MessageID("5f3a9c01", "Example.Test")
	if want := "<17.k3fux2ab7q.23.5f3a9c01@example.test>"; id != want {
		t.Fatalf("MessageID = %q, want %q", id, want)
	}
	for _, tt := range []struct {
		tok   Token
		nonce string
	}{
		{tok, "5f3a9c01"},
		{Token{GameID: 123456789012, Secret: "abcdefghij", Ply: 0}, strings.Repeat("0123456789", 4)},
		{Token{GameID: 1, Secret: "a2b3c4d5e6", Ply: 999999999}, "deadbeefcafe"},
	} {
		got, ok := TokenFromMessageID(tt.tok.MessageID(tt.nonce, "example.test"), "example.test")
		if !ok || got != tt.tok {
			t.Errorf("TokenFromMessageID(MessageID(%v)) = %v, %v; want %v", tt.tok, got, ok, tt.tok)
		}
	}
}

// TestTokenFromMessageID: only ids of the exact shape on the referee's own
// domain carry a token.
func TestTokenFromMessageID(t *testing.T) {
	want := Token{GameID: 17, Secret: "k3fux2ab7q", Ply: 23}
	tests := []struct {
		name, id string
		ok       bool
	}{
		{"angle brackets", "<17.k3fux2ab7q.23.5f3a9c01@example.test>", true},
		{"bare", "17.k3fux2ab7q.23.5f3a9c01@example.test", true},
		{"domain case-insensitive", "<17.k3fux2ab7q.23.5f3a9c01@EXAMPLE.Test>", true},
		{"40-digit nonce", "<17.k3fux2ab7q.23." + strings.Repeat("ab", 20) + "@example.test>", true},
		{"another domain", "<17.k3fux2ab7q.23.5f3a9c01@evil.example>", false},
		{"a subdomain is another domain", "<17.k3fux2ab7q.23.5f3a9c01@mail.example.test>", false},
		{"a longer domain ending the same", "<17.k3fux2ab7q.23.5f3a9c01@notexample.test>", false},
		{"no nonce", "<17.k3fux2ab7q.23@example.test>", false},
		{"nonce of 7 digits", "<17.k3fux2ab7q.23.5f3a9c0@example.test>", false},
		{"nonce of 41 digits", "<17.k3fux2ab7q.23." + strings.Repeat("a", 41) + "@example.test>", false},
		{"nonce not hex", "<17.k3fux2ab7q.23.5f3a9c0z@example.test>", false},
		{"secret of 9 characters", "<17.k3fux2ab7.23.5f3a9c01@example.test>", false},
		{"extra field", "<x.17.k3fux2ab7q.23.5f3a9c01@example.test>", false},
		{"the referee's other ids", "<g17.m12.white@example.test>", false},
		{"no domain", "<17.k3fux2ab7q.23.5f3a9c01>", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		got, ok := TokenFromMessageID(tt.id, "example.test")
		if ok != tt.ok || (ok && got != want) {
			t.Errorf("%s: TokenFromMessageID(%q) = %v, %v; want ok=%v", tt.name, tt.id, got, ok, tt.ok)
		}
	}
}

// Real-shaped replies (DESIGN.md, "Game identity and authority": where a
// provider drops plus-addresses, the token comes from the referee's own
// Message-ID, which replies carry in In-Reply-To/References).
const (
	gmailReply = "Return-Path: <alice@gmail.example>\r\n" +
		"Delivered-To: referee@example.test\r\n" +
		"MIME-Version: 1.0\r\n" +
		"References: <17.k3fux2ab7q.21.0a1b2c3d4e5f6071@example.test>\r\n" +
		" <17.k3fux2ab7q.23.9f8e7d6c5b4a3921@example.test>\r\n" +
		"In-Reply-To: <17.k3fux2ab7q.23.9f8e7d6c5b4a3921@example.test>\r\n" +
		"From: Alice Liddell <alice@gmail.example>\r\n" +
		"Date: Sun, 22 Nov 2026 10:13:55 +0000\r\n" +
		"Message-ID: <CAH+w=7KqL9x0XyZ@mail.gmail.example>\r\n" +
		"Subject: Re: [chess #17] Move 12: your turn (White)\r\n" +
		"To: Referee <referee@example.test>\r\n" +
		"Content-Type: text/plain; charset=\"UTF-8\"\r\n\r\n" +
		"Nf3\r\n\r\nOn Sun, 22 Nov 2026 at 10:02, Referee <referee@example.test> wrote:\r\n> Game #17\r\n"
	outlookReply = "From: Erin Example <erin@outlook.example>\r\n" +
		"To: \"Referee\" <referee@example.test>\r\n" +
		"Subject: RE: [toto40 #30] Move 2: your turn (White)\r\n" +
		"Thread-Topic: [toto40 #30] Move 2: your turn (White)\r\n" +
		"Thread-Index: AQHbPq1xYz9K2m3n4o5p6q7r8s9t0A==\r\n" +
		"Date: Sun, 22 Nov 2026 12:00:00 +0000\r\n" +
		"Message-ID: <AM0PR07MB9999@AM0PR07MB9999.eurprd07.prod.outlook.example>\r\n" +
		"References: <30.eeeeeeeeee.2.00c0ffee00c0ffee@example.test>\r\n" +
		"In-Reply-To: <30.eeeeeeeeee.2.00c0ffee00c0ffee@example.test>\r\n" +
		"Accept-Language: de-DE, en-US\r\n" +
		"X-MS-Has-Attach:\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=\"iso-8859-1\"\r\n\r\n" +
		"Rd6\r\n\r\n________________________________\r\nFrom: Referee <referee@example.test>\r\n"
	// A forward shows the subject (with a token in it, as the referee
	// wrote subjects before), but carries no In-Reply-To of the referee.
	forward = "From: Mallory <mallory@evil.example>\r\n" +
		"To: referee@example.test\r\n" +
		"Subject: Fwd: [chess #1] Move 3: your turn (White) (ref:1.abcdefghij.3)\r\n" +
		"Date: Sun, 22 Nov 2026 12:00:00 +0000\r\n" +
		"Message-ID: <fwd1@evil.example>\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n\r\n" +
		"resign\r\n\r\n---------- Forwarded message ---------\r\nFrom: Referee <referee@example.test>\r\n" +
		"Subject: [chess #1] Move 3: your turn (White) (ref:1.abcdefghij.3)\r\n"
)

// TestTokenFromReplies: the order of the token sources is the recipient
// headers, then In-Reply-To, then References from the newest (last) to
// the oldest; only ids on the referee's own domain count; differing
// tokens are reported, earlier mails of the same thread are not.
func TestTokenFromReplies(t *testing.T) {
	const hdr = "From: Alice <alice@gmail.example>\r\nSubject: Re: [chess #17] Move 12\r\n"
	tests := []struct {
		name, raw, token, source string
		conflict                 bool
	}{
		{"gmail reply to the plain address", gmailReply, "17.k3fux2ab7q.23", "in-reply-to", false},
		{"outlook reply", outlookReply, "30.eeeeeeeeee.2", "in-reply-to", false},
		{"forward: the subject is no token", forward, "", "", false},
		{"references only: the newest (last) one",
			hdr + "References: <17.k3fux2ab7q.21.0a1b2c3d@example.test> <17.k3fux2ab7q.23.0a1b2c3e@example.test>\r\n\r\ne4\r\n",
			"17.k3fux2ab7q.23", "references", false},
		{"references: ids of other domains skipped",
			hdr + "References: <17.k3fux2ab7q.21.0a1b2c3d@example.test> <CAH+w=7K@mail.gmail.example> <18.k3fux2ab7q.1.0a1b2c3d@evil.example>\r\n\r\ne4\r\n",
			"17.k3fux2ab7q.21", "references", false},
		{"in-reply-to of another domain is no token",
			hdr + "In-Reply-To: <17.k3fux2ab7q.23.0a1b2c3d@evil.example>\r\n\r\ne4\r\n", "", "", false},
		{"the plus-address comes first",
			hdr + "To: referee+17.k3fux2ab7q.24@example.test\r\nIn-Reply-To: <17.k3fux2ab7q.23.0a1b2c3d@example.test>\r\n\r\ne4\r\n",
			"17.k3fux2ab7q.24", "to", true},
		{"in-reply-to before references",
			hdr + "In-Reply-To: <17.k3fux2ab7q.23.0a1b2c3d@example.test>\r\nReferences: <18.bbbbbbbbbb.5.0a1b2c3d@example.test>\r\n\r\ne4\r\n",
			"17.k3fux2ab7q.23", "in-reply-to", true},
		{"the same token in to and in-reply-to is no conflict",
			hdr + "To: referee+17.k3fux2ab7q.23@example.test\r\nIn-Reply-To: <17.k3fux2ab7q.23.0a1b2c3d@example.test>\r\n\r\ne4\r\n",
			"17.k3fux2ab7q.23", "to", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte(tt.raw), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if m.Token != nil {
				got = m.Token.String()
			}
			if got != tt.token || m.TokenSource != tt.source {
				t.Errorf("token %q from %q, want %q from %q", got, m.TokenSource, tt.token, tt.source)
			}
			if c := strings.Contains(strings.Join(m.Warnings, "|"), "names game reference"); c != tt.conflict {
				t.Errorf("conflict reported = %v, want %v (warnings %q)", c, tt.conflict, m.Warnings)
			}
		})
	}
	// The forward is still read for information: its variant, its action.
	m, err := Read([]byte(forward), base, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Variant != "chess" || m.Action != "resign" {
		t.Errorf("forward: variant %q, action %q; want chess, resign", m.Variant, m.Action)
	}
}

// TestTokenOutOfRange: a token whose game number or move number does not
// fit the referee's integers is no token (a damaged or forged address),
// never a game of another number.
func TestTokenOutOfRange(t *testing.T) {
	for _, s := range []string{
		"99999999999999999999.k3fux2ab7q.23", // game number over 2⁶³
		"17.k3fux2ab7q.99999999999999999999", // move number over 2⁶³
		"0.k3fux2ab7q.23",                    // no game 0
	} {
		if tok, ok := ParseToken(s); ok {
			t.Errorf("ParseToken(%q) = %v, want no token", s, tok)
		}
	}
	if tok, ok := ParseToken("17.k3fux2ab7q.23"); !ok || tok.GameID != 17 || tok.Ply != 23 {
		t.Errorf("ParseToken of a good token = %v, %v", tok, ok)
	}
	// Challenges are numbered from 1 as games are.
	if inv, ok := ParseInvite("i0.k3fux2ab7q"); ok {
		t.Errorf("ParseInvite(i0.k3fux2ab7q) = %v, want no invitation", inv)
	}
	if inv, ok := ParseInvite("i1.k3fux2ab7q"); !ok || inv.ChallengeID != 1 {
		t.Errorf("ParseInvite(i1.k3fux2ab7q) = %v, %v; want challenge 1", inv, ok)
	}
}
