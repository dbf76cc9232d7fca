package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"referee/internal/mail/addr"
	"referee/internal/referee"
	"referee/internal/store"
)

// recentGames is how many finished or aborted games "games" lists beside
// the active ones.
const recentGames = 10

// allowed applies the organiser's policy (Options.Lobby.Players) to a
// mailbox: an organiser's "player remove" always refuses, "player add"
// always allows; otherwise open allows everyone, list the addresses of the
// file, known those who played a game here.
func (a *App) allowed(tx *store.Tx, mb string) (bool, error) {
	kp, found, err := tx.KnownPlayer(mb)
	if err != nil {
		return false, err
	}
	if found {
		return kp.Allowed, nil
	}
	switch a.opts.Lobby.Players {
	case referee.PlayersOpen:
		return true, nil
	case referee.PlayersList:
		for _, p := range a.opts.PlayerList {
			if addr.SameMailbox(p, mb) {
				return true, nil
			}
		}
		return false, nil
	}
	return tx.PlayedGame(mb)
}

// mayObserve applies the organiser's observer policy
// (Options.Lobby.Observers) to a mailbox: none refuses everyone; an
// organiser's "player remove" always refuses, "player add" always allows;
// otherwise open allows everyone, known those who played a game here.
func (a *App) mayObserve(tx *store.Tx, mb string) (bool, error) {
	if a.opts.Lobby.Observers == referee.ObserversNone {
		return false, nil
	}
	kp, found, err := tx.KnownPlayer(mb)
	if err != nil {
		return false, err
	}
	if found {
		return kp.Allowed, nil
	}
	if a.opts.Lobby.Observers == referee.ObserversOpen {
		return true, nil
	}
	return tx.PlayedGame(mb)
}

func (a *App) gameTx(tx *store.Tx, id int64) (*referee.Game, error) {
	sg, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	return a.loadTx(tx, sg)
}

// expireChallenges closes the invitations whose time ran out and tells
// their challengers; each is its own transaction.
func (a *App) expireChallenges(ctx context.Context) (int, error) {
	now := a.opts.Now().UTC().Truncate(time.Second)
	var due []store.Challenge
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		var err error
		due, err = tx.DueChallenges(now)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("listing expired challenges: %w", err)
	}
	n := 0
	for i := range due {
		ch := fromStoreChallenge(&due[i])
		err := a.st.Update(ctx, func(tx *store.Tx) error {
			if err := tx.CloseChallenge(ch.ID, string(referee.ChallengeExpired), "", 0, now); errors.Is(err, store.ErrNotFound) {
				return nil // accepted or withdrawn meanwhile
			} else if err != nil {
				return err
			}
			code, err := tx.Language(ch.Challenger) // the notice is in the challenger's language
			if err != nil {
				return err
			}
			if err := a.queue(tx, 0, a.ref.ExpireChallenge(ch, code, now)); err != nil {
				return err
			}
			return tx.Audit(nil, "challenge", fmt.Sprintf("challenge %d: expired", ch.ID))
		})
		if err != nil {
			return n, fmt.Errorf("expiring challenge %d: %w", ch.ID, err)
		}
		n++
	}
	return n, nil
}

func fromStoreChallenge(c *store.Challenge) referee.Challenge {
	out := referee.Challenge{ID: c.ID, Challenger: c.Challenger, Opponent: c.Opponent, Variant: c.Variant, TimeControl: c.TimeControl,
		Color: c.Color, Secret: c.Secret, Status: referee.ChallengeStatus(c.Status), Created: c.Created, Expires: c.Expires, ClosedBy: c.ClosedBy, Seed: c.Seed,
		Private: c.Private, Rated: c.Rated}
	if c.Closed != nil {
		out.Closed = *c.Closed
	}
	if c.GameID != nil {
		out.GameID = *c.GameID
	}
	return out
}

func toStoreChallenge(c *referee.Challenge) store.Challenge {
	return store.Challenge{ID: c.ID, Challenger: c.Challenger, Opponent: c.Opponent, Variant: c.Variant, TimeControl: c.TimeControl,
		Color: c.Color, Secret: c.Secret, Status: string(c.Status), Created: c.Created, Expires: c.Expires, Seed: c.Seed, Private: c.Private,
		Rated: c.Rated}
}

// StoppedList lists the addresses that answered "stop" to an invitation
// and get none (until they send "start").
func (a *App) StoppedList(ctx context.Context) ([]store.Stopped, error) {
	var out []store.Stopped
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		var err error
		out, err = tx.StoppedList()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing the stop list: %w", err)
	}
	return out, nil
}

// SetPlayer adds (allowed) or removes a known player: the organiser's word
// beats the --players policy for that address.
func (a *App) SetPlayer(ctx context.Context, address string, allowed bool) (string, error) {
	w, err := cleanAddress("ADDRESS", address)
	if err != nil {
		return "", err
	}
	mb := addr.Mailbox(w)
	err = a.st.Update(ctx, func(tx *store.Tx) error {
		if err := tx.SetKnownPlayer(mb, allowed, a.opts.Now().UTC()); err != nil {
			return err
		}
		what := "removed"
		if allowed {
			what = "added"
		}
		return tx.Audit(nil, "player", mb+" "+what)
	})
	if err != nil {
		return "", fmt.Errorf("recording player %s: %w", mb, err)
	}
	return mb, nil
}

// KnownPlayers lists the organiser's entries.
func (a *App) KnownPlayers(ctx context.Context) ([]store.KnownPlayer, error) {
	var out []store.KnownPlayer
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		var err error
		out, err = tx.KnownPlayers()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing players: %w", err)
	}
	return out, nil
}

// ReadPlayerList reads a --players file: one address a line; blank lines
// and lines starting with # are skipped.
func ReadPlayerList(text, name string) ([]string, error) {
	var out []string
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, err := addr.Player(line)
		if err != nil {
			return nil, fmt.Errorf("%w: %s line %d: %v; write one address a line", ErrInput, name, n+1, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// refreshDeadlines recomputes the deadline column of the active games of
// the player at address, after their time zone changed: the days off of
// a game ("3d off sat,sun") are the player's own days in their zone.
func (a *App) refreshDeadlines(tx *store.Tx, address string) error {
	ids, err := tx.GamesOf(addr.Mailbox(address), 0)
	if err != nil {
		return err
	}
	for _, id := range ids {
		g, err := a.gameTx(tx, id)
		if err != nil {
			return err
		}
		if g.State.Clock == nil || len(g.State.Clock.DaysOff) == 0 {
			continue
		}
		at, ok, err := g.NextCheck()
		if err != nil {
			at, ok = time.Time{}, true // looked at at once: the tick reports it
		}
		var d *time.Time
		if ok {
			d = &at
		}
		if err := tx.SetDeadline(id, d); err != nil {
			return err
		}
	}
	return nil
}
