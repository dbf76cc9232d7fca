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
	"time"

	"referee/internal/app"
	"referee/internal/mail/imapin"
	"referee/internal/mail/reader"
	"referee/internal/mail/smtpout"
	"referee/internal/store"
)

// Config configures the daemon.
type Config struct {
	IMAP imapin.Config
	SMTP smtpout.Config
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
	Logger    *slog.Logger
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
	cfg.IMAP.Logger = log.With("part", "imap")
	if cfg.IMAP.MaxBytes <= 0 {
		// A bigger mail is refused by the reader anyway: fetch no more of
		// it than the reader needs to say so.
		cfg.IMAP.MaxBytes = reader.DefaultLimits().MaxBytes
	}
	ob := &Outbox{Store: a.Store(), Sender: smtpout.New(cfg.SMTP), Log: log.With("part", "outbox"), Now: time.Now, RetryBase: cfg.RetryBase}
	nudge := make(chan struct{}, 1)
	handler := func(ctx context.Context, m imapin.Message) error {
		// Finish the message even if shutdown begins meanwhile: the
		// transaction is short, and leaving it half-done is never better.
		res, err := a.Process(context.WithoutCancel(ctx), m.Raw, m.UIDValidity, m.UID)
		if err != nil {
			return err
		}
		if res.Mails > 0 {
			select {
			case nudge <- struct{}{}:
			default:
			}
		}
		return nil
	}

	if cfg.Once {
		if _, err := a.Tick(ctx); err != nil {
			return fmt.Errorf("clocks: %w", err)
		}
		if err := imapin.Once(ctx, cfg.IMAP, handler); err != nil {
			return fmt.Errorf("reading the mailbox: %w", err)
		}
		if _, err := ob.Flush(ctx); err != nil {
			return fmt.Errorf("delivering the outbox: %w", err)
		}
		return nil
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
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
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
	err := imapin.Run(ctx, cfg.IMAP, handler)
	wg.Wait()
	// Last chance to deliver what the final messages queued.
	flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, ferr := ob.Flush(flushCtx); ferr != nil {
		log.Warn("outbox not fully delivered at shutdown; it will be on the next start", "err", ferr)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// Outbox delivers queued mail.
type Outbox struct {
	Store  *store.Store
	Sender Sender
	Log    *slog.Logger
	Now    func() time.Time
	// RetryBase: see Config.RetryBase.
	RetryBase time.Duration
}

// Loop delivers due mail every interval, or at once when nudged, until ctx
// is done.
func (o *Outbox) Loop(ctx context.Context, every time.Duration, nudge <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := o.Flush(ctx); err != nil && ctx.Err() == nil {
			o.Log.Warn("outbox pass failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-nudge:
		}
	}
}

// Flush tries every due message once. It returns how many were sent. A
// message is marked sent only after the SMTP server accepted it; a failure
// schedules a retry with exponential backoff (30 s doubling, at most 1 h),
// for as long as it takes.
func (o *Outbox) Flush(ctx context.Context) (int, error) {
	sent := 0
	for {
		due, err := o.Store.DueOutbox(ctx, o.Now().UTC(), 50)
		if err != nil {
			return sent, fmt.Errorf("reading the outbox: %w", err)
		}
		if len(due) == 0 {
			return sent, nil
		}
		progressed := false
		for _, m := range due {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			err := o.Sender.Send(ctx, m.From, []string{m.To}, m.Raw)
			if err != nil {
				next := o.Now().UTC().Add(BackoffFrom(o.RetryBase, m.Attempts+1))
				o.Log.Warn("delivery failed; will retry", "to", m.To, "id", m.ID, "attempt", m.Attempts+1, "retry_at", next, "err", err)
				if merr := o.Store.MarkFailed(ctx, m.ID, err.Error(), next); merr != nil {
					return sent, merr
				}
				continue
			}
			if err := o.Store.MarkSent(ctx, m.ID, o.Now().UTC()); err != nil {
				return sent, err
			}
			o.Log.Info("delivered", "to", m.To, "id", m.ID, "message_id", m.MessageID)
			sent++
			progressed = true
		}
		if !progressed {
			return sent, nil
		}
	}
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
