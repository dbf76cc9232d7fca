package store

import (
	"context"
	"fmt"
)

// GamePage lists at most limit games with status ("" for all), newest
// first, with their players but without their actions (limit <= 0: all),
// and how many games with that status there are.
func (s *Store) GamePage(ctx context.Context, status string, limit int) (gs []Game, total int, err error) {
	err = s.view(ctx, func(t *Tx) error {
		q, args := `SELECT COUNT(*) FROM games`, []any{}
		if status != "" {
			q += ` WHERE status = ?`
			args = append(args, status)
		}
		if err := t.tx.QueryRowContext(t.ctx, q, args...).Scan(&total); err != nil {
			return fmt.Errorf("counting games: %w", err)
		}
		gs, err = t.gamePage(status, limit)
		return err
	})
	return gs, total, err
}
