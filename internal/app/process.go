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
	var decided *referee.Game // the game the mail was about, as decided on
	var outcome referee.Outcome
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
		decided, outcome = g, out
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
		end, err := a.endOfGame(tx, out.Game)
		if err != nil {
			return err
		}
		out.Mails = end.withResultNote(out.Game, out.Mails)
		if err := a.queue(tx, res.GameID, out.Mails); err != nil {
			return err
		}
		// A game of an event ended: the event's rules follow (event.go).
		if err := end.follow(a, tx); err != nil {
			return err
		}
		if err := tx.SetInboundOutcome(inID, string(out.Verdict), out.Detail, gameID); err != nil {
			return err
		}
		res.Verdict, res.Detail, res.Mails = out.Verdict, out.Detail, len(out.Mails)
		return nil
	})
	if err != nil {
		if decided != nil {
			a.positions.drop(decided.ID) // rolled back: the cache never runs ahead of the store
		}
		return Processed{}, fmt.Errorf("processing inbound message: %w", err)
	}
	a.remember(decided, outcome) // committed
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
			a.withPosition(g) // the position kept since the last mail, if any
		}
	}
	if g != nil {
		mm, err := a.answering(tx, m, g)
		if err != nil {
			return nil, referee.Outcome{}, time.Time{}, err
		}
		m, in.Mail = mm, mm
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
		if env.GameRefusals > 0 {
			if env.OldestGameRefusal, err = tx.OldestGameRefusal(m.From, gid, a.opts.Now().Add(-time.Hour)); err != nil {
				return nil, referee.Outcome{}, time.Time{}, err
			}
		}
		// The vacation allowance is the player's, over all games; the
		// lobby (lobby.go) answers mail outside a game.
		if env.VacationUsed, err = tx.VacationDays(addr.Mailbox(m.From), now.Year()); err != nil {
			return nil, referee.Outcome{}, time.Time{}, err
		}
		if err := a.senderSettings(tx, m.From, now, &env); err != nil {
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
	// The daily digests that are due (maildigest.go).
	sent, err := a.sendDigests(ctx, a.opts.Now().UTC().Truncate(time.Second))
	changed += sent
	if err != nil {
		return changed, err
	}
	// Leave booked ahead that begins now stops its player's clocks
	// (booking.go), before the clocks are looked at.
	began, err := a.startBookings(ctx, a.opts.Now().UTC().Truncate(time.Second))
	changed += began
	if err != nil {
		return changed, err
	}
	started, err := a.StartDueEvents(ctx) // events at their start date (event.go)
	changed += started
	if err != nil {
		return changed, err
	}
	laddered, err := a.LadderTick(ctx) // challenges not accepted in time, idle players (ladder.go)
	changed += laddered
	if err != nil {
		return changed, err
	}
	// Only the games whose deadline (the next moment their clock has
	// something to do, kept with every change of a game) has come, read
	// from an index: not every timed game loaded every minute.
	now := a.opts.Now().UTC().Truncate(time.Second)
	ids, err := a.st.DueGames(ctx, now)
	if err != nil {
		return changed, fmt.Errorf("listing games for the clocks: %w", err)
	}
	for _, id := range ids {
		var decided *referee.Game
		var outcome referee.Outcome
		err := a.st.Update(ctx, func(tx *store.Tx) error {
			sg, err := tx.Game(id)
			if err != nil {
				return err
			}
			g, err := a.loadTx(tx, sg)
			if err != nil {
				return err
			}
			a.withPosition(g)
			out := a.ref.Tick(g, now)
			decided, outcome = g, out
			if out.Game == nil {
				// Nothing due after all (a deadline backfilled by the
				// migration, or a clock the game no longer runs): look
				// again when something will be.
				return tx.SetDeadline(id, toStoreGame(g).Deadline)
			}
			changed++
			if err := tx.UpdateGame(toStoreGame(out.Game)); err != nil {
				return err
			}
			end, err := a.endOfGame(tx, out.Game)
			if err != nil {
				return err
			}
			out.Mails = end.withResultNote(out.Game, out.Mails)
			if err := a.queue(tx, id, out.Mails); err != nil {
				return err
			}
			if err := tx.Audit(&id, "clock", out.Detail); err != nil {
				return err
			}
			return end.follow(a, tx) // a loss on time in an event (event.go)
		})
		if err != nil {
			a.positions.drop(id)
			return changed, fmt.Errorf("game #%d clock: %w", id, err)
		}
		a.remember(decided, outcome)
	}
	return changed, nil
}

// SetWatchDelay makes spectators of a game (by mail and on the web) see it
// n moves late (0-7; 0: at once).
func (a *App) SetWatchDelay(ctx context.Context, id int64, n int) error {
	if err := referee.CheckWatchDelay(n); err != nil {
		return fmt.Errorf("%w: %v", ErrInput, err)
	}
	return a.st.Update(ctx, func(tx *store.Tx) error {
		g, err := a.adminGameTx(tx, id)
		if err != nil {
			return err
		}
		g.State.WatchDelay = n
		if err := tx.UpdateGame(toStoreGame(g)); err != nil {
			return err
		}
		return tx.Audit(&id, "watch-delay", fmt.Sprintf("spectators see game #%d %d moves late", id, n))
	})
}

// Watch adds (or with stop, removes) a spectator of a game.
func (a *App) Watch(ctx context.Context, id int64, addr string, stop bool) error {
	w, err := cleanAddress("ADDR", addr)
	if err != nil {
		return err
	}
	return a.st.Update(ctx, func(tx *store.Tx) error {
		g, err := a.adminGameTx(tx, id)
		if err != nil {
			return err
		}
		if !stop && g.State.Private {
			return fmt.Errorf("%w: game #%d is private (its players asked that no one observe it); no spectator can be added", ErrInput, id)
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
