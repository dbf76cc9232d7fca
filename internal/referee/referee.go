// Package referee is the referee's core: it turns one inbound mail and the
// state of the game it names into a decision (apply, reject, ignore), the new
// actions and die rolls, and the mails to send. It does no I/O: the caller
// loads the game, and stores the outcome and queues the mails in one
// transaction.
package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/game"
	"referee/internal/lang"
	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
)

// Config is what the core needs to know about its deployment.
type Config struct {
	// Catalog holds the texts in each language; nil loads the embedded
	// one (lang.MustLoad), which takes tens of milliseconds.
	Catalog *lang.Catalog
	// Address is the referee's own address, e.g. referee@example.test;
	// players reply to plus-addresses built from it.
	Address string
	// Name is the display name on outgoing mail.
	Name string
	// RequireAuth makes the core accept only mail that is shown to come
	// from its From domain, by the evidence AuthMode names.
	RequireAuth     bool
	TrustedAuthServ string
	// AuthMode is the evidence RequireAuth accepts: AuthHeader (the
	// default) the Authentication-Results of TrustedAuthServ at the top of
	// the mail (reader.AuthVerdict); AuthDKIM the referee's own DKIM
	// verification (Env.DKIM); AuthEither one or the other.
	AuthMode string
	// MaxRefusalsPerHour caps the refusals sent to one sender in an hour
	// (mail that could not be tied to a game, or was refused), so that a
	// loop or a flood cannot make the referee a spam cannon. Game mails
	// (boards, answers to commands) never count. 0 means 10.
	MaxRefusalsPerHour int
	// MaxGameRefusalsPerHour caps the refusals sent to one player about one
	// game in an hour: an out-of-office bot answering every board mail
	// gets this many and no more. 0 means 3.
	MaxGameRefusalsPerHour int
	// Variants are the variants hosted: the referee's own and those of an
	// organiser's file (nil: the referee's own).
	Variants *rules.Catalog
	// Key signs die rolls.
	Key dice.Key
	// IDSalt is a random value of this deployment (made once per database)
	// mixed into every Message-ID the referee writes, so that two
	// referees never write the same Message-ID for their first mails.
	IDSalt string
	// Lobby is what the organiser offers by mail outside games (lobby.go).
	Lobby LobbyConfig
}

// GameStatus is where a game stands; the store keeps it as its text.
type GameStatus string

// The statuses of a game.
const (
	StatusActive   GameStatus = "active"   // being played
	StatusFinished GameStatus = "finished" // ended with a result
	StatusAborted  GameStatus = "aborted"  // ended by the organiser, without a result
)

// Player is one side of a game.
type Player struct {
	Address string // lower case
	Name    string
	Secret  string
	// Zone is the player's time zone (the "timezone" command, over all
	// their games): an IANA name, "" for UTC.
	Zone string
	// Language is the player's language tag (lang.Tag: the code of the
	// "language" command, over all their games, "" for none set, with
	// "-x-fig" when they asked for figurines): its piece letters are read
	// in their moves.
	Language string
}

// Location is the player's time zone: deadlines, reminders and dates in
// their mails are shown in it (UTC until they set one, or when the name
// no longer loads).
func (p Player) Location() *time.Location {
	return zoneLocation(p.Zone)
}

// Roll is one die roll of a game.
type Roll struct {
	N     int
	Ply   int // the number of actions played before it
	Value int
	Sig   []byte
}

// Action is one stored action of a game.
type Action struct {
	Ply      int
	Color    rules.Color
	SAN      string
	Coord    string
	Position string // position string after it (and after the rolls it caused)
	Message  string // relayed to the opponent
	// Time is when the action was recorded (zero when not known): the
	// record's per-move dates.
	Time time.Time
	// Cond: a conditional move, played at once as its owner's tree
	// answered the opponent's move (the record marks it {cond}).
	Cond bool
}

// DrawOffer is a standing draw offer.
type DrawOffer struct {
	By  rules.Color
	Ply int // the number of actions played when it was made
}

// Game is the state of one game as the core sees it.
type Game struct {
	ID           int64
	Variant      rules.Variant
	Status       GameStatus
	Players      [2]Player
	Start        string // position string of the start
	Actions      []Action
	Rolls        []Roll
	Seed         dice.Seed
	Commitment   string
	SeedRevealed bool
	Result       string // "1-0", "0-1", "1/2-1/2" or ""
	ResultReason string
	// Ending is how a finished game ended, as a kind: what rules read,
	// where ResultReason is for people.
	Ending      game.Ending
	AbortReason string
	DrawOffer   *DrawOffer
	// Rated is whether the result counts for the players' ratings.
	Rated bool
	// Ratings are the players' ratings in the game's variant, by colour,
	// when the game is rated and the app loaded them (nil otherwise).
	Ratings [2]*GameRating
	Created time.Time
	// State is the rest of the protocol state: a pending resignation, a
	// takeback offer, the clocks. It is stored as JSON.
	State State
	// Watchers are spectators' addresses: they get the board mails, with no
	// address that could act.
	Watchers []string
	// WatcherLanguages are the languages spectators set ("language"),
	// by address, when the app loaded them: a spectator's mails are in
	// their language, English where they set none.
	WatcherLanguages map[string]string
	// Event is the game's place in its event, when it is one of an event's
	// games and the app loaded it (nil otherwise): its mails and its
	// record say so.
	Event *GameEvent
	// known is the position after the record when the caller gave it
	// (SetPosition), for as many actions and rolls as the record had then.
	known *knownPosition
}

