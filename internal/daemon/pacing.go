package daemon

import (
	"context"
	"slices"
	"time"

	"referee/internal/pace"
	"referee/internal/store"
)

// minFactor is the slowest pace after repeated "too many messages"
// answers: a 64th of the limits.
const minFactor = 1.0 / 64

// pacer is the outbox's state under the sending limits (Outbox.Limits).
// The limits count the mail the server accepted lately, read from the
// outbox (so a restart or a second sender does not reset them); each
// "too many messages" answer of the server halves the pace, and each
// quiet window after it doubles it again, up to the limits.
type pacer struct {
	base    []pace.Limit // as configured; derived from the last hour when none were and the server complained
	factor  float64      // share of base in use: 1, 1/2, 1/4, ...
	slowed  time.Time    // the last "too many messages" answer
	since   time.Time    // mail has waited for the limits since; zero while none waits
	sent    []time.Time  // sends in the longest window, oldest first
	loaded  bool
	started bool // the pace was recorded in the database

	// onWire counts the mails handed to a connection and not yet
	// answered: each counts as sent now (paceAllows), so that several
	// connections together never send more than the limits allow.
	onWire int
	halved time.Time // the last halving (slowDown)
}

// limits are the limits in force: base scaled by factor, spread (see
// pace.Spread).
func (p *pacer) limits() []pace.Limit {
	return pace.Spread(pace.Scale(p.base, p.factor))
}

// loadPace reads the recent sends from the database at the start of a
// pass, and lets the pace recover: a full window of the shortest limit
// without a "too many messages" answer doubles it, up to the limits.
func (o *Outbox) loadPace(ctx context.Context) error {
	if o.currentFactor() == 0 {
		// A pace halved before a restart stays halved (under the same
		// limits), and recovers as it would have.
		rec, err := o.Store.ReadSendPace(ctx)
		if err != nil {
			return err
		}
		o.mu.Lock()
		o.pace.factor, o.pace.base = 1, o.Limits
		if rec != nil && rec.Factor > 0 && rec.Factor < 1 && rec.Limits == pace.Format(o.Limits) && len(o.Limits) > 0 {
			o.pace.factor, o.pace.slowed = rec.Factor, o.Now().UTC()
		}
		o.mu.Unlock()
	}
	o.mu.Lock()
	p := &o.pace
	now := o.Now().UTC()
	changed := !p.started
	if p.factor < 1 && len(p.base) > 0 {
		shortest := p.base[0].Per
		for _, l := range p.base {
			shortest = min(shortest, l.Per)
		}
		for p.factor < 1 && now.Sub(p.slowed) >= shortest {
			p.factor *= 2
			p.slowed = p.slowed.Add(shortest)
			changed = true
			o.Log.Info("no \"too many messages\" answer for a while: sending faster again", "pace", pace.Format(pace.Scale(p.base, p.factor)))
		}
	}
	window := pace.Longest(p.base)
	o.mu.Unlock()
	if window == 0 {
		o.recordPace(ctx, changed)
		return nil
	}
	sent, err := o.Store.SentSince(ctx, now.Add(-window))
	if err != nil {
		return err
	}
	o.mu.Lock()
	p.sent, p.loaded = sent, true
	o.mu.Unlock()
	o.recordPace(ctx, changed)
	return nil
}

// paceAllows reports whether one more mail may go now, counting the mails
// on the wire as sent now; queued is how many wait. When it may, the mail
// counts as on the wire from then on, until paceSent (accepted) or
// paceRelease (not). When it may not, pacing starts: logged once, with the
// forecast of when the queue drains, and recorded for "referee status".
func (o *Outbox) paceAllows(ctx context.Context, queued func() int) bool {
	o.mu.Lock()
	p := &o.pace
	ls := p.limits()
	now := o.Now().UTC()
	next := p.next(ls, now)
	if !next.After(now) {
		p.onWire++
		o.mu.Unlock()
		return true
	}
	starting := p.since.IsZero()
	if starting {
		p.since = now
	}
	sent := slices.Clone(p.sent)
	in := pace.Format(pace.Scale(p.base, p.factor))
	o.mu.Unlock()
	if starting {
		n := queued()
		o.Log.Warn("the sending limit is reached: the outbox is paced, the most urgent mail first, and nothing is dropped",
			"limits", in, "queued", n, "next_send", next, "drains_by", pace.Drain(ls, sent, n, now))
		o.recordPace(ctx, true)
	}
	return false
}

