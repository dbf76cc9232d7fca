package game

// Ending is how a finished game ended, as a kind (issue 40): what rules
// decide on it (a rating's reliability counts the losses on time, an
// event's silence rule the same, the PGN Termination tag) read this, never
// the reason's words, which are for people and may change.
type Ending string

// Endings. The empty Ending is a game not finished, or one finished before
// the kinds were stored and not recognised then (schema version 21 sorted
// the old games by their reasons).
const (
	EndBoard    Ending = "board"    // the rules ended it: checkmate, stalemate, a captured king, a draw rule
	EndResigned Ending = "resigned" // a player resigned
	EndAgreed   Ending = "agreed"   // a draw agreed
	EndClaimed  Ending = "claimed"  // a draw claimed under a rule
	EndTime     Ending = "time"     // a clock ran out: lost on time, or drawn when the other side could not win
	EndForfeit  Ending = "forfeit"  // forfeited under an event's rule: a withdrawal
)

// Termination is the PGN Termination tag (standard §9.8.1) of a finished
// game that ended so: "time forfeit" for a clock run out, else "normal".
func (e Ending) Termination() string {
	if e == EndTime {
		return "time forfeit"
	}
	return "normal"
}
