package reader

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// bigMail is a realistic reply with a photo attached: a multipart body
// with a text part and a base64 attachment of about size bytes.
func bigMail(size int) string {
	var b strings.Builder
	b.WriteString("Return-Path: <alice@gmail.example>\r\n" +
		"Received: from mail-wr1-f41.google.example (mail-wr1-f41.google.example [209.85.221.41])\r\n" +
		"\tby mx.example.test (Postfix) with ESMTPS id 4ABC\r\n" +
		"\tfor <referee+17.k3fux2ab7q.23@example.test>; Sun, 22 Nov 2026 10:14:02 +0000\r\n" +
		"From: Alice Liddell <alice@gmail.example>\r\n" +
		"To: Referee <referee+17.k3fux2ab7q.23@example.test>\r\n" +
		"Subject: Re: [chess #17] Move 12: your turn (White)\r\n" +
		"Message-ID: <CAH+w=7KqL9x0XyZ@mail.gmail.example>\r\n" +
		"In-Reply-To: <17.k3fux2ab7q.23.9f8e7d6c5b4a3921@example.test>\r\n" +
		"References: <17.k3fux2ab7q.21.0a1b2c3d4e5f6071@example.test>\r\n" +
		" <17.k3fux2ab7q.23.9f8e7d6c5b4a3921@example.test>\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n" +
		"--b1\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nNf3\r\n\r\nA photo of my board.\r\n" +
		"--b1\r\nContent-Type: image/jpeg; name=board.jpg\r\nContent-Transfer-Encoding: base64\r\n" +
		"Content-Disposition: attachment; filename=board.jpg\r\n\r\n")
	line := strings.Repeat("/9j/4AAQSkZJRgABAQ", 4) + "\r\n"
	for b.Len() < size {
		b.WriteString(line)
	}
	b.WriteString("--b1--\r\n")
	return b.String()
}

// TestTooBig: a mail over MaxBytes still gives its header, so that the
// core can answer its sender, with no body and an error that says the size
// and the limit and is ErrTooBig.
func TestTooBig(t *testing.T) {
	raw := bigMail(3 << 20) // a 3 MiB photo, over the 2 MiB default
	for _, tt := range []struct {
		name string
		raw  string
	}{
		{"the whole mail", raw},
		{"the first MaxBytes+1 bytes, as the daemon fetches them", raw[:2<<20+1]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read([]byte(tt.raw), base, DefaultLimits())
			if m == nil || !errors.Is(err, ErrTooBig) {
				t.Fatalf("Read = %v, %v; want a Mail and ErrTooBig", m, err)
			}
			var tb *TooBigError
			if !errors.As(err, &tb) || tb.Size != int64(len(tt.raw)) || tb.Limit != 2<<20 {
				t.Errorf("error %#v, want a *TooBigError of %d bytes, limit %d", err, len(tt.raw), 2<<20)
			}
			for _, w := range []string{strconv.Itoa(len(tt.raw)) + " bytes", "limit of 2097152 bytes", "without attachments"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			tok := ""
			if m.Token != nil {
				tok = m.Token.String()
			}
			got := []string{m.From, m.MessageID, m.Subject, tok, m.TokenSource, m.Automatic, m.Action, m.Text}
			want := []string{"alice@gmail.example", "<CAH+w=7KqL9x0XyZ@mail.gmail.example>", "Re: [chess #17] Move 12: your turn (White)",
				"17.k3fux2ab7q.23", "to", "", "", ""}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("read %q\nwant %q", got, want)
			}
			if len(m.Warnings) != 0 {
				t.Errorf("warnings %q for a complete header", m.Warnings)
			}
		})
	}
	// An oversized automatic mail is still known to be automatic.
	auto := "Auto-Submitted: auto-replied\r\n" + raw
	if m, err := Read([]byte(auto), base, DefaultLimits()); m == nil || m.Automatic != "Auto-Submitted: auto-replied" || !errors.Is(err, ErrTooBig) {
		t.Errorf("oversized auto-reply: %v, %v", m, err)
	}
	// A damaged header line of one character (a gateway's stray "="
	// from a broken soft line break, in a mail stored with bare LF) does
	// not end the header: it is dropped with a warning, the fields below
	// it are read.
	damaged := strings.Replace(strings.ReplaceAll(raw, "\r\n", "\n"), "From: ", "=\nFrom: ", 1)
	if m, err := Read([]byte(damaged), base, DefaultLimits()); m == nil || m.From != "alice@gmail.example" || !errors.Is(err, ErrTooBig) ||
		!strings.Contains(strings.Join(m.Warnings, "|"), "malformed header line was ignored") {
		t.Errorf("oversized mail with a one-character header line: %+v, %v; want From alice@gmail.example and a warning", m, err)
	}
	// A header line of a stray carriage return ("\r\r\n", a gateway's
	// double line end) does not end the header either, nor make the mail
	// unreadable: dropped with a warning, the fields below it read.
	stray := strings.Replace(raw, "From: ", "\r\r\nFrom: ", 1)
	if m, err := Read([]byte(stray), base, DefaultLimits()); m == nil || m.From != "alice@gmail.example" || !errors.Is(err, ErrTooBig) ||
		!strings.Contains(strings.Join(m.Warnings, "|"), `malformed header line was ignored: "\r"`) {
		t.Errorf("oversized mail with a stray carriage return line: %+v, %v; want From alice@gmail.example and a warning", m, err)
	}
	// An oversized mail of indented lines (a text pasted as a mail, no
	// header field) cut inside a line: nothing to answer, and no crash;
	// the error gives the size read, not that of the header part looked at.
	indented := strings.Repeat("    a line of a pasted text\r\n", 100)
	if m, err := Read([]byte(indented), base, Limits{MaxBytes: 1000}); m != nil || err == nil ||
		!strings.Contains(err.Error(), fmt.Sprintf("read %d bytes", len(indented))) {
		t.Errorf("oversized indented text: Read = %v, %v; want no Mail and an error saying %d bytes were read", m, err, len(indented))
	}
	// Without a header there is still nothing to answer: no Mail.
	junk := strings.Repeat("\x00\x89PNG junk ", 300000)
	if m, err := Read([]byte(junk), base, DefaultLimits()); m != nil || err == nil ||
		!strings.Contains(err.Error(), fmt.Sprintf("read %d bytes", len(junk))) {
		t.Errorf("oversized junk: Read = %v, %v; want no Mail and an error saying %d bytes were read", m, err, len(junk))
	}
}

