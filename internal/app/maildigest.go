package app

import (
	"context"
	"fmt"
	"time"

	"referee/internal/referee"
	"referee/internal/store"
)

// sendDigests queues the daily digest of every player who takes one and
// whose hour has come since their last (at most one a day: a daemon that
// was down sends the missed one once). One transaction per player.
func (a *App) sendDigests(ctx context.Context, now time.Time) (int, error) {
	var players []store.DigestPlayer
	err := a.st.View(ctx, func(tx *store.Tx) error {
		var err error
		players, err = tx.DigestPlayers()
		return err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, p := range players {
		slot := referee.DigestSlot(p.At, (referee.Player{Zone: p.Zone}).Location(), now)
		if slot.IsZero() || !p.LastSent.Before(slot) {
			continue
		}
		err := a.st.Update(ctx, func(tx *store.Tx) error {
			ids, err := tx.GamesOf(p.Address, 0)
			if err != nil {
				return err
			}
			var games []*referee.Game
			for _, id := range ids {
				g, err := a.gameTx(tx, id)
				if err != nil {
					return err
				}
				games = append(games, g)
			}
			if err := tx.MarkDigestSent(p.Address, now); err != nil {
				return err
			}
			m, ok := a.ref.Digest(p.Address, p.Zone, games, now)
			if !ok {
				return nil // their move nowhere: no mail
			}
			sent++
			return a.queue(tx, 0, []referee.Mail{m})
		})
		if err != nil {
			return sent, fmt.Errorf("the daily digest of %s: %w", p.Address, err)
		}
	}
	return sent, nil
}
