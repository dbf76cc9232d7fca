package daemon_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"maps"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/daemon"
	"referee/internal/mail/smtpout"
	"referee/internal/pace"
	"referee/internal/store"
)

// wireSender is a Sender that watches what is on the wire: every send takes
// delay (plus up to jitter), and it records the order the sends began, the
// most that were on the wire at once, and any two sends to one recipient
// that overlapped.
type wireSender struct {
	delay, jitter time.Duration

	mu       sync.Mutex
	started  []string // Message-ID lines, in the order the sends began
	done     map[string][]string
	onWire   map[string]bool // recipients
	now, top int
	overlaps []string
}

func (w *wireSender) Send(ctx context.Context, _ string, to []string, raw []byte) error {
	id := strings.SplitN(string(raw), "\r\n", 2)[0]
	rcpt := strings.ToLower(to[0]) // one mailbox, however it is spelt
	w.mu.Lock()
	if w.onWire == nil {
		w.onWire, w.done = map[string]bool{}, map[string][]string{}
	}
	if w.onWire[rcpt] {
		w.overlaps = append(w.overlaps, rcpt)
	}
	w.onWire[rcpt] = true
	w.started = append(w.started, id)
	w.now++
	w.top = max(w.top, w.now)
	w.mu.Unlock()
	d := w.delay
	if w.jitter > 0 {
		d += rand.N(w.jitter)
	}
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return ctx.Err()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.now--
	delete(w.onWire, rcpt)
	w.done[rcpt] = append(w.done[rcpt], id)
	return nil
}

