// Package daemon runs the referee: it reads the mailbox over IMAP, hands
// every message to the app (which records, decides and queues replies in one
// transaction), marks it done only after that commit, and delivers the
// outbox over SMTP with retries.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"referee/internal/app"
	"referee/internal/mail/imapin"
	"referee/internal/mail/reader"
	"referee/internal/mail/smtpout"
	"referee/internal/pace"
	"referee/internal/status"
	"referee/internal/store"
)

// Mailbox is where inbound mail comes from: IMAP in production
// (imapin.Mailbox), anything that can list messages in tests.
type Mailbox interface {
	// Run hands every message to h, now and as it arrives, until ctx is
	// done; passed is called after every complete pass.
	Run(ctx context.Context, h imapin.Handler, passed func()) error
	// Once hands the messages there now to h and returns.
	Once(ctx context.Context, h imapin.Handler) error
}

// Config configures the daemon.
type Config struct {
	// Mailbox and Sender are the daemon's edges. When nil, they are IMAP
	// with the IMAP settings and SMTP with the SMTP settings.
	Mailbox Mailbox
	Sender  Sender
	IMAP    imapin.Config
	SMTP    smtpout.Config
	// Once processes what is in the mailbox, delivers what is due, and
	// returns (for cron and tests).
	Once bool
	// OutboxEvery is how often the sender looks for due mail when nothing
	// nudges it; 0 means 2 s.
	OutboxEvery time.Duration
	// TickEvery is how often the clocks are checked; 0 means 1 min.
	TickEvery time.Duration
	// RetryBase is the wait before the first retry of a failed delivery;
	// it doubles with each failure up to an hour. 0 means 30 s.
	RetryBase time.Duration
	// KeepSent is how long the text of a sent mail is kept (the SMTP
	// server has its copy; the outbox row stays for the record); it is
	// pruned at start and every hour. 0 keeps it for ever.
	KeepSent time.Duration
	// Drain bounds the last delivery of the outbox at shutdown (the
	// replies of the last moves go out before the process ends); 0 means
	// 10 s.
	Drain time.Duration
	// SendLimits: see Outbox.Limits.
	SendLimits []pace.Limit
	Logger     *slog.Logger
	// Metrics, when set, receives each processed mail's verdict and time.
	Metrics *status.Metrics

	// SMTPConnections: see Outbox.Connections.
	SMTPConnections int
}

// Sender delivers one message.
type Sender interface {
	Send(ctx context.Context, from string, to []string, raw []byte) error
}

