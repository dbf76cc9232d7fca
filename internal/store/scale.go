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

// TimedGames returns the ids of the active games that have a time control,
// in id order: the games the clocks look at.
func (s *Store) TimedGames(ctx context.Context) (ids []int64, err error) {
	err = s.view(ctx, func(t *Tx) error {
		rows, err := t.tx.QueryContext(t.ctx, `SELECT id FROM games
			WHERE status = 'active' AND time_control IS NOT NULL AND time_control <> '' ORDER BY id`)
		if err != nil {
			return fmt.Errorf("listing the games with a clock: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("listing the games with a clock: %w", err)
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}