// queueRaw queues one mail per (recipient, priority) pair, in order; each
// mail's first line names it: "Message-ID: <n.recipient>".
func queueRaw(t *testing.T, s *store.Store, mails []store.Outgoing) []string {
	t.Helper()
	var ids []string
	err := s.Update(context.Background(), func(tx *store.Tx) error {
		for i, m := range mails {
			id := fmt.Sprintf("Message-ID: <%d.%s>", i, m.To)
			m.Raw = []byte(id + "\r\nPriority: " + fmt.Sprint(m.Priority) + "\r\n\r\nhello")
			m.From, m.MessageID = "referee@example.test", fmt.Sprintf("<%d.%s>", i, m.To)
			if _, err := tx.Enqueue(m); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestConnectionsSendSideBySide: with 4 connections and a slow server, 4
// mails are on the wire at once, and each of 40 mails is sent once and
// recorded sent once, at its first attempt.
func TestConnectionsSendSideBySide(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var mails []store.Outgoing
	for i := range 40 {
		mails = append(mails, store.Outgoing{To: fmt.Sprintf("p%d@example.test", i)})
	}
	queueRaw(t, s, mails)
	w := &wireSender{delay: 10 * time.Millisecond}
	ob := &daemon.Outbox{Store: s, Sender: w, Log: discard(), Now: time.Now, Connections: 4}
	if n, err := ob.Flush(context.Background()); err != nil || n != 40 {
		t.Fatalf("%d sent, %v; want 40", n, err)
	}
	if w.top != 4 {
		t.Errorf("at most %d mails were on the wire at once; want 4 (the connections)", w.top)
	}
	seen := map[string]int{}
	for _, id := range w.started {
		seen[id]++
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s sent %d times", id, n)
		}
	}
	all, err := s.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all {
		if o.Sent == nil || o.Attempts != 1 {
			t.Errorf("%s: sent %v after %d attempts; want sent at the first", o.To, o.Sent, o.Attempts)
		}
	}
}

// TestConnectionsServeTheMostUrgentFirst: 200 mails of every priority in
// turn (a stranger's answer queued before a move's mail, as in a busy
// club), 4 connections: a mail begins only when no more urgent one waits.
// The sends handed out together may begin in any order among themselves,
// so a mail may begin before at most 3 more urgent ones; in queue order,
// nearly every mail would.
func TestConnectionsServeTheMostUrgentFirst(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	prios := []int{store.PriorityStranger, store.PriorityBulk, store.PriorityReminder, store.PriorityPlayer, store.PriorityGame}
	var mails []store.Outgoing
	for i := range 200 {
		mails = append(mails, store.Outgoing{To: fmt.Sprintf("p%d@example.test", i), Priority: prios[i%len(prios)]})
	}
	ids := queueRaw(t, s, mails)
	prio := map[string]int{}
	for i, id := range ids {
		prio[id] = mails[i].Priority
	}
	const conns = 4
	w := &wireSender{delay: 2 * time.Millisecond, jitter: 3 * time.Millisecond}
	ob := &daemon.Outbox{Store: s, Sender: w, Log: discard(), Now: time.Now, Connections: conns}
	if n, err := ob.Flush(context.Background()); err != nil || n != 200 {
		t.Fatalf("%d sent, %v; want 200", n, err)
	}
	for i, id := range w.started {
		later := 0 // more urgent mails that began after this one
		for _, other := range w.started[i+1:] {
			if prio[other] < prio[id] {
				later++
			}
		}
		if later > conns-1 {
			t.Fatalf("send %d (%s, priority %d) began before %d more urgent mails; at most %d may (handed out together)",
				i+1, id, prio[id], later, conns-1)
		}
	}
}

// queueingSender is a wireSender that queues more mail (with queue) while
// it sends the mail whose first line is at.
type queueingSender struct {
	wireSender
	at    string
	queue func()
	once  sync.Once
}

func (q *queueingSender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	if strings.HasPrefix(string(raw), q.at+"\r\n") {
		q.once.Do(q.queue)
	}
	return q.wireSender.Send(ctx, from, to, raw)
}

// TestMoveQueuedMeanwhileGoesNext: a move's mail queued while answers to
// strangers are being sent goes out next, before the strangers' mails
// that were due before it: after each mail of lower priority than a
// move's the outbox looks whether mail was queued since it read its due
// list (it no longer reads the list again after every such mail).
func TestMoveQueuedMeanwhileGoesNext(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var mails []store.Outgoing
	for i := range 20 {
		mails = append(mails, store.Outgoing{To: fmt.Sprintf("s%d@example.test", i), Priority: store.PriorityStranger})
	}
	ids := queueRaw(t, s, mails)
	const move = "Message-ID: <move@example.test>"
	w := &queueingSender{wireSender: wireSender{delay: time.Millisecond}, at: ids[4], queue: func() {
		err := s.Update(context.Background(), func(tx *store.Tx) error {
			_, err := tx.Enqueue(store.Outgoing{To: "player@example.test", From: "referee@example.test", MessageID: "<move@example.test>",
				Priority: store.PriorityGame, Raw: []byte(move + "\r\n\r\nyour move")})
			return err
		})
		if err != nil {
			t.Error(err) // in the outbox's goroutine: no Fatal
		}
	}}
	ob := &daemon.Outbox{Store: s, Sender: w, Log: discard(), Now: time.Now, Connections: 1}
	if n, err := ob.Flush(context.Background()); err != nil || n != 21 {
		t.Fatalf("%d sent, %v; want 21", n, err)
	}
	if len(w.started) != 21 || w.started[5] != move {
		t.Errorf("sends began in the order %v; want the move's mail sixth, right after the mail it was queued during", w.started)
	}
}

// TestConnectionsKeepEachRecipientsOrder: 6 recipients with 10 mails each,
// queued interleaved, 4 connections and sends of varying length: each
// recipient receives its mails in the order they were queued, never two at
// once, while the connections are kept busy with the others.
func TestConnectionsKeepEachRecipientsOrder(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var mails []store.Outgoing
	for i := range 60 {
		// The same address in another case is the same mailbox.
		to := fmt.Sprintf("player%d@example.test", i%6)
		if i%4 == 3 {
			to = strings.ToUpper(to[:1]) + to[1:]
		}
		mails = append(mails, store.Outgoing{To: to})
	}
	ids := queueRaw(t, s, mails)
	w := &wireSender{delay: time.Millisecond, jitter: 4 * time.Millisecond}
	ob := &daemon.Outbox{Store: s, Sender: w, Log: discard(), Now: time.Now, Connections: 4}
	if n, err := ob.Flush(context.Background()); err != nil || n != 60 {
		t.Fatalf("%d sent, %v; want 60", n, err)
	}
	want := map[string][]string{}
	for i, id := range ids {
		k := strings.ToLower(mails[i].To)
		want[k] = append(want[k], id)
	}
	for k := range want {
		if !slices.Equal(w.done[k], want[k]) {
			t.Errorf("%s received\n%v\nwant, in the order queued,\n%v", k, w.done[k], want[k])
		}
	}
	if len(w.overlaps) > 0 {
		t.Errorf("two mails to one recipient were on the wire at once: %v", w.overlaps)
	}
	if w.top < 4 {
		t.Errorf("at most %d mails on the wire at once; want 4 (6 recipients for 4 connections)", w.top)
	}
}

// TestConnectionsStayUnderTheSendingLimit: under --send-limit 30/minute
// (spread: 3 in any 6 seconds), 4 connections whose sends take real time
// while the fake clock stands still: never more than the limits allow in
// any window, counting the mails on the wire, and no fewer than they allow
// (the pace is exact, not merely safe): 3 at each 6 s, so 30 in the first
// minute and 93 by 3 minutes (31 windows of 6 s begun).
func TestConnectionsStayUnderTheSendingLimit(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	clock := &fakeClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	queueMixed(t, s, 200, clock.Now())
	snd := &clockSender{clock: clock, delay: 3 * time.Millisecond}
	ob := &daemon.Outbox{Store: s, Sender: snd, Now: clock.Now, Log: discard(), Limits: []pace.Limit{{N: 30, Per: time.Minute}}, Connections: 4}
	start := clock.Now()
	for range 181 { // 3 minutes, a pass a second
		if _, err := ob.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Second)
	}
	if got := maxInWindow(snd.sent, time.Minute); got > 30 {
		t.Errorf("%d mails within a minute; the limit is 30", got)
	}
	if got := maxInWindow(snd.sent, 6*time.Second); got > 3 {
		t.Errorf("%d mails within 6 seconds; spread, at most 3", got)
	}
	inFirst := 0
	for _, m := range snd.sent {
		if m.at.Sub(start) < time.Minute {
			inFirst++
		}
	}
	if inFirst != 30 || len(snd.sent) != 93 {
		t.Errorf("%d mails in the first minute and %d by 3 minutes; want exactly 30 and 93 (3 every 6 s)", inFirst, len(snd.sent))
	}
}

// TestConnectionsBlockedServerTriedOnce: with 4 connections and no server
// listening, a pass tries one mail, not four, and blocks sending once.
func TestConnectionsBlockedServerTriedOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	queue(t, s, "a@example.test", "b@example.test", "c@example.test", "d@example.test", "e@example.test")
	ob := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: addr, TLS: "none", Timeout: 5 * time.Second}),
		Log: discard(), Now: time.Now, Connections: 4}
	if n, err := ob.Flush(context.Background()); err != nil || n != 0 {
		t.Fatalf("%d sent, %v; want none and no error (the mail waits)", n, err)
	}
	all, err := s.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, o := range all {
		tried += o.Attempts
	}
	if tried != 1 {
		t.Errorf("%d attempts in the pass; want 1 (a server that is down sees one attempt a pass)", tried)
	}
	if why, _, err := s.SendingBlocked(context.Background()); err != nil || why == "" {
		t.Errorf("sending blocked: %q, %v; want the reason recorded", why, err)
	}
}

