package referee

import (
	"referee/internal/event"
	"referee/internal/lang"
)

// A Format is an event format (issue 40), a value as a variant is
// (rules.Variant): how an event's games are paired and when more are
// due, when it is over and who won, what a withdrawal and silence on the
// clock do to a player, and how its standings and mails read. Each
// format is one file (format_rr.go, format_drr.go, format_ko.go) and one
// line of the registry (formats.go); the app persists what a format asks for,
// and the app, the web pages and the CLI ask the format, never compare
// its name.
type Format interface {
	// Name is the format's word in commands and in the store: "rr".
	Name() string
	// Title names it in words: "round robin".
	Title() string
	// Fits says whether n entrants can play it; SizeText says what it
	// takes, for the refusals: "a round robin takes 3 to 16 players".
	Fits(n int) bool
	SizeText() string
	// Start is the first games of e, by seat (GameID 0): a round robin's
	// every game, a knockout's first round.
	Start(e *Event) ([]EventGame, error)
	// Next is what e's state calls for now that a game ended or a player
	// withdrew: games to start (a knockout's next round, a tied match's
	// further games) and lines for the audit log; the zero Step when
	// nothing is due.
	Next(e *Event) (Step, error)
	// Over says whether a started event has ended; Winners are then the
	// seats that won it (several share first place).
	Over(e *Event) bool
	Winners(e *Event) []int
	// WithdrawalKind is the rule for a player of seat who withdraws now
	// (WithdrawnLost or WithdrawnAnnulled); WithdrawalRule says it in a
	// sentence about them ("You" to them, "They" to another), in p's
	// language (nil: English).
	WithdrawalKind(e *Event, seat int) int
	WithdrawalRule(p *lang.Printer, e *Event, w Withdrawal, you bool) string
	// Silent says whether seat's losses on time make them withdrawn.
	Silent(e *Event, seat int) bool
	// Standings is the text of "standings NAME" in p's language (nil:
	// English), and StandingsHTML the same as HTML (English: the web
	// pages' and the mails' rich markup; another language, where the
	// format has no markup in it, the text in a <pre>); TieNotes say how the ties on points were
	// broken (none where there are no points to tie) in w's words, name
	// giving each seat's name.
	Standings(p *lang.Printer, e *Event) string
	StandingsHTML(p *lang.Printer, e *Event) string
	TieNotes(e *Event, w event.TieWords, name func(seat int) string) []string
	// Layout is how a page shows the standings.
	Layout() Layout
	// TakesEntries says whether players may join while the event runs
	// (a league's next season); before the start every format does.
	TakesEntries() bool
	// Announce is the head and subject of the mail listing seat's new
	// games (all in one round, first the first of them), and a closing
	// note, in p's language (the reader's); Where names one game of that
	// list: "Round 1, board 2".
	Announce(p *lang.Printer, e *Event, seat int, first EventGame, games int) Announcement
	Where(p *lang.Printer, g EventGame) string
	// Place is a game's place in words ("autumn, round 2, board 1", in
	// the reader's language) and PGNRound its PGN Round tag.
	Place(ge *GameEvent) lang.Text
	PGNRound(ge *GameEvent) string
	// ResultNote is what the end of game id means beyond the game (a
	// knockout's match score), for the mails of that end, in p's
	// language (nil: English); "" for none.
	ResultNote(p *lang.Printer, e *Event, id int64) string
	// DrawsLots says whether e may draw lots (then its mails announce the
	// lots' commitment and reveal their seed).
	DrawsLots(e *Event) bool
}

// Layout is how an event's page shows its standings.
type Layout int

// Layouts.
const (
	LayoutTable     Layout = iota // a crosstable
	LayoutBracket                 // rounds of two-player matches
	LayoutFormat                  // the format's own standings (StandingsHTML): a team event's matches, a ladder
	LayoutDivisions               // crosstables of divisions (Event.Divisions): a league's seasons
)

// Step is what an event's state calls for (Format.Next).
type Step struct {
	Games []EventGame // to start, by seat (GameID 0)
	Why   string      // the audit line of the games started
	Audit []string    // what was decided, for the audit log
	// Decided are a ladder's challenges whose last game has just ended,
	// for the app to record as decided now (their time orders the
	// ladder).
	Decided []int64
}

// Announcement is the head of a mail listing a player's new games of an
// event, its subject, and a note after the games ("" for none).
type Announcement struct {
	Subject, Head, Tail string
}
