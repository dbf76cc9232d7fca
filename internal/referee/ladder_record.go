package referee

import (
	"fmt"
	"time"
)

// A ladder's record besides its games (issue 41): its settings, its
// challenges and its drops, as the store keeps them; format_ladder.go
// computes the ladder from them.

// LadderSettings are a ladder's own settings (the event's settings).
type LadderSettings struct {
	Reach      int `json:"reach"`       // places above a player may challenge
	Games      int `json:"games"`       // a challenge's games: 1, or 2 with colours swapped
	MaxGames   int `json:"max_games"`   // challenges pending or in play per player
	AcceptDays int `json:"accept_days"` // days to accept before the challenge is lost
	IdleWeeks  int `json:"idle_weeks"`  // weeks without a game before a drop to the bottom; 0 never
}

// A ladder's settings where the organiser gave none (IdleWeeks 0: never).
const (
	DefaultReach      = 3
	DefaultLadderGame = 1
	DefaultMaxGames   = 2
	DefaultAcceptDays = 7
)

// WithDefaults fills the settings left 0 (IdleWeeks stays 0: never).
func (s LadderSettings) WithDefaults() LadderSettings {
	if s.Reach == 0 {
		s.Reach = DefaultReach
	}
	if s.Games == 0 {
		s.Games = DefaultLadderGame
	}
	if s.MaxGames == 0 {
		s.MaxGames = DefaultMaxGames
	}
	if s.AcceptDays == 0 {
		s.AcceptDays = DefaultAcceptDays
	}
	return s
}

// Check says what is wrong with the settings, or nil.
func (s LadderSettings) Check() error {
	switch {
	case s.Reach < 1 || s.Reach > 50:
		return fmt.Errorf("--reach %d: a player may challenge 1 to 50 places above", s.Reach)
	case s.Games != 1 && s.Games != 2:
		return fmt.Errorf("--games %d: a challenge is 1 game, or 2 with colours swapped", s.Games)
	case s.MaxGames < 1 || s.MaxGames > 20:
		return fmt.Errorf("--max-games %d: give 1 to 20 challenges pending or in play per player", s.MaxGames)
	case s.AcceptDays < 1 || s.AcceptDays > 60:
		return fmt.Errorf("--accept-days %d: give 1 to 60 days to accept a challenge", s.AcceptDays)
	case s.IdleWeeks < 0 || s.IdleWeeks > 104:
		return fmt.Errorf("--idle-weeks %d: give 0 (never) to 104 weeks", s.IdleWeeks)
	}
	return nil
}

// Ladder is a ladder's record besides its games.
type Ladder struct {
	Settings   LadderSettings
	Challenges []LadderChallenge
	Drops      []LadderDrop
}

// LadderChallenge is one challenge: Challenger and Challenged are seats.
type LadderChallenge struct {
	ID                     int64
	Challenger, Challenged int
	Created                time.Time
	Accepted, Expired      *time.Time
	// Decided is when the last game of an accepted challenge ended.
	Decided *time.Time
}

// Pending says whether the challenge waits for its acceptance.
func (c LadderChallenge) Pending() bool { return c.Accepted == nil && c.Expired == nil }

// Deadline is when a pending challenge expires, lost by the challenged.
func (c LadderChallenge) Deadline(s LadderSettings) time.Time {
	return c.Created.Add(time.Duration(s.WithDefaults().AcceptDays) * Day)
}

// LadderDrop is a player dropped to the bottom for idleness.
type LadderDrop struct {
	Seat int
	At   time.Time
}
