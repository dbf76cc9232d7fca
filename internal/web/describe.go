package web

import (
	"fmt"
	"strings"

	"referee/internal/referee"
	"referee/internal/rules"
)

// The pages' meta descriptions: one or two sentences a search engine can
// show under the title, saying what the page holds, without any address
// (the names are the pages' public ones).

// maxDescription is about what search engines show of a description.
const maxDescription = 160

// clip shortens s to maxDescription characters at a word, with an ellipsis.
func clip(s string) string {
	if len(s) <= maxDescription {
		return s
	}
	cut := strings.LastIndexByte(s[:maxDescription-1], ' ')
	if cut <= 0 {
		cut = maxDescription - 1
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// indexDescription describes a page of the list of games (all, or one
// variant's or state's). It counts nothing: a list page reads only the
// games it shows.
func (s *Site) indexDescription(l listSpec) string {
	if s.opts.Public == PublicNone {
		return clip(s.opts.Title + ": correspondence games refereed by mail. The organiser shows no games here.")
	}
	what := "Games"
	switch l.state {
	case referee.StatusActive:
		what = "Running games"
	case referee.StatusFinished:
		what = "Finished games"
	}
	of := "correspondence chess and its variants"
	if v, err := rules.Lookup(l.variant); l.variant != "" && err == nil {
		of = v.Title()
	}
	return clip(fmt.Sprintf("%s: %s of %s, refereed by mail, move by move with the board and the PGN record.",
		s.opts.Title, what, of))
}

// playerDescription describes a player's page: their public name and
// their public games.
func (s *Site) playerDescription(name string, games int) string {
	return clip(fmt.Sprintf("%s at %s: %s, ratings and results.", name, s.opts.Title, plural(games, "game")))
}

// gameDescription describes a game's page at a ply.
func (s *Site) gameDescription(g *referee.Game, ply int) string {
	d := fmt.Sprintf("%s game #%d, %s v %s", g.Variant.Title(), g.ID, g.Players[0].Name, g.Players[1].Name)
	if g.Status == referee.StatusFinished {
		d += ", " + resultText(g)
	} else {
		d += ", running"
	}
	d += fmt.Sprintf(", %s.", plural(g.Ply(), "move"))
	switch {
	case ply == 0 && g.Ply() > 0:
		d += " The start position."
	case ply < g.Ply():
		d += fmt.Sprintf(" The position after %s.", plural(ply, "move"))
	}
	return clip(d + " Board, moves and PGN record.")
}

// eventDescription describes an event's page.
func (s *Site) eventDescription(e *referee.Event) string {
	what := e.Rules().Title()
	variant := e.Variant
	if v, err := rules.Lookup(e.Variant); err == nil {
		variant = v.Title()
	}
	return clip(fmt.Sprintf("Event %s at %s: a %s of %s for %s, %s. Crosstable and games.",
		e.Name, s.opts.Title, what, variant, plural(len(e.Players), "player"), e.Status))
}
