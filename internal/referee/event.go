package referee

import (
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/event"
	"referee/internal/game"
	"referee/internal/mail/addr"
)

// Events (issue 29): round robins and double round robins made of ordinary
// games. The app loads an event (Lobby.Event, Lobby.Events) and stores what
// changes (LobbyChange.Event); the scores are never stored: Table computes
// the crosstable from the games each time, so it can always be recomputed.

// EventStatus is where an event stands.
type EventStatus string

// Event statuses.
const (
	EventOpen     EventStatus = "open"     // taking entries
	EventRunning  EventStatus = "running"  // its games are under way
	EventFinished EventStatus = "finished" // its last game ended
	EventClosed   EventStatus = "closed"   // closed by the organiser
)

// Decider settles a tied knockout match.
type Decider string

// Deciders of a tied knockout match.
const (
	DeciderMatch Decider = "match" // another two-game match, as often as needed
	DeciderBlack Decider = "black" // more wins with Black in the event so far; still tied: a lot
	DeciderLot   Decider = "lot"   // a lot drawn by the die witness (docs/dice.md)
)

// Withdrawal kinds (EventPlayer.Withdrawn), ICCF's rule.
const (
	NotWithdrawn = 0
	// WithdrawnLost: the player had completed at least half their games;
	// their unfinished games are lost.
	WithdrawnLost = 1
	// WithdrawnAnnulled: fewer than half were completed; all their games
	// are annulled and removed from the scores.
	WithdrawnAnnulled = 2
)

// Event is a tournament as the core sees it.
type Event struct {
	Name        string
	Variant     string
	Format      string
	TimeControl string
	// Places is the number of players an open event waits for (--open N);
	// 0 for an event with a fixed list of players.
	Places int
	Entry  Players // who may join by mail: known, open, or list
	Status EventStatus
	Starts time.Time // zero for none
	Chain  []event.TieBreak
	// Rated: the event's games are rated (the default), or casual.
	Rated bool
	// Limits bound who may join by mail, by rating and reliability in the
	// event's variant; the organiser's own list is not limited.
	Limits RatingLimits
	// Decider settles a tied knockout match (DeciderMatch, DeciderBlack,
	// DeciderLot); Seed draws its lots (secret until the event ends) and
	// Commitment is the seed's SHA-256, told to the players at the start.
	Decider    Decider
	Seed       dice.Seed
	Commitment string
	// DivisionSize, Promote and Seasons are a league's settings (0: the
	// defaults; Seasons 0: until the organiser closes it).
	DivisionSize, Promote, Seasons int
	// Ladder is a ladder's record besides its games (nil for other
	// formats).
	Ladder  *Ladder
	Players []EventPlayer // in seat order
	Games   []EventGame   // by round and board
}

// EventPlayer is one seat of an event.
type EventPlayer struct {
	Seat       int
	Address    string
	Withdrawn  int
	ReplacedBy string // the substitute playing the seat's unfinished games
	// Name and SubName are the display names the player and the
	// substitute chose ("name"; "" for none): crosstables show them
	// instead of the addresses.
	Name, SubName string
	// Language and SubLanguage are the languages the player and the
	// substitute set ("language CODE"; "" for none: English), the
	// language of the event's mails to each (issue 42).
	Language, SubLanguage string
	// Team and Board are a team event's: the player's team and board in
	// it (1 the first); "" and 0 in other formats.
	Team  string
	Board int
	// Joined is when the player entered the event.
	Joined time.Time
}

// EventGame is one game of an event, with its state.
type EventGame struct {
	GameID int64
	// Season and Division are a league game's (0 or 1 for other formats).
	Season, Division int
	Round, Board     int
	Leg              int         // a knockout match's game: 1, 2, then 3, 4 after a tie
	White, Black     int         // seats
	Status           GameStatus  // the game's: active, finished, aborted
	Ply              int         // actions played so far
	Result           string      // "1-0", "0-1", "1/2-1/2" or ""
	Reason           string      // the result's reason, in words
	Ending           game.Ending // how it ended, as a kind
}

// Seat is the seat address plays in e, or 0: the seat's player, or its
// substitute once there is one. A player replaced by a substitute holds
// no seat any more (issue 38): their mails about the event are a
// stranger's, and nothing they send can withdraw the substitute.
func (e *Event) Seat(address string) int {
	for _, p := range e.Players {
		if addr.SameMailbox(p.playing(), address) {
			return p.Seat
		}
	}
	return 0
}

// ReplacedIn returns the seat whose player address was, before a
// substitute took it over.
func (e *Event) ReplacedIn(address string) (EventPlayer, bool) {
	for _, p := range e.Players {
		if p.ReplacedBy != "" && addr.SameMailbox(p.Address, address) {
			return p, true
		}
	}
	return EventPlayer{}, false
}

