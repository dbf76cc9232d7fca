package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func enqueue(t *testing.T, s *Store, to string, at time.Time) int64 {
	t.Helper()
	var id int64
	err := s.Update(context.Background(), func(tx *Tx) error {
		var err error
		id, err = tx.Enqueue(Outgoing{To: to, From: "referee@example.test", MessageID: "<" + to + ">", Raw: []byte("raw"), Created: at})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestClaimIsExclusiveUntilItsLeaseRunsOut: only one sender holds a message;
// a crashed holder's lease runs out and the message is due again; a sender
// whose lease ran out cannot overwrite the new holder's outcome.
func TestClaimIsExclusiveUntilItsLeaseRunsOut(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	id := enqueue(t, s, "alice@example.test", now)

	a, err := s.ClaimOutgoing(ctx, id, now, time.Minute)
	if err != nil || a == nil {
		t.Fatalf("first claim = %v, %v; want a claim", a, err)
	}
	if b, err := s.ClaimOutgoing(ctx, id, now.Add(59*time.Second), time.Minute); err != nil || b != nil {
		t.Errorf("second claim within the lease = %v, %v; want none", b, err)
	}
	if due, _ := s.DueOutbox(ctx, now, 10); len(due) != 0 {
		t.Errorf("a claimed message is listed as due: %+v", due)
	}
	ob, _ := s.OutgoingByID(ctx, id)
	if st := ob.State(now); st != StateSending {
		t.Errorf("state while claimed = %q, want %q", st, StateSending)
	}
	// The holder crashed: after its lease, another sender takes over.
	later := now.Add(time.Minute)
	b, err := s.ClaimOutgoing(ctx, id, later, time.Minute)
	if err != nil || b == nil {
		t.Fatalf("claim after the lease ran out = %v, %v; want a claim", b, err)
	}
	if err := s.MarkFailed(ctx, a, "421 late", later); !errors.Is(err, ErrClaimLost) {
		t.Errorf("the old holder's MarkFailed = %v; want ErrClaimLost", err)
	}
	if err := s.MarkSent(ctx, b, later); err != nil {
		t.Fatal(err)
	}
	if c, err := s.ClaimOutgoing(ctx, id, later.Add(time.Hour), time.Minute); err != nil || c != nil {
		t.Errorf("claim of a sent message = %v, %v; want none", c, err)
	}
}

// TestDeadLetterRetryAndDrop: a permanently refused message is no longer
// due nor pending; retry makes it due at once; drop keeps the row, never
// sends it, and cannot be done twice; a sent message can be neither.
func TestDeadLetterRetryAndDrop(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	id := enqueue(t, s, "bob@example.test", now)
	c, _ := s.ClaimOutgoing(ctx, id, now, time.Minute)
	if err := s.MarkDead(ctx, c, "550 5.1.1 no such user", now); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueOutbox(ctx, now.Add(24*time.Hour), 10); len(due) != 0 {
		t.Errorf("a dead letter is due again: %+v", due)
	}
	if n, _ := s.PendingOutbox(ctx); n != 0 {
		t.Errorf("pending = %d with only a dead letter, want 0", n)
	}
	failed, _ := s.ListOutbox(ctx, OutboxFailed)
	if len(failed) != 1 || failed[0].State(now) != StateFailed || failed[0].LastError != "550 5.1.1 no such user" || failed[0].Attempts != 1 {
		t.Fatalf("failed list = %+v", failed)
	}
	if log, _ := s.AuditLog(ctx, nil); len(log) == 0 || log[len(log)-1].Event != "undeliverable" {
		t.Errorf("no audit entry for the dead letter: %+v", log)
	}

	if err := s.RetryOutgoing(ctx, id, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueOutbox(ctx, now.Add(time.Hour), 10); len(due) != 1 {
		t.Errorf("after retry: %d due, want 1", len(due))
	}
	if err := s.DropOutgoing(ctx, id, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueOutbox(ctx, now.Add(2*time.Hour), 10); len(due) != 0 {
		t.Errorf("a dropped message is due")
	}
	if q, _ := s.ListOutbox(ctx, OutboxQueued); len(q) != 0 {
		t.Errorf("a dropped message is queued: %+v", q)
	}
	all, _ := s.ListOutbox(ctx, OutboxAll)
	if len(all) != 1 || all[0].State(now) != StateDropped {
		t.Errorf("the dropped row is not kept: %+v", all)
	}
	if err := s.DropOutgoing(ctx, id, now); !errors.Is(err, ErrOutboxState) {
		t.Errorf("dropping twice = %v; want ErrOutboxState", err)
	}
	if err := s.RetryOutgoing(ctx, 999, now); !errors.Is(err, ErrNotFound) {
		t.Errorf("retrying mail #999 = %v; want ErrNotFound", err)
	}

	sent := enqueue(t, s, "carol@example.test", now)
	c, _ = s.ClaimOutgoing(ctx, sent, now, time.Minute)
	// A message being sent cannot be dropped or retried under the sender.
	if err := s.DropOutgoing(ctx, sent, now); !errors.Is(err, ErrOutboxState) {
		t.Errorf("dropping a message being sent = %v; want ErrOutboxState", err)
	}
	s.MarkSent(ctx, c, now)
	for name, act := range map[string]func(context.Context, int64, time.Time) error{"retry": s.RetryOutgoing, "drop": s.DropOutgoing} {
		if err := act(ctx, sent, now); !errors.Is(err, ErrOutboxState) {
			t.Errorf("%s of a sent message = %v; want ErrOutboxState", name, err)
		}
	}
}

// TestMigrationFromVersion1KeepsTheOutbox: a database of schema version 1
// with mail queued is brought to the current version with the mail still
// due.
func TestMigrationFromVersion1KeepsTheOutbox(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{migrations()[0], "PRAGMA user_version = 1",
		`INSERT INTO outbox (to_addr, from_addr, message_id, raw, created, next_attempt) VALUES ('a@x.test', 'r@x.test', '<1@x>', 'x', 0, 0)`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.Version(ctx); v != len(migrations()) {
		t.Errorf("version after migration = %d, want %d", v, len(migrations()))
	}
	if due, err := s.DueOutbox(ctx, time.Now(), 10); err != nil || len(due) != 1 || string(due[0].Raw) != "x" {
		t.Errorf("due after migration = %+v, %v; want the queued mail with its text", due, err)
	} else if len(due[0].Data) != 0 || due[0].Priority != PriorityPlayer {
		// Mail queued before version 7 has its text and no data: the
		// sender sends the text as it was written.
		t.Errorf("an old mail after migration: data %q, priority %d; want none and %d", due[0].Data, due[0].Priority, PriorityPlayer)
	}
}

func TestClaimsOfADeadRunAreReleased(t *testing.T) {
	// A daemon killed while sending leaves its claim; the next daemon (it
	// holds the lock, so no one else sends) makes the mail due at once.
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Now().UTC()
	var id int64
	err := s.Update(ctx, func(tx *Tx) error {
		var err error
		id, err = tx.Enqueue(Outgoing{To: "a@example.test", From: "r@example.test", MessageID: "<m@x>", Raw: []byte("x"), Created: now})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.ClaimOutgoing(ctx, id, now, 10*time.Minute); err != nil || c == nil {
		t.Fatalf("claim: %v %v", c, err)
	}
	if c, _ := s.ClaimOutgoing(ctx, id, now.Add(time.Second), 10*time.Minute); c != nil {
		t.Fatal("a second claim while the first stands")
	}
	if n, err := s.ReleaseAllClaims(ctx); err != nil || n != 1 {
		t.Fatalf("released %d, %v; want 1", n, err)
	}
	if c, err := s.ClaimOutgoing(ctx, id, now.Add(time.Second), 10*time.Minute); err != nil || c == nil {
		t.Errorf("after the release the mail cannot be claimed: %v %v", c, err)
	}
}

// TestWritersTakeTurns: while one goroutine runs write transactions back to
// back, as the daemon does in a burst of mail, the outbox's claim is served
// after a few of them, not after the burst (SQLite's busy handler, left to
// itself, sleeps between retries and kept missing the gaps).
func TestWritersTakeTurns(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	id := enqueue(t, s, "alice@example.test", now)
	const burst = 60
	var done atomic.Int32
	started := make(chan struct{})
	finished := make(chan error, 1)
	go func() {
		for i := range burst {
			err := s.Update(ctx, func(tx *Tx) error {
				if i == 0 {
					close(started)
				}
				time.Sleep(3 * time.Millisecond) // a move's work inside its transaction
				return tx.SetSetting("burst", []byte{byte(i)})
			})
			if err != nil {
				finished <- err
				return
			}
			done.Add(1)
		}
		finished <- nil
	}()
	<-started
	c, err := s.ClaimOutgoing(ctx, id, now, time.Minute)
	if err != nil || c == nil {
		t.Fatalf("claim = %v, %v", c, err)
	}
	if err := s.MarkSent(ctx, c, now); err != nil {
		t.Fatal(err)
	}
	served := done.Load()
	if err := <-finished; err != nil {
		t.Fatal(err)
	}
	if served > 10 {
		t.Errorf("the claim and its outcome were written after %d of the burst's %d transactions; want a few at most", served, burst)
	}
}

// TestRetryAll: --retry-failed makes the dead letters due, --retry all the
// waiting mail too; dropped and sent mail stay as they are.
func TestRetryAll(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	outcome := func(to string, mark func(c *Claim) error) int64 {
		id := enqueue(t, s, to, now)
		c, err := s.ClaimOutgoing(ctx, id, now, time.Minute)
		if err != nil || c == nil {
			t.Fatal(c, err)
		}
		if err := mark(c); err != nil {
			t.Fatal(err)
		}
		return id
	}
	later := now.Add(time.Hour)
	outcome("dead@x.test", func(c *Claim) error { return s.MarkDead(ctx, c, "550 no", now) })
	outcome("waiting@x.test", func(c *Claim) error { return s.MarkFailed(ctx, c, "451 later", later) })
	outcome("dropped@x.test", func(c *Claim) error { return s.MarkDropped(ctx, c, "550 stranger", now) })
	outcome("sent@x.test", func(c *Claim) error { return s.MarkSent(ctx, c, now) })
	due := func() string {
		d, err := s.DueOutbox(ctx, now.Add(time.Second), 10)
		if err != nil {
			t.Fatal(err)
		}
		var to []string
		for _, o := range d {
			to = append(to, o.To)
		}
		return strings.Join(to, " ")
	}
	for _, tt := range []struct {
		onlyFailed bool
		n          int64
		due        string
	}{
		{true, 1, "dead@x.test"},
		{false, 1, "dead@x.test waiting@x.test"}, // the dead letter is due already
	} {
		if n, err := s.RetryAll(ctx, now, tt.onlyFailed); err != nil || n != tt.n {
			t.Errorf("RetryAll(onlyFailed %v) = %d, %v; want %d", tt.onlyFailed, n, err, tt.n)
		}
		if got := due(); got != tt.due {
			t.Errorf("after RetryAll(onlyFailed %v) due: %q, want %q", tt.onlyFailed, got, tt.due)
		}
	}
}
