package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestRebuildKeepsEventsWithTheirRows: version 22 rebuilds events and
// event_games (dropping the list of formats from the table); the entrants,
// watchers and games of an existing event survive it (the DROP does not
// cascade: migrations run with foreign keys off), every game gets season 1
// and division 1, and foreign keys are enforced again afterwards.
func TestRebuildKeepsEventsWithTheirRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v21.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations()[:21] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT INTO events (id, name, variant, format, seed, created) VALUES (1, 'autumn', 'chess', 'rr', x'00', 0)`,
		`INSERT INTO event_entrants (event_id, seat, address, joined) VALUES (1, 1, 'a@x.test', 0), (1, 2, 'b@x.test', 0), (1, 3, 'c@x.test', 0)`,
		`INSERT INTO event_watchers (event_id, address) VALUES (1, 'w@x.test')`,
		`INSERT INTO games (id, variant, status, start_position, position, die_seed, created, updated) VALUES (7, 'chess', 'active', 's', 's', x'00', 0, 0), (8, 'chess', 'active', 's', 's', x'00', 0, 0)`,
		`INSERT INTO event_games (game_id, event_id, round, board, leg, white, black) VALUES (7, 1, 2, 1, 1, 3, 1)`,
		`PRAGMA user_version = 21`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrating: %v", err)
	}
	defer s.Close()
	err = s.Update(ctx, func(tx *Tx) error {
		ents, err := tx.Entrants(1)
		if err != nil || len(ents) != 3 {
			t.Errorf("entrants after the rebuild: %d, %v; want 3", len(ents), err)
		}
		ws, err := tx.EventWatchers(1)
		if err != nil || len(ws) != 1 {
			t.Errorf("watchers after the rebuild: %v, %v", ws, err)
		}
		gs, err := tx.EventGames(1)
		if err != nil || len(gs) != 1 || gs[0].GameID != 7 || gs[0].Round != 2 || gs[0].White != 3 {
			t.Errorf("games after the rebuild: %+v, %v", gs, err)
		}
		// Foreign keys hold again: a game of no event is refused.
		if _, err := tx.tx.ExecContext(ctx, `INSERT INTO event_games (game_id, event_id, round, board, white, black) VALUES (8, 99, 1, 1, 1, 2)`); err == nil {
			t.Error("a game of event 99, which does not exist, was stored: foreign keys are off")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