// Run runs the daemon until ctx is done (or, with Once, until one pass is
// over). A message being processed when ctx ends is finished first: its
// transaction is either committed or not begun.
func Run(ctx context.Context, a *app.App, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.OutboxEvery <= 0 {
		cfg.OutboxEvery = 2 * time.Second
	}
	if cfg.Mailbox == nil {
		cfg.IMAP.Logger = log.With("part", "imap")
		if cfg.IMAP.MaxBytes <= 0 {
			// A bigger mail is refused by the reader anyway: fetch no more
			// of it than the reader needs to say so.
			cfg.IMAP.MaxBytes = reader.DefaultLimits().MaxBytes
		}
		cfg.Mailbox = imapin.Mailbox{Config: cfg.IMAP}
	}
	if cfg.Sender == nil {
		cfg.Sender = smtpout.New(cfg.SMTP)
	}
	// The caller holds the database's daemon lock (serve takes it), so a
	// claim still standing belongs to a process that died while sending:
	// its mail is due again now, not when the lease runs out.
	if n, err := a.Store().ReleaseAllClaims(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Warn("mail claimed by a previous run that stopped while sending is due again", "mails", n)
	}
	ob := &Outbox{Store: a.Store(), Sender: cfg.Sender, Render: a.Render, Log: log.With("part", "outbox"), Now: time.Now, RetryBase: cfg.RetryBase,
		Limits: cfg.SendLimits, Connections: cfg.SMTPConnections}
	nudge := make(chan struct{}, 1)
	var lastContact time.Time
	passed := func() {
		// "referee status" in another process reads the last contact from
		// the database; a write every few seconds at most is plenty.
		if now := time.Now(); now.Sub(lastContact) >= 5*time.Second {
			lastContact = now
			if err := a.Store().RecordIMAPContact(context.WithoutCancel(ctx), now); err != nil {
				log.Warn("recording the IMAP contact", "err", err)
			}
		}
	}
	handler := func(ctx context.Context, m imapin.Message) error {
		// Finish the message even if shutdown begins meanwhile: the
		// transaction is short, and leaving it half-done is never better.
		began := time.Now()
		res, err := a.Process(context.WithoutCancel(ctx), m.Raw, m.UIDValidity, m.UID)
		if err != nil {
			return err
		}
		if cfg.Metrics != nil {
			cfg.Metrics.Observe(string(res.Verdict), time.Since(began))
		}
		if res.Mails > 0 {
			select {
			case nudge <- struct{}{}:
			default:
			}
		}
		return nil
	}

	prune := func() {
		if cfg.KeepSent <= 0 {
			return
		}
		n, err := a.Store().PruneSentText(ctx, time.Now().Add(-cfg.KeepSent))
		if err != nil && ctx.Err() == nil {
			log.Warn("pruning the text of old sent mail", "err", err)
		} else if n > 0 {
			log.Info("pruned the text of old sent mail", "mails", n, "sent_before", time.Now().Add(-cfg.KeepSent).Format(time.RFC3339))
		}
	}
	prune()

	if cfg.Once {
		return once(ctx, a, cfg, handler, passed, ob)
	}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		ob.Loop(ctx, cfg.OutboxEvery, nudge)
	}()
	go func() {
		// The clocks: reminders and losses on time, every TickEvery.
		defer wg.Done()
		every := cfg.TickEvery
		if every <= 0 {
			every = time.Minute
		}
		t := time.NewTicker(every)
		defer t.Stop()
		pruned := time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if time.Since(pruned) >= time.Hour {
					pruned = time.Now()
					prune()
				}
				if n, err := a.Tick(ctx); err != nil {
					log.Warn("clock tick failed", "err", err)
				} else if n > 0 {
					select {
					case nudge <- struct{}{}:
					default:
					}
				}
			}
		}
	}()
	err := cfg.Mailbox.Run(ctx, handler, passed)
	wg.Wait()
	// Last chance to deliver what the final messages queued, before the
	// caller stops the SMTP server (the embedded one in particular).
	drain := cfg.Drain
	if drain <= 0 {
		drain = 10 * time.Second
	}
	flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), drain)
	defer cancel()
	if _, ferr := ob.Flush(flushCtx); ferr != nil {
		log.Warn("outbox not fully delivered at shutdown; it will be on the next start", "err", ferr)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// once is Run with Once: the clocks, one pass over the mailbox, and the
// outbox. The outbox is delivered even when the mailbox could not be read
// (what earlier runs and "referee new" queued is not held back by an IMAP
// failure). The error says each thing that failed, and that sending is
// blocked when it is (the SMTP server refused the session, now or in an
// earlier run, and no mail went out since), so that cron reports it.
func once(ctx context.Context, a *app.App, cfg Config, handler imapin.Handler, passed func(), ob *Outbox) error {
	var errs []error
	if _, err := a.Tick(ctx); err != nil {
		errs = append(errs, fmt.Errorf("clocks: %w", err))
	}
	if err := cfg.Mailbox.Once(ctx, handler); err != nil {
		errs = append(errs, fmt.Errorf("reading the mailbox: %w (the outbox was delivered all the same)", err))
	} else {
		passed()
	}
	if _, err := ob.Flush(ctx); err != nil {
		return errors.Join(append(errs, fmt.Errorf("delivering the outbox: %w", err))...)
	}
	why, since, err := a.Store().SendingBlocked(ctx)
	if err != nil {
		return errors.Join(append(errs, fmt.Errorf("reading whether sending is blocked: %w", err))...)
	}
	if why != "" {
		n, _ := a.Store().PendingOutbox(ctx)
		errs = append(errs, fmt.Errorf("sending is blocked since %s: %s; %d mails wait in the outbox and are tried again by a later run once their retry time has come (\"referee outbox\" lists them; after fixing the cause, \"referee outbox --retry all\" makes them due at once)",
			since.UTC().Format(time.RFC3339), why, n))
	}
	return errors.Join(errs...)
}

// Outbox delivers queued mail. Several Outboxes may work on one database
// (two daemons by mistake, or `serve --once` from cron beside a daemon):
// each message is claimed in the database before it is sent, so only one
// of them sends it.
type Outbox struct {
	Store  *store.Store
	Sender Sender
	// Render writes a message as it goes to the server, from the data the
	// decision recorded (app.App.Render: MIME and DKIM signature, the same
	// bytes every time). nil sends each message's Raw as it is; a message
	// recorded only as data then cannot be sent and is a dead letter.
	Render func(store.Outgoing) ([]byte, error)
	Log    *slog.Logger
	Now    func() time.Time
	// RetryBase: see Config.RetryBase.
	RetryBase time.Duration
	// Lease is how long a claim on a message lasts; a send is abandoned
	// before it runs out, and a crashed sender's messages are due again
	// after it. 0 means 10 min.
	Lease time.Duration
	// KeepOpen is how long Loop keeps an idle SMTP session for its next
	// pass; 0 means 5 s.
	KeepOpen time.Duration
	// RefusalsPerSession is how many recipients the server may refuse in
	// one session before the next message gets a fresh one (a server
	// that tarpits slows each answer after a few errors); 0 means 3.
	RefusalsPerSession int
	// Limits are the mailbox's sending limits (serve --send-limit): the
	// outbox sends no more than they allow, the most urgent mail first,
	// and keeps the rest queued. None: as fast as the server takes it
	// (until it answers "too many messages": then the pace halves).
	Limits []pace.Limit
	// Connections is how many SMTP connections deliver side by side
	// (serve --smtp-connections); 0 means DefaultConnections. See
	// sender.go for what still holds across them.
	Connections int

	mu      sync.Mutex
	blockMu sync.Mutex // one blocking answer at a time (blockOnce)
	blocked blockage   // sending blocked (login refused, no session): why, until when
	pace    pacer
	// tooMany counts the servers' "too many messages" answers, slowing
	// those not yet taken in (see tooManyAnswer).
	tooMany atomic.Int64
	slowing atomic.Int32
}

// blockage is the outbox's knowledge that no mail can go out for now.
type blockage struct {
	n     int       // consecutive blocked passes
	until time.Time // no new attempt before
	why   string
}

// isBlocked reports whether sending is blocked right now.
func (o *Outbox) isBlocked() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.blocked.n > 0 && o.Now().Before(o.blocked.until)
}

