package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"referee/internal/pace"
)

// The priorities of outbox mail (Outgoing.Priority): due mail is sent in
// this order, so that a move's mails never wait behind other mail, and,
// when the outbox is paced under a sending limit (--send-limit), what
// waits is what matters least.
const (
	// PriorityGame: the mail that asks a player to act: the opponent's
	// "your move", a game's opening and its end.
	PriorityGame = 0
	// PriorityPlayer: answers to a player's own mail: the mover's
	// confirmation, answers to commands, refusals of their actions.
	PriorityPlayer = 1
	// PriorityReminder: reminders, notices and invitations.
	PriorityReminder = 2
	// PriorityBulk: mail nobody waits for: spectators' boards and event
	// news.
	PriorityBulk = 3
	// PriorityStranger: answers to mail that could not be tied to a game
	// or a player. They are capped per hour, and dropped when the server
	// refuses them (never retried).
	PriorityStranger = 4
)

// States of an outbox message, as Outgoing.State reports them.
const (
	StateDue     = "due"     // to be sent at the next pass
	StateWaiting = "waiting" // failed for now; retried at NextAttempt
	StateSending = "sending" // claimed by a sender right now
	StateFailed  = "failed"  // refused for good by the server (a dead letter)
	StateDropped = "dropped" // given up by an operator
	StateSent    = "sent"    // accepted by the server
)

// ErrOutboxState is wrapped by outbox actions that the message's state does
// not allow (retrying a sent message, dropping one twice, ...).
var ErrOutboxState = errors.New("not possible in the message's current state")

// stateError is an ErrOutboxState with its own complete message.
type stateError string

func (e stateError) Error() string        { return string(e) }
func (e stateError) Is(target error) bool { return target == ErrOutboxState }

func stateErrorf(format string, args ...any) error { return stateError(fmt.Sprintf(format, args...)) }

// State says where the message stands at now.
func (o *Outgoing) State(now time.Time) string {
	switch {
	case o.Sent != nil:
		return StateSent
	case o.Dropped != nil:
		return StateDropped
	case o.Dead != nil:
		return StateFailed
	case o.ClaimedUntil != nil && o.ClaimedUntil.After(now):
		return StateSending
	case o.NextAttempt.After(now):
		return StateWaiting
	}
	return StateDue
}

// OutboxFilter selects messages of the outbox.
type OutboxFilter int

// The selections of ListOutbox.
const (
	OutboxQueued OutboxFilter = iota // not sent and not dropped (due, waiting, sending, failed)
	OutboxFailed                     // refused for good, not dropped
	OutboxAll                        // everything, sent and dropped too
)

const undelivered = `sent IS NULL AND dead IS NULL AND dropped IS NULL`

// DueOutbox returns up to limit messages due at now that no sender holds,
// by priority (Outgoing.Priority), then oldest first.
func (s *Store) DueOutbox(ctx context.Context, now time.Time, limit int) ([]Outgoing, error) {
	return s.outbox(ctx, `WHERE `+undelivered+` AND next_attempt <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
		ORDER BY priority, next_attempt, id LIMIT ?`, ms(now), ms(now), limit)
}

// LastQueued returns the id of the newest message of the outbox (0 when
// it is empty). Messages are never removed from the outbox (only their
// text, PruneSentText), so a different id means that mail was queued
// since: the sender looks at it instead of reading its due list again
// after every mail.
func (s *Store) LastQueued(ctx context.Context) (int64, error) {
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM outbox`).Scan(&id); err != nil {
		return 0, fmt.Errorf("reading the outbox's newest mail: %w", err)
	}
	return id, nil
}

// Outbox returns every message of the outbox, sent or not, oldest first.
func (s *Store) Outbox(ctx context.Context) ([]Outgoing, error) {
	return s.ListOutbox(ctx, OutboxAll)
}

// ListOutbox returns the messages that f selects, oldest first.
func (s *Store) ListOutbox(ctx context.Context, f OutboxFilter) ([]Outgoing, error) {
	switch f {
	case OutboxQueued:
		return s.outbox(ctx, `WHERE sent IS NULL AND dropped IS NULL ORDER BY id`)
	case OutboxFailed:
		return s.outbox(ctx, `WHERE sent IS NULL AND dropped IS NULL AND dead IS NOT NULL ORDER BY id`)
	}
	return s.outbox(ctx, `ORDER BY id`)
}

// OutgoingByID returns one message of the outbox.
func (s *Store) OutgoingByID(ctx context.Context, id int64) (*Outgoing, error) {
	found, err := s.outbox(ctx, `WHERE id = ?`, id)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("outbox mail #%d: %w", id, ErrNotFound)
	}
	return &found[0], nil
}

// PendingOutbox counts the messages still to be delivered: not sent, not
// refused for good and not dropped.
func (s *Store) PendingOutbox(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE `+undelivered).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting the outbox: %w", err)
	}
	return n, nil
}

