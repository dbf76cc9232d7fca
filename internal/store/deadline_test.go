package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// TestDeadlineMigrationAndDueGames: schema version 8 makes every running
// clock of an older database due at once (the first tick writes the exact
// moment), leaves untimed and finished games out, and DueGames then reads
// only the games whose deadline has come.
func TestDeadlineMigrationAndDueGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v6.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations()[:6] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	games := []struct {
		status, control string
		due             bool
	}{
		{"active", "3d", true},
		{"active", "", false},
		{"finished", "3d", false},
		{"active", "10d+1d", true},
	}
	for i, g := range games {
		if _, err := db.Exec(`INSERT INTO games (id, variant, status, start_position, position, die_seed, time_control, created, updated)
			VALUES (?, 'chess', ?, 's', 's', x'00', ?, 0, 0)`, i+1, g.status, nullable(g.control)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = 6`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrating to version 8: %v", err)
	}
	defer s.Close()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	ids, err := s.DueGames(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for i, g := range games {
		if g.due {
			want = append(want, int64(i+1))
		}
	}
	if !equalIDs(ids, want) {
		t.Fatalf("due after the migration: %v, want %v", ids, want)
	}
	// Game 1 is next due in an hour, game 4 never: only game 1 comes
	// back, and only once its hour has passed.
	later := now.Add(time.Hour)
	err = s.Update(ctx, func(tx *Tx) error {
		if err := tx.SetDeadline(1, &later); err != nil {
			return err
		}
		return tx.SetDeadline(4, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at   time.Time
		want []int64
	}{
		{now, nil},
		{later.Add(-time.Millisecond), nil},
		{later, []int64{1}},
	} {
		ids, err := s.DueGames(ctx, c.at)
		if err != nil {
			t.Fatal(err)
		}
		if !equalIDs(ids, c.want) {
			t.Errorf("due at %v: %v, want %v", c.at, ids, c.want)
		}
	}
	err = s.View(ctx, func(tx *Tx) error {
		g, err := tx.Game(1)
		if err == nil && (g.Deadline == nil || !g.Deadline.Equal(later)) {
			t.Errorf("game 1's deadline reads back as %v, want %v", g.Deadline, later)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
