package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/event"

	"referee/internal/lang"
	"referee/internal/rules"
)

// Issue 42, the events' part: the mails of an event (its start, the
// standings, its end) in each reader's language. A player's language is
// EventPlayer.Language (the substitute's SubLanguage), as the app loads
// it with the event; an observer's is the lobby view's Languages.

// printerOfSeat is the printer of the language of the address now
// playing seat's games.
func (r *Referee) printerOfSeat(e *Event, seat int) *lang.Printer {
	return r.printer(e.Players[seat-1].playingLanguage())
}

// formatTitle is a format's title ("round robin") in p's language; a
// format the catalog does not know keeps its own title.
func formatTitle(p *lang.Printer, title string) string {
	switch title {
	case "round robin":
		return p.Sprintf("round robin")
	case "double round robin":
		return p.Sprintf("double round robin")
	case "knockout":
		return p.Sprintf("knockout")
	case "league":
		return p.Sprintf("league")
	case "ladder":
		return p.Sprintf("ladder")
	case "team match":
		return p.Sprintf("team match")
	}
	return title
}

// formatTitleText is a format's title written later in the reader's
// language (formatTitle).
type formatTitleText string

// In is the title in p's language.
func (t formatTitleText) In(p *lang.Printer) string { return formatTitle(p, string(t)) }

// ratedIn is "rated" or "casual" in p's language.
func (e *Event) ratedIn(p *lang.Printer) string {
	if e.Rated {
		return p.Sprintf("rated")
	}
	return p.Sprintf("casual")
}

// describeIn is describeAs in p's language: the event's game, format (its
// title), time and whether it is rated.
func (e *Event) describeIn(p *lang.Printer, format string) string {
	variant := e.Variant
	if v, err := rules.Lookup(e.Variant); err == nil {
		variant = variantTitle(p, v)
	}
	return fmt.Sprintf("%s, %s, %s, %s", variant, formatTitle(p, format), controlFor(p, e.TimeControl), e.ratedIn(p))
}

// placesIn is "1 place", "3 places" in p's language. A nil printer is
// English without the catalog, which has no plural forms: it writes
// English's own.
func placesIn(p *lang.Printer, n int) string {
	if p == nil {
		return plural(n, "place")
	}
	return p.Sprintf("%d places", n)
}

// summaryIn is summaryAs in p's language (nil: English).
func (e *Event) summaryIn(p *lang.Printer, title string) string {
	s := e.Name + ": " + e.describeIn(p, title)
	switch e.Status {
	case EventOpen:
		if e.Places > 0 {
			s = p.Sprintf("%s; %s left of %d", s, placesIn(p, e.Places-len(e.Players)), e.Places)
			if e.Limits.Any() {
				s = p.Sprintf("%s; entry by mail: %s", s, e.Limits.TextIn(p))
			}
		}
		if !e.Starts.IsZero() {
			s = p.Sprintf("%s; starts %s", s, dateFor(p, e.Starts, time.UTC))
		}
	case EventRunning:
		s = p.Sprintf("%s; running", s)
	case EventFinished:
		s = p.Sprintf("%s; finished", s)
	case EventClosed:
		s = p.Sprintf("%s; closed", s)
	default:
		s += "; " + string(e.Status)
	}
	return s
}

// winnerIn is winnerText in p's language (nil: English).
func (e *Event) winnerIn(p *lang.Printer, winners []int) string {
	var names []string
	team := ""
	for i, s := range winners {
		names = append(names, e.Players[s-1].playing())
		if t := e.Players[s-1].Team; i == 0 || t == team {
			team = t
		} else {
			team = ""
		}
	}
	if team != "" {
		return p.Sprintf("The winner of %s is team %s: %s.", e.Name, team, strings.Join(names, ", "))
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return p.Sprintf("The winner of %s is %s.", e.Name, names[0])
	}
	last := len(names) - 1
	return p.Sprintf("%s and %s share first place in %s.", strings.Join(names[:last], ", "), names[last], e.Name)
}

// criterionIn names a tie-break as the standings and the tie notes
// name it, in p's language.
func criterionIn(p *lang.Printer, c event.TieBreak) string {
	switch c {
	case event.Wins:
		return p.Sprintf("the number of wins")
	case event.SonnebornBerger:
		return p.Sprintf("Sonneborn-Berger")
	}
	return p.Sprintf("the direct encounter")
}

// chainIn is chainText in p's language (nil: English): "the number of
// wins, then Sonneborn-Berger".
func chainIn(p *lang.Printer, chain []event.TieBreak) string {
	var out []string
	for _, c := range chain {
		switch c {
		case event.Wins, event.SonnebornBerger, event.Direct:
			out = append(out, criterionIn(p, c))
		}
	}
	if len(out) == 0 {
		return p.Sprintf("nothing (tied players share the rank)")
	}
	s := out[0]
	for _, c := range out[1:] {
		s = p.Sprintf("%s, then %s", s, c)
	}
	return s
}

// headingsIn are the crosstable's headings in p's language.
func headingsIn(p *lang.Printer) event.Headings {
	return event.Headings{Number: "#", Player: p.Sprintf("Player"), Points: p.Sprintf("Pts"), Wins: p.Sprintf("Wins"),
		SB: p.Sprintf("SB"), Rank: p.Sprintf("Rank"), Withdrawn: p.Sprintf("(w)"), Withdrew: p.Sprintf("(withdrew)")}
}

// crosstableIn is t's text crosstable in p's language.
func crosstableIn(p *lang.Printer, t event.Table) string {
	if p == nil {
		return t.Text()
	}
	return t.TextIn(headingsIn(p))
}

// tieWords writes the tie notes in a printer's language.
type tieWords struct{ p *lang.Printer }

func (w tieWords) Above(a, b, points, first, criterion, va, vb string) string {
	return w.p.Sprintf("%[1]s and %[2]s, both on %[3]s: %[4]s stands above on %[5]s (%[6]s to %[7]s).", a, b, points, first, criterion, va, vb)
}

func (w tieWords) Shared(a, b, points string, rank int) string {
	return w.p.Sprintf("%[1]s and %[2]s, both on %[3]s: the tie-breaks could not separate them, and they share rank %[4]d.", a, b, points, rank)
}

func (w tieWords) Ranked(a, b, points string, ra, rb int) string {
	return w.p.Sprintf("%[1]s and %[2]s, both on %[3]s: ranked %[4]d and %[5]d.", a, b, points, ra, rb)
}

func (w tieWords) Criterion(c event.TieBreak) string { return criterionIn(w.p, c) }

// tieWordsIn are the tie notes' words in p's language.
func tieWordsIn(p *lang.Printer) event.TieWords {
	if p == nil {
		return event.EnglishTieWords()
	}
	return tieWords{p}
}

// StandingsIn is the answer to "standings NAME" in p's language (nil:
// English, StandingsText).
func (e *Event) StandingsIn(p *lang.Printer) string { return e.Rules().Standings(p, e) }

// tieNotesIn are tieNotes in p's language.
func (e *Event) tieNotesIn(p *lang.Printer) []string {
	return e.Rules().TieNotes(e, tieWordsIn(p), func(s int) string { return e.Players[s-1].playing() })
}
