package app

import (
	"fmt"

	"referee/internal/mail/addr"
	"referee/internal/referee"
	"referee/internal/store"
)

// Spectators of whole events ("observe EVENT", issue 31): the store keeps
// them per event, and a game's spectators are its own and its event's
// (store.Tx.Watchers), so the games that start later are followed too.

// eventObserved reports whether the mailbox mb observes the event name.
func (a *App) eventObserved(tx *store.Tx, name, mb string) (bool, error) {
	se, err := tx.EventByName(name)
	if err != nil {
		return false, fmt.Errorf("event %s: %w", name, err)
	}
	ws, err := tx.EventWatchers(se.ID)
	if err != nil {
		return false, err
	}
	for _, w := range ws {
		if addr.SameMailbox(w, mb) {
			return true, nil
		}
	}
	return false, nil
}

// applyEventWatch stores an "observe EVENT" or "unobserve EVENT".
func (a *App) applyEventWatch(tx *store.Tx, w *referee.EventWatchChange, detail string) error {
	se, err := tx.EventByName(w.Event)
	if err != nil {
		return fmt.Errorf("event %s: recording the spectator %s: %w", w.Event, w.Address, err)
	}
	if w.Stop {
		ws, err := tx.EventWatchers(se.ID)
		if err != nil {
			return err
		}
		for _, x := range ws {
			if addr.SameMailbox(x, w.Address) {
				if _, err := tx.UnwatchEvent(se.ID, x); err != nil {
					return err
				}
			}
		}
	} else if err := tx.WatchEvent(se.ID, w.Address); err != nil {
		return err
	}
	return tx.Audit(nil, "observe", detail)
}
