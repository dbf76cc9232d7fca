package referee

import "referee/internal/lang"

// What an event's format decides, asked of the format (Event.Rules): the
// core's callers and the app read an event through these, and never
// compare the format's name.

// Over says whether a started event has ended, as its format counts it:
// every game of a round robin, the final of a knockout.
func (e *Event) Over() bool { return e.Rules().Over(e) }

// WithdrawalKind is the format's rule for a player of seat who withdraws
// now: WithdrawnLost (their unfinished games are lost) or
// WithdrawnAnnulled (all their games are annulled).
func (e *Event) WithdrawalKind(seat int) int { return e.Rules().WithdrawalKind(e, seat) }

// Silent says whether seat's losses on time make them withdrawn under
// the format's rule (in a round robin: at least half their games).
func (e *Event) Silent(seat int) bool { return e.Rules().Silent(e, seat) }

// StandingsText is the answer to "standings NAME": a round robin's
// crosstable with its legend, a knockout's rounds; once the event is over,
// the winner.
func (e *Event) StandingsText() string { return e.StandingsIn(nil) }

// tieNotes say how the ties on points were broken (the format's
// TieNotes), with the players' names.
func (e *Event) tieNotes() []string { return e.tieNotesIn(nil) }

// StandingsHTML is StandingsText as HTML, a crosstable as a table.
func (e *Event) StandingsHTML() string { return e.StandingsHTMLIn(nil) }

// StandingsHTMLIn is StandingsHTML for a reader of p, the HTML part of a
// standings or final mail beside StandingsIn.
func (e *Event) StandingsHTMLIn(p *lang.Printer) string { return e.Rules().StandingsHTML(p, e) }

// standingsPre is the standings in p's language as preformatted HTML:
// the HTML of a format whose markup has no words in p's language.
func standingsPre(p *lang.Printer, f Format, e *Event) string {
	return "<pre>" + escapeHTML(f.Standings(p, e)) + "</pre>\n"
}

// DrawsLots reports whether the event may draw a lot: only then do its
// mails announce the lots' commitment and reveal their seed.
func (e *Event) DrawsLots() bool { return e.Rules().DrawsLots(e) }

// MatchNote is what the end of game id means beyond the game, for the
// mails of that end: a knockout match's score and whether it goes on, is
// tied or is won; "" when the format has nothing to add.
func (e *Event) MatchNote(id int64) string { return e.MatchNoteIn(nil, id) }

// MatchNoteIn is MatchNote in p's language (nil: English), for the mails
// of that end, each in its reader's language.
func (e *Event) MatchNoteIn(p *lang.Printer, id int64) string { return e.Rules().ResultNote(p, e, id) }

// withdrawalRule is the rule applied, in a sentence about the player.
func (e *Event) withdrawalRule(p *lang.Printer, w Withdrawal, you bool) string {
	return e.Rules().WithdrawalRule(p, e, w, you)
}

// summary is one line on the event: variant, format, time, places or state.
func (e *Event) summary() string { return e.summaryAs(e.Rules().Title()) }

// Place is the game's place in its event in words: "autumn, round 2,
// board 1", or in a knockout "cup, round 2, match 1, game 2".
func (e *GameEvent) Place() string { return e.rules().Place(e).In(nil) }

// PlaceText is Place in the reader's language.
func (e *GameEvent) PlaceText() lang.Text { return e.rules().Place(e) }

// round is the PGN Round tag (standard §8.1.1.4), as the format numbers
// its games.
func (e *GameEvent) round() string { return e.rules().PGNRound(e) }

// rules is the format of the game's event (Event.Rules).
func (e *GameEvent) rules() Format { return (&Event{Format: e.Format}).Rules() }

// TakesEntries says whether players may join e by mail now: an open event
// with places, or a running one whose format takes newcomers (a league,
// for its next season).
func (e *Event) TakesEntries() bool {
	return (e.Status == EventOpen && (e.Places > 0 || e.hasTeams())) || (e.Status == EventRunning && e.Rules().TakesEntries())
}

// hasTeams says whether e's players play for named teams: an open team
// event takes requests to join a team ("join NAME TEAM").
func (e *Event) hasTeams() bool {
	return len(e.Players) > 0 && e.Players[0].Team != ""
}
