package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/addr"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/store"
)

// recentGames is how many finished or aborted games "games" lists beside
// the active ones.
const recentGames = 10

// lobbyView loads what the core may need to answer m outside a game, or a
// lobby command in a reply to a game mail (needs, from the command table):
// the sender's standing with the organiser, their games, the challenge the
// mail's invitation names, the counts the flood limits need.
func (a *App) lobbyView(tx *store.Tx, m *mailreader.Mail, needs referee.Needs, now time.Time) (*referee.Lobby, error) {
	mb := addr.Mailbox(m.From)
	lb := &referee.Lobby{Active: map[string]int{}}
	var err error
	if lb.Allowed, err = a.allowed(tx, mb); err != nil {
		return nil, err
	}
	if lb.Active[mb], err = tx.ActiveGamesOf(mb); err != nil {
		return nil, err
	}
	if lb.MayObserve, err = a.mayObserve(tx, mb); err != nil {
		return nil, err
	}
	if needs.Named != 0 || needs.Event != "" {
		if lb.Observing, err = tx.Observing(m.From); err != nil {
			return nil, err
		}
	}
	if needs.Named != 0 {
		if lb.NamedVia, err = tx.WatchedVia(needs.Named, m.From); err != nil {
			return nil, err
		}
	}
	if lb.RecentAnswers, err = tx.LobbyAnswers(m.From, now.Add(-time.Hour)); err != nil {
		return nil, err
	}
	if lb.SenderStoppedSince, lb.SenderStopped, err = tx.StoppedSince(mb); err != nil {
		return nil, err
	}
	if needs.Games {
		ids, err := tx.GamesOf(mb, recentGames)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			g, err := a.gameTx(tx, id)
			if err != nil {
				return nil, err
			}
			lb.Games = append(lb.Games, g)
		}
	}
	if needs.Named != 0 {
		g, err := a.gameTx(tx, needs.Named)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			lb.Named = g
		}
	}
	if needs.Open {
		open, err := tx.OpenChallenges(now, 50)
		if err != nil {
			return nil, err
		}
		for i := range open {
			lb.Open = append(lb.Open, fromStoreChallenge(&open[i]))
		}
	}
	if needs.Challenge {
		sent, err := tx.ChallengesBy(mb, now.Add(-referee.Day))
		if err != nil {
			return nil, err
		}
		for i := range sent {
			lb.Sent = append(lb.Sent, fromStoreChallenge(&sent[i]))
		}
		if needs.Opponent != "" {
			omb := addr.Mailbox(needs.Opponent)
			if lb.Active[omb], err = tx.ActiveGamesOf(omb); err != nil {
				return nil, err
			}
			kp, found, err := tx.KnownPlayer(omb)
			if err != nil {
				return nil, err
			}
			lb.OpponentBarred = found && !kp.Allowed
			if lb.OpponentStopped, err = tx.IsStopped(omb); err != nil {
				return nil, err
			}
			if lb.OpponentZone, err = tx.TimeZone(omb); err != nil {
				return nil, err
			}
			if lb.OpponentInvites, lb.OpponentInvitesSince, err = tx.InvitationsTo(omb, now.Add(-referee.Day)); err != nil {
				return nil, err
			}
		}
		if lb.NextChallengeID, err = tx.NextChallengeID(); err != nil {
			return nil, err
		}
		lb.NewSecret = newSecret()
		seed, err := dice.NewSeed()
		if err != nil {
			return nil, fmt.Errorf("drawing the colour seed of a challenge: %w", err)
		}
		lb.NewSeed = seed.Hex()
	}
	if needs.RatingsOf != "" {
		if lb.Ratings, err = tx.RatingsOf(needs.RatingsOf); err != nil {
			return nil, err
		}
	}
	if lb.NameOwner, err = tx.NameOwner(needs.Name); err != nil {
		return nil, err
	}
	if needs.Top != "" {
		if lb.Top, err = tx.Ratings(needs.Top); err != nil {
			return nil, err
		}
	}
	if err := a.eventView(tx, lb, mb, needs); err != nil { // event.go
		return nil, err
	}
	if needs.Seen {
		if lb.Seen, err = a.seen(tx, mb, lb); err != nil { // seen.go
			return nil, err
		}
	}
	if lb.Event != nil {
		if lb.EventObserved, err = a.eventObserved(tx, lb.Event.Name, mb); err != nil {
			return nil, err
		}
	}
	if m.Invite != nil {
		ch, err := tx.Challenge(m.Invite.ChallengeID)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			c := fromStoreChallenge(ch)
			lb.Challenge = &c
			cmb := addr.Mailbox(c.Challenger)
			if lb.Active[cmb], err = tx.ActiveGamesOf(cmb); err != nil {
				return nil, err
			}
		}
	}
	return lb, nil
}

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

