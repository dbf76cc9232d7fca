package daemon_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/daemon"
	"referee/internal/pace"
	"referee/internal/status"
	"referee/internal/store"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// clockSender records each accepted mail with the fake time it went, and
// answers as told by answer (nil: accepted).
type clockSender struct {
	clock  *fakeClock
	answer func(n int) error // n: the attempt's number, from 1
	delay  time.Duration     // real time each send takes (the fake clock stands still)

	mu    sync.Mutex // the outbox sends over several connections at once
	tries int
	sent  []sentMail
}

type sentMail struct {
	at       time.Time
	priority int
}

func (s *clockSender) Send(_ context.Context, _ string, _ []string, raw []byte) error {
	time.Sleep(s.delay)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tries++
	if s.answer != nil {
		if err := s.answer(s.tries); err != nil {
			return err
		}
	}
	var p int
	fmt.Sscanf(string(raw), "Priority: %d", &p)
	s.sent = append(s.sent, sentMail{at: s.clock.Now(), priority: p})
	return nil
}

// queueMixed queues n mails of every priority in turn, as a busy club's
// outbox holds them (a stranger's answer queued before a move's mail).
func queueMixed(t *testing.T, s *store.Store, n int, at time.Time) map[int]int {
	t.Helper()
	prios := []int{store.PriorityStranger, store.PriorityBulk, store.PriorityReminder, store.PriorityPlayer, store.PriorityGame}
	count := map[int]int{}
	err := s.Update(context.Background(), func(tx *store.Tx) error {
		for i := range n {
			p := prios[i%len(prios)]
			count[p]++
			raw := fmt.Sprintf("Priority: %d\r\nMessage-ID: <%d@x>\r\n\r\nhello", p, i)
			if _, err := tx.Enqueue(store.Outgoing{To: fmt.Sprintf("p%d@example.org", i), From: "referee@example.test",
				MessageID: fmt.Sprintf("<%d@x>", i), Raw: []byte(raw), Priority: p, Created: at}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return count
}

// maxInWindow is the most sends of sent within any window of length d.
func maxInWindow(sent []sentMail, d time.Duration) int {
	most, j := 0, 0
	for i := range sent {
		for sent[i].at.Sub(sent[j].at) >= d {
			j++
		}
		most = max(most, i-j+1)
	}
	return most
}

// TestPacedOutboxSendsInPriorityOrderAtTheAllowedPace: 5,000 mails queued
// under --send-limit 100/hour go out at most 100 in any hour (and, spread,
// at most 10 in any 6 minutes), a move's mails first and answers to
// strangers last, every one of them in the end, by the time status
// forecast; pacing is logged once. The same over one SMTP connection and
// over four side by side (each send then takes real time while the fake
// clock stands still, so that several are on the wire at once).
func TestPacedOutboxSendsInPriorityOrderAtTheAllowedPace(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000 mails through SQLite")
	}
	for _, conns := range []int{1, 4} {
		t.Run(fmt.Sprintf("connections=%d", conns), func(t *testing.T) { testPacedOutbox(t, conns) })
	}
}

func testPacedOutbox(t *testing.T, conns int) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	clock := &fakeClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	count := queueMixed(t, s, 5000, clock.Now())
	snd := &clockSender{clock: clock}
	if conns > 1 {
		snd.delay = time.Millisecond
	}
	var logs bytes.Buffer
	ob := &daemon.Outbox{Store: s, Sender: snd, Now: clock.Now, Log: slog.New(slog.NewTextHandler(&logs, nil)),
		Limits: []pace.Limit{{N: 100, Per: time.Hour}}, Connections: conns}

	start := clock.Now()
	var forecast time.Time
	for step := 0; len(snd.sent) < 5000; step++ {
		if step > 100000 {
			t.Fatalf("after %d passes only %d of 5,000 mails went out", step, len(snd.sent))
		}
		if _, err := ob.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if step == 0 {
			st, err := s.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rep := status.Collect(st, nil, clock.Now())
			if rep.Sending == nil || rep.Sending.DrainsBy == nil || rep.Sending.PacedSince == nil {
				t.Fatalf("status after the first pass: %+v; want the pace, since when, and a forecast", rep.Sending)
			}
			forecast = *rep.Sending.DrainsBy
			if q := rep.Sending.Quota; len(q) != 1 || q[0].Used != 10 || q[0].Allowed != 100 {
				t.Errorf("quota after the first pass: %+v; want 10 of 100 used (a tenth at once)", q)
			}
			if rep.OutboxQueue["move"] != count[store.PriorityGame]-10 || rep.OutboxQueue["stranger"] != count[store.PriorityStranger] {
				t.Errorf("queue by priority: %v; want %d moves and %d strangers", rep.OutboxQueue, count[store.PriorityGame]-10, count[store.PriorityStranger])
			}
			var text strings.Builder
			rep.WriteText(&text)
			if !strings.Contains(text.String(), "PACED since") || !strings.Contains(text.String(), "10 of 100 in the last hour") {
				t.Errorf("status text says nothing of the pacing:\n%s", text.String())
			}
		}
		clock.Add(time.Minute)
	}
	if got := maxInWindow(snd.sent, time.Hour); got > 100 {
		t.Errorf("%d mails went out within one hour; the limit is 100", got)
	}
	if got := maxInWindow(snd.sent, 6*time.Minute); got > 10 {
		t.Errorf("%d mails went out within 6 minutes; spread, at most 10", got)
	}
	// Mails sent side by side may be accepted in any order among
	// themselves (they went at the same fake time); across passes, the
	// more urgent first.
	if conns == 1 && !slices.IsSortedFunc(snd.sent, func(a, b sentMail) int { return a.priority - b.priority }) {
		t.Errorf("over one connection, mail went out out of priority order")
	}
	byTime := slices.Clone(snd.sent)
	slices.SortStableFunc(byTime, func(a, b sentMail) int { return cmp.Or(a.at.Compare(b.at), a.priority-b.priority) })
	if !slices.IsSortedFunc(byTime, func(a, b sentMail) int { return a.priority - b.priority }) {
		t.Errorf("mail went out out of priority order")
	}
	took := snd.sent[len(snd.sent)-1].at.Sub(start)
	if took < 49*time.Hour || took > 50*time.Hour {
		t.Errorf("5,000 mails at 100/hour took %s; want just under 50h", took)
	}
	if last := snd.sent[len(snd.sent)-1].at; last.Sub(forecast).Abs() > time.Minute {
		t.Errorf("the last mail went at %s; the forecast said %s", last, forecast)
	}
	if n := strings.Count(logs.String(), "sending limit is reached"); n != 1 {
		t.Errorf("pacing logged %d times; want once:\n%.2000s", n, logs.String())
	}
	n, err := s.PendingOutbox(ctx)
	if err != nil || n != 0 {
		t.Errorf("pending after all: %d, %v; want 0 (nothing dropped)", n, err)
	}
}

// TestRateLimitReplyHalvesThePace: under 100/hour the server answers a
// mail "421 4.7.0 Try again later": the mail waits (not a dead letter),
// and the outbox sends at most 50 in the next hour.
func TestRateLimitReplyHalvesThePace(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	clock := &fakeClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	queueMixed(t, s, 300, clock.Now())
	snd := &clockSender{clock: clock, answer: func(n int) error {
		if n == 5 {
			return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Try again later, closing connection."}
		}
		return nil
	}}
	ob := &daemon.Outbox{Store: s, Sender: snd, Now: clock.Now, Log: discard(), Limits: []pace.Limit{{N: 100, Per: time.Hour}}}
	for range 60 { // one hour, a pass a minute
		if _, err := ob.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Minute)
	}
	if got := len(snd.sent); got > 50 || got < 40 {
		t.Errorf("%d mails went out in the hour after a 421; want about 50 (half of 100/hour)", got)
	}
	failed, err := s.ListOutbox(ctx, store.OutboxFailed)
	if err != nil || len(failed) != 0 {
		t.Errorf("dead letters after a 421: %d, %v; want none (the mail waits)", len(failed), err)
	}
	st, err := s.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep := status.Collect(st, nil, clock.Now()); rep.Sending == nil || rep.Sending.Factor != 0.5 {
		t.Errorf("status: %+v; want the pace at 0.5", rep.Sending)
	}
}

// TestRateLimitReplyWithoutLimits: with no --send-limit, a server's "too
// many messages" answer makes the outbox pace itself at half of what it
// sent in the last hour. Over several connections, the mails on the wire
// when the answer came still go (at most one per other connection).
func TestRateLimitReplyWithoutLimits(t *testing.T) {
	for _, conns := range []int{1, 4} {
		t.Run(fmt.Sprintf("connections=%d", conns), func(t *testing.T) { testRateLimitReplyWithoutLimits(t, conns) })
	}
}

func testRateLimitReplyWithoutLimits(t *testing.T, conns int) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	clock := &fakeClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	queueMixed(t, s, 200, clock.Now())
	snd := &clockSender{clock: clock, answer: func(n int) error {
		switch {
		case n == 41:
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: "Sender rate limit exceeded"}
		case n == 42:
			// The next answer comes 50 ms later (every other send waits
			// for it): the answer to the 41st reaches the outbox before
			// any other send ends, as it would over a network. With
			// instant answers, under the race detector's scheduling the
			// other connections sent a dozen more in the moment before
			// the 41st's goroutine ran again, about once in a hundred runs.
			time.Sleep(50 * time.Millisecond)
		}
		return nil
	}}
	ob := &daemon.Outbox{Store: s, Sender: snd, Now: clock.Now, Log: discard(), Connections: conns}
	for range 60 {
		if _, err := ob.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Minute)
	}
	// 40 at once, then the server complained: 20 an hour from then on.
	if got := len(snd.sent); got < 40 || got > 40+conns-1 {
		t.Errorf("%d mails went out in the hour; want the 40 before the answer (and up to %d on the wire with it), then none (20/hour counts those 40)", got, conns-1)
	}
	pending, _ := s.PendingOutbox(ctx)
	if pending+len(snd.sent) != 200 {
		t.Errorf("%d sent + %d pending; want all 200 (nothing dropped)", len(snd.sent), pending)
	}
}

