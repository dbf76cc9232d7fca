package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Schema version 9 (schema_9_invites.sql) added the stop list, the index
// that counts the invitations an address received, and the challenges'
// colour seed.

// Stopped is an address that asked for no more invitations.
type Stopped struct {
	Address     string
	Since       time.Time
	ChallengeID int64 // the invitation it answered "stop" to
}

// SetStopped puts mailbox on the stop list (stop) or takes it off.
func (t *Tx) SetStopped(mailbox string, stop bool, challengeID int64, at time.Time) error {
	var err error
	if stop {
		_, err = t.tx.ExecContext(t.ctx, `INSERT INTO stopped (address, stopped, challenge_id) VALUES (?, ?, ?)
			ON CONFLICT (address) DO NOTHING`, mailbox, ms(at), challengeID)
	} else {
		_, err = t.tx.ExecContext(t.ctx, `DELETE FROM stopped WHERE address = ?`, mailbox)
	}
	if err != nil {
		return fmt.Errorf("recording the invitations stop of %s: %w", mailbox, err)
	}
	return nil
}

// IsStopped reports whether mailbox is on the stop list.
func (t *Tx) IsStopped(mailbox string) (bool, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT 1 FROM stopped WHERE address = ?`, mailbox).Scan(&n)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("looking up the invitations stop of %s: %w", mailbox, err)
	}
	return true, nil
}

// StoppedList lists the stop list, by address.
func (t *Tx) StoppedList() ([]Stopped, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address, stopped, challenge_id FROM stopped ORDER BY address`)
	if err != nil {
		return nil, fmt.Errorf("listing the stop list: %w", err)
	}
	defer rows.Close()
	var out []Stopped
	for rows.Next() {
		var s Stopped
		var at int64
		if err := rows.Scan(&s.Address, &at, &s.ChallengeID); err != nil {
			return nil, fmt.Errorf("listing the stop list: %w", err)
		}
		s.Since = fromMS(at)
		out = append(out, s)
	}
	return out, rows.Err()
}

// InvitationsTo counts the invitations made to mailbox (as itself or a
// plus-address of it), by anyone, since the given time.
func (t *Tx) InvitationsTo(mailbox string, since time.Time) (n int, oldest time.Time, err error) {
	cond, args := mailboxMatch("opponent", mailbox)
	var first sql.NullInt64
	err = t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*), MIN(created) FROM challenges WHERE opponent <> '' AND `+cond+` AND created >= ?`,
		append(args, ms(since))...).Scan(&n, &first)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("counting the invitations to %s: %w", mailbox, err)
	}
	if first.Valid {
		oldest = fromMS(first.Int64)
	}
	return n, oldest, nil
}