// knownPosition is the position after the first ply actions and rolls
// rolls of a game's record.
type knownPosition struct {
	ply, rolls int
	pos        rules.Position
}

// State is a game's protocol state besides the moves.
type State struct {
	// ResignPending is the side that sent "resign" and must "confirm".
	ResignPending *rules.Color `json:"resign_pending,omitempty"`
	// ResignMessage is what the player wrote below "resign": passed on to
	// the opponent with the confirmed resignation.
	ResignMessage string `json:"resign_message,omitempty"`
	// TakebackBy is the side that asked to take back the last action.
	TakebackBy *rules.Color `json:"takeback_by,omitempty"`
	// Clock is the time control, when the game has one.
	Clock *Clock `json:"clock,omitempty"`
	// Private: a player asked for a game no one may observe (by mail or on
	// the web).
	Private bool `json:"private,omitempty"`
	// WatchDelay is how many plies spectators lag behind a running game
	// (as ICCF, 0-7 moves; observe.go): they never see a newer position.
	WatchDelay int `json:"watch_delay,omitempty"`
	// Cond is the players' conditional moves (conditional.go).
	Cond *CondState `json:"cond,omitempty"`
}

// Ply is the number of actions played.
func (g *Game) Ply() int { return len(g.Actions) }

// SetPosition gives g the position after its record (Start, Actions and
// Rolls as they are now), so that Position need not replay the record from
// move 1. The caller vouches for it: the app keeps the positions of the
// games it decided between mails, and gives one only for exactly the
// record it was played from (see app's position cache).
func (g *Game) SetPosition(pos rules.Position) {
	g.known = &knownPosition{ply: len(g.Actions), rolls: len(g.Rolls), pos: pos}
}

// Position returns the position after the record: the one SetPosition
// gave while the record is unchanged, else the record's replay (Replay,
// which re-validates every action and roll), which it then keeps the same
// way.
func (g *Game) Position() (rules.Position, error) {
	if pos, ok := g.KnownPosition(); ok {
		return pos, nil
	}
	rep, err := g.Replay()
	if err != nil {
		return nil, err
	}
	g.SetPosition(rep.Final)
	return rep.Final, nil
}

// KnownPosition returns the position after the record when g knows it
// (SetPosition, or an earlier Position) without replaying anything.
func (g *Game) KnownPosition() (rules.Position, bool) {
	if k := g.known; k != nil && k.ply == len(g.Actions) && k.rolls == len(g.Rolls) {
		return k.pos, true
	}
	return nil, false
}

// Replay re-validates the stored actions and rolls and returns the state.
func (g *Game) Replay() (*game.Replay, error) {
	start, err := g.Variant.ParsePosition(g.Start)
	if err != nil {
		return nil, fmt.Errorf("game #%d: stored start position: %w", g.ID, err)
	}
	moves, sans := make([]string, len(g.Actions)), make([]string, len(g.Actions))
	for i, a := range g.Actions {
		moves[i], sans[i] = a.Coord, a.SAN
	}
	vals := make([]int, len(g.Rolls))
	for i, r := range g.Rolls {
		vals[i] = r.Value
	}
	// The stored coordinate form through the strict reader: every move is
	// checked to be legal, none is read as people write.
	rep, err := game.PlayCoords(start, moves, sans, vals)
	if err != nil {
		return nil, fmt.Errorf("game #%d: stored record does not replay: %w", g.ID, err)
	}
	return rep, nil
}

// PlayerOf returns the colour whose secret is secret.
func (g *Game) PlayerOf(secret string) (rules.Color, bool) {
	for c := range 2 {
		if g.Players[c].Secret != "" && strings.EqualFold(g.Players[c].Secret, secret) {
			return rules.Color(c), true
		}
	}
	return 0, false
}

// Verdict is what became of an inbound mail.
type Verdict string

// The verdicts stored with every inbound message.
const (
	Applied  Verdict = "applied"  // it changed a game
	Answered Verdict = "answered" // a command that changed nothing (board, moves, help)
	Rejected Verdict = "rejected" // refused, with a reply saying why
	Ignored  Verdict = "ignored"  // nothing done, no reply (automatic mail, flood)
)

