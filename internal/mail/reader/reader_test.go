package reader

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the expected readings of the corpus (review them by hand!)")

const base = "referee@example.test"

// reading is what the corpus pins down for each mail.
type reading struct {
	Error       bool     `json:"error"`
	ErrorText   string   `json:"error_text,omitempty"`
	From        string   `json:"from"`
	Subject     string   `json:"subject"`
	Token       string   `json:"token"`
	TokenSource string   `json:"token_source"`
	Variant     string   `json:"variant"`
	Automatic   string   `json:"automatic"`
	Action      string   `json:"action"`
	Message     string   `json:"message"`
	Warnings    []string `json:"warnings"`
	Auth        string   `json:"auth"` // AuthVerdict with mx.example.test trusted
}

func read(raw []byte) reading {
	m, err := Read(raw, base, DefaultLimits())
	if err != nil {
		return reading{Error: true, ErrorText: err.Error()}
	}
	r := reading{From: m.From, Subject: m.Subject, TokenSource: m.TokenSource, Variant: m.Variant, Automatic: m.Automatic,
		Action: m.Action, Message: m.Message, Warnings: m.Warnings}
	if m.Token != nil {
		r.Token = m.Token.String()
	}
	if ok, why := AuthVerdict(m, "mx.example.test"); ok {
		r.Auth = "ok: " + why
	} else {
		r.Auth = "no: " + why
	}
	return r
}

// TestCorpus reads mails as real clients write them (Gmail, Outlook, Apple
// Mail, Thunderbird, K-9, mutt, top-posters, HTML-only, other charsets,
// forwards, hostile ones) and checks each reading against its .want.json.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil || len(files) < 15 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := read(raw)
			wantFile := strings.TrimSuffix(f, ".eml") + ".want.json"
			if *update {
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false) // keep <addresses> readable for review
				enc.SetIndent("", "  ")
				if err := enc.Encode(got); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(wantFile, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v (run go test -update and review the file)", err)
			}
			var want reading
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.MarshalIndent(got, "", "  ")
				t.Errorf("reading differs\n got %s\nwant %s", g, b)
			}
		})
	}
}

