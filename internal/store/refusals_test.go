package store

import (
	"context"
	"testing"
	"time"
)

func TestRefusalsCountOnlyRefusals(t *testing.T) {
	// An active player's game mails never count toward the refusal limit:
	// only mails answered with a refusal do.
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var gid int64
	rows := []struct {
		outcome, detail string
		game            bool
		age             time.Duration
	}{
		{"applied", "e4", true, 50 * time.Minute},
		{"rejected", "illegal: Qh5", true, 40 * time.Minute},
		{"rejected", "no game reference", false, 30 * time.Minute},
		{"rejected", "illegal: Qh4", true, 2 * time.Hour}, // over an hour ago
		{"answered", "board", true, 20 * time.Minute},
		{"rejected", "stale", true, 10 * time.Minute},
	}
	err := s.Update(ctx, func(tx *Tx) error {
		var err error
		if gid, err = tx.CreateGame(newGame()); err != nil {
			return err
		}
		for i, r := range rows {
			var g *int64
			if r.game {
				g = &gid
			}
			_, _, err := tx.RecordInbound(Inbound{From: "alice@example.test", Digest: string(rune('a' + i)), Received: now.Add(-r.age),
				Outcome: r.outcome, Detail: r.detail, GameID: g})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, func(tx *Tx) error {
		all, inGame, last, err := tx.Refusals("alice@example.test", gid, now.Add(-time.Hour))
		if all != 3 || inGame != 2 || last != "stale" {
			t.Errorf("Refusals = %d, %d, %q; want 3 in the hour, 2 about the game, last \"stale\"", all, inGame, last)
		}
		if err != nil {
			return err
		}
		// The refusal limit lifts an hour after the oldest refusal about
		// the game in the hour: Qh5's, 40 minutes ago.
		oldest, err := tx.OldestGameRefusal("alice@example.test", gid, now.Add(-time.Hour))
		if want := now.Add(-40 * time.Minute); !oldest.Equal(want) {
			t.Errorf("OldestGameRefusal = %v, want %v", oldest, want)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
