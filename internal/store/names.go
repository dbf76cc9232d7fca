package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"referee/internal/mail/addr"
)

// Schema version 20 (schema_20_display_names.sql) added the players'
// display names to player_settings.

// DisplayName is the display name the player at address chose ("" for
// none).
func (t *Tx) DisplayName(address string) (string, error) {
	return t.playerSetting("display_name", "the name", address)
}

// NameOwner is the address whose display name has key ("" when none
// has).
func (t *Tx) NameOwner(key string) (string, error) {
	if key == "" {
		return "", nil
	}
	var a string
	err := t.tx.QueryRowContext(t.ctx, `SELECT address FROM player_settings WHERE name_key = ?`, key).Scan(&a)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("looking up who is called %q: %w", key, err)
	}
	return a, nil
}

// SetDisplayName records the display name of the player at address, and
// its key for uniqueness; "" for both removes it. A key another player
// holds fails (the unique index): the caller checks NameOwner first.
func (t *Tx) SetDisplayName(address, name, key string, now time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO player_settings (address, display_name, name_key, changed) VALUES (?, ?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET display_name = excluded.display_name, name_key = excluded.name_key, changed = excluded.changed`,
		addr.Mailbox(address), name, key, ms(now))
	if err != nil {
		return fmt.Errorf("recording the name %q of %s: %w", name, address, err)
	}
	return nil
}

// DisplayNames maps every mailbox with a display name to it.
func (t *Tx) DisplayNames() (map[string]string, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address, display_name FROM player_settings WHERE display_name <> ''`)
	if err != nil {
		return nil, fmt.Errorf("listing the players' names: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var a, n string
		if err := rows.Scan(&a, &n); err != nil {
			return nil, fmt.Errorf("listing the players' names: %w", err)
		}
		out[a] = n
	}
	return out, rows.Err()
}