// TestReadRefuses checks the only way Read fails without a Mail (brief:
// "an error only when nothing usable can be read"): no mail header at all.
// Each error says what was read and what to do instead. (A mail over
// MaxBytes is an error with a Mail: see TestTooBig.)
func TestReadRefuses(t *testing.T) {
	tests := []struct {
		name  string
		raw   string
		wants []string // fragments the error must contain
	}{
		{"binary junk", "\x89PNG\r\n\x1a\n\x00\x00", []string{"without a single mail header field", `\x89PNG`, "send a normal mail"}},
		{"text without a header", "e4 please\n\nthanks", []string{"without a single mail header field", `"e4 please"`}},
		{"empty", "", []string{"read 0 bytes"}},
		// A blank line first ends the header before it starts (a script
		// that writes a newline before the mail): the first line is empty.
		{"a blank line first", "\nFrom: Bob <bob@example.test>\nSubject: Re: move\n\nNf3\n", []string{"without a single mail header field", `first line ""`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte(tt.raw), base, DefaultLimits())
			if err == nil || m != nil {
				t.Fatalf("Read gave a Mail %v and error %v, want only a refusal", m, err)
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestReadDegrades checks that damaged input still gives the player's
// move, with a warning that says what was wrong (brief: "degrade
// gracefully with Warnings").
func TestReadDegrades(t *testing.T) {
	hdr := "From: a@b.example\r\nTo: referee+17.k3fux2ab7q.23@example.test\r\nSubject: x\r\n"
	var parts strings.Builder
	parts.WriteString(hdr + "Content-Type: multipart/mixed; boundary=p\r\n\r\n--p\r\nContent-Type: text/plain\r\n\r\ne4\r\n")
	for i := 0; i < 100; i++ {
		parts.WriteString("--p\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n")
	}
	parts.WriteString("--p--\r\n")
	tests := []struct {
		name, raw, action, warning string
	}{
		{"1 MB single line is cut at MaxLineBytes", hdr + "\r\ne4\r\n" + strings.Repeat("x", 1<<20) + "\r\n", "e4", "cut at 8 KiB"},
		{"text over MaxTextBytes is truncated", hdr + "\r\ne4\r\n" + strings.Repeat("word word\r\n", 10000), "e4", "text truncated at 64 KiB"},
		{"more parts than MaxParts", parts.String(), "e4", "more than 64 MIME parts"},
		{"malformed header line", hdr + "this line is no header\r\n\r\ne4\r\n", "e4", `malformed header line was ignored: "this line is no header"`},
		{"a line of a stray carriage return", "From: a@b.example\r\n\r\r\nTo: referee+17.k3fux2ab7q.23@example.test\r\nSubject: x\r\n\r\ne4\r\n", "e4", `malformed header line was ignored: "\r"`},
		{"unknown charset", hdr + "Content-Type: text/plain; charset=x-foo\r\n\r\ne4 \xff\r\n", "e4 \uFFFD", `unknown charset "x-foo": read as UTF-8`},
		{"unknown transfer encoding", hdr + "Content-Transfer-Encoding: x-uue\r\n\r\ne4\r\n", "e4", `unknown Content-Transfer-Encoding "x-uue"`},
		{"multipart without boundary", hdr + "Content-Type: multipart/alternative\r\n\r\ne4\r\n", "e4", "has no boundary: read as plain text"},
		{"unterminated boundary", hdr + "Content-Type: multipart/mixed; boundary=q\r\n\r\n--q\r\n\r\ne4\r\n", "e4", "without its closing boundary"},
		{"bad base64", hdr + "Content-Transfer-Encoding: base64\r\n\r\nZTQK\r\n!!!\r\n", "e4", "could not be decoded completely"},
		{"nested 20 deep", hdr + nested(20), "", "nested more than 10 deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := DefaultLimits()
			m, err := Read([]byte(tt.raw), base, lim)
			if err != nil {
				t.Fatalf("Read failed: %v", err)
			}
			if m.Action != tt.action {
				t.Errorf("action %q, want %q", m.Action, tt.action)
			}
			if !strings.Contains(strings.Join(m.Warnings, "|"), tt.warning) {
				t.Errorf("warnings %q, want one containing %q", m.Warnings, tt.warning)
			}
			if len(m.Text) > lim.MaxTextBytes {
				t.Errorf("text of %d bytes over MaxTextBytes", len(m.Text))
			}
			for _, l := range strings.Split(m.Text, "\n") {
				if len(l) > lim.MaxLineBytes {
					t.Errorf("a line of %d bytes survived", len(l))
				}
			}
		})
	}
}

// nested returns the rest of a header and a body of n multiparts, each
// inside the one before, around a text part.
func nested(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=z%d\r\n\r\n--z%d\r\n", i, i)
	}
	b.WriteString("Content-Type: text/plain\r\n\r\ne4\r\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "--z%d--\r\n", i)
	}
	return b.String()
}

// TestLimitsDefaults: a zero field of Limits takes its default, so a
// caller that sets only MaxBytes does not read zero parts.
func TestLimitsDefaults(t *testing.T) {
	got := Limits{MaxBytes: 100}.withDefaults()
	want := DefaultLimits()
	want.MaxBytes = 100
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if d := DefaultLimits(); d.MaxBytes != 2<<20 || d.MaxParts != 64 || d.MaxLineBytes != 8<<10 || d.MaxTextBytes != 64<<10 {
		t.Errorf("DefaultLimits() = %+v, want 2 MiB, 64 parts, 8 KiB lines, 64 KiB text", d)
	}
}

// TestTokenSources: the token is taken from the recipient headers
// (To, Cc, Delivered-To, X-Original-To, Envelope-To; case-insensitively,
// only as a +detail of the referee's own address), never from the subject
// (DESIGN.md: a forward or a notification shows the subject); differing
// tokens are reported. The Message-ID sources are in TestTokenFromReplies.
func TestTokenSources(t *testing.T) {
	tests := []struct {
		name, hdr, token, source string
		conflict                 bool
	}{
		{"to", "To: Referee <referee+17.k3fux2ab7q.23@example.test>\r\n", "17.k3fux2ab7q.23", "to", false},
		{"cc", "To: bob@x.example\r\nCc: referee+17.k3fux2ab7q.23@example.test\r\n", "17.k3fux2ab7q.23", "cc", false},
		{"envelope-to", "To: referee@example.test\r\nEnvelope-To: referee+17.k3fux2ab7q.23@example.test\r\n", "17.k3fux2ab7q.23", "envelope-to", false},
		{"x-original-to", "X-Original-To: referee+17.k3fux2ab7q.23@example.test\r\n", "17.k3fux2ab7q.23", "x-original-to", false},
		{"upper case", "To: REFEREE+17.K3FUX2AB7Q.23@EXAMPLE.TEST\r\n", "17.k3fux2ab7q.23", "to", false},
		{"another base is no token", "To: other+17.k3fux2ab7q.23@example.test\r\n", "", "", false},
		{"another domain is no token", "To: referee+17.k3fux2ab7q.23@evil.example\r\n", "", "", false},
		{"to and cc differ", "To: referee+17.k3fux2ab7q.23@example.test\r\nCc: referee+18.k3fux2ab7q.1@example.test\r\n", "17.k3fux2ab7q.23", "to", true},
		{"same token twice is no conflict", "To: referee+17.k3fux2ab7q.23@example.test\r\nCc: referee+17.K3FUX2AB7Q.23@example.test\r\n", "17.k3fux2ab7q.23", "to", false},
		// The subject is no token source, whatever it says.
		{"subject", "To: referee@example.test\r\nSubject: Re: AW: [chess #17] Move 12 (ref:17.k3fux2ab7q.23)\r\n", "", "", false},
		{"encoded subject", "Subject: =?UTF-8?Q?Sv:_[chess_#17]_tr=C3=A4k_(ref:17.k3fux2ab7q.23)?=\r\n", "", "", false},
		{"folded subject", "Subject: Re: [chess #17] Move 12: your turn\r\n (ref:17.k3fux2ab7q.23)\r\n", "", "", false},
		{"subject with a bare token", "Subject: 17.k3fux2ab7q.23\r\n", "", "", false},
		{"a subject naming another game is no conflict", "To: referee+17.k3fux2ab7q.23@example.test\r\nSubject: (ref:18.k3fux2ab7q.1)\r\n", "17.k3fux2ab7q.23", "to", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte("From: a@b.example\r\n"+tt.hdr+"\r\ne4\r\n"), base, DefaultLimits())
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
			if c := strings.Contains(strings.Join(m.Warnings, "|"), "names"); c != tt.conflict {
				t.Errorf("conflict reported = %v, want %v (warnings %q)", c, tt.conflict, m.Warnings)
			}
		})
	}
}

