package reader

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// limitsMail is a plain reply whose second line is body.
func limitsMail(body string) []byte {
	return []byte("From: Alice <alice@example.test>\r\n" +
		"To: referee+17.k3fux2ab7q.23@example.test\r\n" +
		"Subject: Re: [chess #17] Move 12\r\n" +
		"Message-ID: <limits@example.test>\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=UTF-8\r\n" +
		"Content-Transfer-Encoding: 8bit\r\n\r\n" +
		"Nf3\r\n" + body + "\r\n")
}

// TestOverlongLinesKeepTheirText: a line over MaxLineBytes is cut at the
// limit (at the last whole character before it), never emptied; the move on
// the line before is still read, and the cut is reported.
func TestOverlongLinesKeepTheirText(t *testing.T) {
	// Under the 2,000 characters relayed at most (Clean), so the line's
	// own cut is what shows.
	lim := DefaultLimits()
	lim.MaxLineBytes = 100
	tests := []struct {
		name string
		line string
		want string // the relayed line after the cut
	}{
		{"ASCII, cut at the limit", strings.Repeat("x", lim.MaxLineBytes+500),
			strings.Repeat("x", lim.MaxLineBytes)},
		// "a" then two-byte "é"s: byte MaxLineBytes is the second byte
		// of an "é", so the cut falls one byte earlier.
		{"a character across the limit", "a" + strings.Repeat("é", lim.MaxLineBytes),
			"a" + strings.Repeat("é", (lim.MaxLineBytes-1)/2)},
		{"exactly at the limit: kept whole", strings.Repeat("y", lim.MaxLineBytes),
			strings.Repeat("y", lim.MaxLineBytes)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Read(limitsMail(tt.line), base, lim)
			if err != nil {
				t.Fatal(err)
			}
			if m.Action != "Nf3" {
				t.Errorf("action %q, want Nf3", m.Action)
			}
			if m.Message != tt.want {
				t.Errorf("relayed %d bytes (%q…), want %d bytes", len(m.Message), head(m.Message), len(tt.want))
			}
			if !utf8.ValidString(m.Message) {
				t.Errorf("the cut split a character")
			}
			cut := len(tt.line) > lim.MaxLineBytes
			if warned := strings.Contains(strings.Join(m.Warnings, "\n"), "was cut at 100 bytes"); warned != cut {
				t.Errorf("warnings %q; a cut reported: %v, want %v", m.Warnings, warned, cut)
			}
		})
	}
}

// TestOverlongTextKeepsItsBeginning: a text over MaxTextBytes keeps its
// first MaxTextBytes (to a whole character), with the move, and says so.
func TestOverlongTextKeepsItsBeginning(t *testing.T) {
	lim := Limits{MaxTextBytes: 1000, MaxLineBytes: 100}
	var b strings.Builder
	for b.Len() < 3000 {
		b.WriteString("Ünd so weiter, und so fort.\r\n")
	}
	m, err := Read(limitsMail(b.String()), base, lim)
	if err != nil {
		t.Fatal(err)
	}
	if m.Action != "Nf3" {
		t.Errorf("action %q, want Nf3", m.Action)
	}
	if n := len(m.Message); n < 900 || n > 1000 {
		t.Errorf("relayed %d bytes, want the first 1000 bytes less the move line", n)
	}
	if !strings.HasPrefix(m.Message, "Ünd so weiter, und so fort.\nÜnd so weiter") || !utf8.ValidString(m.Message) {
		t.Errorf("relayed %q…", head(m.Message))
	}
	if !strings.Contains(strings.Join(m.Warnings, "\n"), "text truncated at 1000 bytes") {
		t.Errorf("warnings %q, want the truncation", m.Warnings)
	}
}

