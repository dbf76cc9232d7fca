package daemon

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"referee/internal/mail/smtpout"
	"referee/internal/store"
)

// DefaultConnections is how many SMTP connections the outbox delivers over
// side by side when Outbox.Connections is 0. Measured in
// docs/performance.md ("Many replies at once"): 1,000 moves at once on the
// embedded servers and on Postfix, 1 to 4 connections; past 2 the two
// cores this was measured on are the limit, not the SMTP round trips.
const DefaultConnections = 2

// The outbox over several connections. What held with one connection still
// holds:
//
//   - Each mail is sent by one connection only and recorded once: it is
//     claimed in the database before it is sent (as between two daemons),
//     and marked sent as soon as the server accepted it, by the goroutine
//     that sent it. A kill can thus leave at most one accepted but
//     unrecorded mail per connection (each mail's window is as short as
//     before; there are up to Connections of them at once).
//   - Priorities: a mail is handed to a connection only when no more
//     urgent due mail waits undelivered; after each mail of lower
//     priority than a move's the outbox looks whether mail was queued
//     since it read the due list (the newest id, Store.LastQueued), and
//     reads the list again if so, as it read it again after every such
//     mail before. Mails handed out side by side may be accepted in
//     another order.
//   - Per recipient, in order: a recipient's mails go one at a time, in the
//     outbox's order; a mail waits while an earlier one to the same address
//     is on the wire, and no later one to that address passes it.
//   - Pacing (--send-limit) counts each mail on the wire as sent at once:
//     a mail goes only when the limits allow it on top of every mail
//     already accepted and every mail still on the wire.
//   - A session that cannot send (the login refused, the server gone)
//     blocks sending as before: while no connection has proved that it
//     works, one at a time is opened, so a dead server sees one attempt
//     per pass, not Connections.
//   - A "too many messages" answer is noted at once (atomics: no lock
//     between the answer and the other connections), and every mail handed
//     out before it and not yet on the wire (being claimed or written) is
//     given back untried and handed out again by the new pace.
//
// Pipelining (a connection's next mail claimed and written while its
// current one is on the wire) was tried and measured: it did not shorten
// a burst on two cores, where the mail server's work and the referee's
// share the CPU (docs/performance.md, "Pipelining, tried").

// conns is the outbox's SMTP sessions, one per connection.
type conns []*sessionConn

func (o *Outbox) newConns() conns {
	n := cmp.Or(o.Connections, DefaultConnections)
	cs := make(conns, max(n, 1))
	for i := range cs {
		cs[i] = &sessionConn{opener: sessionsOf(o.Sender), limit: o.RefusalsPerSession}
	}
	return cs
}

// rest notes that every session waits idle until the next pass.
func (cs conns) rest() {
	for _, c := range cs {
		c.rest()
	}
}

func (cs conns) close() {
	for _, c := range cs {
		c.close()
	}
}

// Loop delivers due mail every interval, or at once when nudged, until ctx
// is done. The SMTP sessions of one pass are kept for the next for
// KeepOpen (checked with NOOP before one is used again): in a burst of mail
// the daemon nudges the outbox after every message, and a new connection
// each time cost the SMTP server a connection, EHLO and QUIT per message.
// (Moved from daemon.go, and over Connections sessions instead of one.)
func (o *Outbox) Loop(ctx context.Context, every time.Duration, nudge <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	keep := o.KeepOpen
	if keep <= 0 {
		keep = 5 * time.Second
	}
	cs := o.newConns()
	defer cs.close()
	idle := time.NewTimer(keep)
	defer idle.Stop()
	for {
		if _, err := o.flush(ctx, cs); err != nil && ctx.Err() == nil {
			o.Log.Warn("outbox pass failed", "err", err)
		}
		cs.rest()
		idle.Reset(keep)
	wait:
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-nudge:
		case <-idle.C:
			cs.close()
			goto wait
		}
	}
}

// Flush tries every due message once, a move's mails first. It returns how
// many it sent. Each message is claimed before it is sent and skipped if
// another sender holds it, and written (Render) only then. A message is
// marked sent only after the SMTP server accepted it. A permanent refusal
// (5xx, smtpout.IsPermanent) marks it undeliverable: it is not retried
// until an operator says so (referee outbox --retry), except an answer to a
// stranger, which is dropped. A session that cannot send at all (the login
// refused, the server unreachable: smtpout.IsBlocked) blocks sending: the
// message waits, and no other is tried until the block's retry time. A
// kept session the server dropped before the message was offered is
// replaced at once, and the message sent over the new one in the same
// attempt (sessionConn.send). Any other failure schedules a retry with
// exponential backoff (30 s doubling, at most 1 h), for as long as it
// takes. With an SMTP sender, the messages
// of one pass go over Connections connections side by side (see above; a
// new one when one breaks, or after RefusalsPerSession refusals); each
// message's outcome is its own.
func (o *Outbox) Flush(ctx context.Context) (int, error) {
	cs := o.newConns()
	defer cs.close()
	return o.flush(ctx, cs)
}

