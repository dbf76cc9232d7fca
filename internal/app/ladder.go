package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"referee/internal/referee"
	"referee/internal/store"
)

// Ladders (issue 41): the settings at creation, the record loaded with the
// event, the applier of a "ladder" command's change, and the minute's
// tick: challenges not accepted in time, players idle too long.

// ladderSettings checks a ladder's settings and writes them for the
// store; no other format takes them.
func ladderSettings(f referee.Format, s referee.LadderSettings) (string, error) {
	if f.Name() != referee.FormatLadder {
		if s != (referee.LadderSettings{}) {
			return "", fmt.Errorf("%w: --reach, --games, --max-games, --accept-days and --idle-weeks are a ladder's settings, "+
				"and this event is a %s: drop them, or use --format ladder", ErrInput, f.Title())
		}
		return "", nil
	}
	s = s.WithDefaults()
	if err := s.Check(); err != nil {
		return "", fmt.Errorf("%w: %v", ErrInput, err)
	}
	b, err := json.Marshal(s)
	return string(b), err
}

// loadLadder reads a ladder's settings, challenges and drops.
func loadLadder(tx *store.Tx, se *store.Event) (*referee.Ladder, error) {
	l := &referee.Ladder{}
	if se.Settings != "" {
		if err := json.Unmarshal([]byte(se.Settings), &l.Settings); err != nil {
			return nil, fmt.Errorf("event %s: its stored ladder settings: %w", se.Name, err)
		}
	}
	l.Settings = l.Settings.WithDefaults()
	cs, err := tx.LadderChallenges(se.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		l.Challenges = append(l.Challenges, referee.LadderChallenge{ID: c.ID, Challenger: c.Challenger, Challenged: c.Challenged,
			Created: c.Created, Accepted: c.Accepted, Decided: c.Decided, Expired: c.Expired})
	}
	ds, err := tx.LadderDrops(se.ID)
	if err != nil {
		return nil, err
	}
	for _, d := range ds {
		l.Drops = append(l.Drops, referee.LadderDrop{Seat: d.Seat, At: d.At})
	}
	return l, nil
}

// applyLadder stores a challenge, or accepts one and starts its games:
// one, or two with colours swapped, the challenger White first; the games
// are the event's games of round ID.
func (a *App) applyLadder(c *applying) error {
	ch := c.lc.Ladder
	se, e, err := a.eventByName(c.tx, ch.Event)
	if err != nil {
		return err
	}
	if ch.Accept == 0 {
		lc := &store.LadderChallenge{Challenger: ch.Challenger, Challenged: ch.Challenged, Created: c.now}
		if err := c.tx.AddLadderChallenge(se.ID, lc); err != nil {
			return err
		}
		return c.tx.Audit(nil, "event", fmt.Sprintf("ladder %s: challenge %d, %s challenges %s", se.Name, lc.ID,
			e.Players[ch.Challenger-1].Address, e.Players[ch.Challenged-1].Address))
	}
	if err := c.tx.AcceptLadderChallenge(ch.Accept, c.now); err != nil {
		return err
	}
	var lc referee.LadderChallenge
	for i := range e.Ladder.Challenges {
		if x := &e.Ladder.Challenges[i]; x.ID == ch.Accept {
			at := c.now
			x.Accepted, lc = &at, *x
		}
	}
	games := []referee.EventGame{{Round: int(lc.ID), Board: 1, Leg: 1, White: lc.Challenger, Black: lc.Challenged}}
	if e.Ladder.Settings.Games == 2 {
		games = append(games, referee.EventGame{Round: int(lc.ID), Board: 1, Leg: 2, White: lc.Challenged, Black: lc.Challenger})
	}
	// The answer to the acceptance goes first, then the games' mails.
	if err := a.queue(c.tx, 0, c.out.Mails); err != nil {
		return err
	}
	c.out.Mails = nil
	return a.addEventGames(c.tx, se, e, games, fmt.Sprintf("ladder %s: challenge %d accepted", se.Name, lc.ID))
}

// LadderTick does what time does to the running ladders: a challenge not
// accepted in time is lost by the challenged (both are told), and a player
// without a ladder game for the ladder's idle weeks drops to the bottom
// (and is told). It returns how many things changed.
func (a *App) LadderTick(ctx context.Context) (int, error) {
	now := a.opts.Now().UTC().Truncate(time.Second)
	changed := 0
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		ses, err := tx.Events(string(referee.EventRunning))
		if err != nil {
			return err
		}
		for i := range ses {
			se := &ses[i]
			if se.Format != referee.FormatLadder {
				continue
			}
			e, err := a.eventTx(tx, se)
			if err != nil {
				return err
			}
			var mails []referee.Mail
			for _, c := range e.Ladder.Challenges {
				if !c.Pending() || now.Before(c.Deadline(e.Ladder.Settings)) {
					continue
				}
				if err := tx.ExpireLadderChallenge(c.ID, now); err != nil {
					return err
				}
				mails = append(mails, a.ref.LadderExpiredMails(e, c, now)...)
				if err := tx.Audit(nil, "event", fmt.Sprintf("ladder %s: challenge %d not accepted in time: %s takes the place of %s",
					se.Name, c.ID, e.Players[c.Challenger-1].Address, e.Players[c.Challenged-1].Address)); err != nil {
					return err
				}
				changed++
			}
			if weeks := e.Ladder.Settings.IdleWeeks; weeks > 0 {
				if e, err = a.eventTx(tx, se); err != nil { // with the expiries
					return err
				}
				for _, seat := range e.LadderOrder() {
					if e.LadderBusy(seat) > 0 || now.Sub(e.LadderLastPlayed(seat)) < time.Duration(weeks)*7*referee.Day {
						continue
					}
					if err := tx.AddLadderDrop(se.ID, store.LadderDrop{Seat: seat, At: now}); err != nil {
						return err
					}
					mails = append(mails, a.ref.LadderDropMail(e, seat, now))
					if err := tx.Audit(nil, "event", fmt.Sprintf("ladder %s: %s idle %d weeks, dropped to the bottom", se.Name,
						e.Players[seat-1].Address, weeks)); err != nil {
						return err
					}
					changed++
				}
			}
			if err := a.queue(tx, 0, mails); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return changed, fmt.Errorf("the ladders' tick: %w", err)
	}
	return changed, nil
}
