package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"referee/internal/mail/addr"
)

// Schema version 26 (schema_26_player_language.sql) added the players'
// languages to player_settings.

// Language is the code of the language the player at address set ("" for
// none).
func (t *Tx) Language(address string) (string, error) {
	var code string
	err := t.tx.QueryRowContext(t.ctx, `SELECT language FROM player_settings WHERE address = ?`, addr.Mailbox(address)).Scan(&code)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the language of %s: %w", address, err)
	}
	return code, nil
}

// SetLanguage records the language of the player at address (a code of
// notation.Languages), for all their games.
func (t *Tx) SetLanguage(address, code string, now time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO player_settings (address, language, changed) VALUES (?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET language = excluded.language, changed = excluded.changed`, addr.Mailbox(address), code, ms(now))
	if err != nil {
		return fmt.Errorf("recording the language %q of %s: %w", code, address, err)
	}
	return nil
}

// Schema version 27 (schema_27_language_hint.sql) added the hint of a
// language, told once.

// LanguageHint is the codes of the languages the player at address was
// told how to set, space-separated ("" when never told).
func (t *Tx) LanguageHint(address string) (string, error) {
	var codes string
	err := t.tx.QueryRowContext(t.ctx, `SELECT language_hint FROM player_settings WHERE address = ?`, addr.Mailbox(address)).Scan(&codes)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the language hint of %s: %w", address, err)
	}
	return codes, nil
}

// SetLanguageHint records that the player at address was told how to set
// the languages codes (space-separated).
func (t *Tx) SetLanguageHint(address, codes string, now time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO player_settings (address, language_hint, changed) VALUES (?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET language_hint = excluded.language_hint, changed = excluded.changed`, addr.Mailbox(address), codes, ms(now))
	if err != nil {
		return fmt.Errorf("recording the language hint of %s: %w", address, err)
	}
	return nil
}