// outboxColumns are read from the outbox with its text (outbox_text),
// which is empty once pruned (PruneSentText).
const outboxColumns = `id, game_id, to_addr, from_addr, message_id, COALESCE(raw, x''), COALESCE(data, x''), kind, priority,
	created, attempts, next_attempt, last_error, sent, claimed_until, dead, dropped`

func (s *Store) outbox(ctx context.Context, where string, args ...any) ([]Outgoing, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+outboxColumns+` FROM outbox LEFT JOIN outbox_text USING (id) `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the outbox: %w", err)
	}
	defer rows.Close()
	var out []Outgoing
	for rows.Next() {
		var o Outgoing
		var gid, sent, claimed, dead, dropped sql.NullInt64
		var created, next int64
		if err := rows.Scan(&o.ID, &gid, &o.To, &o.From, &o.MessageID, &o.Raw, &o.Data, &o.Kind, &o.Priority, &created, &o.Attempts, &next, &o.LastError,
			&sent, &claimed, &dead, &dropped); err != nil {
			return nil, fmt.Errorf("reading the outbox: %w", err)
		}
		if gid.Valid {
			o.GameID = &gid.Int64
		}
		o.Sent, o.ClaimedUntil, o.Dead, o.Dropped = optTime(sent), optTime(claimed), optTime(dead), optTime(dropped)
		o.Created, o.NextAttempt = fromMS(created), fromMS(next)
		out = append(out, o)
	}
	return out, rows.Err()
}

func optTime(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMS(v.Int64)
	return &t
}

// Claim is a sender's hold on one outbox message: while it lasts, no other
// sender sends that message.
type Claim struct {
	ID    int64     // the message
	Token string    // random, names this claim
	Until time.Time // the end of the lease
}