// TestHalvedPaceSurvivesARestart: after a 421 the pace is halved; a new
// outbox on the same database (a restart, or the next "serve --once")
// keeps it halved rather than starting at full speed again. Over one
// connection, so that no mail is on the wire when the 421 comes (over
// several, the mails handed out before the answer was known still go).
func TestHalvedPaceSurvivesARestart(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	clock := &fakeClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	queueMixed(t, s, 100, clock.Now())
	limits := []pace.Limit{{N: 100, Per: time.Hour}}
	snd := &clockSender{clock: clock, answer: func(n int) error {
		if n == 1 {
			return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Try again later"}
		}
		return nil
	}}
	first := &daemon.Outbox{Store: s, Sender: snd, Now: clock.Now, Log: discard(), Limits: limits, Connections: 1}
	if _, err := first.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	clock.Add(time.Minute)
	again := &daemon.Outbox{Store: s, Sender: snd, Now: clock.Now, Log: discard(), Limits: limits, Connections: 1}
	for range 30 {
		if _, err := again.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Minute)
	}
	// Half of 100/hour, spread: 5 in any 6 minutes, at 0, 6, ..., 30
	// minutes: 30 mails (at full pace it would be 60).
	if got := len(snd.sent); got > 30 {
		t.Errorf("%d mails in the 31 minutes around a restart; want at most 30 (the halved pace)", got)
	}
}