// Named reports whether address is, or was, a player of e: a seat's
// player or its substitute.
func (e *Event) Named(address string) bool {
	for _, p := range e.Players {
		if addr.SameMailbox(p.Address, address) || (p.ReplacedBy != "" && addr.SameMailbox(p.ReplacedBy, address)) {
			return true
		}
	}
	return false
}

// Playing is the address now playing the seat's games: its substitute
// once there is one, else its player.
func (p EventPlayer) Playing() string { return p.playing() }

// playingLanguage is the language of the address now playing the
// seat's games (PlayingLanguage).
func (p EventPlayer) playingLanguage() string {
	if p.ReplacedBy != "" {
		return p.SubLanguage
	}
	return p.Language
}

// playing is the address now playing seat's games.
func (p EventPlayer) playing() string {
	if p.ReplacedBy != "" {
		return p.ReplacedBy
	}
	return p.Address
}

// Table is the crosstable, computed from the finished games: a player
// withdrawn under the annulment rule has all their games removed from the
// scores, as ICCF does.
func (e *Event) Table() event.Table {
	players := make([]event.Entrant, len(e.Players))
	annulled := map[int]bool{}
	for i, p := range e.Players {
		name := p.label()
		if p.ReplacedBy != "" {
			name += " / " + p.subLabel()
		}
		players[i] = event.Entrant{Name: name, Withdrawn: p.Withdrawn != NotWithdrawn}
		if p.Withdrawn == WithdrawnAnnulled {
			annulled[p.Seat] = true
		}
	}
	var games []event.Game
	var void []EventGame
	for _, g := range e.Games {
		if g.Status == StatusAborted || (g.Status == StatusFinished && (annulled[g.White] || annulled[g.Black])) {
			void = append(void, g) // annulled or aborted: "-", in no score
			continue
		}
		if g.Status != StatusFinished {
			continue
		}
		var s float64
		switch g.Result {
		case "1-0":
			s = 1
		case "0-1":
			s = 0
		case "1/2-1/2":
			s = 0.5
		default:
			continue
		}
		games = append(games, event.Game{White: g.White, Black: g.Black, WhiteScore: s})
	}
	t := event.Crosstable(players, games, e.Chain)
	for _, g := range void {
		t.MarkVoid(g.White, g.Black)
	}
	return t
}

// SeatGames counts the games of seat, and those completed with a result.
func (e *Event) SeatGames(seat int) (completed, total int) {
	for _, g := range e.Games {
		if g.White != seat && g.Black != seat {
			continue
		}
		total++
		if g.Status == StatusFinished && g.Result != "" {
			completed++
		}
	}
	return completed, total
}

// describeAs is the event's game, format (its title), time and whether
// it is rated, in English: "Toto40, round robin, 3 days per move, rated".
func (e *Event) describeAs(format string) string { return e.describeIn(nil, format) }

// ratedWord is "rated" or "casual".
func (e *Event) ratedWord() string { return e.ratedIn(nil) }

// summaryAs is one line on the event, in English: variant, format (its
// title), time, places or state.
func (e *Event) summaryAs(title string) string { return e.summaryIn(nil, title) }

// winnerText names the winners of an event that is over (the format's
// Winners), in English: "The winner of autumn is ann@example.org." or
// "... share first place in autumn."; "" while no one has won.
func (e *Event) winnerText(winners []int) string { return e.winnerIn(nil, winners) }

// chainText is the tie-break chain in English words.
func chainText(chain []event.TieBreak) string { return chainIn(nil, chain) }

func (e *Event) gameOf(id int64) EventGame {
	for _, g := range e.Games {
		if g.GameID == id {
			return g
		}
	}
	return EventGame{}
}

func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// GameEvent is where a game stands in the event it belongs to: the
// game's mails name the event, round and board, and the spectators who
// follow the game through the event are told to stop it there.
type GameEvent struct {
	Name   string // the event's name, e.g. "autumn"
	Format string // the event format's name (LookupFormat)
	// Season and Division are a league game's (0 or 1 for other formats).
	Season, Division int
	Round            int
	// Board is the board of a round robin's round, or the match of a
	// knockout's round; Leg is the game of that match (1, 2, then 3, 4
	// for a replayed tie).
	Board, Leg int
	// Watchers are the spectators who get the game's mails because they
	// observe the event ("observe EVENT"), not the game alone.
	Watchers []string
}

// How a player left an event (Withdrawal.How).
const (
	ByMail      = "mail"      // "withdraw EVENT confirm"
	ByOrganiser = "organiser" // "referee event withdraw EVENT ADDR"
	BySilence   = "silence"   // half their games lost on time
)

// Withdrawal is one withdrawal as its mails tell it.
type Withdrawal struct {
	Seat int
	Kind int    // WithdrawnLost or WithdrawnAnnulled
	How  string // ByMail, ByOrganiser or BySilence
}
