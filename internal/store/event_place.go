package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// EventPlace is an event's game's place: the event's name, its round and
// board, and in a knockout (Knockout) the game's leg of its match.
type EventPlace struct {
	Event        string
	Round, Board int
	Leg          int
	Knockout     bool
}

// EventPlaceOfGame returns the place of a game in its event; found is false
// for a game outside any event. One lookup by the game's key.
func (t *Tx) EventPlaceOfGame(gameID int64) (p EventPlace, found bool, err error) {
	err = t.tx.QueryRowContext(t.ctx, `SELECT e.name, g.round, g.board, g.leg, e.format = 'ko' FROM event_games g JOIN events e ON e.id = g.event_id
		WHERE g.game_id = ?`, gameID).Scan(&p.Event, &p.Round, &p.Board, &p.Leg, &p.Knockout)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("finding the event of game #%d: %w", gameID, err)
	}
	return p, true, nil
}