// ClaimOutgoing claims message id for one send, for lease from now. It
// returns nil (and no error) when the message is no longer to be sent at
// now: another sender holds it, or it was sent, refused, dropped or
// rescheduled meanwhile. Only the claimer may send; should it crash, the
// lease runs out and the message is due again.
func (s *Store) ClaimOutgoing(ctx context.Context, id int64, now time.Time, lease time.Duration) (*Claim, error) {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	c := &Claim{ID: id, Token: hex.EncodeToString(b[:]), Until: now.Add(lease)}
	res, err := s.exec(ctx, `UPDATE outbox SET claim = ?, claimed_until = ?
		WHERE id = ? AND `+undelivered+` AND next_attempt <= ? AND (claimed_until IS NULL OR claimed_until <= ?)`,
		c.Token, ms(c.Until), id, ms(now), ms(now))
	if err != nil {
		return nil, fmt.Errorf("claiming outbox mail #%d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("claiming outbox mail #%d: %w", id, err)
	} else if n == 0 {
		return nil, nil
	}
	return c, nil
}

// ErrClaimLost is returned when a claim ran out and another sender took
// the message over, so this one's outcome is not recorded.
var ErrClaimLost = errors.New("the claim on the message ran out and another sender holds it")

// MarkSent records that the SMTP server accepted the claimed message. It is
// recorded even if the claim ran out meanwhile: the server's acceptance is
// a fact.
func (s *Store) MarkSent(ctx context.Context, c *Claim, now time.Time) error {
	_, err := s.exec(ctx, `UPDATE outbox SET sent = COALESCE(sent, ?), attempts = attempts + 1, last_error = '',
		claim = NULL, claimed_until = NULL WHERE id = ?`, ms(now), c.ID)
	if err != nil {
		return fmt.Errorf("marking outbox mail #%d sent: %w", c.ID, err)
	}
	return nil
}

// MarkFailed records a failed attempt of the claimed message and when to try
// again, and ends the claim.
func (s *Store) MarkFailed(ctx context.Context, c *Claim, errText string, next time.Time) error {
	return s.endClaim(ctx, c, "recording a failed delivery of", `attempts = attempts + 1, last_error = ?, next_attempt = ?`,
		errText, ms(next))
}

// MarkDead records that the server refused the claimed message for good
// (with its answer): it is not retried until an operator says so.
func (s *Store) MarkDead(ctx context.Context, c *Claim, errText string, now time.Time) error {
	err := s.endClaim(ctx, c, "recording the refusal of", `attempts = attempts + 1, last_error = ?, dead = ?`, errText, ms(now))
	if err != nil {
		return err
	}
	return s.auditOutgoing(ctx, c.ID, "undeliverable", errText)
}

// MarkDropped records that the server refused the claimed message and that
// it is given up (an answer to a stranger): it is never sent, and the row
// stays for the record.
func (s *Store) MarkDropped(ctx context.Context, c *Claim, errText string, now time.Time) error {
	err := s.endClaim(ctx, c, "recording the refusal of", `attempts = attempts + 1, last_error = ?, dropped = ?`, errText, ms(now))
	if err != nil {
		return err
	}
	return s.auditOutgoing(ctx, c.ID, "stranger-answer-dropped", errText)
}

// SendingBlockedSetting is the settings key where the daemon records that
// no mail can go out (the SMTP login refused, no session): the time
// (Unix milliseconds), a space and why. Absent or empty when sending works.
const SendingBlockedSetting = "sending_blocked"

// SetSendingBlocked records that sending has been blocked since since, and
// why; an empty why records that it works.
func (s *Store) SetSendingBlocked(ctx context.Context, why string, since time.Time) error {
	return s.Update(ctx, func(tx *Tx) error {
		if why == "" {
			return tx.SetSetting(SendingBlockedSetting, []byte{})
		}
		// The first blocked pass says since when; later ones keep it.
		if old, err := tx.Setting(SendingBlockedSetting); err == nil && len(old) > 0 {
			if at, _, ok := strings.Cut(string(old), " "); ok {
				return tx.SetSetting(SendingBlockedSetting, []byte(at+" "+oneLine(why)))
			}
		}
		return tx.SetSetting(SendingBlockedSetting, []byte(fmt.Sprint(ms(since))+" "+oneLine(why)))
	})
}

// SendingBlocked reads what SetSendingBlocked recorded: why sending is
// blocked and since when, or "" when it is not.
func (s *Store) SendingBlocked(ctx context.Context) (why string, since time.Time, err error) {
	err = s.view(ctx, func(tx *Tx) error {
		b, err := tx.Setting(SendingBlockedSetting)
		if errors.Is(err, ErrNotFound) || len(b) == 0 {
			return nil
		}
		if err != nil {
			return err
		}
		at, w, _ := strings.Cut(string(b), " ")
		var v int64
		fmt.Sscan(at, &v)
		why, since = w, fromMS(v)
		return nil
	})
	return why, since, err
}

// RetryAll makes every undelivered mail due at now: the dead letters and
// the mail waiting for its next attempt (onlyFailed: the dead letters
// alone). Dropped mail stays dropped (retry it by its id), and mail being
// sent right now is left to its sender. It also clears the record that
// sending is blocked, so that a running daemon tries again at once (after
// the organiser fixed the login, say). It returns how many mails it made
// due.
func (s *Store) RetryAll(ctx context.Context, now time.Time, onlyFailed bool) (int64, error) {
	var n int64
	err := s.Update(ctx, func(tx *Tx) error {
		cond := `sent IS NULL AND dropped IS NULL AND (dead IS NOT NULL OR next_attempt > ?)`
		args := []any{ms(now), ms(now), ms(now)}
		if onlyFailed {
			cond = `sent IS NULL AND dropped IS NULL AND dead IS NOT NULL`
			args = []any{ms(now), ms(now)}
		}
		res, err := tx.tx.ExecContext(tx.ctx, `UPDATE outbox SET dead = NULL, next_attempt = ?
			WHERE (claimed_until IS NULL OR claimed_until <= ?) AND `+cond, args...)
		if err != nil {
			return fmt.Errorf("making the outbox's mail due again: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("making the outbox's mail due again: %w", err)
		}
		if err := tx.SetSetting(SendingBlockedSetting, []byte{}); err != nil {
			return err
		}
		what := "every undelivered mail"
		if onlyFailed {
			what = "every mail refused for good"
		}
		return tx.Audit(nil, "outbox-retry", fmt.Sprintf("%s: %d mails due again", what, n))
	})
	return n, err
}

// ReleaseClaim gives the claim up without recording an attempt (the send was
// interrupted): the message is due again at once.
func (s *Store) ReleaseClaim(ctx context.Context, c *Claim) error {
	return s.endClaim(ctx, c, "releasing", "")
}

func (s *Store) endClaim(ctx context.Context, c *Claim, what, set string, args ...any) error {
	sets := "claim = NULL, claimed_until = NULL"
	if set != "" {
		sets = set + ", " + sets
	}
	args = append(args, c.ID, c.Token)
	res, err := s.exec(ctx, `UPDATE outbox SET `+sets+` WHERE id = ? AND claim = ?`, args...)
	if err != nil {
		return fmt.Errorf("%s outbox mail #%d: %w", what, c.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("%s outbox mail #%d: %w", what, c.ID, err)
	} else if n == 0 {
		return fmt.Errorf("%s outbox mail #%d: %w", what, c.ID, ErrClaimLost)
	}
	return nil
}

func (s *Store) auditOutgoing(ctx context.Context, id int64, event, detail string) error {
	return s.Update(ctx, func(tx *Tx) error {
		var gid sql.NullInt64
		var to string
		if err := tx.tx.QueryRowContext(ctx, `SELECT game_id, to_addr FROM outbox WHERE id = ?`, id).Scan(&gid, &to); err != nil {
			return fmt.Errorf("reading outbox mail #%d: %w", id, err)
		}
		var g *int64
		if gid.Valid {
			g = &gid.Int64
		}
		return tx.Audit(g, event, fmt.Sprintf("mail #%d to %s: %s", id, to, oneLine(detail)))
	})
}

// RetryOutgoing makes message id due at now: a dead letter, a waiting
// message or a dropped one is sent again at the sender's next pass. A sent
// message, or one being sent right now, is refused (ErrOutboxState).
func (s *Store) RetryOutgoing(ctx context.Context, id int64, now time.Time) error {
	return s.changeOutgoing(ctx, id, now, "retry", func(o *Outgoing) error {
		if o.Sent != nil {
			return stateErrorf("outbox mail #%d to %s was sent already (the server accepted it %s); there is nothing to retry",
				id, o.To, o.Sent.Format(time.RFC3339))
		}
		return nil
	}, `dead = NULL, dropped = NULL, next_attempt = ?`, ms(now))
}

// DropOutgoing gives message id up: it is never sent, and its row stays for
// the record. A sent message, one dropped already, or one being sent right
// now is refused (ErrOutboxState).
func (s *Store) DropOutgoing(ctx context.Context, id int64, now time.Time) error {
	return s.changeOutgoing(ctx, id, now, "drop", func(o *Outgoing) error {
		if o.Sent != nil {
			return stateErrorf("outbox mail #%d to %s was sent already (the server accepted it %s); it cannot be dropped",
				id, o.To, o.Sent.Format(time.RFC3339))
		}
		if o.Dropped != nil {
			return stateErrorf("outbox mail #%d to %s was dropped already (%s); nothing changed (--retry %d would send it after all)",
				id, o.To, o.Dropped.Format(time.RFC3339), id)
		}
		return nil
	}, `dropped = ?`, ms(now))
}

// changeOutgoing applies an operator's action to message id in one
// transaction, after check, unless a sender holds the message right now.
func (s *Store) changeOutgoing(ctx context.Context, id int64, now time.Time, verb string, check func(*Outgoing) error, set string, args ...any) error {
	return s.Update(ctx, func(tx *Tx) error {
		var gid, sent, claimed, dead, dropped sql.NullInt64
		var o Outgoing
		err := tx.tx.QueryRowContext(ctx, `SELECT game_id, to_addr, sent, claimed_until, dead, dropped FROM outbox WHERE id = ?`, id).
			Scan(&gid, &o.To, &sent, &claimed, &dead, &dropped)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("outbox mail #%d: %w; \"referee outbox --all\" lists every mail with its id", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("reading outbox mail #%d: %w", id, err)
		}
		o.Sent, o.ClaimedUntil, o.Dead, o.Dropped = optTime(sent), optTime(claimed), optTime(dead), optTime(dropped)
		if err := check(&o); err != nil {
			return err
		}
		if o.ClaimedUntil != nil && o.ClaimedUntil.After(now) {
			return stateErrorf("outbox mail #%d to %s is being sent right now (until %s at the latest); nothing changed: wait for the outcome and try the %s again",
				id, o.To, o.ClaimedUntil.Format(time.RFC3339), verb)
		}
		if _, err := tx.tx.ExecContext(ctx, `UPDATE outbox SET `+set+` WHERE id = ?`, append(args, id)...); err != nil {
			return fmt.Errorf("%s of outbox mail #%d: %w", verb, id, err)
		}
		var g *int64
		if gid.Valid {
			g = &gid.Int64
		}
		return tx.Audit(g, "outbox-"+verb, fmt.Sprintf("mail #%d to %s", id, o.To))
	})
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// ReleaseAllClaims ends every claim on undelivered mail and returns how
// many there were. Only the holder of the database's daemon lock may call
// it, at start: any claim left then belongs to a process that died while
// sending (kill -9, power loss), and its mail must be due again at once,
// not when the lease runs out. The worst case is one mail sent twice (the
// dead process may have handed it to the server just before it died),
// never one lost.
func (s *Store) ReleaseAllClaims(ctx context.Context) (int64, error) {
	res, err := s.exec(ctx, `UPDATE outbox SET claim = NULL, claimed_until = NULL
		WHERE claim IS NOT NULL AND `+undelivered)
	if err != nil {
		return 0, fmt.Errorf("releasing the claims of a previous run: %w", err)
	}
	return res.RowsAffected()
}

// QueuedSince counts the mails of the given priority queued at or after
// since, whatever became of them: the hourly cap on answers to strangers
// counts PriorityStranger.
func (t *Tx) QueuedSince(priority int, since time.Time) (int, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM outbox WHERE priority = ? AND created >= ?`, priority, ms(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting the mails of priority %d queued since %s: %w", priority, since.Format(time.RFC3339), err)
	}
	return n, nil
}

// SentSince returns the times the SMTP server accepted mail at or after
// since, oldest first: what counts against a sending limit.
func (s *Store) SentSince(ctx context.Context, since time.Time) (out []time.Time, err error) {
	err = s.view(ctx, func(tx *Tx) error {
		out, err = tx.sentSince(since)
		return err
	})
	return out, err
}

// paceWindow is how far back the sends that count against limits (as
// SendPace.Limits writes them) go: the longest window, at least an hour
// (the pace the daemon derives from the last hour when none is set).
func paceWindow(limits string) time.Duration {
	ls, _ := pace.Parse(limits) // written by pace.Format
	return max(pace.Longest(ls), time.Hour)
}

func (t *Tx) sentSince(since time.Time) ([]time.Time, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT sent FROM outbox WHERE sent >= ? ORDER BY sent`, ms(since))
	if err != nil {
		return nil, fmt.Errorf("reading the mail sent since %s: %w", since.Format(time.RFC3339), err)
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("reading the mail sent since %s: %w", since.Format(time.RFC3339), err)
		}
		out = append(out, fromMS(v))
	}
	return out, rows.Err()
}

// SendPaceSetting is the settings key where the daemon records its sending
// limits (--send-limit) and how it paces the outbox under them, for
// "referee status" and /metrics: see SendPace.
const SendPaceSetting = "send_pace"

// SendPace is the daemon's record of its pacing.
type SendPace struct {
	// Limits are the configured limits (pace.Format), "" for none.
	Limits string `json:"limits"`
	// Factor is the share of the limits in use (1; halved after each "too
	// many messages" answer of the server).
	Factor float64 `json:"factor"`
	// Since is when mail last began to wait for the limits; zero while
	// nothing waits.
	Since time.Time `json:"pacing_since,omitzero"`
}

// SetSendPace records p (see SendPaceSetting).
func (s *Store) SetSendPace(ctx context.Context, p SendPace) error {
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("recording the sending pace: %w", err)
	}
	return s.Update(ctx, func(tx *Tx) error { return tx.SetSetting(SendPaceSetting, b) })
}

// ReadSendPace reads what SetSendPace recorded; nil when nothing was.
func (s *Store) ReadSendPace(ctx context.Context) (p *SendPace, err error) {
	err = s.view(ctx, func(tx *Tx) error {
		p, err = tx.sendPace()
		return err
	})
	return p, err
}

func (t *Tx) sendPace() (*SendPace, error) {
	b, err := t.Setting(SendPaceSetting)
	if errors.Is(err, ErrNotFound) || len(b) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p SendPace
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("reading the sending pace %q: %w", b, err)
	}
	return &p, nil
}

func (t *Tx) queueByPriority() (map[int]int, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT priority, COUNT(*) FROM outbox WHERE `+undelivered+` GROUP BY priority`)
	if err != nil {
		return nil, fmt.Errorf("counting the outbox by priority: %w", err)
	}
	defer rows.Close()
	out := map[int]int{}
	for rows.Next() {
		var p, n int
		if err := rows.Scan(&p, &n); err != nil {
			return nil, fmt.Errorf("counting the outbox by priority: %w", err)
		}
		out[p] = n
	}
	return out, rows.Err()
}
