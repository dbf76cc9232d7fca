package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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
	if lb.RecentAnswers, err = tx.LobbyAnswers(m.From, now.Add(-time.Hour)); err != nil {
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
		}
		if lb.NextChallengeID, err = tx.NextChallengeID(); err != nil {
			return nil, err
		}
		lb.NewSecret = newSecret()
	}
	if err := a.eventView(tx, lb, mb, needs); err != nil { // event.go
		return nil, err
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
	for _, g := range lc.Games {
		if err := tx.UpdateGame(toStoreGame(g)); err != nil {
			return 0, err
		}
		if err := tx.Audit(&g.ID, "vacation", out.Detail); err != nil {
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
		if err := a.startGame(tx, g); err != nil {
			return 0, fmt.Errorf("starting the game of challenge %d: %w", ch.ID, err)
		}
		gameID = g.ID
		out.Mails = append(out.Mails, a.ref.ChallengeStarted(ch, g, now)...)
		out.Detail += fmt.Sprintf(": game #%d", g.ID)
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
		Color: c.Color, Secret: c.Secret, Status: c.Status, Created: c.Created, Expires: c.Expires, ClosedBy: c.ClosedBy}
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
		Color: c.Color, Secret: c.Secret, Status: c.Status, Created: c.Created, Expires: c.Expires}
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
		a, err := addr.Canonical(line)
		if err != nil {
			return nil, fmt.Errorf("%w: %s line %d: %q is not a mail address; write one address a line, like alice@example.org", ErrInput, name, n+1, line)
		}
		out = append(out, a)
	}
	return out, nil
}