// TestUnknownCharsetInOnePart: in a multipart mail, a part in a charset the
// reader does not know is still read (its ASCII is ASCII in every charset
// a mail client writes), with a warning that names the charset; it does not
// end the walk as a damaged structure would.
func TestUnknownCharsetInOnePart(t *testing.T) {
	raw := "From: Alice <alice@example.test>\r\n" +
		"To: referee+17.k3fux2ab7q.23@example.test\r\n" +
		"Subject: Re: [chess #17] Move 12\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n" +
		"--b1\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\nNf3\r\n\r\nqapla'\r\n" +
		"--b1\r\nContent-Type: application/octet-stream\r\n\r\nxyz\r\n" +
		"--b1--\r\n"
	m, err := Read([]byte(raw), base, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Action != "Nf3" || m.Message != "qapla'" {
		t.Errorf("read %q / %q, want Nf3 / qapla'", m.Action, m.Message)
	}
	w := strings.Join(m.Warnings, "\n")
	if !strings.Contains(w, "x-klingon") || strings.Contains(w, "damaged") {
		t.Errorf("warnings %q, want one naming the charset x-klingon and none of damage", m.Warnings)
	}
}

func head(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40])
	}
	return s
}

// fill returns prefix, then pad repeated, then suffix, at exactly n bytes.
func fill(prefix, pad, suffix string, n int) string {
	p := []byte(strings.Repeat(pad, n/len(pad)+1)[:n-len(prefix)-len(suffix)])
	if p[len(p)-1] == ' ' {
		p[len(p)-1] = '.'
	}
	return prefix + string(p) + suffix
}

// TestMarkerLineBounds: the cleaner tests a line against the quote
// headers and footers only up to a length (hostile long lines stay cheap:
// 400 bytes for an attribution or an Outlook header on one line, 300 for a
// line that introduces ">" quotes or begins a wrapped attribution, 200 for
// a client's footer). A header at the bound still ends the player's words,
// and the unmarked quote below it is not relayed; one byte over, the line
// is the player's.
func TestMarkerLineBounds(t *testing.T) {
	const quote = "\nWhite played Nf3.\nIt is your move, and the clock runs."
	tests := []struct {
		name, header, pad string
		n                 int
	}{
		// Gmail's attribution, a long display name.
		{"gmail attribution", "On Sun, 22 Nov 2026 at 10:02, | <referee@example.test> wrote:", "Fernschach Referee Kommission ", 400},
		// Outlook on the web's header on one line, a long list of recipients.
		{"outlook one line", "From: Referee <referee@example.test> Sent: Sunday, 22 November 2026 10:02 To: | Subject: [chess #17]", "Alice Smith; ", 400},
		// Horde IMP's "Quoting <sender>:" above ">" quotes, which only
		// the shape of the lines shows (no date, no verb).
		{"horde quoting", "Quoting | <referee@example.test>:\n\n> White played Nf3.", "Fernschach Referee Kommission ", 300},
		// Outlook's header block, a From: field with a long "on behalf of".
		{"outlook block", "From: Chess Club <club@example.test> On Behalf Of | <referee@example.test>\nSent: Sunday, November 22, 2026 10:02 AM\nTo: Alice\nSubject: [chess #17]", "Fernschach Referee Kommission ", 400},
		// Discourse's header above "|" quotes.
		{"discourse", "2026/11/22 | via Discourse <referee@example.test>\n| White played Nf3.", "Fernschach Referee Kommission ", 300},
		// A footer with a long tracking link.
		{"footer", "Sent from Mail for Windows <https://go.microsoft.com/fwlink/?LinkId=550986|>", "&utm_source=outlook", 200},
	}
	for _, tt := range tests {
		for _, over := range []int{0, 1} {
			first, rest, _ := strings.Cut(tt.header, "\n")
			pre, suf, _ := strings.Cut(first, "|")
			line := fill(pre, tt.pad, suf, tt.n+over)
			if len(line) != tt.n+over {
				t.Fatalf("%s: line of %d bytes, want %d", tt.name, len(line), tt.n+over)
			}
			in := "Nf3\nThanks for the game.\n\n" + line
			if rest != "" {
				in += "\n" + rest
			}
			in += "\n" + quote
			a, m := Clean(in)
			if a != "Nf3" {
				t.Errorf("%s, %d bytes: action %q, want Nf3", tt.name, len(line), a)
			}
			if over == 0 && m != "Thanks for the game." {
				t.Errorf("%s at the bound (%d bytes): relayed %q, want only the player's line", tt.name, len(line), m)
			}
			if over == 1 && !strings.Contains(m, line) {
				t.Errorf("%s one byte over the bound (%d bytes): relayed %q, want the line (never tested)", tt.name, len(line), m)
			}
			// The header block's other three fields still end the words.
			if over == 1 && tt.name == "outlook block" && strings.Contains(m, "White played") {
				t.Errorf("%s one byte over the bound: relayed %q, want the quote below the fields cut", tt.name, m)
			}
		}
	}
}