// TestAutomatic: every kind of mail that must never be answered (DESIGN.md,
// "Loops") is recognised, and a person's mail is not.
func TestAutomatic(t *testing.T) {
	tests := []struct{ name, hdr, want string }{
		{"person", "From: a@b.example\r\nReturn-Path: <a@b.example>\r\nAuto-Submitted: no\r\n", ""},
		{"auto-replied", "From: a@b.example\r\nAuto-Submitted: auto-replied\r\n", "Auto-Submitted: auto-replied"},
		{"auto-generated", "From: a@b.example\r\nAuto-Submitted: Auto-Generated\r\n", "Auto-Submitted: auto-generated"},
		{"empty return path", "From: a@b.example\r\nReturn-Path: <>\r\n", "bounce (empty Return-Path)"},
		{"mailer-daemon", "From: MAILER-DAEMON@mx.example\r\n", "From mailer-daemon@mx.example"},
		{"mailer-daemon without a domain", "From: MAILER-DAEMON (Mail Delivery System)\r\n", "From MAILER-DAEMON"},
		{"postmaster", "From: Postmaster <postmaster@mx.example>\r\n", "From postmaster@mx.example"},
		{"precedence bulk", "From: a@b.example\r\nPrecedence: bulk\r\n", "Precedence: bulk"},
		{"precedence junk", "From: a@b.example\r\nPrecedence: junk\r\n", "Precedence: junk"},
		{"list-id", "From: a@b.example\r\nList-Id: <chess.lists.example>\r\n", "mailing list (List-Id)"},
		{"list-unsubscribe", "From: a@b.example\r\nList-Unsubscribe: <mailto:u@l.example>\r\n", "mailing list (List-Id)"},
		{"x-autoreply", "From: a@b.example\r\nX-Autoreply: yes\r\n", "X-Autoreply"},
		{"x-autorespond", "From: a@b.example\r\nX-Autorespond: yes\r\n", "X-Autoreply"},
		{"x-auto-response-suppress oof", "From: a@b.example\r\nX-Auto-Response-Suppress: OOF, AutoReply\r\n", "X-Auto-Response-Suppress: oof, autoreply"},
		{"x-auto-response-suppress dr only", "From: a@b.example\r\nX-Auto-Response-Suppress: DR\r\n", ""},
		{"dsn", "From: a@b.example\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=x\r\n", "delivery or read report (multipart/report)"},
		{"the referee itself", "From: Referee <Referee+17.k3fux2ab7q.23@Example.Test>\r\n", "from the referee itself"},
		// A From that names no one is reported as such (BadFrom), not
		// taken for a mailer daemon.
		{"a From of two addresses", "From: alice@example.test <mallory@evil.test>\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte(tt.hdr+"Subject: x\r\n\r\ne4\r\n"), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.Automatic != tt.want {
				t.Errorf("Automatic = %q, want %q", m.Automatic, tt.want)
			}
		})
	}
}