// retryRequested reports whether the organiser cleared the record that
// sending is blocked ("referee outbox --retry all"), and if so lifts the
// block: the next message is tried at once.
func (o *Outbox) retryRequested(ctx context.Context) bool {
	why, _, err := o.Store.SendingBlocked(ctx)
	if err != nil || why != "" {
		return false
	}
	o.mu.Lock()
	o.blocked = blockage{}
	o.mu.Unlock()
	o.Log.Info("the organiser asked to retry the outbox; trying to send again")
	return true
}

// block records that sending is blocked by err, in memory (no attempt
// before the retry time, which backs off with each blocked pass) and in
// the database, where "referee status" and /metrics read it. It returns
// the retry time.
func (o *Outbox) block(ctx context.Context, err error) time.Time {
	o.mu.Lock()
	o.blocked.n++
	now := o.Now().UTC()
	o.blocked.until = now.Add(BackoffFrom(o.RetryBase, o.blocked.n))
	o.blocked.why = err.Error()
	until, n := o.blocked.until, o.blocked.n
	o.mu.Unlock()
	o.Log.Error("SENDING IS BLOCKED: the SMTP session could not be opened or was refused, so no mail goes out; every mail waits (none is dropped) and sending is tried again at retry_at; check the server, --smtp-tls and --tls-ca, --smtp-user and the password or token (referee status shows this too)",
		"err", err, "retry_at", until, "blocked_passes", n)
	if serr := o.Store.SetSendingBlocked(context.WithoutCancel(ctx), err.Error(), now); serr != nil {
		o.Log.Warn("recording that sending is blocked", "err", serr)
	}
	return until
}

// unblock records that a message went out: sending is not blocked.
func (o *Outbox) unblock(ctx context.Context) {
	o.mu.Lock()
	was := o.blocked.n > 0
	o.blocked = blockage{}
	o.mu.Unlock()
	if !was {
		return
	}
	o.Log.Info("sending works again")
	if err := o.Store.SetSendingBlocked(context.WithoutCancel(ctx), "", time.Time{}); err != nil {
		o.Log.Warn("recording that sending works again", "err", err)
	}
}

