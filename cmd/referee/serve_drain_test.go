package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"referee/internal/store"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestShutdownDrainsTheOutbox (issue 27, "Shutdown drains"): in the
// embedded mode, mail queued just before SIGTERM is delivered before the
// embedded SMTP server stops, not 30 s after the next start.
func TestShutdownDrainsTheOutbox(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--db", db, "--embedded-imap", "127.0.0.1:0", "--embedded-smtp", "127.0.0.1:0"}, &out, &errb)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(errb.String(), "referee serving") {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s\n%s", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Queued beside the daemon (it is not nudged; its next pass would
	// be up to 2 s away), then the daemon is told to stop at once.
	if code, _, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", "alice@example.test", "--black", "bob@example.test"); code != 0 {
		t.Fatalf("new: %s", errs)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("serve: exit %d\n%s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all, err := s.Outbox(context.Background())
	if err != nil || len(all) != 2 {
		t.Fatalf("outbox: %d mails, %v", len(all), err)
	}
	for _, o := range all {
		if o.Sent == nil {
			t.Errorf("the opening mail to %s was not delivered before the embedded server stopped (attempts %d, %s)", o.To, o.Attempts, o.LastError)
		}
	}
}
