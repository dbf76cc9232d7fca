package app

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	_ "github.com/emersion/go-message/charset" // mails in any charset decode
	gomail "github.com/emersion/go-message/mail"
)

// bodyText is every text part of a raw mail (plain and HTML), decoded
// from its transfer encoding and charset, as a mail client shows it.
// Tests look for words here rather than in the raw bytes, whose header
// carries random Message-IDs and reply addresses that can contain any
// short string ("e4") by chance.
func bodyText(t *testing.T, raw []byte) string {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the referee's mail does not read as MIME: %v", err)
	}
	var b strings.Builder
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("a part of the referee's mail does not read: %v", err)
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			continue
		}
		if ct, _, _ := h.ContentType(); !strings.HasPrefix(ct, "text/") {
			continue
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatalf("a text part of the referee's mail does not read: %v", err)
		}
		b.Write(body)
		b.WriteByte('\n')
	}
	return b.String()
}