// answerNth is a Sender that answers its nth mail with err and accepts
// the others, recording them; answered is closed once it answered.
type answerNth struct {
	nth      int
	err      error
	answered chan struct{}

	mu   sync.Mutex
	n    int
	sent []string // Message-ID lines
}

func (a *answerNth) Send(_ context.Context, _ string, _ []string, raw []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	if a.n == a.nth {
		close(a.answered)
		return a.err
	}
	a.sent = append(a.sent, strings.SplitN(string(raw), "\r\n", 2)[0])
	return nil
}

// TestRateLimitReplyStopsMailNotYetOnTheWire: under 4 mails an hour, 2
// went; then over two connections the next mail is answered "too many
// messages" while the one after it is still being written. That one does
// not go after the answer: it is given back, and the halved pace (2 an
// hour, both used) keeps it waiting, as every mail handed out but not yet
// on the wire.
func TestRateLimitReplyStopsMailNotYetOnTheWire(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	clock := &fakeClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	snd := &answerNth{nth: 3, answered: make(chan struct{}),
		err: &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: "Sender rate limit exceeded"}}
	limits := []pace.Limit{{N: 4, Per: time.Hour}}
	queueRaw(t, s, []store.Outgoing{{To: "p0@example.test"}, {To: "p1@example.test"}})
	first := &daemon.Outbox{Store: s, Sender: snd, Now: clock.Now, Log: discard(), Limits: limits, Connections: 1}
	if n, err := first.Flush(ctx); err != nil || n != 2 {
		t.Fatalf("first pass: %d sent, %v; want 2", n, err)
	}
	ids := queueRaw(t, s, []store.Outgoing{{To: "a@example.test"}, {To: "b@example.test"}})
	render := func(m store.Outgoing) ([]byte, error) {
		if strings.HasPrefix(string(m.Raw), ids[1]+"\r\n") {
			<-snd.answered // still being written when the answer comes
			time.Sleep(20 * time.Millisecond)
		}
		return m.Raw, nil
	}
	ob := &daemon.Outbox{Store: s, Sender: snd, Render: render, Now: clock.Now, Log: discard(), Limits: limits, Connections: 2}
	if _, err := ob.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if len(snd.sent) != 2 {
		t.Errorf("sent: %v; want only the first pass's two (the last mail was not on the wire when the answer came)", snd.sent)
	}
	all, err := s.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all {
		if o.To == "b@example.test" && (o.Sent != nil || o.Attempts != 0) {
			t.Errorf("%s: sent %v after %d attempts; want it waiting, untried (given back)", o.To, o.Sent, o.Attempts)
		}
	}
}
