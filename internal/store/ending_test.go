package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"referee/internal/game"
)

// TestEndingMigrationSortsOldGames: a database of version 20 has only the
// reasons' words; version 21 sorts its finished games into kinds by the
// words the referee wrote then (clock.go, handle.go, event_withdraw.go),
// and leaves unfinished games without one.
func TestEndingMigrationSortsOldGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v20.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations()[:20] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	games := []struct {
		status, reason string
		want           game.Ending
	}{
		{"finished", "checkmate", game.EndBoard},
		{"finished", "White captured Black's king", game.EndBoard},
		{"finished", "fivefold repetition", game.EndBoard},
		{"finished", "Black lost on time", game.EndTime},
		{"finished", "White ran out of time, but Black has no way to win", game.EndTime},
		{"finished", "White resigned", game.EndResigned},
		{"finished", "agreed", game.EndAgreed},
		{"finished", "threefold repetition (claimed)", game.EndClaimed},
		{"finished", "ann@example.org withdrew from autumn", game.EndForfeit},
		{"finished", "ann@example.org was withdrawn by the organiser from autumn", game.EndForfeit},
		{"finished", "ann@example.org lost half their games on time and is withdrawn from autumn", game.EndForfeit},
		{"active", "", ""},
		{"aborted", "", ""},
	}
	for i, g := range games {
		if _, err := db.Exec(`INSERT INTO games (id, variant, status, start_position, position, die_seed, result_reason, created, updated)
			VALUES (?, 'chess', ?, 's', 's', x'00', ?, 0, 0)`, i+1, g.status, g.reason); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = 20`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrating to version 21: %v", err)
	}
	defer s.Close()
	err = s.View(ctx, func(tx *Tx) error {
		for i, want := range games {
			g, err := tx.Game(int64(i + 1))
			if err != nil {
				return err
			}
			if g.Ending != want.want {
				t.Errorf("%s %q: ending %q, want %q", want.status, want.reason, g.Ending, want.want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
