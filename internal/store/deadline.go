package store

import (
	"context"
	"fmt"
	"time"
)

// Schema version 8 (schema_8_deadline.sql) added the deadline column of
// games: the next moment the clocks must look at a game.

// DueGames returns the ids of the games whose deadline is at or before now,
// in id order: the only games the minute's tick loads. It reads an index,
// so it costs the same however many games are waiting.
func (s *Store) DueGames(ctx context.Context, now time.Time) (ids []int64, err error) {
	err = s.view(ctx, func(t *Tx) error {
		rows, err := t.tx.QueryContext(t.ctx, `SELECT id FROM games
			WHERE deadline IS NOT NULL AND deadline <= ? ORDER BY id`, ms(now))
		if err != nil {
			return fmt.Errorf("listing the games whose clock is due: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("listing the games whose clock is due: %w", err)
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}

// SetDeadline writes the next moment the clocks must look at game id (nil:
// never, the game has no running clock), without changing anything else.
func (t *Tx) SetDeadline(id int64, deadline *time.Time) error {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE games SET deadline = ? WHERE id = ?`, msOrNull(deadline), id)
	if err != nil {
		return fmt.Errorf("setting the clock deadline of game #%d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("setting the clock deadline of game #%d: %w", id, ErrNotFound)
	}
	return nil
}

// msOrNull is t in Unix milliseconds, or NULL for nil.
func msOrNull(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ms(*t)
}
