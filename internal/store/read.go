package store

import (
	"context"
	"fmt"
)

// Game loads one game with its players.
func (s *Store) Game(ctx context.Context, id int64) (g *Game, err error) {
	err = s.view(ctx, func(t *Tx) error { g, err = t.Game(id); return err })
	return g, err
}

// Games lists games with status ("" for all), newest first.
func (s *Store) Games(ctx context.Context, status string) (gs []Game, err error) {
	err = s.view(ctx, func(t *Tx) error { gs, err = t.Games(status); return err })
	return gs, err
}

// Actions lists a game's actions by ply.
func (s *Store) Actions(ctx context.Context, gameID int64) (as []Action, err error) {
	err = s.view(ctx, func(t *Tx) error { as, err = t.Actions(gameID); return err })
	return as, err
}

// Rolls lists a game's rolls by n.
func (s *Store) Rolls(ctx context.Context, gameID int64) (rs []Roll, err error) {
	err = s.view(ctx, func(t *Tx) error { rs, err = t.Rolls(gameID); return err })
	return rs, err
}

// Setting reads a setting.
func (s *Store) Setting(ctx context.Context, key string) (v []byte, err error) {
	err = s.view(ctx, func(t *Tx) error { v, err = t.Setting(key); return err })
	return v, err
}

// AuditLog lists audit entries of a game (nil: all).
func (s *Store) AuditLog(ctx context.Context, gameID *int64) (es []AuditEntry, err error) {
	err = s.view(ctx, func(t *Tx) error { es, err = t.AuditLog(gameID); return err })
	return es, err
}

// Unanswered lists the inbound mails about a game that got no answer.
func (s *Store) Unanswered(ctx context.Context, gameID int64) (ms []Inbound, err error) {
	err = s.view(ctx, func(tx *Tx) error { ms, err = tx.Unanswered(gameID); return err })
	return ms, err
}

// InboundCount counts inbound records by outcome.
func (s *Store) InboundCount(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT outcome, COUNT(*) FROM inbound GROUP BY outcome`)
	if err != nil {
		return nil, fmt.Errorf("counting inbound messages: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}
