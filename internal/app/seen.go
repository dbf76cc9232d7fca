package app

import (
	"referee/internal/referee"
	"referee/internal/store"
)

// seen says whether mailbox is known here beyond a mail's From (issue 38),
// for a join by mail: it played a game, the organiser named it (the
// player list, whether allowed or removed, or e's entry list), or it
// holds or held a place in an event (an organiser's --players, a
// substitute, or a join it confirmed). Any other address proves itself
// by replying to the referee before its entry counts (referee/proof.go).
func (a *App) seen(tx *store.Tx, mailbox string, lb *referee.Lobby) (bool, error) {
	if lb.Event != nil && lb.Event.Entry == referee.PlayersList && lb.EventAllowed {
		return true, nil // on the event's list (eventView)
	}
	if _, found, err := tx.KnownPlayer(mailbox); err != nil || found {
		return found, err
	}
	if played, err := tx.PlayedGame(mailbox); err != nil || played {
		return played, err
	}
	return tx.EverEntered(mailbox)
}