// deliver claims m, writes it and sends it over conn; it reports whether
// it was sent by this call, or given back untried: when the server said
// "too many messages" on another connection since the pass handed m out
// (epoch is slowEpoch then), its claim is released and the pass hands it
// out again by the new pace. Errors are the store's; a failed send is
// recorded, not returned.
func (o *Outbox) deliver(ctx context.Context, m store.Outgoing, conn *sessionConn, epoch int64) (sent, back bool, err error) {
	lease := o.Lease
	if lease <= 0 {
		lease = 10 * time.Minute
	}
	claim, err := o.Store.ClaimOutgoing(ctx, m.ID, o.Now().UTC(), lease)
	if err != nil {
		return false, false, err
	}
	if claim == nil {
		o.Log.Debug("another sender holds this mail; skipping it", "id", m.ID, "to", m.To)
		return false, false, nil
	}
	raw := m.Raw
	if o.Render == nil && len(raw) == 0 {
		err := fmt.Errorf("outbox mail #%d to %s is recorded as data, and this outbox has no Render to write it", m.ID, m.To)
		o.Log.Error("mail could not be written; not retrying", "to", m.To, "id", m.ID, "err", err)
		return false, false, o.record(o.Store.MarkDead(context.WithoutCancel(ctx), claim, err.Error(), o.Now().UTC()))
	}
	if o.Render != nil {
		if raw, err = o.Render(m); err != nil {
			// The same data would fail the same way: a bug or a damaged
			// row, for the organiser to look at (referee outbox --failed).
			o.Log.Error("mail could not be written from its data; not retrying (see referee outbox --failed)", "to", m.To, "id", m.ID, "err", err)
			return false, false, o.record(o.Store.MarkDead(context.WithoutCancel(ctx), claim, "writing the mail: "+err.Error(), o.Now().UTC()))
		}
	}
	// Whatever happens from here is recorded, even during shutdown.
	rec := context.WithoutCancel(ctx)
	giveBack := func() {
		if rerr := o.Store.ReleaseClaim(rec, claim); rerr != nil {
			o.Log.Warn("could not release the claim on a mail not sent; it is due again when the claim runs out", "id", m.ID, "until", claim.Until, "err", rerr)
		}
	}
	if o.slowEpoch() != epoch {
		giveBack()
		return false, true, nil
	}
	// The send must end well inside the claim, or another sender could
	// take the message over while this one is still sending it.
	sendCtx, cancel := context.WithTimeout(ctx, lease*9/10)
	if conn.opener != nil {
		err = conn.send(sendCtx, m.From, []string{m.To}, raw)
	} else {
		err = o.Sender.Send(sendCtx, m.From, []string{m.To}, raw)
	}
	if err != nil && smtpout.IsRateLimit(err) {
		o.tooManyAnswer() // before anything else: the other connections go on
		// Taken in by slowDown below; undone here whatever happens, so
		// that a shutdown in between leaves no pass waiting for it.
		defer o.slowing.Add(-1)
	}
	cancel()
	switch {
	case err == nil:
		if err := o.Store.MarkSent(rec, claim, o.Now().UTC()); err != nil {
			return false, false, err
		}
		o.unblock(ctx)
		o.paceSent(o.Now().UTC())
		o.Log.Info("delivered", "to", m.To, "id", m.ID, "message_id_sha256", app.MessageIDHash(m.MessageID), "kind", m.Kind)
		return true, false, nil
	case ctx.Err() != nil:
		// Shutdown, not the server's doing: give the claim back so that
		// the next start sends the mail at once.
		giveBack()
		return false, false, ctx.Err()
	case smtpout.IsRateLimit(err):
		// "Too many messages": the mail is not at fault and never a dead
		// letter; the outbox slows down.
		next := o.slowDown(ctx, err)
		return false, false, o.record(o.Store.MarkFailed(rec, claim, err.Error(), next))
	case smtpout.IsBlocked(err):
		// The organiser's problem (login, server unreachable), not the
		// recipient's: the mail waits, whatever the code, and is never a
		// dead letter.
		until := o.blockOnce(ctx, err)
		return false, false, o.record(o.Store.MarkFailed(rec, claim, err.Error(), until))
	case m.Priority == store.PriorityStranger && smtpout.IsRefusal(err):
		// An answer to a stranger the server will not take (a forged
		// sender, an outside address the server does not relay to): it is
		// dropped, never retried, so that a flood of junk cannot fill the
		// outbox with retries.
		o.Log.Warn("answer to a stranger refused by the server; dropped, not retried", "to", m.To, "id", m.ID, "err", err)
		return false, false, o.record(o.Store.MarkDropped(rec, claim, err.Error(), o.Now().UTC()))
	case smtpout.IsPermanent(err):
		o.Log.Error("mail refused for good; not retrying (see referee outbox --failed)", "to", m.To, "id", m.ID, "attempt", m.Attempts+1, "err", err)
		return false, false, o.record(o.Store.MarkDead(rec, claim, err.Error(), o.Now().UTC()))
	default:
		next := o.Now().UTC().Add(BackoffFrom(o.RetryBase, m.Attempts+1))
		o.Log.Warn("delivery failed; will retry", "to", m.To, "id", m.ID, "attempt", m.Attempts+1, "retry_at", next, "err", err)
		return false, false, o.record(o.Store.MarkFailed(rec, claim, err.Error(), next))
	}
}

// record passes a store error on, except a lost claim: another sender took
// the message over and its outcome counts.
func (o *Outbox) record(err error) error {
	if errors.Is(err, store.ErrClaimLost) {
		o.Log.Warn("the claim ran out during the send; another sender's outcome counts", "err", err)
		return nil
	}
	return err
}

// Backoff is the wait before delivery attempt n+1 after n failures.
func Backoff(n int) time.Duration { return BackoffFrom(0, n) }

// BackoffFrom is Backoff starting from base (0 means 30 s).
func BackoffFrom(base time.Duration, n int) time.Duration {
	d := base
	if d <= 0 {
		d = 30 * time.Second
	}
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	if d > time.Hour {
		d = time.Hour
	}
	return d
}