// TestPartAndSizeBounds: a mail at each of the reader's bounds is read
// whole, one over it is cut with a warning: MaxBytes, MaxParts (the
// multipart containers count), ten levels of nesting.
func TestPartAndSizeBounds(t *testing.T) {
	// Exactly MaxBytes: read, the move found.
	raw := limitsMail("see you")
	m, err := Read(raw, base, Limits{MaxBytes: int64(len(raw))})
	if err != nil || m.Action != "Nf3" {
		t.Errorf("a mail of exactly MaxBytes: action %q, error %v; want Nf3 and no error", m.Action, err)
	}
	if _, err := Read(raw, base, Limits{MaxBytes: int64(len(raw) - 1)}); !errors.Is(err, ErrTooBig) {
		t.Errorf("a mail one byte over MaxBytes: error %v, want ErrTooBig", err)
	}

	// Apple Mail on the iPhone puts the photo before the text: a
	// multipart/mixed of three parts, the text the third.
	photo := "From: Alice <alice@example.test>\r\nTo: " + base + "\r\nSubject: Re: [chess #17]\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" +
		"--b\r\nContent-Type: image/jpeg\r\nContent-Disposition: inline; filename=IMG_0001.jpg\r\n\r\n/9j/4AAQ\r\n" +
		"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nNf3\r\n" +
		"--b--\r\n"
	for _, parts := range []int{3, 2} {
		m, err := Read([]byte(photo), base, Limits{MaxParts: parts})
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(strings.Join(m.Warnings, "\n"), "more than 2 MIME parts")
		if parts == 3 && (m.Action != "Nf3" || warned) {
			t.Errorf("MaxParts 3, three parts: action %q, warnings %q; want Nf3, no warning", m.Action, m.Warnings)
		}
		if parts == 2 && (m.Action != "" || !warned) {
			t.Errorf("MaxParts 2, three parts: action %q, warnings %q; want the text unread, and said", m.Action, m.Warnings)
		}
	}

	// Multiparts nested: the text at depth 10 is read, at 11 not.
	nested := func(depth int) []byte {
		var b strings.Builder
		b.WriteString("From: Alice <alice@example.test>\r\nTo: " + base + "\r\nSubject: Re: [chess #17]\r\n")
		for d := 0; d < depth; d++ {
			fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n", d, d)
		}
		b.WriteString("Content-Type: text/plain\r\n\r\nNf3\r\n")
		for d := depth - 1; d >= 0; d-- {
			fmt.Fprintf(&b, "--b%d--\r\n", d)
		}
		return []byte(b.String())
	}
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		m, err := Read(nested(depth), base, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{true: "Nf3", false: ""}[depth == maxDepth]; m.Action != want {
			t.Errorf("text %d multiparts deep: action %q, want %q (warnings %q)", depth, m.Action, want, m.Warnings)
		}
	}
}

