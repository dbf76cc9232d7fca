package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// Schema version 18 (schema_18_event_watchers.sql) added event_watchers:
// spectators of every game of an event, present and later ones.

// WatchEvent makes addr a spectator of every game of the event.
func (t *Tx) WatchEvent(eventID int64, addr string) error {
	if _, err := t.tx.ExecContext(t.ctx, `INSERT OR IGNORE INTO event_watchers (event_id, address) VALUES (?, ?)`, eventID, addr); err != nil {
		return fmt.Errorf("recording %s as a spectator of event %d: %w", addr, eventID, err)
	}
	return nil
}

// UnwatchEvent removes addr from the event's spectators and reports
// whether it was one.
func (t *Tx) UnwatchEvent(eventID int64, addr string) (bool, error) {
	res, err := t.tx.ExecContext(t.ctx, `DELETE FROM event_watchers WHERE event_id = ? AND address = ?`, eventID, addr)
	if err != nil {
		return false, fmt.Errorf("removing %s from the spectators of event %d: %w", addr, eventID, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// EventWatchers lists an event's spectators.
func (t *Tx) EventWatchers(eventID int64) ([]string, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address FROM event_watchers WHERE event_id = ? ORDER BY address`, eventID)
	if err != nil {
		return nil, fmt.Errorf("listing the spectators of event %d: %w", eventID, err)
	}
	return scanStrings(rows)
}

// WatchedVia is the name of the event through which addr observes game
// gameID, or "" when addr does not observe it as a game of an event.
func (t *Tx) WatchedVia(gameID int64, addr string) (string, error) {
	var name string
	err := t.tx.QueryRowContext(t.ctx, `SELECT e.name FROM event_games eg JOIN event_watchers ew ON ew.event_id = eg.event_id
		JOIN events e ON e.id = eg.event_id WHERE eg.game_id = ? AND ew.address = ?`, gameID, addr).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("finding the event through which %s observes game #%d: %w", addr, gameID, err)
	}
	return name, nil
}
