package app

import (
	"referee/internal/referee"
	"referee/internal/render"
)

// withResultNote adds to the mails of an event game's end what it means
// beyond the game, as the event's format says (referee.Event.MatchNote: a
// knockout match's score, and whether it goes on, is tied and goes to more
// games, or is won). The event was loaded with the game's result stored.
// Mails of a game outside any event, or whose format adds nothing, are
// left as they are.
func (ge gameEnd) withResultNote(g *referee.Game, mails []referee.Mail) []referee.Mail {
	if ge.e == nil || g == nil {
		return mails
	}
	note := ge.e.MatchNote(g.ID)
	if note == "" {
		return mails
	}
	out := make([]referee.Mail, len(mails))
	for i, m := range mails {
		if m.Board != nil {
			b := *m.Board
			b.Sections = append(append([]render.Section(nil), b.Sections...), render.Section{Title: "The match", Body: note})
			m.Board = &b
		}
		out[i] = m
	}
	return out
}
