package reader

import (
	"strings"
	"testing"
)

// refereeText is a board mail of the referee's as its text part shows it.
const refereeText = `White played Nf3, a knight's move that develops and defends e5 and d4 at once.

      a   b   c   d   e   f   g   h
  8 | r |   | b | q | k | b | n | r | 8
  1 | R | N | B | Q | K | B |   | R | 1

Moves: 1. e4 e5 2. Nf3
Alice writes: "Good luck!"
if Nc6 Bb5
It is your move, Bob.`

// TestAnswering: the referee knows what it sent. Lines of its mail in a
// reply, quoted or not, rewrapped by the client or not, and the quote
// header directly above the first of them (in a language no list holds)
// end the player's words; the action never changes, short lines and
// conditional lines are never taken for the referee's (issue 36).
func TestAnswering(t *testing.T) {
	sent := NewSent(refereeText, "")
	tests := []struct{ name, body, message string }{
		{"unknown header, unquoted copy", "Nc6\nThanks.\nSee you\n\nKohtunik kirjutas pühapäeval\n\nWhite played Nf3, a knight's move that develops and defends e5 and d4 at once.\n\nMoves: 1. e4 e5 2. Nf3",
			"Thanks.\nSee you"},
		{"unknown header, quoted copy", "Nc6\nThanks.\nKohtunik kirjutas pühapäeval\n> White played Nf3, a knight's move that develops and defends e5 and d4 at once.",
			"Thanks."},
		{"a header of several lines", "Nc6\nThanks.\n\nAutor: Kohtunik\nAeg: pühapäev 10:02\nKellele: Bob\n\nMoves: 1. e4 e5 2. Nf3", "Thanks."},
		{"rewrapped by the client", "Nc6\nThanks.\n\nKohtunik kirjutas\n\nWhite played Nf3, a knight's move that develops\nand defends e5 and d4 at once.", "Thanks."},
		{"a sentence above the copy is the player's", "Nc6\nThanks.\nSee you.\nMoves: 1. e4 e5 2. Nf3", "Thanks.\nSee you."},
		{"short lines are the player's", "Nc6\nGood luck!\nIt is your move, Bob.", "Good luck!"},
		{"conditional lines are the player's", "Nc6\nif Nc6 Bb5\nThanks.", "if Nc6 Bb5\nThanks."},
		{"nothing of the referee's", "Nc6\nThanks.\nSee you", "Thanks.\nSee you"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := "From: bob@example.org\r\nTo: referee+1.aaaaaaaaaa.1@example.test\r\nSubject: x\r\n\r\n" + strings.ReplaceAll(tt.body, "\n", "\r\n")
			m, err := Read([]byte(raw), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			got := m.Answering(sent)
			if got.Action != "Nc6" || got.Message != tt.message || got.FullMessage != tt.message {
				t.Errorf("action %q, message %q (whole %q); want Nc6 and %q", got.Action, got.Message, got.FullMessage, tt.message)
			}
			if m.Answering(nil).Message != m.Message {
				t.Error("knowing nothing of the referee's changed the message")
			}
		})
	}
}

// TestAnsweringHTML: the referee's HTML part is read as an HTML reply is,
// so that a reply quoting it shows the same lines.
func TestAnsweringHTML(t *testing.T) {
	sent := NewSent("", "<html><body><p>White played Nf3, a knight's move that develops.</p><pre>  8 | r |   | b | q | k | b | n | r | 8</pre></body></html>")
	a, msg := clean("Nc6\nThanks.\nKohtunik kirjutas\n  8 | r |   | b | q | k | b | n | r | 8", sent)
	if a != "Nc6" || msg != "Thanks." {
		t.Errorf("got %q, %q", a, msg)
	}
}

// TestAnsweringKeepsTheAction: a header-like line never takes the action
// with it, whatever stands above the referee's lines.
func TestAnsweringKeepsTheAction(t *testing.T) {
	sent := NewSent(refereeText, "")
	for _, in := range []string{
		"Nc6 at 10:30 <bob@example.org>:\nMoves: 1. e4 e5 2. Nf3",
		"Hi Alice,\nNc6 Kohtunik\nMoves: 1. e4 e5 2. Nf3",
		"***\nNc6\nMoves: 1. e4 e5 2. Nf3", // a line of stars is no action
	} {
		want, _ := Clean(in)
		if a, _ := clean(in, sent); a != want {
			t.Errorf("%q: action %q, want %q", in, a, want)
		}
	}
}

