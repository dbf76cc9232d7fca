package status

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/store"
)

// TestIMAPReady (issue 38): /readyz said ready while every IMAP session
// failed ("unknown authority"), because it only opened a TCP connection.
// Ready now means: the last session logged in, none failed since, and the
// mailbox was read within the stale limit.
func TestIMAPReady(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := NewSessions(func() time.Time { return now })
	check := IMAPReady(st, s, 4*time.Minute)
	tlsErr := errors.New("connecting to the IMAP server mail.example.org:993: x509: certificate signed by unknown authority")
	for _, step := range []struct {
		name string
		do   func()
		want string // "" for ready, else a part of the failure
	}{
		{"just started", func() {}, "no IMAP session has logged in yet"},
		{"every session fails on TLS", func() { s.IMAP(tlsErr); now = now.Add(time.Second); s.IMAP(tlsErr) }, "unknown authority"},
		{"logged in", func() { now = now.Add(time.Second); s.IMAP(nil) }, ""},
		{"the session dropped", func() { now = now.Add(time.Minute); s.IMAP(errors.New("connection reset by peer")) }, "connection reset by peer"},
		{"logged in again", func() { now = now.Add(time.Second); s.IMAP(nil) }, ""},
		{"no pass for 5 min", func() { now = now.Add(5 * time.Minute) }, "more than 4m0s"},
		{"a pass", func() {
			if err := st.RecordIMAPContact(ctx, now); err != nil {
				t.Fatal(err)
			}
		}, ""},
	} {
		step.do()
		err := check.Run(ctx)
		switch {
		case step.want == "" && err != nil:
			t.Errorf("%s: %v, want ready", step.name, err)
		case step.want != "" && (err == nil || !strings.Contains(err.Error(), step.want)):
			t.Errorf("%s: %v, want a failure saying %q", step.name, err, step.want)
		}
	}
}

// TestSMTPReady: an SMTP login is tried when /readyz is asked and no mail
// went out lately, at most every 10 min while it works and every minute
// while it fails; a recent delivery makes it unnecessary.
func TestSMTPReady(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	probes := 0
	var answer error
	check := SMTPReady(st, func(context.Context) error { probes++; return answer }, 10*time.Minute, func() time.Time { return now })
	for _, step := range []struct {
		name   string
		after  time.Duration
		answer error
		want   string // "" for ready
		probes int    // probes so far
	}{
		{"TLS fails", 0, errors.New("SMTP TLS handshake at smtp.example.org:465: x509: certificate signed by unknown authority"), "unknown authority", 1},
		{"asked again at once: the last answer", 10 * time.Second, nil, "unknown authority", 1},
		{"a minute later: tried again, works", time.Minute, nil, "", 2},
		{"5 min later: still known to work", 5 * time.Minute, errors.New("would fail"), "", 2},
		{"10 min later: tried again", 5 * time.Minute, errors.New("SMTP AUTH PLAIN: 535"), "535", 3},
	} {
		now = now.Add(step.after)
		answer = step.answer
		err := check.Run(ctx)
		switch {
		case step.want == "" && err != nil:
			t.Errorf("%s: %v, want ready", step.name, err)
		case step.want != "" && (err == nil || !strings.Contains(err.Error(), step.want)):
			t.Errorf("%s: %v, want a failure saying %q", step.name, err, step.want)
		}
		if probes != step.probes {
			t.Errorf("%s: %d logins tried, want %d", step.name, probes, step.probes)
		}
	}
}
