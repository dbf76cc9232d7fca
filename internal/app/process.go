package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"referee/internal/mail/addr"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/store"
)

// Processed is what became of one inbound message.
type Processed struct {
	Duplicate bool // seen before (same Message-ID or same mailbox UID): nothing done again
	Verdict   referee.Verdict
	Detail    string
	GameID    int64
	Mails     int // mails queued
}

// Process records one raw inbound message, lets the core decide, and stores
// the decision — the inbound record, the game's change, and every mail it
// causes — in ONE transaction. uidValidity and uid identify the message in
// its mailbox (0 when it did not come from IMAP). A message seen before is
// recognised and not applied again. The caller may mark the message done in
// its mailbox only after Process returned without error.
func (a *App) Process(ctx context.Context, raw []byte, uidValidity, uid uint32) (Processed, error) {
	m, readErr := mailreader.Read(raw, a.opts.Address, a.limits)
	in := referee.Inbound{Mail: m, ReadErr: readErr, Digest: digest(raw), DKIM: a.checkDKIM(ctx, raw, m)}
	var res Processed
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		rec := store.Inbound{UIDValidity: uidValidity, UID: uid, Digest: in.Digest, Received: a.opts.Now().UTC()}
		if m != nil {
			rec.MessageID, rec.From, rec.Subject = m.MessageID, m.From, m.Subject
		}
		inID, dup, err := tx.RecordInbound(rec)
		if ce := (*store.CollisionError)(nil); errors.As(err, &ce) {
			// Recorded and listed, never acted on: it may be the first
			// mail altered, and acting on it could apply that mail twice.
			res = Processed{Verdict: referee.Ignored, Detail: ce.Error()}
			return nil
		}
		if err != nil {
			return err
		}
		if dup {
			res = Processed{Duplicate: true, Verdict: referee.Ignored, Detail: "already processed"}
			return nil
		}
		g, out, now, err := a.decide(tx, in)
		if err != nil {
			return err
		}
		var gameID *int64
		if g != nil {
			id := g.ID
			gameID = &id
			res.GameID = id
		}
		if out.Game != nil {
			if err := a.saveChange(tx, inID, out); err != nil {
				return err
			}
		}
		if out.Lobby != nil {
			started, err := a.applyLobby(tx, &out, now)
			if err != nil {
				return err
			}
			if started != 0 {
				gameID, res.GameID = &started, started
			}
		}
		if err := a.capStrangers(tx, &out); err != nil {
			return err
		}
		if err := a.queue(tx, res.GameID, out.Mails); err != nil {
			return err
		}
		if out.Game != nil && out.Game.Status != referee.StatusActive {
			// A game of an event ended: the event's rules follow (event.go).
			if err := a.afterEventGame(tx, out.Game.ID); err != nil {
				return err
			}
		}
		if err := tx.SetInboundOutcome(inID, string(out.Verdict), out.Detail, gameID); err != nil {
			return err
		}
		res.Verdict, res.Detail, res.Mails = out.Verdict, out.Detail, len(out.Mails)
		return nil
	})
	if err != nil {
		return Processed{}, fmt.Errorf("processing inbound message: %w", err)
	}
	// Which mail: enough to find it in the mailbox and in the server's log,
	// never a player's secret (see MessageIDHash).
	var from, msgID string
	if m != nil {
		from, msgID = m.From, m.MessageID
	}
	which := []any{"uid", uid, "from", from, "message_id_sha256", MessageIDHash(msgID)}
	if res.Verdict == referee.Ignored && !res.Duplicate {
		// Every mail that gets no answer says why, here and in "referee show".
		a.log.Warn("inbound not answered", append([]any{"reason", res.Detail, "game", res.GameID}, which...)...)
	} else {
		a.log.Info("inbound", append([]any{"verdict", res.Verdict, "detail", res.Detail, "game", res.GameID, "mails", res.Mails, "duplicate", res.Duplicate}, which...)...)
	}
	return res, nil
}

// MessageIDHash is how a log names a Message-ID: the first 12 hex digits
// of its SHA-256. The referee's own Message-IDs carry a player's reply
// secret, and a player's reply quotes them in In-Reply-To; a log line may
// be read by anyone with access to the journal, so it never holds one. The
// hash of a known Message-ID (from the mailbox or the mail server's log)
// finds its line: printf %s '<id@host>' | sha256sum. Empty for no
// Message-ID.
func MessageIDHash(messageID string) string {
	if messageID == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(messageID))
	return hex.EncodeToString(sum[:6])
}

