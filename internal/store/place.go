package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// GamePlace is a game's place in its event, for its mails: the event's
// name and format, the round, board and leg, and the spectators who
// follow the game through the event.
type GamePlace struct {
	Event, Format string
	EventGame
	Watchers []string
}

// PlaceOfGame returns the place of game gameID in its event; found is
// false for a game outside any event.
func (t *Tx) PlaceOfGame(gameID int64) (p GamePlace, found bool, err error) {
	p.GameID = gameID
	err = t.tx.QueryRowContext(t.ctx, `SELECT e.name, e.format, eg.season, eg.division, eg.round, eg.board, eg.leg, eg.white, eg.black
		FROM event_games eg JOIN events e ON e.id = eg.event_id WHERE eg.game_id = ?`, gameID).
		Scan(&p.Event, &p.Format, &p.Season, &p.Division, &p.Round, &p.Board, &p.Leg, &p.White, &p.Black)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("finding the event of game #%d: %w", gameID, err)
	}
	rows, err := t.tx.QueryContext(t.ctx, `SELECT ew.address FROM event_watchers ew JOIN event_games eg ON eg.event_id = ew.event_id
		WHERE eg.game_id = ? ORDER BY 1`, gameID)
	if err != nil {
		return p, false, fmt.Errorf("listing the event's spectators of game #%d: %w", gameID, err)
	}
	if p.Watchers, err = scanStrings(rows); err != nil {
		return p, false, fmt.Errorf("listing the event's spectators of game #%d: %w", gameID, err)
	}
	return p, true, nil
}
