package referee

import (
	"crypto/sha256"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/reader"
	"referee/internal/rating"
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

// Players is a policy on who may play by mail: who may challenge
// (LobbyConfig.Players), who may join an event (Event.Entry).
type Players string

// Player policies.
const (
	PlayersOpen  Players = "open"  // anyone
	PlayersKnown Players = "known" // addresses that played a game here or that the organiser added
	PlayersList  Players = "list"  // the addresses of the organiser's file (and those added)
)

// ChallengeStatus is where a challenge stands.
type ChallengeStatus string

// Challenge statuses.
const (
	ChallengeOpen      ChallengeStatus = "open"
	ChallengeAccepted  ChallengeStatus = "accepted"
	ChallengeDeclined  ChallengeStatus = "declined"
	ChallengeExpired   ChallengeStatus = "expired"
	ChallengeWithdrawn ChallengeStatus = "withdrawn"
)

// DefaultMaxInvitesPerAddress is LobbyConfig.MaxInvitesPerAddress's
// default: invitations to one address in 24 hours, from anyone.
const DefaultMaxInvitesPerAddress = 3

// LobbyConfig is what the organiser offers by mail. Zero fields take the
// defaults named.
type LobbyConfig struct {
	// Players is the policy on who may challenge: PlayersOpen,
	// PlayersKnown (the default) or PlayersList. The app decides each
	// sender (Lobby.Allowed); the core only names the policy in refusals.
	Players Players
	// Variants are the names of the variants offered by mail; nil offers
	// all of rules.Variants().
	Variants []string
	// DefaultTime is the time control of a challenge that names none,
	// written as timecontrol.Parse reads it; "" for none.
	DefaultTime string
	// Rated makes games rated unless their challenge says "casual"
	// (serve --rated); without it they are casual unless it says "rated".
	Rated bool
	// MinRating and MaxRating bound the rating, in the challenge's
	// variant, of a player who challenges or accepts a challenge (0: no
	// bound); a player without a rated game there counts as a new player
	// (1500). MinReliability is the least reliability (0 to 1) there
	// (0: none). See docs/ratings.md.
	MinRating, MaxRating float64
	MinReliability       float64
	// MaxGames caps the active games of one player (default 10).
	MaxGames int
	// InviteTTL is how long an invitation stays open (default 7 days).
	InviteTTL time.Duration
	// MaxOpenInvites caps the open invitations of one challenger (default 5).
	MaxOpenInvites int
	// MaxChallengesPerDay caps the challenges one address makes in 24 hours
	// (default 20).
	MaxChallengesPerDay int
	// Observers is the policy on who may observe games by mail
	// ("observe GAME"): ObserversOpen, ObserversKnown (the default) or
	// ObserversNone. The app decides each sender (Lobby.MayObserve).
	Observers string
	// MaxObserved caps the running games one address observes by mail
	// (default 20): a forged sender cannot subscribe someone to every game.
	MaxObserved int
	// MaxAnswersPerHour caps the answers to one address's lobby commands
	// ("games", "help", ...) in an hour (default 20): a forged sender
	// cannot make the referee mail someone without end.
	MaxAnswersPerHour int
	// MaxInvitesPerAddress caps the invitations the referee sends one
	// address in 24 hours, from all challengers together (default 3): a
	// forged From is a new challenger each time, so the per-challenger
	// caps cannot protect the invited.
	MaxInvitesPerAddress int
}

// lobbyCfg is the configuration with its defaults.
func (r *Referee) lobbyCfg() LobbyConfig {
	c := r.cfg.Lobby
	if c.Players == "" {
		c.Players = PlayersKnown
	}
	if c.Observers == "" {
		c.Observers = ObserversKnown
	}
	if c.MaxObserved <= 0 {
		c.MaxObserved = 20
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
	if c.MaxInvitesPerAddress <= 0 {
		c.MaxInvitesPerAddress = DefaultMaxInvitesPerAddress
	}
	return c
}

// Offered returns the variants offered by mail, in the order of
// Config.Variants (the referee's own, then a file's).
func (r *Referee) Offered() []rules.Variant {
	names := r.cfg.Lobby.Variants
	if len(names) == 0 {
		return r.cfg.Variants.Variants()
	}
	var out []rules.Variant
	for _, v := range r.cfg.Variants.Variants() {
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
	Status      ChallengeStatus
	Created     time.Time
	Expires     time.Time
	Closed      time.Time // zero while open
	ClosedBy    string
	GameID      int64
	// Seed draws a "random" colour (64 hex digits; docs/dice.md, "The
	// colour of a challenge"): its SHA-256 is in the invitation, and the
	// game's first mail reveals it. "" for a challenge made before the
	// seed (its colour was drawn from Secret).
	Seed string
	// Private: the game it starts may not be observed.
	Private bool
	Rated   bool // the game it makes is rated
}

// Invite is the invitation token of c.
func (c *Challenge) Invite() reader.Invite { return reader.Invite{ChallengeID: c.ID, Secret: c.Secret} }

// ChallengerColor is the colour the challenger plays. "random" is drawn
// from the challenge's seed as docs/dice.md says (dice.ChallengeColour):
// fixed when the challenge is made, committed to in the invitation, and
// never derived from anything the challenger sees (the invitation's
// secret is in the challenger's own mail). A challenge stored before the
// seed existed keeps the colour its secret gave.
func (c *Challenge) ChallengerColor() rules.Color {
	switch c.Color {
	case "white":
		return rules.White
	case "black":
		return rules.Black
	}
	if seed, err := dice.ParseSeed(c.Seed); err == nil {
		col, _ := dice.ChallengeColour(seed, c.ID)
		return rules.Color(col)
	}
	h := sha256.Sum256([]byte("colour\x00" + c.Secret))
	return rules.Color(h[0] & 1)
}

// seedCommitment is the SHA-256 of the challenge's colour seed, "" when
// the colour is not drawn from one.
func (c *Challenge) seedCommitment() string {
	if c.Color != "random" {
		return ""
	}
	seed, err := dice.ParseSeed(c.Seed)
	if err != nil {
		return ""
	}
	return seed.Commitment()
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
	// NewSeed is a fresh colour seed for a new challenge (64 hex digits).
	NewSeed string
	// MayObserve: the sender may observe games under the organiser's
	// policy (LobbyConfig.Observers).
	MayObserve bool
	// Observing counts the running games the sender observes (for
	// "observe"), by themselves or as games of an event.
	Observing int
	// EventObserved: the sender observes Lobby.Event ("observe EVENT").
	EventObserved bool
	// NamedVia is the event through which the sender observes Named, ""
	// for none.
	NamedVia string
	// NameOwner is the address that holds the display name a "name"
	// command asks for (Needs.Name), "" when it is free.
	NameOwner string
	// RecentAnswers counts the answers to the sender's lobby commands in
	// the last hour.
	RecentAnswers int
	// OpponentInvites counts the invitations the opponent a new challenge
	// names received in the last 24 hours, from anyone;
	// OpponentInvitesSince is when the oldest of them was made.
	OpponentInvites      int
	OpponentInvitesSince time.Time
	// OpponentStopped: the opponent a new challenge names answered "stop"
	// to an invitation and gets none.
	OpponentStopped bool
	// OpponentZone is the time zone of the opponent a new challenge
	// names ("" for UTC): their invitation's dates are in it.
	OpponentZone string
	// Languages are the language codes of the other players the lobby's
	// mails go to, by addr.Mailbox: the opponent a new challenge names
	// (their invitation), the challenger and the opponent of the challenge
	// the mail's invitation token names (the notice that it was declined
	// or withdrawn). A player missing, or without a language, reads
	// English.
	Languages map[string]string
	// SenderStopped: the sender is on the stop list, since
	// SenderStoppedSince.
	SenderStopped      bool
	SenderStoppedSince time.Time
	// Seen: the sender's address is known here beyond this mail's From
	// (Needs.Seen): it played a game, the organiser named it (the player
	// list, an event's list or players), or it holds or held a place in an
	// event. A join from an address not seen waits for the address to
	// prove itself (proof.go).
	Seen bool
	// Ratings are the ratings of the player "rating" names, one per
	// variant with a rated game (Needs.RatingsOf).
	Ratings []rating.Standing
	// Top is the ratings table of the variant "top" names, best first
	// (Needs.Top).
	Top []rating.Standing
	// Events are the open events and the sender's own, oldest first
	// ("events").
	Events []Event
	// Event is the event a command names, nil when there is none by that
	// name; EventAllowed says whether the sender may join it under its
	// entry rule.
	Event        *Event
	EventAllowed bool
	// MayJoin says, by the name of each of Events, whether the sender
	// may join it under its entry rule.
	MayJoin map[string]bool
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
	// TimeZone records a player's time zone (the "timezone" command).
	TimeZone *ZoneChange
	// Language records a player's language (the "language" command).
	Language *LanguageChange
	// LanguageHint records that a player was told how to set a language.
	LanguageHint *LanguageHintChange
	// Book books leave ahead; Cancel cancels a booking (its ID).
	Book, Cancel *BookingChange
	// Digest records a player's mail setting ("mail digest 18:00").
	Digest *DigestChange
	// Games are changed games besides Outcome.Game (a vacation in all the
	// sender's games).
	Games []*Game
	// Stop puts an address on the stop list or takes it off.
	Stop *StopChange
	// Watch adds or removes a spectator ("observe", "unobserve").
	Watch *WatchChange
	// WatchEvent adds or removes a spectator of a whole event.
	WatchEvent *EventWatchChange
	// Event is a player joining, leaving or withdrawing from an event.
	Event *EventChange
	// Name sets or clears a player's display name ("name").
	Name *NameChange
	// Ladder is a challenge on a ladder, or its acceptance.
	Ladder *LadderChange
	// Replace is a team captain's replacement of a player.
	Replace *ReplaceChange
}

// StopChange puts an address on the stop list (Stop) or takes it off.
type StopChange struct {
	Address     string // addr.Mailbox of the address
	Stop        bool
	ChallengeID int64 // the invitation answered "stop"; 0 for "start"
}

// WatchChange adds (or with Stop, removes) a spectator of a game.
type WatchChange struct {
	GameID  int64
	Address string
	Stop    bool
}

// EventWatchChange adds (or with Stop, removes) a spectator of every game
// of an event, present and later ones.
type EventWatchChange struct {
	Event   string // its name
	Address string
	Stop    bool
}

// ZoneChange is a player's new time zone: an IANA name, "" for UTC.
type ZoneChange struct {
	Address string
	Zone    string
}

// EventChange is what a player's mail changes in an event: exactly one of
// Join, Leave and Withdraw is the player's address.
type EventChange struct {
	Name                  string
	Join, Leave, Withdraw string
	// Team: Join is a request to play for this team of a team event,
	// which waits for the organiser's approval.
	Team string
}

// ChallengeClose ends a challenge.
type ChallengeClose struct {
	ID     int64
	Status ChallengeStatus
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

// LadderChange is what a "ladder" command changes: a new challenge of
// seat Challenger to seat Challenged, or the acceptance of challenge
// Accept (its games start).
type LadderChange struct {
	Event                  string
	Challenger, Challenged int
	Accept                 int64
}

// ReplaceChange is a team captain's "replace": seat's games go to New.
type ReplaceChange struct {
	Event string
	Seat  int
	New   string
}
