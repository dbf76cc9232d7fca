package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"referee/internal/mail/addr"
)

// DigestPlayer is a player who takes a daily digest instead of a mail per
// move.
type DigestPlayer struct {
	Address  string
	Zone     string    // IANA name, "" for UTC
	At       string    // HH:MM, local
	LastSent time.Time // zero: never
}

// Digest is the local time of day of the daily digest of the player at
// address, "" when they take a mail per move.
func (t *Tx) Digest(address string) (string, error) {
	var at string
	err := t.tx.QueryRowContext(t.ctx, `SELECT digest FROM player_settings WHERE address = ?`, addr.Mailbox(address)).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the mail setting of %s: %w", address, err)
	}
	return at, nil
}

// SetDigest records the time of day of the daily digest of the player at
// address ("" for a mail per move). The first digest is the first one due
// after now.
func (t *Tx) SetDigest(address, at string, now time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO player_settings (address, digest, digest_sent, changed) VALUES (?, ?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET digest = excluded.digest, digest_sent = excluded.digest_sent, changed = excluded.changed`,
		addr.Mailbox(address), at, ms(now), ms(now))
	if err != nil {
		return fmt.Errorf("recording the mail setting of %s: %w", address, err)
	}
	return nil
}

// DigestPlayers lists every player who takes a daily digest.
func (t *Tx) DigestPlayers() ([]DigestPlayer, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address, timezone, digest, digest_sent FROM player_settings WHERE digest != '' ORDER BY address`)
	if err != nil {
		return nil, fmt.Errorf("listing the players who take a digest: %w", err)
	}
	defer rows.Close()
	var out []DigestPlayer
	for rows.Next() {
		var p DigestPlayer
		var sent sql.NullInt64
		if err := rows.Scan(&p.Address, &p.Zone, &p.At, &sent); err != nil {
			return nil, fmt.Errorf("listing the players who take a digest: %w", err)
		}
		if sent.Valid {
			p.LastSent = fromMS(sent.Int64)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// MarkDigestSent records that the digest of the player at address went
// out at now.
func (t *Tx) MarkDigestSent(address string, now time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE player_settings SET digest_sent = ? WHERE address = ?`, ms(now), addr.Mailbox(address))
	if err != nil {
		return fmt.Errorf("recording the digest of %s: %w", address, err)
	}
	return nil
}
