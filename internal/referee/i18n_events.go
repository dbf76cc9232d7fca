package referee

import (
	"fmt"

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
