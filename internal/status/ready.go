package status

import (
	"context"
	"fmt"
	"sync"
	"time"

	"referee/internal/store"
)

// Sessions is what the daemon knows of its IMAP sessions: when the last
// one logged in, and when and why the last one failed. The IMAP reader
// tells it (imapin.Config.OnSession); /readyz reads it. Safe for
// concurrent use.
type Sessions struct {
	now func() time.Time

	mu       sync.Mutex
	loggedIn time.Time // the last successful login
	failed   time.Time // the last failed session (or failed connection, TLS handshake, login)
	why      error
}

// NewSessions returns an empty record that reads the time from now.
func NewSessions(now func() time.Time) *Sessions { return &Sessions{now: now} }

// IMAP records how a session began (nil: logged in) or ended (its error).
func (s *Sessions) IMAP(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.loggedIn = s.now()
		return
	}
	s.failed, s.why = s.now(), err
}

func (s *Sessions) imap() (loggedIn, failed time.Time, why error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loggedIn, s.failed, s.why
}

// IMAPReady is the readiness check of the mailbox: ready when the last
// IMAP session logged in and has not failed since, and the mailbox was
// seen recently: a login or a complete pass (which IDLE's refresh makes
// at least every --poll) within stale. A wrong password, an untrusted
// certificate or a server that drops the connection all make it fail,
// with the error the log repeats.
func IMAPReady(st *store.Store, s *Sessions, stale time.Duration) Check {
	return Check{Name: "imap", Run: func(ctx context.Context) error {
		loggedIn, failed, why := s.imap()
		now := s.now()
		if !failed.IsZero() && !failed.Before(loggedIn) {
			return fmt.Errorf("the last IMAP session failed at %s (%s ago), and none logged in since; the referee reconnects: %v",
				failed.UTC().Format(time.RFC3339), now.Sub(failed).Truncate(time.Second), why)
		}
		if loggedIn.IsZero() {
			return fmt.Errorf("no IMAP session has logged in yet")
		}
		seen := loggedIn
		stt, err := st.Status(ctx)
		if err != nil {
			return fmt.Errorf("reading the last IMAP contact: %w", err)
		}
		if stt.LastIMAP.After(seen) {
			seen = stt.LastIMAP
		}
		if age := now.Sub(seen); age > stale {
			return fmt.Errorf("the mailbox was last read completely at %s, %s ago (more than %s): the IMAP session hangs or a pass takes very long; see the log",
				seen.UTC().Format(time.RFC3339), age.Truncate(time.Second), stale)
		}
		return nil
	}}
}

// SMTPReady is the readiness check of sending: ready when the SMTP server
// accepted a mail within every, or else when a session opened by login
// (connect, TLS, EHLO, AUTH, QUIT; open does it) succeeded within every.
// The probe runs only when /readyz is asked and neither is known, so it
// logs in at most once every every, and once a minute after a failure.
// (Sending blocked by the outbox is OutboxNotStuck's to report.)
func SMTPReady(st *store.Store, open func(context.Context) error, every time.Duration, now func() time.Time) Check {
	var (
		mu     sync.Mutex
		probed time.Time
		last   error
	)
	return Check{Name: "smtp", Run: func(ctx context.Context) error {
		t := now()
		if stt, err := st.Status(ctx); err == nil && !stt.LastDelivery.IsZero() && t.Sub(stt.LastDelivery) <= every {
			return nil // a mail went out lately: sending works
		}
		mu.Lock()
		defer mu.Unlock()
		ttl := every
		if last != nil {
			ttl = min(every, time.Minute)
		}
		if probed.IsZero() || t.Sub(probed) >= ttl {
			probed, last = t, open(ctx)
		}
		if last != nil {
			return fmt.Errorf("an SMTP session could not be opened at %s: %v", probed.UTC().Format(time.RFC3339), last)
		}
		return nil
	}}
}
