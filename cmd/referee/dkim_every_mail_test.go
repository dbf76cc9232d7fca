package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-msgauth/dkim"
)

// TestEveryMailIsSigned (issue 27, "Every mail is signed"): the mails of
// "referee new" and "referee abort" (queued by commands that know no DKIM
// key), the moves of a game to its end and the answer to a stranger all
// leave "referee serve --dkim-key" with a signature that an independent
// verifier (go-msgauth) accepts against the published record.
func TestEveryMailIsSigned(t *testing.T) {
	const referee = "referee@example.test"
	dir := t.TempDir()
	db, keyPath := filepath.Join(dir, "r.db"), filepath.Join(dir, "dkim.pem")
	code, rec, errs := cli(t, "dkim-keygen", "--domain", "example.test", "--selector", "referee", "--out", keyPath)
	if code != 0 {
		t.Fatalf("dkim-keygen: %s", errs)
	}
	txt := strings.ReplaceAll(strings.Join(regexp.MustCompile(`"([^"]*)"`).FindAllString(rec, -1), ""), `"`, "")
	lookup := func(domain string) ([]string, error) {
		if domain != "referee._domainkey.example.test" {
			return nil, fmt.Errorf("no TXT record for %s", domain)
		}
		return []string{txt}, nil
	}

	imapAddr, u := loopbackIMAP(t, referee, nil, nil)
	backend := &loginSMTP{password: "pw"}
	smtpAddr := loopbackSMTP(t, backend)

	serve := func() {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var out, errb bytes.Buffer
		if code := run(ctx, []string{"serve", "--once", "--db", db, "--address", referee, "--imap", imapAddr,
			"--imap-tls", "none", "--imap-pass", "pw", "--smtp", smtpAddr, "--smtp-tls", "none",
			"--dkim-key", keyPath}, &out, &errb); code != exitOK {
			t.Fatalf("serve --once: exit %d\n%s", code, errb.String())
		}
	}
	deliver := func(raw string) {
		t.Helper()
		if _, err := u.Append("INBOX", literal{strings.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// replyTo is the Reply-To of the newest mail to addr.
	replyTo := func(addr string) string {
		t.Helper()
		backend.mu.Lock()
		defer backend.mu.Unlock()
		for i := len(backend.got) - 1; i >= 0; i-- {
			mr, err := gomail.CreateReader(bytes.NewReader(backend.got[i]))
			if err != nil {
				t.Fatal(err)
			}
			to, _ := mr.Header.AddressList("To")
			if len(to) == 1 && to[0].Address == addr {
				rt, _ := mr.Header.AddressList("Reply-To")
				return rt[0].Address
			}
		}
		t.Fatalf("no mail to %s", addr)
		return ""
	}

	for _, args := range [][]string{
		{"new", "--db", db, "--variant", "chess", "--white", "alice@example.org", "--black", "bob@example.org"},
		{"new", "--db", db, "--variant", "chectoe", "--white", "carol@example.org", "--black", "dave@example.org"},
		{"abort", "2", "--db", db, "--reason", "a test"},
	} {
		if code, _, errs := cli(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	serve()
	// Fool's mate: the game ends with the fourth move.
	for i, mv := range []string{"f3", "e5", "g4", "Qh4#"} {
		from := []string{"alice@example.org", "bob@example.org"}[i%2]
		deliver(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <fool%d@example.org>\r\nDate: Mon, 23 Nov 2026 10:0%d:00 +0000\r\n\r\n%s\r\n",
			from, replyTo(from), i, i, mv))
		serve()
	}
	deliver("From: mallory@example.org\r\nTo: referee@example.test\r\nSubject: hi\r\nMessage-ID: <s1@example.org>\r\nDate: Mon, 23 Nov 2026 11:00:00 +0000\r\n\r\nhello\r\n")
	serve()

	backend.mu.Lock()
	got := backend.got
	backend.mu.Unlock()
	// 2 openings, 2 openings and 2 notices of the aborted game, 2 mails a
	// move, and the stranger's answer.
	if want := 2 + 4 + 4*2 + 1; len(got) != want {
		t.Errorf("%d mails sent; want %d", len(got), want)
	}
	for i, raw := range got {
		verifs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup})
		if err != nil || len(verifs) != 1 || verifs[0].Err != nil || verifs[0].Domain != "example.test" {
			t.Errorf("mail %d does not verify: %v %+v\n%.400s", i+1, err, verifs, raw)
		}
	}
	if last := string(got[len(got)-1]); !strings.Contains(last, "mallory@example.org") {
		t.Errorf("the last mail is not the stranger's answer:\n%.400s", last)
	}
}
