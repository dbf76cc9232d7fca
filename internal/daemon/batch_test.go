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
	refuse map[string]int // recipient -> reply code
	conns  atomic.Int32
	mu     sync.Mutex
	got    []string // accepted recipients, in order
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
func (s *batchSession) Logout() error                        { return nil }
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

// TestOutboxBatchOverOneSession: one outbox pass sends every due mail over
// ONE SMTP connection; a mail the server refuses (permanently or for now)
// gets its own outcome, and the mails after it are still sent.
func TestOutboxBatchOverOneSession(t *testing.T) {
	b := &batchServer{refuse: map[string]int{"nobody@example.test": 550, "busy@example.test": 451}}
	srv := smtp.NewServer(b)
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	queue(t, s, "alice@example.test", "nobody@example.test", "bob@example.test", "busy@example.test", "carol@example.test")
	now := time.Now()
	ob := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 5 * time.Second}),
		Log: discard(), Now: func() time.Time { return now }}
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
