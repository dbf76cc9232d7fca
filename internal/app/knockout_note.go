package app

import (
	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/store"
)

// withMatchNote adds to the mails of an event game's end what it means
// beyond the game, as the event's format says (referee.Event.MatchNote: a
// knockout match's score, and whether it goes on, is tied and goes to more
// games, or is won). The game is stored with its result already. Mails of
// a game outside any event, or whose format adds nothing, are left as
// they are.
func (a *App) withMatchNote(tx *store.Tx, g *referee.Game, mails []referee.Mail) ([]referee.Mail, error) {
	if g == nil || g.Status == referee.StatusActive {
		return mails, nil
	}
	eventID, _, found, err := tx.EventOfGame(g.ID)
	if err != nil || !found {
		return mails, err
	}
	se, err := tx.EventByID(eventID)
	if err != nil {
		return mails, err
	}
	e, err := a.eventTx(tx, se)
	if err != nil {
		return mails, err
	}
	note := e.MatchNote(g.ID)
	if note == "" {
		return mails, nil
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
	return out, nil
}
