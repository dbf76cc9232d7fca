package store

import (
	"context"
	"testing"
)

func TestReadsDoNotWaitForTheWriter(t *testing.T) {
	// The daemon holds the write lock while it decides a mail; "referee
	// list" or "show" beside it must not wait for it (WAL readers see the
	// last committed state).
	ctx := context.Background()
	s, _ := openTemp(t)
	var id int64
	if err := s.Update(ctx, func(tx *Tx) error { var err error; id, err = tx.CreateGame(newGame()); return err }); err != nil {
		t.Fatal(err)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Update(ctx, func(tx *Tx) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	// The writer holds its lock until this read is over: a read that
	// needed the lock would fail with "database is locked" after the busy
	// timeout instead.
	g, err := s.Game(ctx, id)
	close(release)
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil || g.ID != id {
		t.Fatalf("reading while the daemon writes: %v", err)
	}
}
