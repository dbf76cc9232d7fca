package daemon_test

import (
	"context"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/daemon"
	"referee/internal/mail/smtpout"
	"referee/internal/store"
)

// batchServer is an in-process SMTP server that counts connections and
// refuses some recipients.
type batchServer struct {
	refuse  map[string]int // recipient -> reply code
	conns   atomic.Int32
	logouts atomic.Int32
	mu      sync.Mutex
	got     []string // accepted recipients, in order
}

func (b *batchServer) NewSession(*smtp.Conn) (smtp.Session, error) {
	b.conns.Add(1)
	return &batchSession{b: b}, nil
}

type batchSession struct {
	b  *batchServer
	to string
}

func (s *batchSession) Reset()                               { s.to = "" }
func (s *batchSession) Logout() error                        { s.b.logouts.Add(1); return nil }
func (s *batchSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *batchSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if code := s.b.refuse[to]; code != 0 {
		return &smtp.SMTPError{Code: code, Message: "refused for the test"}
	}
	s.to = to
	return nil
}
func (s *batchSession) Data(r io.Reader) error {
	if _, err := io.ReadAll(r); err != nil {
		return err
	}
	s.b.mu.Lock()
	s.b.got = append(s.b.got, s.to)
	s.b.mu.Unlock()
	return nil
}

// serveBatch serves b on a free loopback port until the test ends.
func serveBatch(t *testing.T, b *batchServer) (*smtp.Server, net.Listener) {
	t.Helper()
	srv := smtp.NewServer(b)
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return srv, ln
}

// sent returns how many mails the server accepted.
func (b *batchServer) sent() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.got)
}

// TestLoopKeepsTheSessionBetweenPasses: the outbox's loop sends the mails
// of successive passes over one SMTP connection; when the server dropped
// it while it rested, the next pass notices (NOOP) and opens a new one,
// and the mail is sent at once, not counted as a failed attempt; after
// KeepOpen without mail the loop ends the session itself.
func TestLoopKeepsTheSessionBetweenPasses(t *testing.T) {
	b := &batchServer{}
	srv, ln := serveBatch(t, b)

	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	ob := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 5 * time.Second}),
		Log: discard(), Now: time.Now, KeepOpen: time.Hour,
		// One connection: with more, a pass that starts while the last one
		// still collects its outcome takes the other, and opens it.
		Connections: 1}
	ctx, cancel := context.WithCancel(context.Background())
	nudge := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() { ob.Loop(ctx, time.Hour, nudge); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	// recorded reports whether the outbox holds the mail to as sent: the
	// server counts a mail when it reads its text, before it answers 250,
	// and the outbox records it only once it has the answer.
	recorded := func(to string) bool {
		all, err := s.Outbox(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range all {
			if o.To == to && o.Sent != nil {
				return true
			}
		}
		return false
	}
	pass := func(to string, want int) {
		t.Helper()
		queue(t, s, to)
		nudge <- struct{}{}
		deadline := time.Now().Add(10 * time.Second)
		for b.sent() < want || !recorded(to) {
			if time.Now().After(deadline) {
				all, _ := s.Outbox(context.Background())
				for _, o := range all {
					t.Logf("%s: sent %v, %d attempts, last error %q, next %v", o.To, o.Sent, o.Attempts, o.LastError, o.NextAttempt)
				}
				t.Fatalf("%d mails accepted, want %d; recorded as sent: %v", b.sent(), want, recorded(to))
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	pass("alice@example.test", 1)
	pass("bob@example.test", 2)
	pass("carol@example.test", 3)
	if n := b.conns.Load(); n != 1 {
		t.Errorf("three passes used %d SMTP connections, want 1", n)
	}
	// The server drops the resting connection (as servers drop idle ones).
	srv.Close()
	ln2, err := net.Listen("tcp", ln.Addr().String())
	if err != nil {
		t.Skipf("could not listen again on %s: %v", ln.Addr(), err)
	}
	srv2 := smtp.NewServer(b)
	srv2.Domain = "localhost"
	go srv2.Serve(ln2)
	t.Cleanup(func() { srv2.Close() })
	pass("dave@example.test", 4)
	if n := b.conns.Load(); n != 2 {
		t.Errorf("%d SMTP connections after the server dropped the first, want 2", n)
	}
	sentAtFirst(t, s)
}

// TestLoopClosesAnIdleSession: after KeepOpen without mail, the loop says
// QUIT.
func TestLoopClosesAnIdleSession(t *testing.T) {
	b := &batchServer{}
	_, ln := serveBatch(t, b)
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	queue(t, s, "alice@example.test")
	ob := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 5 * time.Second}),
		Log: discard(), Now: time.Now, KeepOpen: 50 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { ob.Loop(ctx, time.Hour, nil); close(done) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for b.logouts.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the session was not ended: %d mails sent, %d connections", b.sent(), b.conns.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if b.sent() != 1 {
		t.Errorf("%d mails sent, want 1", b.sent())
	}
}

// TestOutboxBatchOverOneSession: with Connections 1, one outbox pass sends
// every due mail over ONE SMTP connection; a mail the server refuses
// (permanently or for now) gets its own outcome, and the mails after it are
// still sent.
func TestOutboxBatchOverOneSession(t *testing.T) {
	b := &batchServer{refuse: map[string]int{"nobody@example.test": 550, "busy@example.test": 451}}
	_, ln := serveBatch(t, b)

	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	queue(t, s, "alice@example.test", "nobody@example.test", "bob@example.test", "busy@example.test", "carol@example.test")
	now := time.Now()
	ob := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 5 * time.Second}),
		Log: discard(), Now: func() time.Time { return now }, Connections: 1}
	if n, err := ob.Flush(context.Background()); err != nil || n != 3 {
		t.Fatalf("%d sent, %v; want 3", n, err)
	}
	if n := b.conns.Load(); n != 1 {
		t.Errorf("%d SMTP connections, want 1", n)
	}
	if got := strings.Join(b.got, " "); got != "alice@example.test bob@example.test carol@example.test" {
		t.Errorf("accepted %s", got)
	}
	all, err := s.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"alice@example.test": store.StateSent, "bob@example.test": store.StateSent, "carol@example.test": store.StateSent,
		"nobody@example.test": store.StateFailed, "busy@example.test": store.StateWaiting}
	for _, o := range all {
		if st := o.State(now); st != want[o.To] {
			t.Errorf("%s: state %q, want %q (last error %q)", o.To, st, want[o.To], o.LastError)
		}
	}
}