// next is when one more mail may go under ls, counting the mails on the
// wire as sent at now.
func (p *pacer) next(ls []pace.Limit, now time.Time) time.Time {
	counted := p.sent
	if p.onWire > 0 && len(ls) > 0 {
		counted = slices.Clone(p.sent)
		for range p.onWire {
			counted = append(counted, now)
		}
	}
	return pace.Next(ls, counted, now)
}

// paceRoom reports whether one more mail may go now beside those on the
// wire, as paceAllows does, but changes nothing.
func (o *Outbox) paceRoom() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.Now().UTC()
	return !o.pace.next(o.pace.limits(), now).After(now)
}

// paceSent counts a send at now: a mail on the wire was accepted.
func (o *Outbox) paceSent(now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pace.onWire = max(o.pace.onWire-1, 0)
	if o.pace.loaded {
		// Kept oldest first: sends answered side by side may report
		// their times in another order.
		i := len(o.pace.sent)
		for i > 0 && o.pace.sent[i-1].After(now) {
			i--
		}
		o.pace.sent = slices.Insert(o.pace.sent, i, now)
	}
}

// paceRelease notes that a mail on the wire was not accepted (refused,
// failed, or taken by another sender): it no longer counts.
func (o *Outbox) paceRelease() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pace.onWire = max(o.pace.onWire-1, 0)
}

// paceIdle notes that nothing waits: pacing, if it was on, is over.
func (o *Outbox) paceIdle(ctx context.Context) {
	o.mu.Lock()
	was := !o.pace.since.IsZero()
	o.pace.since = time.Time{}
	o.mu.Unlock()
	if was {
		o.Log.Info("the outbox is empty: pacing is over")
		o.recordPace(ctx, true)
	}
}

// slowDown halves the pace after the server's "too many messages" answer,
// and returns when the refused mail may be tried again. With no limit
// configured, the pace starts from half of what went out in the last
// hour.
func (o *Outbox) slowDown(ctx context.Context, err error) time.Time {
	now := o.Now().UTC()
	if len(o.currentBase()) == 0 {
		sent, serr := o.Store.SentSince(ctx, now.Add(-time.Hour))
		if serr != nil {
			o.Log.Warn("reading the mail sent in the last hour", "err", serr)
		}
		o.mu.Lock()
		o.pace.base = []pace.Limit{{N: max(2, len(sent)), Per: time.Hour}}
		o.pace.sent, o.pace.loaded = sent, true
		o.mu.Unlock()
	}
	o.mu.Lock()
	p := &o.pace
	if p.halved.IsZero() || now.Sub(p.halved) >= time.Second {
		// The answers to mails sent side by side over several
		// connections come together: they are one answer.
		p.factor = max(p.factor/2, minFactor)
		p.halved = now
	}
	p.slowed = now
	ls := p.limits()
	next := pace.Next(ls, p.sent, now.Add(time.Minute))
	in := pace.Format(pace.Scale(p.base, p.factor))
	o.mu.Unlock()
	o.Log.Warn("the SMTP server says the referee sends too much: halving the pace; the mail waits, nothing is dropped",
		"err", err, "pace", in, "retry_at", next)
	o.recordPace(ctx, true)
	return next
}

// tooManyAnswer notes at once that a send was answered "too many
// messages": no mail is handed out until deliver has had slowDown take
// it in (slowingDown), and none handed out before goes on the wire (slowEpoch).
// Atomics, not o.mu: a lock between the answer and the other connections'
// sends let them send on for milliseconds under load.
func (o *Outbox) tooManyAnswer() {
	o.slowing.Add(1)
	o.tooMany.Add(1)
}

// slowingDown reports whether a "too many messages" answer is being taken
// in: the next mail waits for the new pace.
func (o *Outbox) slowingDown() bool { return o.slowing.Load() > 0 }

// slowEpoch counts the "too many messages" answers: a mail handed out
// before one goes only if no other came since.
func (o *Outbox) slowEpoch() int64 { return o.tooMany.Load() }

func (o *Outbox) currentFactor() float64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.pace.factor
}

func (o *Outbox) currentBase() []pace.Limit {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pace.factor == 0 {
		o.pace.factor, o.pace.base = 1, o.Limits
	}
	return o.pace.base
}

// recordPace writes the pace to the database when changed (or never
// written), where "referee status" and /metrics read it.
func (o *Outbox) recordPace(ctx context.Context, changed bool) {
	if !changed {
		return
	}
	o.mu.Lock()
	p := &o.pace
	rec := store.SendPace{Limits: pace.Format(p.base), Factor: p.factor, Since: p.since}
	p.started = true
	o.mu.Unlock()
	if err := o.Store.SetSendPace(context.WithoutCancel(ctx), rec); err != nil {
		o.Log.Warn("recording the sending pace", "err", err)
	}
}