// TestWarningsBounded: a hostile mail gets at most 20 warnings, each
// quoting at most 60 bytes of what it warns about, cut at a whole
// character.
func TestWarningsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("From Alice Sun Nov 22 10:02:00 2026\r\n") // an mbox line, dropped
	b.WriteString("a" + strings.Repeat("é", 40) + "\r\n")    // 81 bytes: byte 60 is inside an "é"
	b.WriteString(strings.Repeat("\x80", 70) + "\r\n")       // no character starts in it
	for i := 0; i < 25; i++ {
		fmt.Fprintf(&b, "junk line %d\r\n", i)
	}
	b.WriteString("From: not an address\r\nTo: " + base + "\r\nSubject: x\r\n\r\nNf3\r\n")
	m, err := Read([]byte(b.String()), base, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != maxWarnings {
		t.Errorf("%d warnings, want %d", len(m.Warnings), maxWarnings)
	}
	if want := strconv.Quote("a"+strings.Repeat("é", 29)) + "..."; len(m.Warnings) < 2 || !strings.HasSuffix(m.Warnings[1], want) {
		t.Errorf("warnings %q, the second ends not with %s", m.Warnings, want)
	}

	// The parts' warnings, one for each unknown charset, are bounded too.
	b.Reset()
	b.WriteString("From: Alice <alice@example.test>\r\nTo: " + base + "\r\nSubject: x\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nNf3\r\n")
	for i := 0; i < 25; i++ {
		fmt.Fprintf(&b, "--b\r\nContent-Type: text/plain; charset=x-klingon-%d\r\n\r\nqapla'\r\n", i)
	}
	b.WriteString("--b--\r\n")
	m, err = Read([]byte(b.String()), base, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Action != "Nf3" || len(m.Warnings) != maxWarnings {
		t.Errorf("action %q, %d warnings; want Nf3 and %d", m.Action, len(m.Warnings), maxWarnings)
	}
}

// TestTextCapBounds: a text of exactly MaxTextBytes is kept whole and not
// called truncated; over it, the cut falls at the last whole character
// before the limit; the warning names the limit in bytes, or in KiB when
// it is a whole number of them.
func TestTextCapBounds(t *testing.T) {
	body := strings.Repeat("é", 2000) // the text: "Nf3\n" then "é"s, so odd bytes are inside one
	m, err := Read(limitsMail(body), base, Limits{MaxLineBytes: 8192})
	if err != nil {
		t.Fatal(err)
	}
	whole := len(m.Text)
	for _, tt := range []struct {
		max, want int
		warning   string
	}{
		{whole, whole, ""},
		{1001, 1000, "text truncated at 1001 bytes"},
		{1500, 1500, "text truncated at 1500 bytes"},
		{1024, 1024, "text truncated at 1 KiB"},
	} {
		m, err := Read(limitsMail(body), base, Limits{MaxLineBytes: 8192, MaxTextBytes: tt.max})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Text) != tt.want || !utf8.ValidString(m.Text) || m.Action != "Nf3" {
			t.Errorf("MaxTextBytes %d: text of %d bytes (valid UTF-8: %v), action %q; want %d bytes and Nf3", tt.max, len(m.Text), utf8.ValidString(m.Text), m.Action, tt.want)
		}
		w := strings.Join(m.Warnings, "\n")
		if tt.warning == "" && strings.Contains(w, "truncated") || tt.warning != "" && !strings.Contains(w, tt.warning) {
			t.Errorf("MaxTextBytes %d: warnings %q, want %q", tt.max, m.Warnings, tt.warning)
		}
	}
}

