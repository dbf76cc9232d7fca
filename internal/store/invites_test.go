package store

import (
	"context"
	"testing"
	"time"
)

// TestInvitationsToAndTheStopList: the invitations an address received are
// counted from every challenger (a forged From is a new challenger each
// time), its plus-addresses included, in the window asked; the stop list
// is set, read, listed and cleared.
func TestInvitationsToAndTheStopList(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	invites := []struct {
		from, to string
		age      time.Duration
	}{
		{"forged1@evil.test", "victim@example.org", 3 * time.Hour},
		{"forged2@evil.test", "Victim+chess@example.org", 2 * time.Hour},
		{"forged3@evil.test", "victim@example.org", time.Hour},
		{"carol@example.org", "victim@example.org", 30 * time.Hour}, // a day ago and more
		{"carol@example.org", "bob@example.org", time.Hour},
		{"carol@example.org", "", time.Hour}, // open: no one is invited
	}
	err := s.Update(ctx, func(tx *Tx) error {
		for i, in := range invites {
			c := Challenge{ID: int64(i + 1), Challenger: in.from, Opponent: in.to, Variant: "chess", Color: "random", Secret: "s",
				Created: now.Add(-in.age), Expires: now.Add(7 * 24 * time.Hour), Seed: "seed"}
			if err := tx.CreateChallenge(c); err != nil {
				return err
			}
		}
		n, oldest, err := tx.InvitationsTo("victim@example.org", now.Add(-24*time.Hour))
		if n != 3 || !oldest.Equal(now.Add(-3*time.Hour)) {
			t.Errorf("InvitationsTo(victim) = %d since %v, want 3 since %v", n, oldest, now.Add(-3*time.Hour))
		}
		if err != nil {
			return err
		}
		if c, err := tx.Challenge(2); err != nil || c.Seed != "seed" {
			t.Errorf("challenge 2 seed %q, %v", c.Seed, err)
		}
		if stopped, err := tx.IsStopped("victim@example.org"); err != nil || stopped {
			t.Errorf("IsStopped before stop = %v, %v", stopped, err)
		}
		if err := tx.SetStopped("victim@example.org", true, 3, now); err != nil {
			return err
		}
		if stopped, err := tx.IsStopped("victim@example.org"); err != nil || !stopped {
			t.Errorf("IsStopped after stop = %v, %v", stopped, err)
		}
		list, err := tx.StoppedList()
		if err != nil || len(list) != 1 || list[0] != (Stopped{Address: "victim@example.org", Since: now, ChallengeID: 3}) {
			t.Errorf("StoppedList = %+v, %v", list, err)
		}
		if err := tx.SetStopped("victim@example.org", false, 0, now); err != nil {
			return err
		}
		if stopped, err := tx.IsStopped("victim@example.org"); err != nil || stopped {
			t.Errorf("IsStopped after start = %v, %v", stopped, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
