package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Status is what the database says about the referee's work: the numbers
// behind "referee status" and the daemon's metrics.
type Status struct {
	Games   map[string]int // by status: active, finished, aborted
	Inbound map[string]int // by outcome: applied, answered, rejected, ignored, pending, error
	// Outbox: mail still to deliver, the age of the oldest of it, mail the
	// server refused for good (dead letters) and mail the organiser dropped.
	OutboxPending int
	OutboxOldest  time.Time // zero when nothing is pending
	DeadLetters   int
	Dropped       int
	LastDelivery  time.Time // the last mail the SMTP server accepted; zero if none
	LastIMAP      time.Time // the daemon's last successful IMAP pass; zero if none
	// SendingBlocked says why no mail can go out (the SMTP server refused
	// the login, or no session could be opened), since BlockedSince; ""
	// when sending works.
	SendingBlocked string
	BlockedSince   time.Time
	SchemaVersion  int
	// Collisions counts the mails that reused an earlier mail's Message-ID
	// with other content (see RecordInbound); RecentCollisions are the
	// newest of them, at most 5, newest first.
	Collisions       int
	RecentCollisions []Inbound
	// Queue counts the undelivered mail by priority (PriorityGame, ...).
	Queue map[int]int
	// Pace is the daemon's record of its sending limits and pacing (nil
	// before a daemon recorded one); RecentSent the times mail was sent
	// within the longest of its windows, oldest first.
	Pace       *SendPace
	RecentSent []time.Time
}

// LastIMAPSetting is the settings key where the daemon records its last
// successful IMAP pass (Unix milliseconds).
const LastIMAPSetting = "last_imap_contact"

// Status reads the Status in one read transaction.
func (s *Store) Status(ctx context.Context) (st Status, err error) {
	st.Games, st.Inbound = map[string]int{}, map[string]int{}
	err = s.view(ctx, func(tx *Tx) error {
		for _, q := range []struct {
			sql string
			m   map[string]int
		}{
			{`SELECT status, COUNT(*) FROM games GROUP BY status`, st.Games},
			{`SELECT outcome, COUNT(*) FROM inbound GROUP BY outcome`, st.Inbound},
		} {
			if err := tx.countBy(q.sql, q.m); err != nil {
				return err
			}
		}
		var oldest, lastSent sql.NullInt64
		err := tx.tx.QueryRowContext(tx.ctx, `SELECT
			COALESCE(SUM(sent IS NULL AND dead IS NULL AND dropped IS NULL), 0),
			MIN(CASE WHEN sent IS NULL AND dead IS NULL AND dropped IS NULL THEN created END),
			COALESCE(SUM(dead IS NOT NULL AND dropped IS NULL), 0),
			COALESCE(SUM(dropped IS NOT NULL), 0),
			MAX(sent) FROM outbox`).Scan(&st.OutboxPending, &oldest, &st.DeadLetters, &st.Dropped, &lastSent)
		if err != nil {
			return fmt.Errorf("reading the outbox's state: %w", err)
		}
		if oldest.Valid {
			st.OutboxOldest = fromMS(oldest.Int64)
		}
		if lastSent.Valid {
			st.LastDelivery = fromMS(lastSent.Int64)
		}
		var imap sql.NullInt64
		err = tx.tx.QueryRowContext(tx.ctx, `SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?`, LastIMAPSetting).Scan(&imap)
		if err != nil && err != sql.ErrNoRows {
			return fmt.Errorf("reading the last IMAP contact: %w", err)
		}
		if imap.Valid {
			st.LastIMAP = fromMS(imap.Int64)
		}
		if b, err := tx.Setting(SendingBlockedSetting); err == nil && len(b) > 0 {
			at, why, _ := strings.Cut(string(b), " ")
			var since int64
			fmt.Sscan(at, &since)
			st.SendingBlocked, st.BlockedSince = why, fromMS(since)
		} else if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if st.Collisions, st.RecentCollisions, err = tx.collisions(5); err != nil {
			return err
		}
		if st.Queue, err = tx.queueByPriority(); err != nil {
			return err
		}
		if st.Pace, err = tx.sendPace(); err != nil {
			return err
		}
		if st.Pace != nil {
			if st.RecentSent, err = tx.sentSince(time.Now().Add(-paceWindow(st.Pace.Limits))); err != nil {
				return err
			}
		}
		return tx.tx.QueryRowContext(tx.ctx, "PRAGMA user_version").Scan(&st.SchemaVersion)
	})
	return st, err
}

func (t *Tx) countBy(query string, into map[string]int) error {
	rows, err := t.tx.QueryContext(t.ctx, query)
	if err != nil {
		return fmt.Errorf("counting: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return fmt.Errorf("counting: %w", err)
		}
		into[k] = n
	}
	return rows.Err()
}

// RecordIMAPContact records a successful IMAP pass at now.
func (s *Store) RecordIMAPContact(ctx context.Context, now time.Time) error {
	return s.Update(ctx, func(tx *Tx) error {
		return tx.SetSetting(LastIMAPSetting, []byte(fmt.Sprint(ms(now))))
	})
}

// collisions counts the Message-ID collisions and loads the newest n.
func (t *Tx) collisions(n int) (int, []Inbound, error) {
	var count int
	like := CollisionPrefix + "%"
	if err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM inbound WHERE outcome = 'ignored' AND detail LIKE ?`, like).Scan(&count); err != nil {
		return 0, nil, fmt.Errorf("counting Message-ID collisions: %w", err)
	}
	if count == 0 {
		return 0, nil, nil
	}
	rows, err := t.tx.QueryContext(t.ctx, `SELECT id FROM inbound WHERE outcome = 'ignored' AND detail LIKE ? ORDER BY id DESC LIMIT ?`, like, n)
	if err != nil {
		return 0, nil, fmt.Errorf("listing Message-ID collisions: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, nil, fmt.Errorf("listing Message-ID collisions: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("listing Message-ID collisions: %w", err)
	}
	out := make([]Inbound, 0, len(ids))
	for _, id := range ids {
		m, err := t.Inbound(id)
		if err != nil {
			return 0, nil, err
		}
		out = append(out, *m)
	}
	return count, out, nil
}