// TestTooBigCut: the daemon fetches only the first MaxBytes+1 bytes of a
// large mail, so the cut may fall anywhere: inside a header line, inside
// a folded field, on a line end, in the body, inside a MIME part. Every
// header field is then either read whole or not at all (never a cut
// token or address), the body is never read, and the fields before the
// cut are all there.
func TestTooBigCut(t *testing.T) {
	// CRLF as sent; bare LF as a Unix mailer or a mailbox file stores it.
	for _, nl := range []string{"\r\n", "\n"} {
		testTooBigCut(t, strings.ReplaceAll(bigMail(4000), "\r\n", nl), nl)
	}
}

func testTooBigCut(t *testing.T, raw, nl string) {
	headerEnd := strings.Index(raw, nl+nl) + 2*len(nl)
	// end returns the offset just past the field that starts with prefix
	// (its continuation lines included).
	end := func(prefix string) int {
		i := strings.Index(raw, nl+prefix) + len(nl)
		for {
			j := strings.Index(raw[i:], nl) + i + len(nl)
			if raw[j] != ' ' && raw[j] != '\t' {
				return j
			}
			i = j
		}
	}
	fields := []struct {
		name string
		end  int
		get  func(m *Mail) string
		want string
	}{
		{"From", end("From:"), func(m *Mail) string { return m.From }, "alice@gmail.example"},
		{"To token", end("To:"), func(m *Mail) string {
			if m.Token == nil || m.TokenSource != "to" {
				return ""
			}
			return m.Token.String()
		}, "17.k3fux2ab7q.23"},
		{"Subject", end("Subject:"), func(m *Mail) string { return m.Subject }, "Re: [chess #17] Move 12: your turn (White)"},
		{"Message-ID", end("Message-ID:"), func(m *Mail) string { return m.MessageID }, "<CAH+w=7KqL9x0XyZ@mail.gmail.example>"},
		{"References (folded)", end("References:"), func(m *Mail) string { return strings.Join(m.References, " ") },
			"<17.k3fux2ab7q.21.0a1b2c3d4e5f6071@example.test> <17.k3fux2ab7q.23.9f8e7d6c5b4a3921@example.test>"},
	}
	for n := 1; n < len(raw); n++ {
		cut := raw[:n]
		m, err := Read([]byte(cut), base, Limits{MaxBytes: int64(n - 1)})
		if m == nil {
			if n > len("Return-Path: <alice@gmail.example>\r\n") {
				t.Fatalf("cut at %d: no Mail (%v), though a whole field was there", n, err)
			}
			continue
		}
		if !errors.Is(err, ErrTooBig) || m.Action != "" || m.Text != "" {
			t.Fatalf("cut at %d: error %v, action %q, text %q; want ErrTooBig and no body", n, err, m.Action, m.Text)
		}
		for _, f := range fields {
			got := f.get(m)
			switch {
			case n > f.end || n >= headerEnd: // the next line has begun: the field is whole
				if got != f.want {
					t.Fatalf("cut at %d (%q): %s = %q, want %q", n, cut[max(0, n-20):], f.name, got, f.want)
				}
			case got != "":
				t.Fatalf("cut at %d (%q): %s = %q read from a field that may go on", n, cut[max(0, n-20):], f.name, got)
			}
		}
		if n < headerEnd-len(nl) && !strings.Contains(strings.Join(m.Warnings, "|"), "header was cut") {
			t.Fatalf("cut at %d inside the header: no warning (%q)", n, m.Warnings)
		}
		if n >= headerEnd && len(m.Warnings) > 0 {
			t.Fatalf("cut at %d past the header: warnings %q", n, m.Warnings)
		}
		// The whole mail under the same limit reads as its first
		// MaxBytes+1 bytes: nothing past them is looked at.
		whole, err := Read([]byte(raw), base, Limits{MaxBytes: int64(n - 1)})
		if !errors.Is(err, ErrTooBig) || !reflect.DeepEqual(whole, m) {
			t.Fatalf("cut at %d: the whole mail under the same limit read as %+v, %v; its first %d bytes as %+v", n, whole, err, n, m)
		}
	}
}
