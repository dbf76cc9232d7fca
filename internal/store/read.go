package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
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

// InboundByMessageID finds an inbound record by Message-ID.
func (s *Store) InboundByMessageID(ctx context.Context, messageID string) (*Inbound, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT id FROM inbound WHERE message_id = ?`, messageID).Scan(&id)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("inbound message %s: %w", messageID, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	var m *Inbound
	err = s.view(ctx, func(t *Tx) error { m, err = t.Inbound(id); return err })
	return m, err
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

// DueOutbox returns up to limit unsent messages due at now, oldest first.
func (s *Store) DueOutbox(ctx context.Context, now time.Time, limit int) ([]Outgoing, error) {
	return s.outbox(ctx, `WHERE sent IS NULL AND next_attempt <= ? ORDER BY next_attempt, id LIMIT ?`, ms(now), limit)
}

// Outbox returns every message of the outbox, sent or not, oldest first.
func (s *Store) Outbox(ctx context.Context) ([]Outgoing, error) {
	return s.outbox(ctx, `ORDER BY id`)
}

// PendingOutbox counts the messages not yet sent.
func (s *Store) PendingOutbox(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE sent IS NULL`).Scan(&n)
	return n, err
}

func (s *Store) outbox(ctx context.Context, where string, args ...any) ([]Outgoing, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, game_id, to_addr, from_addr, message_id, raw, created, attempts,
		next_attempt, last_error, sent FROM outbox `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the outbox: %w", err)
	}
	defer rows.Close()
	var out []Outgoing
	for rows.Next() {
		var o Outgoing
		var gid, sent sql.NullInt64
		var created, next int64
		if err := rows.Scan(&o.ID, &gid, &o.To, &o.From, &o.MessageID, &o.Raw, &created, &o.Attempts, &next, &o.LastError, &sent); err != nil {
			return nil, fmt.Errorf("reading the outbox: %w", err)
		}
		if gid.Valid {
			o.GameID = &gid.Int64
		}
		if sent.Valid {
			t := fromMS(sent.Int64)
			o.Sent = &t
		}
		o.Created, o.NextAttempt = fromMS(created), fromMS(next)
		out = append(out, o)
	}
	return out, rows.Err()
}

// MarkSent records that the SMTP server accepted message id.
func (s *Store) MarkSent(ctx context.Context, id int64, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET sent = ?, attempts = attempts + 1, last_error = '' WHERE id = ?`, ms(now), id)
	if err != nil {
		return fmt.Errorf("marking outbox message %d sent: %w", id, err)
	}
	return nil
}

// MarkFailed records a failed attempt and when to try again.
func (s *Store) MarkFailed(ctx context.Context, id int64, errText string, next time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt = ? WHERE id = ?`,
		errText, ms(next), id)
	if err != nil {
		return fmt.Errorf("recording a failed delivery of outbox message %d: %w", id, err)
	}
	return nil
}
