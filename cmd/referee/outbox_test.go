package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/daemon"
	"referee/internal/store"
)

// answering is a fake SMTP sender that answers each recipient as told.
type answering map[string]error

func (a answering) Send(_ context.Context, _ string, to []string, _ []byte) error { return a[to[0]] }

// flush runs one outbox pass over db with sender.
func flush(t *testing.T, db string, sender daemon.Sender) {
	t.Helper()
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The fake senders read only the recipient: any text will do.
	text := func(store.Outgoing) ([]byte, error) { return []byte("Subject: test\r\n\r\ntest\r\n"), nil }
	ob := &daemon.Outbox{Store: s, Sender: sender, Render: text, Log: slog.New(slog.DiscardHandler), Now: time.Now}
	if _, err := ob.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// idOf finds the id of the line about addr in an outbox listing.
func idOf(t *testing.T, listing, addr string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(\d+)\s+#1\s+` + regexp.QuoteMeta(addr) + `\s`).FindStringSubmatch(listing)
	if m == nil {
		t.Fatalf("no line for %s in:\n%s", addr, listing)
	}
	return m[1]
}

// TestOutboxCommand: the queue after a permanent (550) and a temporary (451)
// refusal, --failed, --retry of the dead letter, --drop, and the refusals
// of impossible actions.
func TestOutboxCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	if code, _, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", "alice@example.org", "--black", "bob@example.org"); code != 0 {
		t.Fatalf("new: %d %s", code, errs)
	}
	flush(t, db, answering{
		"alice@example.org": fmt.Errorf("SMTP RCPT TO:<alice@example.org>: %w", &smtp.SMTPError{Code: 550, Message: "5.1.1 mailbox unavailable"}),
		"bob@example.org":   fmt.Errorf("SMTP DATA: %w", &smtp.SMTPError{Code: 451, Message: "4.3.0 try again later"}),
	})

	code, out, errs := cli(t, "outbox", "--db", db)
	if code != 0 {
		t.Fatalf("outbox: %d %s", code, errs)
	}
	for _, want := range []string{"ID", "GAME", "TO", "ATTEMPTS", "NEXT ATTEMPT", "STATE", "LAST ERROR",
		"failed", "550: 5.1.1 mailbox unavailable", "waiting", "451: 4.3.0 try again later"} {
		if !strings.Contains(out, want) {
			t.Errorf("outbox listing lacks %q:\n%s", want, out)
		}
	}
	t.Logf("listing:\n%s", out)
	alice, bob := idOf(t, out, "alice@example.org"), idOf(t, out, "bob@example.org")

	_, out, _ = cli(t, "outbox", "--db", db, "--failed")
	if !strings.Contains(out, "alice@example.org") || strings.Contains(out, "bob@example.org") {
		t.Errorf("--failed lists:\n%s\nwant alice's dead letter alone", out)
	}

	// Retry the dead letter: due now, and delivered at the next pass.
	if code, out, errs := cli(t, "outbox", "--db", db, "--retry", alice); code != 0 || !strings.Contains(out, "due now") {
		t.Fatalf("--retry %s: %d %q %q", alice, code, out, errs)
	}
	_, out, _ = cli(t, "outbox", "--db", db)
	if !regexp.MustCompile(`(?m)^` + alice + `\s.*\sdue\s`).MatchString(out) {
		t.Errorf("after --retry, alice's mail is not due:\n%s", out)
	}
	flush(t, db, answering{})
	// Drop bob's waiting mail; it stays for the record.
	if code, out, errs := cli(t, "outbox", "--db", db, "--drop", "#"+bob); code != 0 || !strings.Contains(out, "dropped") {
		t.Fatalf("--drop %s: %d %q %q", bob, code, out, errs)
	}
	if _, out, _ := cli(t, "outbox", "--db", db); !strings.Contains(out, "nothing to deliver") {
		t.Errorf("queue after delivery and drop:\n%s", out)
	}
	_, out, _ = cli(t, "outbox", "--db", db, "--all")
	if !regexp.MustCompile(`(?m)^`+alice+`\s.*\ssent\s`).MatchString(out) || !regexp.MustCompile(`(?m)^`+bob+`\s.*\sdropped\s`).MatchString(out) {
		t.Errorf("--all after delivery and drop:\n%s\nwant alice's sent and bob's dropped", out)
	}

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--drop", bob}, "dropped already"},
		{[]string{"--retry", alice}, "sent already"},
		{[]string{"--drop", alice}, "sent already"},
		{[]string{"--retry", "99"}, "outbox mail #99: not found"},
		{[]string{"--retry", "x"}, "not a mail id"},
		{[]string{"--retry", alice, "--drop", bob}, "give one of them"},
		{[]string{alice}, "--retry " + alice},
	}
	for _, tt := range tests {
		code, _, errs := cli(t, append([]string{"outbox", "--db", db}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errs, tt.want) {
			t.Errorf("outbox %v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errs, tt.want)
		}
	}
	missing := filepath.Join(t.TempDir(), "typo.db")
	if code, _, errs := cli(t, "outbox", "--db", missing); code != exitUsage || !strings.Contains(errs, "--db") {
		t.Errorf("outbox on a missing database: exit %d, %q; want exit 2 and a hint at --db", code, errs)
	}
}
