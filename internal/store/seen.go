package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Issue 38: what the referee knows of an address before it trusts a mail
// from it to put it in an event or back on the invitations list.

// EverEntered reports whether a mailbox holds, or held, a place in any
// event: as an entrant (the organiser's list, or a join by mail, which is
// confirmed) or as a substitute.
func (t *Tx) EverEntered(mailbox string) (bool, error) {
	a, argsA := mailboxMatch("address", mailbox)
	b, argsB := mailboxMatch("replaced_by", mailbox)
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM event_entrants WHERE `+a+` OR `+b, append(argsA, argsB...)...).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("looking up the events of %s: %w", mailbox, err)
	}
	return n > 0, nil
}

// StoppedSince returns when mailbox went on the stop list, and whether it
// is on it.
func (t *Tx) StoppedSince(mailbox string) (time.Time, bool, error) {
	var at int64
	err := t.tx.QueryRowContext(t.ctx, `SELECT stopped FROM stopped WHERE address = ?`, mailbox).Scan(&at)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, false, nil
	case err != nil:
		return time.Time{}, false, fmt.Errorf("looking up the invitations stop of %s: %w", mailbox, err)
	}
	return fromMS(at), true, nil
}
