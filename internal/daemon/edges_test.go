package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"referee/internal/app"
	"referee/internal/daemon"
	"referee/internal/mail/imapin"
	core "referee/internal/referee"
	"referee/internal/rules"
)

// memMailbox is a mailbox in memory: the daemon's source without any mail
// server. Messages put in it are handed over once each, in order.
type memMailbox struct {
	mu     sync.Mutex
	queue  [][]byte
	uid    uint32
	wake   chan struct{}
	passes int
}

func newMemMailbox() *memMailbox { return &memMailbox{wake: make(chan struct{}, 1)} }

func (m *memMailbox) put(raw []byte) {
	m.mu.Lock()
	m.queue = append(m.queue, raw)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *memMailbox) Once(ctx context.Context, h imapin.Handler) error {
	for {
		m.mu.Lock()
		if len(m.queue) == 0 {
			m.passes++
			m.mu.Unlock()
			return nil
		}
		raw := m.queue[0]
		m.uid++
		uid := m.uid
		m.mu.Unlock()
		if err := h(ctx, imapin.Message{UIDValidity: 1, UID: uid, Raw: raw, Size: int64(len(raw))}); err != nil {
			return err
		}
		m.mu.Lock()
		m.queue = m.queue[1:]
		m.mu.Unlock()
	}
}

func (m *memMailbox) Run(ctx context.Context, h imapin.Handler, passed func()) error {
	for {
		if err := m.Once(ctx, h); err != nil {
			return err
		}
		passed()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-m.wake:
		}
	}
}

// memSender records what the daemon sends.
type memSender struct {
	mu   sync.Mutex
	sent map[string][]string // recipient -> raw mails
}

func (s *memSender) Send(_ context.Context, _ string, to []string, raw []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range to {
		s.sent[t] = append(s.sent[t], string(raw))
	}
	return nil
}

func (s *memSender) count(to string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sent[to])
}

func TestDaemonWithInMemoryEdges(t *testing.T) {
	// The daemon takes its mailbox and its sender as values: the whole
	// loop — read, decide, store, deliver — runs here without a mail server.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := app.Open(ctx, app.Options{DB: filepath.Join(t.TempDir(), "r.db"), Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	g, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	mb, sender := newMemMailbox(), &memSender{sent: map[string][]string{}}
	done := make(chan error, 1)
	go func() {
		done <- daemon.Run(ctx, a, daemon.Config{Mailbox: mb, Sender: sender, OutboxEvery: 10 * time.Millisecond})
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 10 s for %s", what)
			}
		}
	}
	waitFor("the opening mails", func() bool { return sender.count("alice@example.org") == 1 && sender.count("bob@example.org") == 1 })
	for i, mv := range []string{"e4", "e5", "Nf3"} {
		c := rules.Color(i % 2)
		g, _ = a.Game(ctx, g.ID)
		mb.put(fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <m%d@example.org>\r\n\r\n%s\r\n",
			g.Players[c].Address, a.Referee().ReplyAddress(g, c), i, mv))
		// Both replies: the test reads Bob's last mail below.
		waitFor(mv, func() bool { return sender.count("alice@example.org") == i+2 && sender.count("bob@example.org") == i+2 })
	}
	g, _ = a.Game(ctx, g.ID)
	if g.Ply() != 3 || g.Status != core.StatusActive {
		t.Errorf("after three moves: ply %d, %s", g.Ply(), g.Status)
	}
	last := sender.sent["bob@example.org"][len(sender.sent["bob@example.org"])-1]
	if !strings.Contains(last, "White played Nf3") {
		t.Errorf("Bob's last mail:\n%.400s", last)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestDaemonPrunesOldSentText: with KeepSent, the daemon empties at start
// the text of mail sent longer ago than that (the data it is written
// from), and keeps the rest.
func TestDaemonPrunesOldSentText(t *testing.T) {
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DB: filepath.Join(t.TempDir(), "r.db"), Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.NewGame(ctx, "chess", "alice@example.test", "bob@example.test", nil); err != nil {
		t.Fatal(err)
	}
	sender := &memSender{sent: map[string][]string{}}
	run := func(keep time.Duration) {
		t.Helper()
		if err := daemon.Run(ctx, a, daemon.Config{Once: true, Mailbox: newMemMailbox(), Sender: sender, KeepSent: keep}); err != nil {
			t.Fatal(err)
		}
	}
	run(0) // delivers the two opening mails; keeps their text
	kept := func() int {
		all, err := a.Store().Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, o := range all {
			if o.Sent == nil {
				t.Fatalf("mail to %s not sent", o.To)
			}
			if len(o.Raw) > 0 || len(o.Data) > 0 { // the text, or the data it is written from
				n++
			}
		}
		return n
	}
	if n := kept(); n != 2 {
		t.Fatalf("%d mails keep their text, want 2", n)
	}
	run(time.Hour) // sent a moment ago: kept
	if n := kept(); n != 2 {
		t.Fatalf("with 1 h kept, %d mails keep their text, want 2", n)
	}
	time.Sleep(20 * time.Millisecond)
	run(10 * time.Millisecond)
	if n := kept(); n != 0 {
		t.Errorf("with 10 ms kept, %d mails keep their text, want 0", n)
	}
}