// dropSession is a session of a server that drops its connection when a
// second mail begins on it: a server closing a kept connection at the
// worst moment, after the client's last check and before its next mail.
type dropSession struct {
	batchSession
	c     *smtp.Conn
	mails int
}

func (s *dropSession) Mail(from string, o *smtp.MailOptions) error {
	if s.mails++; s.mails > 1 {
		s.c.Close()
		return &smtp.SMTPError{Code: 421, Message: "closing for the test"}
	}
	return s.batchSession.Mail(from, o)
}

// dropServer serves dropSessions.
type dropServer struct{ batchServer }

func (d *dropServer) NewSession(c *smtp.Conn) (smtp.Session, error) {
	d.conns.Add(1)
	return &dropSession{batchSession: batchSession{b: &d.batchServer}, c: c}, nil
}

// TestSendAgainOnANewSessionWhenTheKeptOneDrops: a mail whose kept
// session broke before the mail was offered (at RSET or MAIL: nothing of
// it reached the server) goes at once over a new session, in the same
// attempt, not after the 30 s of a retry; each mail is accepted once.
func TestSendAgainOnANewSessionWhenTheKeptOneDrops(t *testing.T) {
	d := &dropServer{}
	srv := smtp.NewServer(d)
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	queue(t, s, "alice@example.test", "bob@example.test", "carol@example.test")
	ob := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 5 * time.Second}),
		Log: discard(), Now: time.Now, Connections: 1}
	n, err := ob.Flush(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("Flush sent %d, %v; want 3", n, err)
	}
	if got := d.sent(); got != 3 {
		t.Errorf("the server accepted %d mails, want 3 (each once)", got)
	}
	if c := d.conns.Load(); c != 3 {
		t.Errorf("%d sessions, want 3 (one a mail: each drops at the next)", c)
	}
	sentAtFirst(t, s)
}

// sentAtFirst checks that every mail of the outbox was sent at its first
// attempt, with no error recorded.
func sentAtFirst(t *testing.T, s *store.Store) {
	t.Helper()
	all, err := s.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all {
		if o.Sent == nil || o.Attempts != 1 || o.LastError != "" {
			t.Errorf("%s: sent %v after %d attempts (last error %q); want sent at the first", o.To, o.Sent, o.Attempts, o.LastError)
		}
	}
}
