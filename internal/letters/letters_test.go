package letters

import (
	"bytes"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"

	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/rules"
)

func TestBoardMailHasTextHTMLAndPicture(t *testing.T) {
	pos := rules.Chess().Start()
	m := referee.Mail{Kind: "board", To: "alice@example.org", Subject: "[chess #1] Move 1: your turn (White)",
		ReplyTo: "referee+1.abcdefghij.0@example.test", MessageID: "<1.abcdefghij.0.0123456789@example.test>",
		InReplyTo: "<game-1-white-x@example.test>", References: []string{"<game-1-white-x@example.test>"},
		Date:  time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
		Board: &render.Mail{GameID: 1, Variant: rules.Chess(), Pos: pos, Viewer: rules.White, Headline: "A new game of chess."}}
	l, err := Writer{From: "referee@example.test"}.Write(m)
	if err != nil {
		t.Fatal(err)
	}
	if l.To != m.To || l.From != "referee@example.test" || l.MessageID != m.MessageID {
		t.Errorf("letter: %+v", l)
	}
	mr, err := gomail.CreateReader(bytes.NewReader(l.Raw))
	if err != nil {
		t.Fatal(err)
	}
	h := mr.Header
	for field, want := range map[string]string{
		"Reply-To": "referee+1.abcdefghij.0@example.test", "Auto-Submitted": "auto-replied",
		"Message-Id": "<1.abcdefghij.0.0123456789@example.test>", "In-Reply-To": "<game-1-white-x@example.test>",
	} {
		if got := h.Get(field); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", field, got, want)
		}
	}
	if subj, _ := h.Subject(); subj != m.Subject {
		t.Errorf("Subject %q", subj)
	}
	// Walk the parts: text/plain with the board, text/html that shows the
	// picture by its Content-ID, and the picture, a PNG that decodes.
	e, err := message.Read(bytes.NewReader(l.Raw))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	e.Walk(func(_ []int, p *message.Entity, _ error) error {
		ct, _, _ := p.Header.ContentType()
		if strings.HasPrefix(ct, "multipart/") {
			return nil // reading it would consume its parts
		}
		body, _ := io.ReadAll(p.Body)
		switch ct {
		case "text/plain":
			seen[ct] = strings.Contains(string(body), "A new game of chess.") && strings.Contains(string(body), "| R | N | B |")
		case "text/html":
			seen[ct] = strings.Contains(string(body), "cid:board.png")
		case "image/png":
			_, err := png.Decode(bytes.NewReader(body))
			seen[ct] = err == nil && p.Header.Get("Content-Id") == "<board.png>"
		}
		return nil
	})
	for _, ct := range []string{"text/plain", "text/html", "image/png"} {
		if !seen[ct] {
			t.Errorf("the %s part is missing or wrong", ct)
		}
	}
}

func TestPlainMailIsOneTextPart(t *testing.T) {
	m := referee.Mail{Kind: "refusal", To: "mallory@example.org", Subject: "Re: hi", MessageID: "<r@example.test>",
		Text: "Your mail could not be tied to a game of yours.\n", Date: time.Unix(0, 0)}
	l, err := Writer{From: "referee@example.test", Name: "Chess Referee"}.Write(m)
	if err != nil {
		t.Fatal(err)
	}
	e, err := message.Read(bytes.NewReader(l.Raw))
	if err != nil {
		t.Fatal(err)
	}
	ct, _, _ := e.Header.ContentType()
	body, _ := io.ReadAll(e.Body)
	if ct != "text/plain" || !strings.Contains(string(body), "could not be tied") || e.Header.Get("Reply-To") != "" ||
		!strings.Contains(e.Header.Get("From"), "Chess Referee") {
		t.Errorf("plain mail: %s, Reply-To %q, From %q\n%s", ct, e.Header.Get("Reply-To"), e.Header.Get("From"), body)
	}
}