// TestTextAttachmentsAndSecondHTML: a text part that is an attachment is
// not the player's words, whether it says so by its disposition alone
// (Outlook: "attachment" and no file name) or by a file name alone (Apple
// Mail sends attachments inline with a file name), even when the body is
// HTML only; and of two HTML parts (Apple Mail with a photo between
// them: the text above the photo, then the rest with its footer) the
// first is read.
func TestTextAttachmentsAndSecondHTML(t *testing.T) {
	head := "From: Alice <alice@example.test>\r\nTo: " + base + "\r\nSubject: Re: [chess #17]\r\n" +
		"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" +
		"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><div>Nf3</div></body></html>\r\n"
	tests := []struct{ name, part string }{
		{"attachment without a file name", "Content-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment\r\n\r\nresign\r\n"},
		{"inline with a file name", "Content-Type: text/plain; charset=utf-8\r\nContent-Disposition: inline; filename=\"notes.txt\"\r\n\r\nresign\r\n"},
		{"a second HTML part after a photo", "Content-Type: image/jpeg\r\nContent-Disposition: inline; filename=IMG_0001.jpg\r\n\r\n/9j/4AAQ\r\n" +
			"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><div>resign</div><div>Sent from my iPhone</div></body></html>\r\n"},
	}
	for _, tt := range tests {
		m, err := Read([]byte(head+"--b\r\n"+tt.part+"--b--\r\n"), base, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if m.Action != "Nf3" || m.Message != "" {
			t.Errorf("%s: action %q, message %q; want Nf3 and no message", tt.name, m.Action, m.Message)
		}
	}
}

// TestHTMLCapBounds: an HTML body whose text is exactly MaxTextBytes is
// read whole, its last character too (a "!" in bold, a token of its own,
// the div left open),
// and not called truncated; an HTML part of exactly 4 × MaxTextBytes (the
// most read of one; a style sheet takes most of it) that ends in text
// without closing its tags (base64, so the part ends where the HTML
// does) keeps its last byte.
func TestHTMLCapBounds(t *testing.T) {
	words := strings.Repeat("good game ", 19) + "thanks" // 196 bytes
	m, err := Read(htmlMail("<div>Nf3</div><div>"+words+"<b>!</b>"), base, Limits{MaxLineBytes: 8192, MaxTextBytes: 4 + len(words) + 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "Nf3\n"+words+"!" || len(m.Warnings) != 0 {
		t.Errorf("text of exactly MaxTextBytes: text %q, warnings %q; want it whole, no warning", m.Text, m.Warnings)
	}

	const max = 100
	style := "<html><head><style>p { margin: 0; }</style></head><body><div>Nf3</div><div>Good game, thanks!"
	style = strings.Replace(style, "<style>", "<style>"+strings.Repeat(" ", 4*max-len(style)), 1)
	if len(style) != 4*max {
		t.Fatalf("HTML part of %d bytes, want %d", len(style), 4*max)
	}
	m, err = Read(htmlMail(style), base, Limits{MaxLineBytes: 8192, MaxTextBytes: max})
	if err != nil {
		t.Fatal(err)
	}
	if m.Action != "Nf3" || m.Message != "Good game, thanks!" {
		t.Errorf("HTML part of exactly 4 × MaxTextBytes: action %q, message %q; want Nf3 and \"Good game, thanks!\"", m.Action, m.Message)
	}
}

// TestHTMLCapWithZeroWidthSpaces: the HTML converter stops at the first
// token that takes its text over MaxTextBytes, before the characters the
// reader drops are dropped (zero-width spaces, which Outlook on the web
// leaves in pasted text): what follows is not read, and the warning says
// so although the text kept is shorter than the cap.
func TestHTMLCapWithZeroWidthSpaces(t *testing.T) {
	for _, pasted := range []string{
		"x" + strings.Repeat("ab\u200b", 19),           // 96 bytes, 39 without the zero-width spaces
		"Schach\u00adspiel " + strings.Repeat("x", 84), // 98 bytes with a soft hyphen: the text kept is exactly the cap
	} {
		m, err := Read(htmlMail("<div>Nf3</div><div>"+pasted+"</div><div>resign</div>"), base, Limits{MaxLineBytes: 8192, MaxTextBytes: 100})
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.NewReplacer("\u200b", "", "\u00ad", "").Replace(pasted); m.Action != "Nf3" || m.Message != want {
			t.Errorf("action %q, message %q; want Nf3 and %q", m.Action, m.Message, want)
		}
		if w := strings.Join(m.Warnings, "\n"); !strings.Contains(w, "text truncated at 100 bytes") {
			t.Errorf("%q: warnings %q, want the text called truncated", pasted, m.Warnings)
		}
	}
}