// Outcome is the decision about one inbound mail or admin action.
type Outcome struct {
	Verdict Verdict
	Detail  string // one line for the inbound record and the log
	// Player is the authenticated player ("white", "black") or "".
	Player string
	// Auth says how the sender was (or was not) authenticated.
	Auth string
	// Game is the game's new state when it changed, else nil.
	Game *Game
	// NewActions and NewRolls are to be appended to the game's record.
	NewActions []Action
	NewRolls   []Roll
	// Undo removes the game's last stored action (an agreed takeback).
	Undo  bool
	Mails []Mail
	// Lobby is what a command outside a game changed (lobby.go), or nil.
	Lobby *LobbyChange
}

// Mail is one mail the core decided to send, as data: who gets it, its
// headers, and what it says. The core writes no MIME and draws no picture:
// package letters turns a Mail into text, HTML, PNG and MIME.
type Mail struct {
	// Kind says what the mail is for: the outbox's priority, the logs and
	// the tests read it.
	Kind       MailKind
	To         string
	ToName     string
	Subject    string
	ReplyTo    string // "" for none; else carries the player's token
	MessageID  string // with angle brackets
	InReplyTo  string
	References []string
	Date       time.Time
	// Board is a board mail's content: the headline, sections, position,
	// viewer and prompts. Nil for a plain-text mail.
	Board *render.Mail
	// LastMove are the squares of the last move, highlighted in the picture.
	LastMove []rules.Square
	// Text is a plain-text mail's body (refusals, lobby answers) when
	// Board is nil.
	Text string
	// HTML, when set beside Text, is the body of an HTML alternative of a
	// plain-text mail (an event's crosstable as a table); "" for none.
	HTML string
}

// Inbound is one inbound mail as the reader read it.
type Inbound struct {
	Mail *reader.Mail
	// ReadErr is set when the mail could not be read at all; Mail may then
	// hold only headers, or be nil.
	ReadErr error
	Digest  string
	// DKIM is the referee's own DKIM verification of the mail (nil when
	// AuthMode does not ask for it); the app copies it into Env.DKIM.
	DKIM *reader.DKIMVerdict
}

// The evidence Config.AuthMode accepts.
const (
	AuthHeader = "header"
	AuthDKIM   = "dkim"
	AuthEither = "either"
)

// authVerdict says whether m is shown to come from its From domain by
// the evidence cfg.AuthMode accepts, and what was found.
func (r *Referee) authVerdict(m *reader.Mail, env Env) (bool, string) {
	dkim := func() (bool, string) {
		if env.DKIM == nil {
			return false, "the referee's own DKIM verification did not run"
		}
		return env.DKIM.OK, env.DKIM.Reason
	}
	switch r.cfg.AuthMode {
	case AuthDKIM:
		return dkim()
	case AuthEither:
		hok, hwhy := reader.AuthVerdict(m, r.cfg.TrustedAuthServ)
		if hok {
			return true, hwhy
		}
		dok, dwhy := dkim()
		if dok {
			return true, dwhy
		}
		return false, hwhy + "; and " + dwhy
	}
	return reader.AuthVerdict(m, r.cfg.TrustedAuthServ)
}

// Env is what the core may know beyond the game: the time, and the
// refusals the sender got recently.
type Env struct {
	Now time.Time
	// DKIM is the referee's own DKIM verification of the mail (see
	// Config.AuthMode), nil when it did not run.
	DKIM *reader.DKIMVerdict
	// RecentRefusals counts the refusals sent to the mail's sender in the
	// last hour, about any game or none.
	RecentRefusals int
	// GameRefusals counts the refusals sent to the sender in the last hour
	// about the game the mail names.
	GameRefusals int
	// OldestGameRefusal is when the oldest of those refusals was sent
	// (zero when GameRefusals is 0): the last refusal before the limit
	// says when the player is answered again.
	OldestGameRefusal time.Time
	// LastRefusal is the detail of the refusal that answered the sender's
	// previous mail about that game ("" when it was not refused): the same
	// refusal is never sent twice in a row.
	LastRefusal string
	// VacationUsed is the number of vacation days the sender took this
	// calendar year, over all their games.
	VacationUsed int
	// VacationByYear are the vacation days the sender took in this
	// calendar year and the next (leave booked ahead may cross a year).
	VacationByYear map[int]int
	// Bookings are the sender's leave booked ahead, not cancelled and not
	// over (pending or running), soonest first.
	Bookings []Booking
	// Zone is the sender's time zone ("" for UTC).
	Zone string
	// Language is the sender's language tag ("" for none set; lang.Tag).
	Language string
	// LanguageHinted: the sender was told once how to set a language
	// (languageHint), and is not told again.
	LanguageHinted bool
	// Name is the sender's display name ("" for none).
	Name string
	// Lobby is what the core may know about the sender outside a game.
	// With nil, mail without a game reference gets the stranger's refusal.
	Lobby *Lobby
}
