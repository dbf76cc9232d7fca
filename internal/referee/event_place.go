package referee

import "fmt"

// EventPlace is where a game stands in an event: the event's name, the
// round and the board (in a knockout, the match). The game's record says
// it in its Event, Round and Board tags, wherever the record is written
// (export, the web, the "record" mail).
type EventPlace struct {
	Name         string
	Round, Board int
}

// round is the PGN Round tag (standard §8.1.1.4).
func (e *EventPlace) round() string { return fmt.Sprint(e.Round) }