// TestClean protects the cleaning rules of the brief and DESIGN.md
// ("Reading a mail"): what is cut, what is dropped, what is kept.
func TestClean(t *testing.T) {
	long := strings.Repeat("blah ", 600) // 3,000 characters
	tests := []struct {
		name, in, action, message string
	}{
		{"plain", "e4", "e4", ""},
		{"message after, blank runs collapsed", "e4\nhello\n\n\nbye", "e4", "hello\n\nbye"},
		{"leading blank lines and spaces", "\n\n  Nf3  \n", "Nf3", ""},
		{"CRLF", "e4\r\nhi\r\n", "e4", "hi"},
		{"BOM and zero-width characters dropped", "\uFEFF\u200be4\u200d\nhi", "e4", "hi"},
		{"non-breaking spaces are spaces", "Nf3\u00a0\u00a0\nhi\u00a0there", "Nf3", "hi there"},
		{"quoted lines dropped", "> old\ne4\n> more", "e4", ""},
		{"gmail attribution", "d4\nOn Sun, 22 Nov 2026 at 10:02, Referee <r@x.test> wrote:\n> x", "d4", ""},
		{"attribution wrapped over two lines", "d4\nOn Sun, 22 Nov 2026 at 10:02, Referee <r@x.test>\nwrote:\nGame #1", "d4", ""},
		{"attribution wrapped inside the address", "d4\nOn Sun, 22 Nov 2026 at 10:02, Referee <\nr@x.test> wrote:\nlost", "d4", ""},
		{"german", "d4\nAm 22.11.26 um 13:50 schrieb Referee:\nx", "d4", ""},
		{"german wrapped", "d4\nAm So., 22. Nov. 2026 um 10:02 Uhr schrieb Referee <\nr@x.test>:\nx", "d4", ""},
		{"french", "d4\nLe 22/11/2026 à 19:00, Referee a écrit :\nx", "d4", ""},
		{"spanish", "d4\nEl dom, 22 nov 2026 a las 10:00, Referee escribió:\nx", "d4", ""},
		{"italian", "d4\nIl giorno dom 22 nov 2026 alle ore 10:00 Referee <r@x.test> ha scritto:\nx", "d4", ""},
		{"dutch", "d4\nOp zo 22 nov 2026 om 10:00 schreef Referee <r@x.test>:\nx", "d4", ""},
		{"russian", "d4\n22.11.2026, 10:00, Referee написал(а):\nx", "d4", ""},
		{"danish", "d4\nDen søn. 22. nov. 2026 kl. 10.00 skrev Referee <r@x.test>:\nx", "d4", ""},
		{"outlook original", "d4\n-----Original Message-----\nFrom: x", "d4", ""},
		{"outlook german original", "d4\n-----Ursprüngliche Nachricht-----\nVon: x", "d4", ""},
		{"outlook header block", "d4\n\nFrom: Referee <r@x.test>\nSent: Sunday\nTo: me\nSubject: x\n\nGame", "d4", ""},
		{"outlook french header block", "d4\nDe : Referee <r@x.test>\nEnvoyé : dimanche\nÀ : moi\nObjet : x\nvieux", "d4", ""},
		{"outlook html bold block", "d4\n*From:* Referee\n*Sent:* Sunday\n*To:* me\nold", "d4", ""},
		{"a From: line alone is the player's", "d4\nFrom: my sofa\nwith love", "d4", "From: my sofa\nwith love"},
		// Header fields need a sender among them, or three of them: two
		// lines the player began with a field's name are the player's.
		{"a Date: and a To: line are the player's", "d4\nDate: Sunday, if that suits you\nTo: the club at ten, as usual", "d4", "Date: Sunday, if that suits you\nTo: the club at ten, as usual"},
		// Outlook's header on one line names the sender: a line with only
		// a date and a subject in it is the player's.
		{"a date and a subject on one line are the player's", "Nf3\nClub night date: Friday, subject: the Sicilian", "Nf3", "Club night date: Friday, subject: the Sicilian"},
		// A line ending with a colon introduces a quote only when ">"
		// lines follow it; at the end of the mail it is the player's.
		{"a colon on the last line", "Nf3\nWhat do you make of this line:", "Nf3", "What do you make of this line:"},
		{"DEL dropped", "e4\x7f\nhi", "e4", "hi"},
		// A rule the player drew is a quote's beginning only with a
		// header within the three lines below it.
		{"a rule as the last line", "d4\nthanks\n----------", "d4", "thanks\n----------"},
		{"a rule below a field's name", "d4\nDate: Sunday suits me\n----------\nGood game so far", "d4", "Date: Sunday suits me\n----------\nGood game so far"},
		{"a rule four lines above a header", "d4\n----------\nPS: see you\non Sunday\nat the club\nFrom: Referee <r@x.test>\nSent: Sunday\nTo: me\nSubject: x",
			"d4", "----------\nPS: see you\non Sunday\nat the club"},
		// Answering between quoted lines: a line of the player's with a
		// time on it, but no address, is no header above the quote.
		{"a time above quoted lines", "Nf3\nI can play again from 19:30 tomorrow\n> White played e4.", "Nf3", "I can play again from 19:30 tomorrow"},
		// Results with dashes above Outlook's header block are no rule.
		{"a line with dashes above a header", "d4\nRound 3: Alice - Bob 1-0, Carol - Dave 0-1\n\nFrom: Referee <r@x.test>\nSent: Sunday\nTo: me\nSubject: x",
			"d4", "Round 3: Alice - Bob 1-0, Carol - Dave 0-1"},
		// A date and an address in one line, with no colon at its end,
		// are the player's (an attribution ends with a colon).
		{"an address and a date in the player's words", "Nf3\nFrom 24.12. I read alice@holiday.example\nsee you", "Nf3", "From 24.12. I read alice@holiday.example\nsee you"},
		// Fields of a header follow each other: a field's name, two
		// lines of the player's, then another are no header block.
		{"field names two lines apart", "d4\nDate: Sunday suits me\nfor the rematch,\nat the club.\nFrom: my sofa, with love", "d4", "Date: Sunday suits me\nfor the rematch,\nat the club.\nFrom: my sofa, with love"},
		{"a colon above blank lines only", "Nf3\nMy plan:\n\n", "Nf3", "My plan:"},
		// A line naming an address and a date is a header only with
		// quoted lines within the three lines below it (Discourse's
		// "2013/7/20 Bob via Discourse <b@x>", then a blank line or two).
		{"an address and a date above a blank line and a quote", "Nf3\n2013/7/20 Bob via Discourse <b@x.test>\n\n> old", "Nf3", ""},
		{"an address and a date two blank lines above a quote", "Nf3\n2013/7/20 Bob via Discourse <b@x.test>\n\n\n> old", "Nf3", ""},
		{"an address and a date three blank lines above a quote", "Nf3\n2013/7/20 Bob via Discourse <b@x.test>\n\n\n\n> old", "Nf3", "2013/7/20 Bob via Discourse <b@x.test>"},
		{"an address and a date on the last line", "Nf3\nsee you 2026-11-23, bob@x.test\n", "Nf3", "see you 2026-11-23, bob@x.test"},
		{"underscore separator", "d4\n________________________________\nFrom: x", "d4", ""},
		{"signature", "d4\nthanks\n-- \nAlice\nphone", "d4", "thanks"},
		{"signature without the space", "d4\nthanks\n--\nAlice", "d4", "thanks"},
		// A client's footer ends the player's words: below it comes the
		// client's quote (issue 36: Outlook mobile, TypeApp, Zoho).
		{"mobile footers end the words", "d4\nthanks\nSent from my iPhone\nok", "d4", "thanks"},
		{"a footer above the move is skipped", "Sent from my iPhone\nd4", "d4", ""},
		{"outlook mobile footer", "d4\nGet Outlook for Android", "d4", ""},
		{"german footer", "d4\nVon meinem iPhone gesendet", "d4", ""},
		{"french footer", "d4\nEnvoyé de mon iPhone", "d4", ""},
		{"windows mail footer", "d4\n\nSent from Mail for Windows", "d4", ""},
		{"quoted board without marks", "exd5\n\nGame #17 - Chess - move 13 - Black to play\n\n    +---+---+---+", "exd5", ""},
		{"board frame", "exd5\n    +---+---+---+---+", "exd5", ""},
		{"referee's reply help", "exd5\nnice\nReply with your move on the first line (e.g. \"Nc6\"), or one of:", "exd5", "nice"},
		{"forward marker: nothing written", "---------- Forwarded message ---------\nFrom: Bob\n\nQh5", "", ""},
		{"forward marker: what the forwarder wrote", "resign\n\n---------- Forwarded message ---------\nQh5", "resign", ""},
		{"apple forward", "Begin forwarded message:\n\nQh5", "", ""},
		{"bottom-posting", "On Sun, Referee <r@x.test> wrote:\n> Game #17\n> x\n\nNf3\nhi", "Nf3", "hi"},
		// A line of stars (a section break) above a bottom-posted quote
		// has no words: the quote's header is still above the action.
		{"stars above a bottom-posted quote", "***\nOn Sun, 22 Nov 2026 at 10:02, Referee <r@x.test> wrote:\n> Game #17\n\nNf3", "Nf3", ""},
		// Thunderbird, bottom-posting: the greeting typed at the top, the
		// move below the quote.
		{"a greeting above a bottom-posted quote", "Hi Bob,\n\nOn 22/11/2026 10:02, Referee wrote:\n> Game #17 - Chess - move 12\n> White played Nf3.\n\nNc6\nsee you", "Nc6", "Hi Bob,\nsee you"},
		{"mutt bottom-posting", "* Referee <r@x.test> [2026-11-22 15:50]:\n> Game #50\n\nG@e1", "G@e1", ""},
		{"interleaved: only the first attribution may be skipped", "Nf3\nOn Sun, R <r@x.test> wrote:\n> y\nmore", "Nf3", ""},
		{"html bold", "*e4*", "e4", ""},
		{"quotes around", "\"Nf3\"", "Nf3", ""},
		{"typographic quotes around", "„Nf3“", "Nf3", ""},
		{"wizard asterisk kept", "Nb3*", "Nb3*", ""},
		{"chec toe suffixes kept", "Nb3⌄\nBc3° next", "Nb3⌄", "Bc3° next"},
		{"inner spaces collapsed", "K@e1    G@d1", "K@e1 G@d1", ""},
		{"only quotes", "> e4\n> e5", "", ""},
		{"empty", "", "", ""},
		{"message cut at 2,000 characters", "e4\n" + long, "e4", strings.TrimSpace(long[:1994]) + " [...]"},
		{"a message of exactly 2,000 characters is relayed whole", "e4\n" + long[:1995] + "blah.", "e4", long[:1995] + "blah."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, m := Clean(tt.in)
			if a != tt.action || m != tt.message {
				t.Errorf("Clean(%q)\n = %q, %q\nwant %q, %q", tt.in, a, m, tt.action, tt.message)
			}
		})
	}
}

