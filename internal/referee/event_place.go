package referee

import "fmt"

// EventPlace is where a game stands in an event: the event's name, the
// round and the board (in a knockout, the match). The game's record says
// it in its Event, Round and Board tags, wherever the record is written
// (export, the web, the "record" mail).
type EventPlace struct {
	Name         string
	Round, Board int
	// Leg is a knockout game's number in its match (1, 2, then 3, 4 after
	// a tie); 0 outside a knockout.
	Leg int
}

// round is the PGN Round tag (standard §8.1.1.4). A knockout's games are
// numbered as the FIDE World Cup numbers them, ROUND.GAME, so that a
// match's deciding games (3, 4, ...) stand apart from its first two; Board
// is the match.
func (e *EventPlace) round() string {
	if e.Leg > 0 {
		return fmt.Sprintf("%d.%d", e.Round, e.Leg)
	}
	return fmt.Sprint(e.Round)
}
