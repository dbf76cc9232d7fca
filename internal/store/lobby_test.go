package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestLobbyMigrationCarriesVacationDays: until schema version 4 the
// vacation allowance was counted per game in the clock state; version 4
// keeps the most any one game counted for each player (by mailbox, a
// plus-address counting as its mailbox) and year.
func TestLobbyMigrationCarriesVacationDays(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v3.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations()[:3] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	states := []string{
		`{"clock":{"control":"3d","vacation_used":[5,2],"vacation_year":2026}}`,
		`{"clock":{"control":"3d","vacation_used":[0,9],"vacation_year":2026}}`,
		`{"clock":{"control":"3d","vacation_used":[4,0],"vacation_year":2025}}`,
		`{}`,
	}
	for i, st := range states {
		if _, err := db.Exec(`INSERT INTO games (id, variant, start_position, position, die_seed, state, created, updated)
			VALUES (?, 'chess', 's', 's', x'00', ?, 0, 0)`, i+1, st); err != nil {
			t.Fatal(err)
		}
		// Alice plays White as alice+chess in game 1, Black as alice in game 2.
		w, b := "alice+chess@example.test", "bob@example.test"
		if i == 1 {
			w, b = b, "alice@example.test"
		}
		for c, a := range []string{w, b} {
			if _, err := db.Exec(`INSERT INTO players (game_id, color, address, secret) VALUES (?, ?, ?, 'x')`, i+1, c, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrating to version 4: %v", err)
	}
	defer s.Close()
	want := []struct {
		addr       string
		year, days int
	}{
		{"alice@example.test", 2026, 9}, // max(5 in game 1, 9 in game 2)
		{"bob@example.test", 2026, 2},
		{"alice@example.test", 2025, 4},
		{"bob@example.test", 2025, 0},
	}
	err = s.Update(ctx, func(tx *Tx) error {
		for _, w := range want {
			got, err := tx.VacationDays(w.addr, w.year)
			if err != nil {
				return err
			}
			if got != w.days {
				t.Errorf("%s in %d: %d days, want %d", w.addr, w.year, got, w.days)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestChallengesAndMailboxes: a challenge closes once; a mailbox's games,
// challenges and known state match its plus-addresses too.
func TestChallengesAndMailboxes(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	err := s.Update(ctx, func(tx *Tx) error {
		g := newGame()
		g.Players[0].Address = "alice+chess@example.test"
		if _, err := tx.CreateGame(g); err != nil {
			return err
		}
		id, err := tx.NextChallengeID()
		if err != nil || id != 1 {
			t.Fatalf("first challenge id %d, %v", id, err)
		}
		c := Challenge{ID: id, Challenger: "alice+chess@example.test", Opponent: "bob@example.test", Variant: "chess",
			Color: "random", Secret: "ssssssssss", Created: now, Expires: now.Add(time.Hour)}
		if err := tx.CreateChallenge(c); err != nil {
			return err
		}
		if err := tx.CloseChallenge(id, "accepted", "bob@example.test", 1, now); err != nil {
			return err
		}
		if err := tx.CloseChallenge(id, "accepted", "carol@example.test", 0, now); !errors.Is(err, ErrNotFound) {
			t.Errorf("a second close: %v; want it refused", err)
		}
		got, err := tx.Challenge(id)
		if err != nil || got.Status != "accepted" || got.ClosedBy != "bob@example.test" || got.GameID == nil || *got.GameID != 1 {
			t.Errorf("challenge %+v, %v", got, err)
		}
		sent, err := tx.ChallengesBy("alice@example.test", now.Add(-time.Hour))
		if err != nil || len(sent) != 1 {
			t.Errorf("alice's challenges: %d, %v; want the one of alice+chess", len(sent), err)
		}
		for _, tt := range []struct {
			mailbox string
			active  int
		}{{"alice@example.test", 1}, {"bob@example.test", 1}, {"carol@example.test", 0}, {"alice_chess@example.test", 0}} {
			n, err := tx.ActiveGamesOf(tt.mailbox)
			if err != nil || n != tt.active {
				t.Errorf("%s: %d active games, %v; want %d", tt.mailbox, n, err, tt.active)
			}
			played, err := tx.PlayedGame(tt.mailbox)
			if err != nil || played != (tt.active > 0) {
				t.Errorf("%s played: %v, %v", tt.mailbox, played, err)
			}
		}
		if err := tx.SetKnownPlayer("carol@example.test", false, now); err != nil {
			return err
		}
		if err := tx.SetKnownPlayer("carol@example.test", true, now); err != nil {
			return err
		}
		kp, found, err := tx.KnownPlayer("carol@example.test")
		if err != nil || !found || !kp.Allowed {
			t.Errorf("carol: %+v %v %v; want added", kp, found, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
