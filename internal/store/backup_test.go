package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// TestBackupDuringWrites: a backup taken while another connection keeps
// creating games opens, and is one moment's state: every game in it has its
// two players and its "created" audit line (each written in one
// transaction with the game), and it holds between the games before and
// after the backup.
func TestBackupDuringWrites(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	writer, err := Open(ctx, path) // a second connection pool, as the daemon
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	create := func() error {
		return writer.Update(ctx, func(tx *Tx) error {
			id, err := tx.CreateGame(newGame())
			if err != nil {
				return err
			}
			return tx.Audit(&id, "created", "test")
		})
	}
	for range 20 {
		if err := create(); err != nil {
			t.Fatal(err)
		}
	}
	var stop atomic.Bool
	var written atomic.Int64
	var wg sync.WaitGroup
	underway := make(chan struct{})
	wg.Go(func() {
		defer func() {
			if written.Load() < 5 {
				close(underway)
			}
		}()
		for !stop.Load() {
			if err := create(); err != nil {
				t.Error(err)
				return
			}
			if written.Add(1) == 5 {
				close(underway)
			}
		}
	})
	dest := filepath.Join(t.TempDir(), "back up ?#%.db")
	<-underway
	err = s.Backup(ctx, dest)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	total := 20 + int(written.Load())
	b, err := Open(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var games, players, created int
	for q, v := range map[string]*int{
		`SELECT COUNT(*) FROM games`:                         &games,
		`SELECT COUNT(*) FROM players`:                       &players,
		`SELECT COUNT(*) FROM audit WHERE event = 'created'`: &created,
	} {
		if err := b.db.QueryRow(q).Scan(v); err != nil {
			t.Fatal(err)
		}
	}
	if games < 25 || games > total || players != 2*games || created != games {
		t.Errorf("backup holds %d games, %d players, %d created lines; want between 25 and %d games, 2 players and 1 line each", games, players, created, total)
	}
	t.Logf("backup of %d games while %d were written", games, total)
}

// TestBackupNeverOverwrites: an existing file, even an empty one, is left
// as it is.
func TestBackupNeverOverwrites(t *testing.T) {
	s, _ := openTemp(t)
	dest := filepath.Join(t.TempDir(), "exists.db")
	if err := os.WriteFile(dest, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(context.Background(), dest); !errors.Is(err, ErrExists) {
		t.Errorf("backup onto an existing file = %v; want ErrExists", err)
	}
	if fi, err := os.Stat(dest); err != nil || fi.Size() != 0 {
		t.Errorf("the existing file was touched: %v, %v", fi, err)
	}
}