// TestUnflow: RFC 3676 soft line breaks (a trailing space) are joined, per
// quote depth; hard breaks, the signature separator and quotes stay.
func TestUnflow(t *testing.T) {
	tests := []struct {
		name, in, want string
		delsp          bool
	}{
		{"hard breaks kept", "Nf3\nhello", "Nf3\nhello", false},
		{"soft break joined", "a long \nline\nnext", "a long line\nnext", false},
		{"delsp removes the space", "a long \nline", "a longline", true},
		{"space-stuffing removed", " From me\n  two", "From me\n two", false},
		{"quote depth ends a paragraph", "mine \n> theirs \n> more\nafter", "mine \n> theirs more\nafter", false},
		{"signature separator not flowed", "thanks \n-- \nAlice", "thanks \n-- \nAlice", false},
	}
	for _, tt := range tests {
		if got := unflow(tt.in, tt.delsp); got != tt.want {
			t.Errorf("%s: unflow(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestMessageCapCountsCharacters: the 2,000 cap is in characters, so a
// message in Cyrillic or with emoji is not cut at 1,000 or 500.
func TestMessageCapCountsCharacters(t *testing.T) {
	for _, word := range []string{"ab", "жз", "♞♘", "🙂🙃"} {
		_, m := Clean("e4\n" + strings.Repeat(word, 1500))
		if n := utf8.RuneCountInString(m); n != maxMessage {
			t.Errorf("%s: message of %d characters, want %d", word, n, maxMessage)
		}
		if !utf8.ValidString(m) || !strings.HasSuffix(m, " [...]") {
			t.Errorf("%s: message not valid UTF-8 or not marked as cut: ...%q", word, m[len(m)-12:])
		}
	}
}

func TestParseToken(t *testing.T) {
	// The token of the brief: <gameid>.<secret>.<ply>, secret 10 characters
	// of lower-case base32, compared in lower case.
	tests := []struct {
		in   string
		ok   bool
		want Token
	}{
		{"17.k3fux2ab7q.23", true, Token{17, "k3fux2ab7q", 23}},
		{"17.K3FUX2AB7Q.0", true, Token{17, "k3fux2ab7q", 0}},     // providers upper-case
		{" 17.k3fux2ab7q.23 ", true, Token{17, "k3fux2ab7q", 23}}, // stray spaces
		{"123456789012.abcdefghij.999999999", true, Token{123456789012, "abcdefghij", 999999999}},
		{"17.k3f9x2ab7.23", false, Token{}},   // 9-character secret
		{"17.k3f9x2ab7qq.23", false, Token{}}, // 11 characters
		{"17.k3f9x2ab71.23", false, Token{}},  // '1' is not base32
		{"17.k3f8x2ab7q.23", false, Token{}},  // nor is '8'
		{"0.k3fux2ab7q.1", false, Token{}},    // no game 0
		{"17.k3fux2ab7q", false, Token{}},     // no ply
		{"x17.k3fux2ab7q.1", false, Token{}},  // junk
		{"17.k3fux2ab7q.-1", false, Token{}},  // negative ply
		{"17.k3fux2ab7q.1.2", false, Token{}},
		{"1234567890123.k3fux2ab7q.1", false, Token{}}, // game id too long
		{"", false, Token{}},
	}
	for _, tt := range tests {
		got, ok := ParseToken(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseToken(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok && got.String() != strings.ToLower(strings.TrimSpace(tt.in)) {
			t.Errorf("String() = %q, want %q", got.String(), strings.ToLower(tt.in))
		}
	}
}

// TestAuthVerdict: ok only when the trusted server says dkim=pass for the
// From domain or spf=pass for a mail-from in it, in its own (topmost)
// headers; the reason says what was found.
func TestAuthVerdict(t *testing.T) {
	mk := func(hdr string) *Mail {
		raw := "Return-Path: <alice@gmail.example>\r\n" + hdr + "From: Alice <alice@gmail.example>\r\nSubject: x\r\n\r\ne4\r\n"
		m, err := Read([]byte(raw), base, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	const rcv = "Received: from mail.gmail.example by mx.example.test with ESMTPS; Sun, 22 Nov 2026 10:00:00 +0000\r\n"
	tests := []struct {
		name, hdr string
		ok        bool
		reason    string
	}{
		{"dkim pass", "Authentication-Results: mx.example.test; dkim=pass header.d=gmail.example; spf=fail smtp.mailfrom=x@y.example\r\n", true, "dkim=pass for gmail.example"},
		{"spf pass", "Authentication-Results: mx.example.test; spf=pass smtp.mailfrom=alice@gmail.example\r\n", true, "spf=pass for gmail.example"},
		{"opendkim comments", "Authentication-Results: mx.example.test;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=gmail.example header.b=\"Xb4Q\";\r\n\tdkim-atps=neutral\r\n", true, "dkim=pass"},
		{"two headers of the same server", "Authentication-Results: mx.example.test; dkim=fail header.d=gmail.example\r\nReceived-SPF: Pass\r\nAuthentication-Results: mx.example.test; spf=pass smtp.mailfrom=alice@gmail.example\r\n" + rcv, true, "spf=pass"},
		{"dkim for another domain", "Authentication-Results: mx.example.test; dkim=pass header.d=evil.example\r\n", false, "found dkim=pass for evil.example"},
		{"untrusted server", "Authentication-Results: evil.example; dkim=pass header.d=gmail.example\r\n", false, "no DKIM or SPF result from mx.example.test"},
		{"fail", "Authentication-Results: mx.example.test; dkim=fail header.d=gmail.example; spf=softfail smtp.mailfrom=alice@gmail.example\r\n", false, "found dkim=fail for gmail.example, spf=softfail"},
		{"forged header below Received", "Authentication-Results: mx.example.test; dkim=none\r\n" + rcv + "Authentication-Results: mx.example.test; dkim=pass header.d=gmail.example\r\n", false,
			"1 header(s) naming mx.example.test ignored: they are below the Received field from mail.gmail.example by mx.example.test"},
		{"none", "", false, "no DKIM or SPF result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, why := AuthVerdict(mk(tt.hdr), "MX.example.test")
			if ok != tt.ok || !strings.Contains(why, tt.reason) {
				t.Errorf("ok = %v (%s), want %v (%s)", ok, why, tt.ok, tt.reason)
			}
		})
	}
	if ok, why := AuthVerdict(mk(""), ""); ok || !strings.Contains(why, "no trusted") {
		t.Errorf("no trusted server: ok = %v (%s)", ok, why)
	}
}

// FuzzRead: no panic on any input, and memory stays bounded: the text
// kept is never over MaxTextBytes, no line over MaxLineBytes, the message
// never over 2,000 characters, the action one line.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*.eml")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Add([]byte("From: a@b\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: multipart/alternative; boundary=y\r\n\r\n--y\r\n\r\ne4\r\n--x--"))
	lim := Limits{MaxBytes: 1 << 20, MaxParts: 16, MaxLineBytes: 1024, MaxTextBytes: 4096}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Read(raw, base, lim)
		if err != nil {
			if m != nil && (!errors.Is(err, ErrTooBig) || m.Action != "" || m.Text != "") {
				t.Fatalf("a Mail with action %q and the error %v", m.Action, err)
			}
			return
		}
		if len(m.Text) > lim.MaxTextBytes {
			t.Fatalf("text of %d bytes over the cap %d", len(m.Text), lim.MaxTextBytes)
		}
		for _, l := range strings.Split(m.Text, "\n") {
			if len(l) > lim.MaxLineBytes {
				t.Fatalf("a line of %d bytes over the cap %d", len(l), lim.MaxLineBytes)
			}
		}
		if utf8.RuneCountInString(m.Message) > maxMessage {
			t.Fatalf("message of %d characters", utf8.RuneCountInString(m.Message))
		}
		if strings.Contains(m.Action, "\n") || !utf8.ValidString(m.Text) {
			t.Fatalf("action %q spans lines, or text is not UTF-8", m.Action)
		}
		if len(m.Warnings) > 2*maxWarnings {
			t.Fatalf("%d warnings", len(m.Warnings))
		}
	})
}

// FuzzClean: no panic; the action is one line, the message at most 2,000
// characters, both valid UTF-8 when the input is.
func FuzzClean(f *testing.F) {
	f.Add("e4\nhello\n> quoted\n-- \nsig")
	f.Add("On x wrote:\n")
	f.Add("* R <r@x> [d]:\n> q\n\nNf3\nFrom: a\nSent: b\nTo: c")
	f.Fuzz(func(t *testing.T, s string) {
		a, m := Clean(s)
		if strings.ContainsAny(a, "\n\r") {
			t.Fatalf("action %q spans lines", a)
		}
		if utf8.RuneCountInString(m) > maxMessage {
			t.Fatalf("message of %d characters", utf8.RuneCountInString(m))
		}
		if utf8.ValidString(s) && (!utf8.ValidString(a) || !utf8.ValidString(m)) {
			t.Fatalf("invalid UTF-8 out of valid input: %q, %q", a, m)
		}
		// Whatever the referee sent (here: the whole reply, the worst
		// case), the action never changes and the message only shrinks.
		a2, m2 := clean(s, NewSent(s, s))
		if a2 != a || len(m2) > len(m)+len(s) {
			t.Fatalf("knowing the referee's mail changed the action %q to %q", a, a2)
		}
	})
}

// BenchmarkRead reads the corpus mails, one Read per mail.
func BenchmarkRead(b *testing.B) {
	files, _ := filepath.Glob("testdata/corpus/*.eml")
	var mails [][]byte
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		mails = append(mails, raw)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, raw := range mails {
			_, _ = Read(raw, base, DefaultLimits())
		}
	}
}

// BenchmarkReadHugeLine reads a 1 MB single-line mail.
func BenchmarkReadHugeLine(b *testing.B) {
	raw := []byte("From: a@b.example\r\nSubject: x\r\n\r\ne4\r\n" + strings.Repeat("x", 1<<20) + "\r\n")
	b.SetBytes(int64(len(raw)))
	for i := 0; i < b.N; i++ {
		if _, err := Read(raw, base, DefaultLimits()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCleanWorstCase cleans 64 KiB (the text cap of DefaultLimits)
// of lines built to make the attribution patterns work hard.
func BenchmarkCleanWorstCase(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"over-length", "On " + strings.Repeat("a <b@c> ", 1020) + "wrote :"}, // 8 KiB: not tested
		{"long-match", "On " + strings.Repeat("a <b@c> ", 48) + "wrote :"},    // matches after a long scan
		{"long-no-match", strings.Repeat("a <b@c> wrote ", 28) + "x:"},        // tested, matches nothing
	} {
		text := strings.Repeat(c.line+"\n", (64<<10)/len(c.line))
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				Clean(text)
			}
		})
	}
}

// TestHeaderFields: the fields the referee answers with, as clients write
// them: the date, a Message-ID without angle brackets (old mailers; the
// reply's In-Reply-To names it as written), and a recipient whose display
// name is an address (Outlook and phones write the address when the
// contact has no name): the token is in the address, not in the name.
func TestHeaderFields(t *testing.T) {
	raw := "From: Alice <alice@example.org>\r\n" +
		"To: \"referee@example.test\" <referee+17.k3fux2ab7q.23@example.test>\r\n" +
		"Subject: Re: [chess #17] Move 12\r\n" +
		"Date: Sun, 22 Nov 2026 10:14:02 +0100\r\n" +
		"Message-ID: 20261122101402.4711@mail.example.org\r\n\r\nNf3\r\n"
	m, err := Read([]byte(raw), "referee@example.test", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 11, 22, 9, 14, 2, 0, time.UTC); !m.Date.Equal(want) {
		t.Errorf("Date %v, want %v", m.Date, want)
	}
	if m.MessageID != "20261122101402.4711@mail.example.org" {
		t.Errorf("MessageID %q, want the field as written", m.MessageID)
	}
	if m.Token == nil || m.Token.String() != "17.k3fux2ab7q.23" || m.TokenSource != "to" {
		t.Errorf("token %v from %q, want 17.k3fux2ab7q.23 from to", m.Token, m.TokenSource)
	}
}

// TestHeaderFieldsFromOutlook: a Russian Outlook writes the referee's name
// in To in koi8-r, which the header decoder does not know, and a reply
// without In-Reply-To (a new mail to the game's address): the token is
// still read from the address in To. A Message-ID with a comment after it
// is answered by its id alone.
func TestHeaderFieldsFromOutlook(t *testing.T) {
	raw := "From: Ivan <ivan@example.org>\r\n" +
		"To: =?koi8-r?B?89XE2NE=?= <referee+17.k3fux2ab7q.23@example.test>\r\n" +
		"Subject: =?koi8-r?B?6M/E?=\r\n" +
		"Message-ID: <20261122101402.4711@mail.example.org> (Microsoft Outlook 16.0)\r\n\r\nNf3\r\n"
	m, err := Read([]byte(raw), "referee@example.test", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Token == nil || m.Token.String() != "17.k3fux2ab7q.23" || m.TokenSource != "to" {
		t.Errorf("token %v from %q, want 17.k3fux2ab7q.23 from to", m.Token, m.TokenSource)
	}
	if m.MessageID != "<20261122101402.4711@mail.example.org>" {
		t.Errorf("MessageID %q, want <20261122101402.4711@mail.example.org>", m.MessageID)
	}
	if m.Action != "Nf3" {
		t.Errorf("action %q, want Nf3", m.Action)
	}
}
