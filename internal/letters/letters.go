// Package letters writes the mails the referee's core decided to send: a
// referee.Mail (who, headers, what it says) becomes a MIME message with a
// plain-text part, an HTML alternative and the board as a PNG picture. The
// core decides; this package presents.
package letters

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"

	"referee/internal/referee"
	"referee/internal/render"
)

// Letter is one mail ready for SMTP.
type Letter struct {
	To        string
	From      string // the envelope sender: the referee's plain address
	MessageID string
	Raw       []byte
}

// Writer writes mails from one referee.
type Writer struct {
	From string // the referee's address
	Name string // its display name; "" means "Referee"
	// Pictures draws the board pictures; one kept for the writer's life
	// draws each picture in about a third of the time of a fresh one
	// (render.BenchmarkPNG). nil draws each with a fresh one.
	Pictures *render.Painter
}

// Write writes m. A board mail gets the text, the HTML alternative and the
// picture (the text and HTML carry the board if the picture fails); a
// plain-text mail is a single text part.
func (w Writer) Write(m referee.Mail) (Letter, error) {
	name := w.Name
	if name == "" {
		name = "Referee"
	}
	var h gomail.Header
	h.SetDate(m.Date)
	h.SetAddressList("From", []*gomail.Address{{Name: name, Address: w.From}})
	h.SetAddressList("To", []*gomail.Address{{Name: m.ToName, Address: m.To}})
	if m.ReplyTo != "" {
		h.SetAddressList("Reply-To", []*gomail.Address{{Name: name, Address: m.ReplyTo}})
	}
	h.SetSubject(m.Subject)
	h.SetMessageID(strings.Trim(m.MessageID, "<>"))
	if m.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{strings.Trim(m.InReplyTo, "<>")})
	}
	if len(m.References) > 0 {
		ids := make([]string, len(m.References))
		for i, x := range m.References {
			ids[i] = strings.Trim(x, "<>")
		}
		h.SetMsgIDList("References", ids)
	}
	// Loop guards (RFC 3834): mark every mail as automatic, and ask
	// Exchange not to answer it with out-of-office mail.
	h.Set("Auto-Submitted", "auto-replied")
	h.Set("X-Auto-Response-Suppress", "All")
	h.Set("Precedence", "bulk")

	var buf bytes.Buffer
	var err error
	if m.Board == nil && m.HTML != "" {
		err = writeBoard(&buf, h, m.MessageID, m.Text, "<!DOCTYPE html>\n<html><body>\n"+m.HTML+"</body></html>\n", nil)
	} else if m.Board == nil {
		err = writePlain(&buf, h, m.Text)
	} else {
		pt := w.Pictures
		if pt == nil {
			pt = new(render.Painter)
		}
		png, perr := pt.PNG(m.Board.Pos, m.Board.Viewer, render.Options{LastMove: m.LastMove})
		if perr != nil {
			png = nil // the text and HTML parts still carry the board
		}
		err = writeBoard(&buf, h, m.MessageID, m.Board.Text(), m.Board.HTML(), png)
	}
	if err != nil {
		return Letter{}, fmt.Errorf("writing the mail to %s: %w", m.To, err)
	}
	return Letter{To: m.To, From: w.From, MessageID: m.MessageID, Raw: buf.Bytes()}, nil
}

func textHeader() message.Header {
	var th message.Header
	th.SetContentType("text/plain", map[string]string{"charset": "utf-8", "format": "fixed"})
	th.Set("Content-Transfer-Encoding", "quoted-printable")
	return th
}

func writePlain(buf *bytes.Buffer, h gomail.Header, text string) error {
	th := textHeader()
	for _, f := range []string{"Content-Type", "Content-Transfer-Encoding"} {
		h.Set(f, th.Get(f))
	}
	w, err := message.CreateWriter(buf, h.Header)
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(crlf(text))); err != nil {
		return err
	}
	return w.Close()
}

// writeBoard writes multipart/alternative: the text, then multipart/related
// with the HTML and the picture it shows (cid:board.png).
func writeBoard(buf *bytes.Buffer, h gomail.Header, messageID, text, html string, png []byte) error {
	boundary := func(kind string) string {
		s := sha256.Sum256([]byte(messageID + kind))
		return "=_" + kind + "_" + hex.EncodeToString(s[:12])
	}
	h.SetContentType("multipart/alternative", map[string]string{"boundary": boundary("alt")})
	top, err := message.CreateWriter(buf, h.Header)
	if err != nil {
		return err
	}
	if err := part(top, textHeader(), []byte(crlf(text))); err != nil {
		return err
	}
	var rh message.Header
	rh.SetContentType("multipart/related", map[string]string{"boundary": boundary("rel"), "type": "text/html"})
	rel, err := top.CreatePart(rh)
	if err != nil {
		return err
	}
	var hh message.Header
	hh.SetContentType("text/html", map[string]string{"charset": "utf-8"})
	hh.Set("Content-Transfer-Encoding", "quoted-printable")
	if err := part(rel, hh, []byte(crlf(html))); err != nil {
		return err
	}
	if len(png) > 0 {
		var ph message.Header
		ph.SetContentType("image/png", map[string]string{"name": "board.png"})
		ph.SetContentDisposition("inline", map[string]string{"filename": "board.png"})
		ph.Set("Content-ID", "<board.png>")
		ph.Set("Content-Transfer-Encoding", "base64")
		if err := part(rel, ph, png); err != nil {
			return err
		}
	}
	if err := rel.Close(); err != nil {
		return err
	}
	return top.Close()
}

func part(w *message.Writer, h message.Header, body []byte) error {
	pw, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	if _, err := pw.Write(body); err != nil {
		return err
	}
	return pw.Close()
}

func crlf(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\n", "\r\n")
}