// slowServer is an SMTP server that takes delay to accept each mail, and
// counts each Message-ID it accepted, and the mails of each EHLO name.
type slowServer struct {
	delay time.Duration
	mu    sync.Mutex
	got   map[string]int
	by    map[string]int
}

func (b *slowServer) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &slowSession{b: b, c: c}, nil
}

type slowSession struct {
	b *slowServer
	c *smtp.Conn
}

func (s *slowSession) Reset()                               {}
func (s *slowSession) Logout() error                        { return nil }
func (s *slowSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *slowSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *slowSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	time.Sleep(s.b.delay)
	id := strings.SplitN(string(b), "\r\n", 2)[0]
	s.b.mu.Lock()
	s.b.got[id]++
	s.b.by[s.c.Hostname()]++
	s.b.mu.Unlock()
	return nil
}

func (b *slowServer) counts() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.got)
}

func (b *slowServer) sentBy(helo string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.by[helo]
}

// killChildEnv names the database and SMTP server of the outbox that
// TestKillDuringConcurrentSends runs in a child process and kills.
const killChildEnv = "REFEREE_TEST_SENDER_CHILD"

// TestKillDuringConcurrentSends: an outbox delivering 300 mails over 4
// connections is killed (SIGKILL) while mails are on the wire, three times
// over, beside a second outbox on the same database sending too; then one
// more runs to the end. Every mail reached the server and is recorded sent
// once; a mail reached the server twice only when a kill fell between the
// server's acceptance and the record of it, so each kill doubles at most
// one mail per connection of the killed outbox.
func TestKillDuringConcurrentSends(t *testing.T) {
	if env := os.Getenv(killChildEnv); env != "" {
		// The child: one outbox, killed by the parent. It does not
		// release claims at start (only the holder of the daemon lock
		// may): the other outbox's claims are live.
		db, rest, _ := strings.Cut(env, " ")
		addr, helo, _ := strings.Cut(rest, " ")
		s, err := store.Open(context.Background(), db)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		ob := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: addr, TLS: "none", Timeout: 5 * time.Second, HeloName: helo}),
			Log: discard(), Now: time.Now, Connections: 4}
		ob.Flush(context.Background())
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("kills a child process three times")
	}
	const conns, total = 4, 600
	srv := &slowServer{delay: 3 * time.Millisecond, got: map[string]int{}, by: map[string]int{}}
	server := smtp.NewServer(srv)
	server.Domain = "localhost"
	server.ErrorLog = log.New(io.Discard, "", 0) // the killed children's connections
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go server.Serve(ln)
	t.Cleanup(func() { server.Close() })

	db := filepath.Join(t.TempDir(), "r.db")
	s := openStore(t, db)
	var mails []store.Outgoing
	for i := range total {
		mails = append(mails, store.Outgoing{To: fmt.Sprintf("p%d@example.test", i%50)})
	}
	ids := queueRaw(t, s, mails)

	// A second outbox on the same database, as a second daemon or `serve
	// --once` beside one; it is not killed.
	other := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 5 * time.Second, HeloName: "other"}),
		Log: discard(), Now: time.Now, Connections: 1}
	otherDone := make(chan struct{})
	go func() {
		defer close(otherDone)
		other.Flush(context.Background())
	}()

	kills := 0
	for round := range 3 {
		helo := fmt.Sprintf("child%d", round)
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringConcurrentSends$")
		cmd.Env = append(os.Environ(), killChildEnv+"="+db+" "+ln.Addr().String()+" "+helo)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once the child has sent some mails: others are on the
		// wire then.
		deadline := time.Now().Add(30 * time.Second)
		for srv.sentBy(helo) < 20+round*7 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if srv.sentBy(helo) == 0 {
			t.Fatalf("child %d sent nothing in 30 s", round)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++
	}
	<-otherDone
	// The last run: a new start releases the dead runs' claims and sends
	// the rest.
	if _, err := s.ReleaseAllClaims(context.Background()); err != nil {
		t.Fatal(err)
	}
	last := &daemon.Outbox{Store: s, Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 5 * time.Second}),
		Log: discard(), Now: time.Now, Connections: conns}
	for range 3 { // a mail another run had claimed is tried on the next pass
		if _, err := last.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}

	got := srv.counts()
	twice := 0
	for _, id := range ids {
		switch n := got[id]; {
		case n == 0:
			t.Errorf("%s never reached the server", id)
		case n > 1:
			twice += n - 1
		}
	}
	if twice > kills*conns {
		t.Errorf("%d mails reached the server twice after %d kills; at most %d may (one per connection on the wire at each kill)", twice, kills, kills*conns)
	}
	all, err := s.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	recorded := 0
	for _, o := range all {
		if o.Sent == nil {
			t.Errorf("mail #%d to %s is not recorded sent (state %s)", o.ID, o.To, o.State(time.Now()))
			continue
		}
		recorded++
		if o.Attempts != 1 {
			t.Errorf("mail #%d to %s: %d attempts recorded; want 1 (recorded once, whoever sent it)", o.ID, o.To, o.Attempts)
		}
	}
	if recorded != total {
		t.Errorf("%d mails recorded sent; want all %d", recorded, total)
	}
	t.Logf("%d kills, %d mails reached the server twice (kill between the server's acceptance and the record)", kills, twice)
}
