package app

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"

	"referee/internal/store"
)

var update = flag.Bool("update", false, "rewrite the golden mail texts in testdata/golden (review every diff)")

// secretRE finds a reply address's token, which differs from run to run.
var secretRE = regexp.MustCompile(`referee\+[0-9]+\.[a-z0-9]+\.[0-9]+@`)

// mailText is a queued mail as its reader sees it: To, Subject and the
// plain-text part, with the reply addresses' random secrets masked so that
// the text can be compared with a golden file.
func mailText(t *testing.T, o store.Outgoing) string {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(o.Raw))
	if err != nil {
		t.Fatalf("the referee's mail to %s does not read as MIME: %v", o.To, err)
	}
	subject, _ := r.Header.Subject()
	var b strings.Builder
	b.WriteString("To: " + o.To + "\nSubject: " + subject + "\n\n")
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("a part of the referee's mail to %s does not read: %v", o.To, err)
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			continue
		}
		if ct, _, _ := h.ContentType(); ct != "text/plain" {
			continue
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(body)
	}
	return secretRE.ReplaceAllString(strings.ReplaceAll(b.String(), "\r\n", "\n"), "referee+SECRET@")
}

// golden compares got with testdata/golden/name, or rewrites the file
// with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it, then review it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; got:\n%s\nwant:\n%s", name, got, want)
	}
}

// sentSince are the mails queued after the first n of the outbox,
// rendered.
func sentSince(t *testing.T, a *App, n int) []store.Outgoing {
	t.Helper()
	out, err := renderedOutbox(a)
	if err != nil {
		t.Fatal(err)
	}
	return out[n:]
}
