package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// loginSMTP is an SMTP server that wants AUTH PLAIN with one password and
// refuses MAIL FROM without it (530), as a provider's submission port does.
type loginSMTP struct {
	password string
	mu       sync.Mutex
	logins   []string
	got      [][]byte
}

func (b *loginSMTP) NewSession(*smtp.Conn) (smtp.Session, error) { return &loginSession{b: b}, nil }

type loginSession struct {
	b      *loginSMTP
	authed bool
}

func (s *loginSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *loginSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		s.b.mu.Lock()
		s.b.logins = append(s.b.logins, user)
		s.b.mu.Unlock()
		if pass != s.b.password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "authentication credentials invalid"}
		}
		s.authed = true
		return nil
	}), nil
}
func (s *loginSession) Reset()        {}
func (s *loginSession) Logout() error { return nil }
func (s *loginSession) Mail(string, *smtp.MailOptions) error {
	if !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}
	}
	return nil
}
func (s *loginSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *loginSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.b.mu.Lock()
	s.b.got = append(s.b.got, b)
	s.b.mu.Unlock()
	return err
}

// TestServeLogsInToSMTPByDefault (issue 27, "SMTP login is never silently
// off"): with no --smtp-user, serve logs in to an SMTP server that wants a
// login as the --address, with the IMAP password. When the server refuses
// the login (535), the reply waits (never a dead letter), "referee status"
// says loudly that sending is blocked and why, and once the password is
// right "referee outbox --retry all" and the next run send it.
func TestServeLogsInToSMTPByDefault(t *testing.T) {
	const referee = "referee@example.test"
	mail := "From: alice@example.org\r\nTo: referee@example.test\r\nSubject: hello\r\nMessage-ID: <a1@example.org>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nhelp\r\n"
	imapAddr, _ := loopbackIMAP(t, referee, []string{mail}, nil)

	backend := &loginSMTP{password: "other"} // not yet the IMAP password
	smtpAddr := loopbackSMTP(t, backend)

	db := filepath.Join(t.TempDir(), "r.db")
	serve := func(want int) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var out, errb bytes.Buffer
		code := run(ctx, []string{"serve", "--once", "--db", db, "--address", referee, "--imap", imapAddr,
			"--imap-tls", "none", "--imap-pass", "pw", "--smtp", smtpAddr, "--smtp-tls", "none"}, &out, &errb)
		if code != want {
			t.Fatalf("serve --once: exit %d, want %d\n%s", code, want, errb.String())
		}
		return errb.String()
	}
	// Issue 38: cron must hear that sending is blocked: exit 1, and why.
	logs := serve(exitFail)
	if !strings.Contains(logs, "referee serve: sending is blocked since") || !strings.Contains(logs, "1 mails wait in the outbox") {
		t.Errorf("serve --once does not end by saying that sending is blocked:\n%s", logs)
	}
	backend.mu.Lock()
	logins, got := strings.Join(backend.logins, ","), len(backend.got)
	backend.mu.Unlock()
	if logins != referee || got != 0 {
		t.Fatalf("the SMTP server saw logins %q and %d mails; want one login as %s, refused", logins, got, referee)
	}
	if !strings.Contains(logs, "SENDING IS BLOCKED") || !strings.Contains(logs, "535") {
		t.Errorf("the log does not say loudly that sending is blocked:\n%s", logs)
	}
	_, out, _ := cli(t, "outbox", "--db", db)
	if !strings.Contains(out, "waiting") || strings.Contains(out, "failed") {
		t.Errorf("after the refused login the reply should wait, not fail:\n%s", out)
	}
	_, st, _ := cli(t, "status", "--db", db)
	if !strings.Contains(st, "SENDING IS BLOCKED") || !strings.Contains(st, "535") {
		t.Errorf("status does not say that sending is blocked and why:\n%s", st)
	}

	// The organiser fixes the password, and asks for a retry.
	backend.mu.Lock()
	backend.password = "pw"
	backend.mu.Unlock()
	if code, out, errs := cli(t, "outbox", "--db", db, "--retry", "all"); code != 0 || !strings.Contains(out, "1 failed or waiting mails are due now") {
		t.Fatalf("outbox --retry all: %d %s %s", code, out, errs)
	}
	serve(exitOK)
	backend.mu.Lock()
	got = len(backend.got)
	backend.mu.Unlock()
	if got != 1 {
		t.Errorf("after the fix, %d mails arrived; want the reply", got)
	}
	if _, st, _ := cli(t, "status", "--db", db); strings.Contains(st, "BLOCKED") {
		t.Errorf("status still says blocked after a delivery:\n%s", st)
	}
}