// decide is the one read -> load -> decide path of Process and Inspect:
// it loads the game the mail names and what the core may know about the
// sender (recent refusals, vacation days, the lobby), all in tx, and lets
// the core decide. It changes nothing.
func (a *App) decide(tx *store.Tx, in referee.Inbound) (*referee.Game, referee.Outcome, time.Time, error) {
	m := in.Mail
	var g *referee.Game
	if m != nil && m.Token != nil {
		sg, err := tx.Game(m.Token.GameID)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, referee.Outcome{}, time.Time{}, err
		default:
			if g, err = a.loadTx(tx, sg); err != nil {
				return nil, referee.Outcome{}, time.Time{}, err
			}
		}
	}
	now := a.opts.Now().UTC().Truncate(time.Second)
	env := referee.Env{Now: now, DKIM: in.DKIM}
	if m != nil && m.From != "" {
		var gid int64
		if m.Token != nil {
			gid = m.Token.GameID
		}
		var err error
		if env.RecentRefusals, env.GameRefusals, env.LastRefusal, err = tx.Refusals(m.From, gid, a.opts.Now().Add(-time.Hour)); err != nil {
			return nil, referee.Outcome{}, time.Time{}, err
		}
		// The vacation allowance is the player's, over all games; the
		// lobby (lobby.go) answers mail outside a game.
		if env.VacationUsed, err = tx.VacationDays(addr.Mailbox(m.From), now.Year()); err != nil {
			return nil, referee.Outcome{}, time.Time{}, err
		}
		// The command table says what the command needs besides the game.
		if needs := a.ref.Needs(m, g); needs.Lobby {
			if env.Lobby, err = a.lobbyView(tx, m, needs, now); err != nil {
				return nil, referee.Outcome{}, time.Time{}, err
			}
		}
	}
	return g, a.ref.Handle(in, g, env), now, nil
}

// saveChange writes a changed game with its new actions and rolls.
func (a *App) saveChange(tx *store.Tx, inboundID int64, out referee.Outcome) error {
	g := out.Game
	if out.Undo {
		if err := tx.DeleteAction(g.ID, len(g.Actions)); err != nil {
			return err
		}
	}
	for _, act := range out.NewActions {
		if err := tx.AppendAction(toStoreAction(g.ID, act, inboundID, a.opts.Now().UTC())); err != nil {
			return err
		}
	}
	if err := a.saveRolls(tx, g.ID, out.NewRolls); err != nil {
		return err
	}
	if err := tx.UpdateGame(toStoreGame(g)); err != nil {
		return err
	}
	return tx.Audit(&g.ID, "action", out.Detail)
}

// Tick applies what is due on every clock at the app's now: reminders,
// losses on time, and invitations that expired. Each game and invitation
// is its own transaction; repeated ticks do nothing more (a reminder is
// sent once, a finished game has no clock running, an expired invitation
// is closed). It returns how many games and invitations changed.
func (a *App) Tick(ctx context.Context) (int, error) {
	changed, err := a.expireChallenges(ctx) // invitations that ran out (lobby.go)
	if err != nil {
		return changed, err
	}
	started, err := a.StartDueEvents(ctx) // events at their start date (event.go)
	changed += started
	if err != nil {
		return changed, err
	}
	// Only the games with a clock, by id (an index): not every active game
	// loaded every minute.
	ids, err := a.st.TimedGames(ctx)
	if err != nil {
		return changed, fmt.Errorf("listing games for the clocks: %w", err)
	}
	for _, id := range ids {
		err := a.st.Update(ctx, func(tx *store.Tx) error {
			sg, err := tx.Game(id)
			if err != nil {
				return err
			}
			g, err := a.loadTx(tx, sg)
			if err != nil {
				return err
			}
			out := a.ref.Tick(g, a.opts.Now().UTC().Truncate(time.Second))
			if out.Game == nil {
				return nil
			}
			changed++
			if err := tx.UpdateGame(toStoreGame(out.Game)); err != nil {
				return err
			}
			if err := a.queue(tx, id, out.Mails); err != nil {
				return err
			}
			if err := tx.Audit(&id, "clock", out.Detail); err != nil {
				return err
			}
			if out.Game.Status != referee.StatusActive {
				return a.afterEventGame(tx, id) // a loss on time in an event (event.go)
			}
			return nil
		})
		if err != nil {
			return changed, fmt.Errorf("game #%d clock: %w", id, err)
		}
	}
	return changed, nil
}

// Watch adds (or with stop, removes) a spectator of a game.
func (a *App) Watch(ctx context.Context, id int64, addr string, stop bool) error {
	w, err := cleanAddress("ADDR", addr)
	if err != nil {
		return err
	}
	return a.st.Update(ctx, func(tx *store.Tx) error {
		if _, err := tx.Game(id); errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w: there is no game #%d; \"referee list\" shows the games", ErrInput, id)
		} else if err != nil {
			return err
		}
		if stop {
			ok, err := tx.Unwatch(id, w)
			if err == nil && !ok {
				return fmt.Errorf("%w: %s is not watching game #%d", ErrInput, w, id)
			}
			return err
		}
		return tx.Watch(id, w)
	})
}
