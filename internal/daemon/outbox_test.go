package daemon_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/daemon"
	"referee/internal/store"
)

// fakeSender records every send; it answers each recipient as told by
// answer (nil: accepted) after a delay.
type fakeSender struct {
	delay  time.Duration
	answer func(to string) error

	mu    sync.Mutex
	sends map[string]int // Message-ID line -> sends
	tries map[string]int // recipient -> attempts
}

func (f *fakeSender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	select {
	case <-time.After(f.delay):
	case <-ctx.Done():
		return ctx.Err()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tries == nil {
		f.tries, f.sends = map[string]int{}, map[string]int{}
	}
	f.tries[to[0]]++
	if f.answer != nil {
		if err := f.answer(to[0]); err != nil {
			return err
		}
	}
	f.sends[string(raw)]++
	return nil
}

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func queue(t *testing.T, s *store.Store, tos ...string) {
	t.Helper()
	err := s.Update(context.Background(), func(tx *store.Tx) error {
		for i, to := range tos {
			raw := fmt.Sprintf("Message-ID: <%d.%s>\r\n\r\nhello", i, to)
			if _, err := tx.Enqueue(store.Outgoing{To: to, From: "referee@example.test", MessageID: fmt.Sprintf("<%d>", i), Raw: []byte(raw)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTwoSendersDeliverEachMailOnce: two outbox senders on one database
// (as two daemons, or `serve --once` from cron next to a daemon), with an
// SMTP server slow enough that both see the same mail due: each mail is
// claimed by one of them and sent exactly once.
func TestTwoSendersDeliverEachMailOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	var tos []string
	for i := range 20 {
		tos = append(tos, fmt.Sprintf("p%d@example.test", i))
	}
	queue(t, openStore(t, path), tos...)
	sender := &fakeSender{delay: 20 * time.Millisecond}
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i := range 2 {
		ob := &daemon.Outbox{Store: openStore(t, path), Sender: sender, Log: discard(), Now: time.Now}
		wg.Go(func() {
			n, err := ob.Flush(context.Background())
			if err != nil {
				t.Errorf("sender %d: %v", i, err)
			}
			counts[i] = n
		})
	}
	wg.Wait()
	total := 0
	for raw, n := range sender.sends {
		total += n
		if n != 1 {
			t.Errorf("%q sent %d times, want once", strings.SplitN(raw, "\r\n", 2)[0], n)
		}
	}
	if total != 20 || counts[0]+counts[1] != 20 {
		t.Errorf("%d sends (senders report %v), want 20 in all", total, counts)
	}
	if n, _ := openStore(t, path).PendingOutbox(context.Background()); n != 0 {
		t.Errorf("%d mails still pending", n)
	}
}

// TestPermanentRefusalIsADeadLetter: a 5xx answer (smtpout.IsPermanent)
// stops the retries and marks the mail undeliverable with the server's
// answer; a 4xx answer is retried after the backoff as before.
func TestPermanentRefusalIsADeadLetter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	s := openStore(t, path)
	queue(t, s, "nobody@example.test", "busy@example.test", "alice@example.test")
	sender := &fakeSender{answer: func(to string) error {
		switch to {
		case "nobody@example.test":
			return fmt.Errorf("SMTP RCPT TO:<%s> at mx: %w", to, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"})
		case "busy@example.test":
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
		}
		return nil
	}}
	now := time.Now()
	ob := &daemon.Outbox{Store: s, Sender: sender, Log: discard(), Now: func() time.Time { return now }}
	if n, err := ob.Flush(context.Background()); err != nil || n != 1 {
		t.Fatalf("first pass: %d sent, %v; want 1", n, err)
	}
	// Long after any backoff: only the 451 is tried again.
	now = now.Add(2 * time.Hour)
	if _, err := ob.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := sender.tries["nobody@example.test"]; got != 1 {
		t.Errorf("the 550 mail was tried %d times, want once", got)
	}
	if got := sender.tries["busy@example.test"]; got != 2 {
		t.Errorf("the 451 mail was tried %d times, want twice", got)
	}
	all, err := s.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all {
		switch o.To {
		case "nobody@example.test":
			if o.State(now) != store.StateFailed || !strings.Contains(o.LastError, "550: no such user") {
				t.Errorf("the 550 mail: state %q, last error %q; want failed with the server's answer", o.State(now), o.LastError)
			}
		case "busy@example.test":
			if o.State(now) != store.StateWaiting || o.Attempts != 2 || !strings.Contains(o.LastError, "451") {
				t.Errorf("the 451 mail: state %q, %d attempts, last error %q; want waiting after 2", o.State(now), o.Attempts, o.LastError)
			}
		}
	}
	if n, _ := s.PendingOutbox(context.Background()); n != 1 {
		t.Errorf("pending = %d, want 1 (the 451 mail; the dead letter is not pending)", n)
	}
}

// TestInterruptedSendIsDueAgainAtOnce: a send cut short by shutdown gives
// its claim back, so the next start sends the mail at once rather than
// after the claim's lease.
func TestInterruptedSendIsDueAgainAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	s := openStore(t, path)
	queue(t, s, "alice@example.test")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ob := &daemon.Outbox{Store: s, Sender: &fakeSender{delay: time.Hour}, Log: discard(), Now: time.Now}
	ob.Flush(ctx)
	due, err := s.DueOutbox(context.Background(), time.Now(), 10)
	if err != nil || len(due) != 1 {
		t.Fatalf("after an interrupted send: %d due, %v; want the mail due at once", len(due), err)
	}
}
