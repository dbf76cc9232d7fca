package referee

import (
	"crypto/sha256"
	"strings"
	"time"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// The lobby: what players do by mail outside a game. They challenge each
// other ("challenge toto40 bob@example.org 3d"), accept or decline
// invitations, list open challenges, their games and the variants, ask for
// a game's record, and take a vacation in all their games at once. The
// caller (the app) loads what the core may need into Env.Lobby and stores
// the Outcome's LobbyChange; the core, as everywhere, does no I/O.
//
// This file holds the lobby's data and configuration; lobby_decide.go
// decides each command, lobby_text.go writes the mails, and the command
// table (commands.go) says which words are which command.

// Player policies: who may challenge by mail (LobbyConfig.Players).
const (
	PlayersOpen  = "open"  // anyone
	PlayersKnown = "known" // addresses that played a game here or that the organiser added
	PlayersList  = "list"  // the addresses of the organiser's file (and those added)
)

// Challenge statuses.
const (
	ChallengeOpen      = "open"
	ChallengeAccepted  = "accepted"
	ChallengeDeclined  = "declined"
	ChallengeExpired   = "expired"
	ChallengeWithdrawn = "withdrawn"
)

// LobbyConfig is what the organiser offers by mail. Zero fields take the
// defaults named.
type LobbyConfig struct {
	// Players is the policy on who may challenge: PlayersOpen,
	// PlayersKnown (the default) or PlayersList. The app decides each
	// sender (Lobby.Allowed); the core only names the policy in refusals.
	Players string
	// Variants are the names of the variants offered by mail; nil offers
	// all of rules.Variants().
	Variants []string
	// DefaultTime is the time control of a challenge that names none ("3d",
	// "10d+1d"); "" for none.
	DefaultTime string
	// MaxGames caps the active games of one player (default 10).
	MaxGames int
	// InviteTTL is how long an invitation stays open (default 7 days).
	InviteTTL time.Duration
	// MaxOpenInvites caps the open invitations of one challenger (default 5).
	MaxOpenInvites int
	// MaxChallengesPerDay caps the challenges one address makes in 24 hours
	// (default 20).
	MaxChallengesPerDay int
	// MaxAnswersPerHour caps the answers to one address's lobby commands
	// ("games", "help", ...) in an hour (default 20): a forged sender
	// cannot make the referee mail someone without end.
	MaxAnswersPerHour int
}

// lobbyCfg is the configuration with its defaults.
func (r *Referee) lobbyCfg() LobbyConfig {
	c := r.cfg.Lobby
	if c.Players == "" {
		c.Players = PlayersKnown
	}
	if c.MaxGames <= 0 {
		c.MaxGames = 10
	}
	if c.InviteTTL <= 0 {
		c.InviteTTL = 7 * Day
	}
	if c.MaxOpenInvites <= 0 {
		c.MaxOpenInvites = 5
	}
	if c.MaxChallengesPerDay <= 0 {
		c.MaxChallengesPerDay = 20
	}
	if c.MaxAnswersPerHour <= 0 {
		c.MaxAnswersPerHour = 20
	}
	return c
}

// Offered returns the variants offered by mail, in rules.Variants() order.
func (r *Referee) Offered() []rules.Variant {
	names := r.cfg.Lobby.Variants
	if len(names) == 0 {
		return rules.Variants()
	}
	var out []rules.Variant
	for _, v := range rules.Variants() {
		for _, n := range names {
			if strings.EqualFold(strings.TrimSpace(n), v.Name()) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// Challenge is an invitation to a game sent by mail.
type Challenge struct {
	ID          int64
	Challenger  string // the address that challenged
	Opponent    string // the invited address; "" for an open challenge
	Variant     string
	TimeControl string // "" for none
	Color       string // the challenger's colour: random, white or black
	Secret      string // the invitation token's secret
	Status      string
	Created     time.Time
	Expires     time.Time
	Closed      time.Time // zero while open
	ClosedBy    string
	GameID      int64
}

// Invite is the invitation token of c.
func (c *Challenge) Invite() reader.Invite { return reader.Invite{ChallengeID: c.ID, Secret: c.Secret} }

// ChallengerColor is the colour the challenger plays. "random" is decided
// by the challenge's secret, which the app drew at random when the
// challenge was made: fixed from then on, the same however often it is
// asked.
func (c *Challenge) ChallengerColor() rules.Color {
	switch c.Color {
	case "white":
		return rules.White
	case "black":
		return rules.Black
	}
	h := sha256.Sum256([]byte("colour\x00" + c.Secret))
	return rules.Color(h[0] & 1)
}

// Lobby is what the core may know about a mail outside a game (or a lobby
// command sent as a reply to a game mail). The app fills it for the
// mail's sender.
type Lobby struct {
	// Allowed: the sender may challenge, and take open challenges, under
	// the organiser's policy.
	Allowed bool
	// Games are the sender's games: the active ones, then recent others.
	Games []*Game
	// Named is the game a "record N" names, when it exists (the core
	// checks that the sender plays in it).
	Named *Game
	// Challenge is the challenge the mail's invitation token names, nil
	// when there is none or no such challenge.
	Challenge *Challenge
	// Open are the open challenges without an opponent, oldest first.
	Open []Challenge
	// Sent are the sender's challenges that are open, or were made or
	// closed in the last 24 hours.
	Sent []Challenge
	// Active counts active games by mailbox (addr.Mailbox): the sender's,
	// the named opponent's, and the challenger's of Challenge.
	Active map[string]int
	// OpponentBarred: the organiser removed the opponent a challenge names.
	OpponentBarred bool
	// NextChallengeID and NewSecret number a new challenge and make its
	// invitation secret (the core draws no random numbers).
	NextChallengeID int64
	NewSecret       string
	// RecentAnswers counts the answers to the sender's lobby commands in
	// the last hour.
	RecentAnswers int
	// Events are the open events and the sender's own, oldest first
	// ("events").
	Events []Event
	// Event is the event a command names, nil when there is none by that
	// name; EventAllowed says whether the sender may join it under its
	// entry rule.
	Event        *Event
	EventAllowed bool
}

// LobbyChange is what a lobby command changes, for the app to store in the
// same transaction as the rest of the outcome.
type LobbyChange struct {
	// NewChallenge is to be stored (with its ID).
	NewChallenge *Challenge
	// Close ends an open challenge: Status is accepted, declined or
	// withdrawn, By the address that did it.
	Close *ChallengeClose
	// Start is a game to start, as "referee new" starts one; then the app
	// sends ChallengeStarted's notice.
	Start *GameStart
	// Vacation adds days to a player's yearly allowance used.
	Vacation *VacationUse
	// Games are changed games besides Outcome.Game (a vacation in all the
	// sender's games).
	Games []*Game
	// Event is a player joining, leaving or withdrawing from an event.
	Event *EventChange
}

// EventChange is what a player's mail changes in an event: exactly one of
// Join, Leave and Withdraw is the player's address.
type EventChange struct {
	Name                  string
	Join, Leave, Withdraw string
}

// ChallengeClose ends a challenge.
type ChallengeClose struct {
	ID     int64
	Status string
	By     string
}

// GameStart is a game to start from an accepted challenge.
type GameStart struct {
	Challenge    Challenge
	White, Black string
}

// VacationUse records vacation days a player took.
type VacationUse struct {
	Address string // addr.Mailbox of the player
	Year    int
	Days    int
}

func (r *Referee) offers(v rules.Variant) bool {
	for _, o := range r.Offered() {
		if o.Name() == v.Name() {
			return true
		}
	}
	return false
}

func (r *Referee) offeredNames() string {
	var n []string
	for _, v := range r.Offered() {
		n = append(n, v.Name())
	}
	return strings.Join(n, ", ")
}
