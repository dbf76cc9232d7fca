package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"referee/internal/mail/addr"
)

// playerSetting reads one text column of player_settings for the player
// at address: "" when they have no row. column is a name of this package,
// never a player's text; what names it in errors ("the time zone").
func (t *Tx) playerSetting(column, what, address string) (string, error) {
	var v string
	err := t.tx.QueryRowContext(t.ctx, `SELECT `+column+` FROM player_settings WHERE address = ?`, addr.Mailbox(address)).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s of %s: %w", what, address, err)
	}
	return v, nil
}

// setPlayerSetting writes one text column of player_settings for the
// player at address, creating their row if needed.
func (t *Tx) setPlayerSetting(column, what, address, value string, now time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO player_settings (address, `+column+`, changed) VALUES (?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET `+column+` = excluded.`+column+`, changed = excluded.changed`, addr.Mailbox(address), value, ms(now))
	if err != nil {
		return fmt.Errorf("recording %s of %s: %w", what, address, err)
	}
	return nil
}