// sendResult is what became of one mail handed to a connection.
type sendResult struct {
	m    store.Outgoing
	conn *sessionConn
	sent bool
	back bool  // given back untried (see deliver)
	err  error // the store's; a failed send is recorded, not returned
}

// flush is Flush over cs, which the caller closes. The due messages are
// taken by priority (a move's mails first) and looked up again after each
// message of lower priority when mail was queued since they were read, so
// that a move's mails queued meanwhile never wait behind answers to
// strangers; each goes to a free connection, at
// most one per recipient at a time. While sending is blocked (the server
// refused the login, or no session could be opened) it sends nothing until
// the block's retry time. It returns when nothing is due that it has not
// tried, once every mail it handed out has its outcome.
func (o *Outbox) flush(ctx context.Context, cs conns) (int, error) {
	if err := o.loadPace(ctx); err != nil {
		return 0, err
	}
	queued := func() int {
		n, err := o.Store.PendingOutbox(ctx)
		if err != nil {
			o.Log.Warn("counting the outbox", "err", err)
		}
		return n
	}
	var (
		sent     int
		firstErr error
		tried    = map[int64]bool{}
		onWire   = map[string]bool{} // recipients with a mail being sent
		free     = make([]*sessionConn, 0, len(cs))
		proving  = map[*sessionConn]bool{} // on the wire without having proved it works
		inflight int
		results  = make(chan sendResult, len(cs))
		batch    []store.Outgoing // due, in order, not handed out yet
		reread   = true           // read the due list again before the next pick
		look     bool             // read it again if mail was queued since it was read
		queuedAt int64            // the newest mail's id when it was read
		stop     bool             // hand out nothing more: wait for the outcomes and return
	)
	for i := len(cs) - 1; i >= 0; i-- {
		free = append(free, cs[i]) // a stack: cs[0] first, then the last used
	}
	collect := func(r sendResult) {
		inflight--
		delete(onWire, recipientKey(r.m.To))
		delete(proving, r.conn)
		free = append(free, r.conn)
		if r.back {
			// Handed out again, in this pass, by the new state.
			delete(tried, r.m.ID)
			reread = true
		}
		if r.sent {
			sent++
		} else {
			o.paceRelease()
		}
		if r.err != nil && firstErr == nil {
			firstErr, stop = r.err, true
		}
		if o.isBlocked() {
			stop = true
		}
	}
	for {
		for drained := false; !drained; { // take every outcome that is in
			select {
			case r := <-results:
				collect(r)
			default:
				drained = true
			}
		}
		if !stop && ctx.Err() != nil {
			firstErr, stop = cmp.Or(firstErr, ctx.Err()), true
		}
		if !stop && o.isBlocked() && !o.retryRequested(ctx) {
			stop = true
		}
		if stop {
			for inflight > 0 {
				collect(<-results)
			}
			return sent, firstErr
		}
		if reread {
			last, err := o.Store.LastQueued(ctx)
			if err != nil {
				firstErr, stop = err, true
				continue
			}
			due, err := o.Store.DueOutbox(ctx, o.Now().UTC(), 50+inflight)
			if err != nil {
				firstErr, stop = fmt.Errorf("reading the outbox: %w", err), true
				continue
			}
			batch = batch[:0]
			for _, m := range due {
				if !tried[m.ID] {
					batch = append(batch, m)
				}
			}
			reread, look, queuedAt = false, false, last
			if len(batch) == 0 && inflight == 0 {
				o.paceIdle(ctx)
				return sent, firstErr
			}
		}
		// The first mail of the batch whose recipient has no mail on the
		// wire nor one before it in the batch, and a connection for it.
		pick := -1
		held := map[string]bool{}
		for i, m := range batch {
			k := recipientKey(m.To)
			if onWire[k] || held[k] {
				held[k] = true
				continue
			}
			pick = i
			break
		}
		conn := freeConn(free, proving)
		if pick < 0 || conn < 0 {
			if inflight == 0 {
				// All connections and recipients are free, so the batch
				// is empty: read the due list again.
				reread = true
				continue
			}
			collect(<-results)
			if len(batch) == 0 {
				reread = true
			}
			continue
		}
		if look {
			// A mail of lower priority than a move's went out: a move's
			// mail queued since the due list was read goes before the
			// rest of the batch. Reading the newest id costs a look-up;
			// reading the due list after every such mail, as before,
			// cost a read of 50 rows each time (in a burst of 1,000
			// moves, half the mails are the movers' confirmations:
			// 1,000 reads).
			look = false
			if last, err := o.Store.LastQueued(ctx); err != nil || last != queuedAt {
				reread = true
				continue
			}
		}
		// Read before the pace is looked at: an answer that comes after
		// this gives the mail back before it goes on the wire.
		epoch := o.slowEpoch()
		if inflight > 0 && (o.slowingDown() || !o.paceRoom()) {
			// A "too many messages" answer is being taken in, or the
			// limits leave no room beside the mails on the wire: wait
			// for an outcome (a mail that was not accepted frees its
			// room) and look again.
			collect(<-results)
			continue
		}
		if !o.paceAllows(ctx, queued) {
			stop = true // the sending limit: the rest waits, in order
			continue
		}
		c, m := free[conn], batch[pick]
		free = append(free[:conn], free[conn+1:]...)
		batch = append(batch[:pick], batch[pick+1:]...)
		if !c.proved() {
			proving[c] = true
		}
		tried[m.ID] = true
		onWire[recipientKey(m.To)] = true
		inflight++
		go func() {
			ok, back, err := o.deliver(ctx, m, c, epoch)
			results <- sendResult{m: m, conn: c, sent: ok, back: back, err: err}
		}()
		switch {
		case len(batch) == 0:
			reread = true
		case m.Priority > store.PriorityGame:
			look = true // a move's mail may have been queued meanwhile
		}
	}
}

