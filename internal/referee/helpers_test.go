package referee

import (
	"bytes"
	"io"
	"testing"

	"github.com/emersion/go-message"
)

// textOf returns the text/plain part of a composed mail, decoded.
func textOf(t *testing.T, raw []byte) string {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out string
	e.Walk(func(_ []int, p *message.Entity, _ error) error {
		if ct, _, _ := p.Header.ContentType(); ct == "text/plain" && out == "" {
			b, _ := io.ReadAll(p.Body)
			out = string(b)
		}
		return nil
	})
	return out
}