// applyLobby stores what a lobby command changed, in the transaction of
// the inbound mail; it returns the id of a game an acceptance started (0
// for none) and adds the mails that follow from it to out.
func (a *App) applyLobby(tx *store.Tx, out *referee.Outcome, now time.Time) (int64, error) {
	lc := out.Lobby
	if ch := lc.NewChallenge; ch != nil {
		if err := tx.CreateChallenge(toStoreChallenge(ch)); err != nil {
			return 0, err
		}
		if err := tx.Audit(nil, "challenge", out.Detail); err != nil {
			return 0, err
		}
	}
	if v := lc.Vacation; v != nil {
		if err := tx.AddVacationDays(v.Address, v.Year, v.Days); err != nil {
			return 0, err
		}
	}
	if z := lc.TimeZone; z != nil {
		if err := tx.SetTimeZone(z.Address, z.Zone, now); err != nil {
			return 0, err
		}
		if err := a.refreshDeadlines(tx, z.Address); err != nil {
			return 0, err
		}
	}
	if n := lc.Name; n != nil {
		if err := tx.SetDisplayName(n.Address, n.Name, n.Key, now); err != nil {
			return 0, err
		}
	}
	if d := lc.Digest; d != nil {
		if err := tx.SetDigest(d.Address, d.At, now); err != nil {
			return 0, err
		}
	}
	if b := lc.Book; b != nil {
		if _, err := tx.BookVacation(b.Address, b.Start, b.Days, now); err != nil {
			return 0, err
		}
		if err := tx.Audit(nil, "vacation-booked", out.Detail); err != nil {
			return 0, err
		}
	}
	if b := lc.Cancel; b != nil {
		if err := tx.CancelBooking(b.Address, b.ID, now); err != nil {
			return 0, err
		}
		if err := tx.Audit(nil, "vacation-cancelled", out.Detail); err != nil {
			return 0, err
		}
	}
	for _, g := range lc.Games {
		if err := tx.UpdateGame(toStoreGame(g)); err != nil {
			return 0, err
		}
		if err := tx.Audit(&g.ID, "vacation", out.Detail); err != nil {
			return 0, err
		}
	}
	if st := lc.Stop; st != nil {
		if err := tx.SetStopped(st.Address, st.Stop, st.ChallengeID, now); err != nil {
			return 0, err
		}
		if err := tx.Audit(nil, "stop", out.Detail); err != nil {
			return 0, err
		}
	}
	if lc.Event != nil {
		if err := a.applyEvent(tx, lc.Event, &out.Mails); err != nil { // event.go
			return 0, err
		}
	}
	var gameID int64
	if st := lc.Start; st != nil {
		ch := st.Challenge
		g, err := a.prepareGame(ch.Variant, st.White, st.Black, nil, ch.TimeControl)
		if err != nil {
			return 0, fmt.Errorf("starting the game of challenge %d: %w", ch.ID, err)
		}
		g.State.Private = ch.Private
		g.Rated = ch.Rated
		opening, err := a.createGame(tx, g)
		if err != nil {
			return 0, fmt.Errorf("starting the game of challenge %d: %w", ch.ID, err)
		}
		gameID = g.ID
		// The notice says "the referee's first mail for the game follows":
		// it is queued before the game's opening mails, as one of them.
		out.Mails = append(out.Mails, a.ref.ChallengeStarted(ch, g, now, opening)...)
		out.Detail += fmt.Sprintf(": game #%d", g.ID)
	}
	if w := lc.Watch; w != nil {
		var err error
		if w.Stop {
			_, err = tx.Unwatch(w.GameID, w.Address)
		} else {
			err = tx.Watch(w.GameID, w.Address)
		}
		if err != nil {
			return 0, fmt.Errorf("game #%d: recording the spectator %s: %w", w.GameID, w.Address, err)
		}
		if err := tx.Audit(&w.GameID, "observe", out.Detail); err != nil {
			return 0, err
		}
	}
	if w := lc.WatchEvent; w != nil {
		if err := a.applyEventWatch(tx, w, out.Detail); err != nil {
			return 0, err
		}
	}
	if c := lc.Close; c != nil {
		if err := tx.CloseChallenge(c.ID, c.Status, c.By, gameID, now); err != nil {
			return 0, err
		}
		if err := tx.Audit(nil, "challenge", out.Detail); err != nil {
			return 0, err
		}
	}
	return gameID, nil
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
			if err := tx.CloseChallenge(ch.ID, referee.ChallengeExpired, "", 0, now); errors.Is(err, store.ErrNotFound) {
				return nil // accepted or withdrawn meanwhile
			} else if err != nil {
				return err
			}
			if err := a.queue(tx, 0, a.ref.ExpireChallenge(ch, now)); err != nil {
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
		Color: c.Color, Secret: c.Secret, Status: c.Status, Created: c.Created, Expires: c.Expires, ClosedBy: c.ClosedBy, Seed: c.Seed,
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
		Color: c.Color, Secret: c.Secret, Status: c.Status, Created: c.Created, Expires: c.Expires, Seed: c.Seed, Private: c.Private,
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