// freeConn picks the connection for the next mail among free (a stack,
// the most recently used last), or returns -1: an open session first;
// else one to open, unless another is being opened or tried (proving), so
// that a server that is down sees one attempt a pass, not one per
// connection.
func freeConn(free []*sessionConn, proving map[*sessionConn]bool) int {
	for i := len(free) - 1; i >= 0; i-- {
		if free[i].proved() {
			return i
		}
	}
	if len(free) > 0 && len(proving) == 0 {
		return len(free) - 1
	}
	return -1
}

// recipientKey is the address a recipient's mails are kept in order by.
func recipientKey(addr string) string { return strings.ToLower(strings.TrimSpace(addr)) }

// blockOnce is block for a blocking answer, unless sending is blocked
// already: with several connections, the sends on the wire when the server
// went away each come back blocked, and that is one blocked pass, not
// several (each would double the wait before the next attempt).
func (o *Outbox) blockOnce(ctx context.Context, err error) time.Time {
	o.blockMu.Lock()
	defer o.blockMu.Unlock()
	o.mu.Lock()
	already, until := o.blocked.n > 0 && o.Now().Before(o.blocked.until), o.blocked.until
	o.mu.Unlock()
	if already {
		return until
	}
	return o.block(ctx, err)
}

// sessionOpener is a Sender that can send many messages over one
// connection (smtpout.Client).
type sessionOpener interface {
	Open(ctx context.Context) (*smtpout.Session, error)
}

func sessionsOf(s Sender) sessionOpener {
	o, _ := s.(sessionOpener)
	return o
}

// sessionConn is one SMTP session of the outbox's passes, opened at the
// first send and again after it broke. (Moved from daemon.go, unchanged.)
// It is used by one goroutine at a time: the pass hands it to the send of
// one mail and takes it back with the outcome.
type sessionConn struct {
	opener sessionOpener
	s      *smtpout.Session
	rested bool // the session waited idle since its last send
	// refused counts the messages the server refused in this session;
	// at limit (0 means 3) the next message gets a fresh session.
	refused, limit int
}

// rest notes that the session waits idle until the next pass.
func (c *sessionConn) rest() { c.rested = c.s != nil }

// proved reports whether the connection is open, having sent before (or
// needs no session: a plain Sender).
func (c *sessionConn) proved() bool { return c.opener == nil || c.s != nil }

// send sends one message over the session, opening it first when needed,
// and checking first with NOOP that a session that rested still answers
// (else a new one is opened: the server may close idle connections).
func (c *sessionConn) send(ctx context.Context, from string, to []string, raw []byte) error {
	if c.s != nil && c.rested {
		c.rested = false
		if err := c.s.Noop(ctx); err != nil {
			c.close()
		}
	}
	kept := c.s != nil
	if c.s == nil {
		s, err := c.opener.Open(ctx)
		if err != nil {
			return err
		}
		c.s = s
	}
	err := c.s.Send(ctx, from, to, raw)
	if err != nil && kept && c.s.Broken() && !c.s.Offered() && ctx.Err() == nil {
		// The server dropped the session kept from the last mail (as
		// servers drop connections, between a NOOP and the next mail
		// too) before this one was offered: nothing of it reached the
		// server, so a new session sends it now, not after a retry's wait.
		c.close()
		s, oerr := c.opener.Open(ctx)
		if oerr != nil {
			return oerr
		}
		c.s = s
		err = c.s.Send(ctx, from, to, raw)
	}
	if err != nil && !c.s.Broken() {
		// Servers that tarpit (Postfix's smtpd_error_sleep_time and
		// soft_error_limit) answer each command of a session more slowly
		// after a few errors: a fresh session answers at full speed.
		c.refused++
		if c.refused >= cmp.Or(c.limit, 3) {
			c.close()
		}
	}
	if c.s != nil && c.s.Broken() {
		c.close()
	}
	return err
}

func (c *sessionConn) close() {
	if c.s != nil {
		_ = c.s.Close() // every message's outcome is already known
		c.s = nil
	}
	c.refused = 0
}
