package store

import (
	"database/sql"
	"fmt"
	"time"
)

// LadderChallenge is one challenge on a ladder (schema version 24).
type LadderChallenge struct {
	ID                     int64
	Challenger, Challenged int // seats
	Created                time.Time
	Accepted, Expired      *time.Time
	// Decided is when the last game of an accepted challenge ended.
	Decided *time.Time
}

// LadderDrop is a player dropped to the bottom of a ladder for idleness.
type LadderDrop struct {
	Seat int
	At   time.Time
}

// AddLadderChallenge records a new challenge; its id is set.
func (t *Tx) AddLadderChallenge(eventID int64, c *LadderChallenge) error {
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO ladder_challenges (event_id, challenger, challenged, created) VALUES (?, ?, ?, ?)`,
		eventID, c.Challenger, c.Challenged, ms(c.Created))
	if err != nil {
		return fmt.Errorf("recording a ladder challenge in event %d: %w", eventID, err)
	}
	c.ID, err = res.LastInsertId()
	return err
}

// AcceptLadderChallenge marks challenge id accepted at at.
func (t *Tx) AcceptLadderChallenge(id int64, at time.Time) error {
	return t.closeLadderChallenge(id, "accepted", at)
}

// DecideLadderChallenge records that the last game of accepted challenge
// id ended at at.
func (t *Tx) DecideLadderChallenge(id int64, at time.Time) error {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE ladder_challenges SET decided = ? WHERE id = ? AND accepted IS NOT NULL AND decided IS NULL`, ms(at), id)
	if err != nil {
		return fmt.Errorf("ladder challenge %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("ladder challenge %d is not in play: %w", id, ErrNotFound)
	}
	return nil
}

// ExpireLadderChallenge marks challenge id expired, unaccepted, at at.
func (t *Tx) ExpireLadderChallenge(id int64, at time.Time) error {
	return t.closeLadderChallenge(id, "expired", at)
}

func (t *Tx) closeLadderChallenge(id int64, column string, at time.Time) error {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE ladder_challenges SET `+column+` = ? WHERE id = ? AND accepted IS NULL AND expired IS NULL`, ms(at), id)
	if err != nil {
		return fmt.Errorf("ladder challenge %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("ladder challenge %d is not pending: %w", id, ErrNotFound)
	}
	return nil
}

// LadderChallenges lists an event's ladder challenges, oldest first.
func (t *Tx) LadderChallenges(eventID int64) ([]LadderChallenge, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT id, challenger, challenged, created, accepted, decided, expired FROM ladder_challenges
		WHERE event_id = ? ORDER BY id`, eventID)
	if err != nil {
		return nil, fmt.Errorf("listing the ladder challenges of event %d: %w", eventID, err)
	}
	defer rows.Close()
	var out []LadderChallenge
	for rows.Next() {
		var c LadderChallenge
		var created int64
		var acc, dec, exp sql.NullInt64
		if err := rows.Scan(&c.ID, &c.Challenger, &c.Challenged, &created, &acc, &dec, &exp); err != nil {
			return nil, fmt.Errorf("listing the ladder challenges of event %d: %w", eventID, err)
		}
		c.Created, c.Accepted, c.Decided, c.Expired = fromMS(created), optTime(acc), optTime(dec), optTime(exp)
		out = append(out, c)
	}
	return out, rows.Err()
}

// AddLadderDrop records seat's drop to the bottom of a ladder.
func (t *Tx) AddLadderDrop(eventID int64, d LadderDrop) error {
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO ladder_drops (event_id, seat, at) VALUES (?, ?, ?)`, eventID, d.Seat, ms(d.At)); err != nil {
		return fmt.Errorf("recording a drop on the ladder of event %d: %w", eventID, err)
	}
	return nil
}

// LadderDrops lists an event's ladder drops, oldest first.
func (t *Tx) LadderDrops(eventID int64) ([]LadderDrop, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT seat, at FROM ladder_drops WHERE event_id = ? ORDER BY at, rowid`, eventID)
	if err != nil {
		return nil, fmt.Errorf("listing the ladder drops of event %d: %w", eventID, err)
	}
	defer rows.Close()
	var out []LadderDrop
	for rows.Next() {
		var d LadderDrop
		var at int64
		if err := rows.Scan(&d.Seat, &at); err != nil {
			return nil, fmt.Errorf("listing the ladder drops of event %d: %w", eventID, err)
		}
		d.At = fromMS(at)
		out = append(out, d)
	}
	return out, rows.Err()
}

// JoinRequest is a request by mail to join a team of a team event.
type JoinRequest struct {
	Address, Team string
	At            time.Time
}

// AddJoinRequest records (or renews) address's request to join team.
func (t *Tx) AddJoinRequest(eventID int64, r JoinRequest) error {
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO event_requests (event_id, address, team, at) VALUES (?, ?, ?, ?)
		ON CONFLICT (event_id, address) DO UPDATE SET team = excluded.team, at = excluded.at`, eventID, r.Address, r.Team, ms(r.At)); err != nil {
		return fmt.Errorf("recording %s's request to join event %d: %w", r.Address, eventID, err)
	}
	return nil
}

// JoinRequests lists an event's requests, oldest first.
func (t *Tx) JoinRequests(eventID int64) ([]JoinRequest, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address, team, at FROM event_requests WHERE event_id = ? ORDER BY at, address`, eventID)
	if err != nil {
		return nil, fmt.Errorf("listing the requests to join event %d: %w", eventID, err)
	}
	defer rows.Close()
	var out []JoinRequest
	for rows.Next() {
		var r JoinRequest
		var at int64
		if err := rows.Scan(&r.Address, &r.Team, &at); err != nil {
			return nil, fmt.Errorf("listing the requests to join event %d: %w", eventID, err)
		}
		r.At = fromMS(at)
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeleteJoinRequest removes address's request (ErrNotFound when none).
func (t *Tx) DeleteJoinRequest(eventID int64, address string) error {
	res, err := t.tx.ExecContext(t.ctx, `DELETE FROM event_requests WHERE event_id = ? AND address = ?`, eventID, address)
	if err != nil {
		return fmt.Errorf("removing %s's request to join event %d: %w", address, eventID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("%s asked to join no team of event %d: %w", address, eventID, ErrNotFound)
	}
	return nil
}