// TestHTMLQuoteContainers: the quote containers of HTML clients end the
// player's words even under a header no list holds; above the player's
// words (bottom-posting) they are skipped.
func TestHTMLQuoteContainers(t *testing.T) {
	const quote = "Kohtunik kirjutas pühapäeval<br><div>White played Nf3.</div><div>It is your move.</div>"
	tests := []struct{ name, html, action, message string }{
		{"gmail", `<div dir="ltr">Nf3<div>Thanks.</div></div><br><div class="gmail_quote"><div class="gmail_attr">` + quote + `</div></div>`, "Nf3", "Thanks."},
		{"outlook web", `<div>Nf3</div><div>Thanks.</div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr">` + quote + `</div>`, "Nf3", "Thanks."},
		{"outlook without the rule", `<div>Nf3</div><div>Thanks.</div><div id="divRplyFwdMsg" dir="ltr">` + quote + `</div>`, "Nf3", "Thanks."},
		{"yahoo", `<div>Nf3</div><div>Thanks.</div><div class="yahoo_quoted">` + quote + `</div>`, "Nf3", "Thanks."},
		{"thunderbird", `<p>Nf3<br>Thanks.</p><div class="moz-cite-prefix">` + quote + `</div>`, "Nf3", "Thanks."},
		{"hotmail rule", `<div>Nf3</div><div>Thanks.</div><hr id="stopSpelling">` + quote, "Nf3", "Thanks."},
		{"thunderbird bottom-posted", `<div class="moz-cite-prefix">On 22.11.26 10:02, Referee wrote:<br></div><blockquote type="cite">White played Nf3.</blockquote><p>Nf3<br>Thanks.</p>`, "Nf3", "Thanks."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := "From: bob@example.org\r\nSubject: x\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body>" + tt.html + "</body></html>\r\n"
			m, err := Read([]byte(raw), base, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.Action != tt.action || m.Message != tt.message {
				t.Errorf("action %q, message %q; want %q, %q (text %q)", m.Action, m.Message, tt.action, tt.message, m.Text)
			}
		})
	}
}

// TestAnsweringBounds: a line of the reply is the referee's when it equals
// one of the referee's lines of at least 8 characters, or is a piece of at
// least 20 characters of the referee's text (a rewrapped line); lines of
// up to 1,600 bytes are compared. The referee's text part is read line by
// line, its HTML part as an HTML reply is. At most four lines of a quote
// header directly above the referee's line are cut with it.
func TestAnsweringBounds(t *testing.T) {
	long := func(n int) string { return fill("Alice writes: ", "Good luck and have fun, ", ".", n) }
	sent := NewSent("Play on!\nYour go\nWhite played Nf3, a move that develops and defends e5, too.\nBlack played Nc6, so he defends e5, too.\n"+
		long(1600)+"\n"+long(1601), "",
		"", "<p>Bob writes: &quot;I resign if you find it.&quot;</p>")
	// The ends of two lines the client rewrapped: 20 and 19 characters.
	piece20, piece19 := "and defends e5, too.", "he defends e5, too."
	tests := []struct{ name, body, message string }{
		{"a line of 8 characters", "Nc6\nThanks.\nPlay on!\nMore of the quote", "Thanks."},
		{"a line of 7 characters is the player's", "Nc6\nThanks.\nYour go\nfrom me", "Thanks.\nYour go\nfrom me"},
		{"a piece of 20 characters", "Nc6\nThanks.\n" + piece20 + "\nMore of the quote", "Thanks."},
		{"a piece of 19 characters is the player's", "Nc6\nThanks.\n" + piece19 + "\nfrom me", "Thanks.\n" + piece19 + "\nfrom me"},
		{"a line of 1,600 bytes", "Nc6\nThanks.\n" + long(1600) + "\nMore of the quote", "Thanks."},
		{"a line of 1,601 bytes is not compared", "Nc6\nThanks.\n" + long(1601), "Thanks.\n" + long(1601)},
		{"a line of the HTML part", "Nc6\nThanks.\nBob writes: \"I resign if you find it.\"\nMore of the quote", "Thanks."},
		{"right below the move", "Nc6\nPlay on!\nMore of the quote", ""},
		// Outlook in Estonian (no list holds its field names): the four
		// fields go with the quote, the player's line above them stays.
		{"a header of four fields", "Nc6\nThanks.\nSee you on 24.11. at the club\n\nSaatja: Kohtunik <referee@example.test>\nSaadetud: 22. november 2026 10:02\nAdressaat: Bob\nTeema: [chess #17]\nPlay on!",
			"Thanks.\nSee you on 24.11. at the club"},
	}
	for _, tt := range tests {
		a, m := clean(tt.body, sent)
		if a != "Nc6" || m != tt.message {
			t.Errorf("%s: clean = %q, %q; want Nc6, %q", tt.name, a, head(m), head(tt.message))
		}
	}
}
