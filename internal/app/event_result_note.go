package app

import (
	"referee/internal/referee"
	"referee/internal/render"
)

// withResultNote adds to the mails of an event game's end what it means
// beyond the game, as the event's format says (referee.Event.MatchNoteIn: a
// knockout match's score, and whether it goes on, is tied and goes to more
// games, or is won). The event was loaded with the game's result stored.
// Mails of a game outside any event, or whose format adds nothing, are
// left as they are.
func (ge gameEnd) withResultNote(g *referee.Game, mails []referee.Mail) []referee.Mail {
	if ge.e == nil || g == nil || ge.e.MatchNote(g.ID) == "" {
		return mails
	}
	out := make([]referee.Mail, len(mails))
	for i, m := range mails {
		if m.Board != nil {
			// Each board mail in its reader's language (issue 42): the
			// printer the referee wrote the rest of it with.
			b := *m.Board
			p := b.Lang
			b.Sections = append(append([]render.Section(nil), b.Sections...),
				render.Section{Title: p.Sprintf("The match"), Body: ge.e.MatchNoteIn(p, g.ID)})
			m.Board = &b
		}
		out[i] = m
	}
	return out
}
