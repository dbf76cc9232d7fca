package imapin_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"referee/internal/mail/embedded"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
)

const (
	user     = "referee@example.test"
	password = "secret"
)

// Capability sets of the test servers. IMAP4rev2 implies IDLE, MOVE and
// UIDPLUS, so the reduced servers speak IMAP4rev1 only.
var (
	capsFull   = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}, imap.CapIdle: {}, imap.CapMove: {}, imap.CapUIDPlus: {}}
	capsNoIdle = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapMove: {}, imap.CapUIDPlus: {}} // and withoutIdle
	capsNoMove = imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIdle: {}, imap.CapUIDPlus: {}}
	capsBare   = imap.CapSet{imap.CapIMAP4rev1: {}}
)

// testServer is an in-process go-imap v2 server on 127.0.0.1 whose
// connections the test can drop.
type testServer struct {
	addr    string
	user    *imapmemserver.User
	ln      *dropListener
	fetches *fetchLog
	cert    *x509.Certificate // the server's, in modes tls and starttls
}

// fetchLog records the FETCH commands a server received.
type fetchLog struct {
	mu sync.Mutex
	l  []fetchRecord
	// ignorePartial makes the server send whole messages when asked for
	// a range, as a broken or hostile server might.
	ignorePartial bool
}

type fetchRecord struct {
	set      string // the UIDs or sequence numbers asked for
	sections []imap.FetchItemBodySection
	size     bool
}

func (l *fetchLog) list() []fetchRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.l)
}

// dropListener remembers the connections it accepted so that a test can
// cut them, as a network failure or a server restart would.
type dropListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *dropListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

// drop closes every connection accepted so far.
func (l *dropListener) drop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

func newServer(t *testing.T, caps imap.CapSet) *testServer {
	t.Helper()
	return newTLSServer(t, caps, "none")
}

// selfSigned makes a certificate for 127.0.0.1.
func selfSigned(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

// newTLSServer starts a server whose transport is mode: "none",
// "starttls" or "tls".
func newTLSServer(t *testing.T, caps imap.CapSet, mode string) *testServer {
	t.Helper()
	mem := imapmemserver.New()
	fetches := &fetchLog{}
	u := imapmemserver.NewUser(user, password)
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	opts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return recordingSession{idleSession{mem.NewSession().(imapserver.SessionIMAP4rev2)}, fetches}, nil, nil
		},
		Caps:         caps,
		InsecureAuth: mode == "none",
		Logger:       log.New(io.Discard, "", 0),
	}
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var cert *x509.Certificate
	if mode != "none" {
		tc := selfSigned(t)
		if cert, err = x509.ParseCertificate(tc.Certificates[0].Certificate[0]); err != nil {
			t.Fatal(err)
		}
		if mode == "starttls" {
			opts.TLSConfig = tc
		} else {
			inner = tls.NewListener(inner, tc)
		}
	}
	srv := imapserver.New(opts)
	ln := &dropListener{Listener: inner}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close(); ln.drop() })
	return &testServer{addr: inner.Addr().String(), user: u, ln: ln, fetches: fetches, cert: cert}
}

// idleSession works around imapmemserver not sending, when IDLE starts,
// the updates queued just before it (a message appended between the
// reader's last command and its IDLE would otherwise go unnoticed): it
// sends pending updates first and re-checks every 200 ms. The embedded
// server carries the same fix.
type idleSession struct {
	imapserver.SessionIMAP4rev2
}

func (s idleSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		if err := s.SessionIMAP4rev2.Poll(w, true); err != nil {
			return err
		}
		inner := make(chan struct{})
		go func() {
			defer close(inner)
			select {
			case <-stop:
			case <-time.After(200 * time.Millisecond):
			}
		}()
		if err := s.SessionIMAP4rev2.Idle(w, inner); err != nil {
			return err
		}
		<-inner
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

// recordingSession records every FETCH in a fetchLog.
type recordingSession struct {
	idleSession
	log *fetchLog
}

func (s recordingSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	r := fetchRecord{set: numSet.String(), size: options.RFC822Size}
	for _, bs := range options.BodySection {
		c := *bs
		if bs.Partial != nil {
			p := *bs.Partial
			c.Partial = &p
		}
		r.sections = append(r.sections, c)
	}
	s.log.mu.Lock()
	s.log.l = append(s.log.l, r)
	ignore := s.log.ignorePartial
	s.log.mu.Unlock()
	if ignore {
		for _, bs := range options.BodySection {
			bs.Partial = nil
		}
	}
	return s.idleSession.Fetch(w, numSet, options)
}

// withoutIdle puts a proxy in front of the server that removes IDLE from
// its capability lists: go-imap's server always advertises IDLE to a logged
// in IMAP4rev1 client, whatever Options.Caps says. The test messages never
// contain the word, so rewriting whole lines is safe here.
func (ts *testServer) withoutIdle(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	target := ts.addr
	go func() {
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				down.Close()
				continue
			}
			go func() { io.Copy(up, down); up.Close() }()
			go func() {
				defer down.Close()
				br := bufio.NewReader(up)
				for {
					line, err := br.ReadString('\n')
					if strings.Contains(line, "CAPABILITY") {
						line = strings.ReplaceAll(line, " IDLE", "")
					}
					if _, werr := io.WriteString(down, line); werr != nil || err != nil {
						return
					}
				}
			}()
		}
	}()
	ts.addr = ln.Addr().String()
}

func (ts *testServer) cfg() imapin.Config {
	return imapin.Config{Addr: ts.addr, User: user, Password: password, TLS: "none", Poll: 100 * time.Millisecond}
}

func msg(n int) []byte {
	return fmt.Appendf(nil, "From: a@example.test\r\nTo: %s\r\nSubject: m%d\r\nMessage-ID: <m%d@example.test>\r\n\r\nbody %d\r\n", user, n, n, n)
}

// client logs in as a second, independent IMAP client (a mail program, or
// the MTA delivering).
func (ts *testServer) client(t *testing.T) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(ts.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

// appendMsgs appends messages through a second client.
func (ts *testServer) appendMsgs(t *testing.T, mailbox string, ns ...int) {
	t.Helper()
	c := ts.client(t)
	defer c.Close()
	for _, n := range ns {
		raw := msg(n)
		cmd := c.Append(mailbox, int64(len(raw)), nil)
		if _, err := cmd.Write(raw); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := cmd.Wait(); err != nil {
			t.Fatalf("appending m%d to %s: %v", n, mailbox, err)
		}
	}
}

// flags returns the flags of every message of mailbox, by subject.
func (ts *testServer) flags(t *testing.T, mailbox string) map[string][]imap.Flag {
	t.Helper()
	c := ts.client(t)
	defer c.Close()
	if _, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatalf("selecting %s: %v", mailbox, err)
	}
	section := &imap.FetchItemBodySection{Peek: true}
	all, err := c.Fetch(imap.UIDSet{imap.UIDRange{Start: 1, Stop: 0}}, &imap.FetchOptions{Flags: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]imap.Flag{}
	for _, m := range all {
		out[subject(m.FindBodySection(section))] = m.Flags
	}
	return out
}

func subject(raw []byte) string {
	_, after, ok := bytes.Cut(raw, []byte("Subject: "))
	if !ok {
		return "?"
	}
	return strings.Fields(string(after))[0]
}

// recorder is a handler that records subjects in order and can fail a
// subject a given number of times.
type recorder struct {
	mu    sync.Mutex
	got   []string
	fails map[string]int
	hook  func(subject string) // called after recording, before returning
	ch    chan string
}

func newRecorder() *recorder {
	return &recorder{fails: map[string]int{}, ch: make(chan string, 100)}
}

func (r *recorder) handle(_ context.Context, m imapin.Message) error {
	s := subject(m.Raw)
	r.mu.Lock()
	r.got = append(r.got, s)
	fail := r.fails[s] > 0
	if fail {
		r.fails[s]--
	}
	r.mu.Unlock()
	if r.hook != nil {
		r.hook(s)
	}
	r.ch <- s
	if fail {
		return errors.New("database is locked")
	}
	return nil
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// await waits for the handler to have been called for want, in this order.
func (r *recorder) await(t *testing.T, want ...string) {
	t.Helper()
	for _, w := range want {
		select {
		case s := <-r.ch:
			if s != w {
				t.Fatalf("handler got %s, want %s (all so far: %v)", s, w, r.list())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("handler not called for %s within 10 s (so far: %v)", w, r.list())
		}
	}
}

// runBG starts Run and returns a function that stops it and checks that it
// returned ctx's error.
func runBG(t *testing.T, cfg imapin.Config, h imapin.Handler) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- imapin.Run(ctx, cfg, h) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-errc:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("Run returned %v, want context.Canceled", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("Run did not return within 10 s of its context ending")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// has reports whether flags holds f; flags and keywords are
// case-insensitive (RFC 3501), and imapmemserver lower-cases keywords.
func has(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(g imap.Flag) bool { return strings.EqualFold(string(g), string(f)) })
}

func TestOnceInUIDOrderByteExactAndMarkedDone(t *testing.T) {
	// Brief: every message not done is handed over in UID order, byte-exact,
	// read with BODY.PEEK[]; after the handler returned nil it carries
	// $RefereeDone and \Seen, and a second pass hands over nothing.
	ts := newServer(t, capsFull)
	ts.appendMsgs(t, "INBOX", 3, 1, 2) // UIDs 1, 2, 3 hold m3, m1, m2
	var got []imapin.Message
	h := func(_ context.Context, m imapin.Message) error { got = append(got, m); return nil }
	cfg := ts.cfg()
	cfg.Batch = 2 // two fetch batches
	if err := imapin.Once(context.Background(), cfg, h); err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for i, m := range got {
		subjects = append(subjects, subject(m.Raw))
		if m.UID != uint32(i+1) || m.UIDValidity == 0 || m.InternalDate.IsZero() {
			t.Errorf("message %d: UIDVALIDITY %d, UID %d, date %v", i, m.UIDValidity, m.UID, m.InternalDate)
		}
	}
	if s := strings.Join(subjects, " "); s != "m3 m1 m2" {
		t.Fatalf("handled %q, want m3 m1 m2 (UID order)", s)
	}
	if !bytes.Equal(got[1].Raw, msg(1)) {
		t.Errorf("raw message changed:\n%q\nwant\n%q", got[1].Raw, msg(1))
	}
	for s, f := range ts.flags(t, "INBOX") {
		if !has(f, imapin.DoneFlag) || !has(f, imap.FlagSeen) {
			t.Errorf("%s has flags %v, want $RefereeDone and \\Seen", s, f)
		}
	}
	got = nil
	if err := imapin.Once(context.Background(), cfg, h); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("a second pass handled %d messages already done", len(got))
	}
}

func TestFailingHandlerLeavesMessageUnseenForNextPass(t *testing.T) {
	// Brief: only when the handler returns nil is the message marked done; a
	// failing one is left as it was (not even \Seen) and retried.
	ts := newServer(t, capsFull)
	ts.appendMsgs(t, "INBOX", 1, 2)
	r := newRecorder()
	r.fails["m1"] = 1
	if err := imapin.Once(context.Background(), ts.cfg(), r.handle); err != nil {
		t.Fatalf("a failing handler made Once fail: %v", err)
	}
	f := ts.flags(t, "INBOX")
	if len(f["m1"]) != 0 {
		t.Errorf("m1 failed but has flags %v, want none", f["m1"])
	}
	if !has(f["m2"], imapin.DoneFlag) {
		t.Errorf("m2 succeeded but has flags %v", f["m2"])
	}
	if err := imapin.Once(context.Background(), ts.cfg(), r.handle); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(r.list(), " "); s != "m1 m2 m1" {
		t.Errorf("handled %q, want m1 m2 m1 (m1 retried, m2 not)", s)
	}
	if f := ts.flags(t, "INBOX"); !has(f["m1"], imapin.DoneFlag) {
		t.Errorf("m1 succeeded on retry but has flags %v", f["m1"])
	}
}

func TestRunRetriesFailedMessageOnNextPass(t *testing.T) {
	// Brief: a failing handler leaves the message; Run's next pass (after the
	// polling interval) retries it and then marks it done.
	ts := newServer(t, capsNoIdle)
	ts.withoutIdle(t)
	ts.appendMsgs(t, "INBOX", 1)
	r := newRecorder()
	r.fails["m1"] = 2
	runBG(t, ts.cfg(), r.handle)
	r.await(t, "m1", "m1", "m1")
	waitDone(t, ts, "m1")
}

// waitDone waits until every subject is flagged done.
func waitDone(t *testing.T, ts *testServer, subjects ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		f := ts.flags(t, "INBOX")
		missing := ""
		for _, s := range subjects {
			if !has(f[s], imapin.DoneFlag) {
				missing = s
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is not flagged done within 10 s: %v", missing, f)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRunWaitsForNewMail(t *testing.T) {
	// Brief: with IDLE advertised, Run wakes on EXISTS for a message appended
	// by another client after it started (Poll is an hour, so only IDLE can
	// wake it); without IDLE it polls every Poll.
	for _, tt := range []struct {
		name string
		idle bool
		poll time.Duration
	}{
		{"IDLE", true, time.Hour},
		{"polling", false, 300 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newServer(t, capsFull)
			if !tt.idle {
				ts = newServer(t, capsNoIdle)
				ts.withoutIdle(t)
			}
			ts.appendMsgs(t, "INBOX", 1)
			r := newRecorder()
			cfg := ts.cfg()
			cfg.Poll = tt.poll
			var logs syncBuffer
			cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			runBG(t, cfg, r.handle)
			r.await(t, "m1")
			if want := fmt.Sprintf("idle=%v", tt.idle); !strings.Contains(logs.String(), want) {
				t.Fatalf("the reader did not report %s:\n%s", want, logs.String())
			}
			sent := time.Now()
			ts.appendMsgs(t, "INBOX", 2)
			r.await(t, "m2")
			t.Logf("%s: new mail handled %v after it was appended", tt.name, time.Since(sent))
			waitDone(t, ts, "m1", "m2")
		})
	}
}

func TestDoneFolder(t *testing.T) {
	// Brief: with DoneFolder set, a done message goes there (the folder is
	// created if missing): UID MOVE where the server has MOVE, else COPY,
	// STORE \Deleted and UID EXPUNGE. Without UIDPLUS there is no UID
	// EXPUNGE, and a plain EXPUNGE would remove other \Deleted mail too: the
	// original stays, flagged done and \Deleted.
	for _, tt := range []struct {
		name      string
		caps      imap.CapSet
		inboxLeft int
	}{
		{"MOVE", capsFull, 0},
		{"COPY and UID EXPUNGE", capsNoMove, 0},
		{"COPY without UIDPLUS", capsBare, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newServer(t, tt.caps)
			ts.appendMsgs(t, "INBOX", 1, 2)
			r := newRecorder()
			r.fails["m2"] = 1
			cfg := ts.cfg()
			cfg.DoneFolder = "Referee/Done"
			if err := imapin.Once(context.Background(), cfg, r.handle); err != nil {
				t.Fatal(err)
			}
			f := ts.flags(t, "INBOX")
			if m2, ok := f["m2"]; !ok || len(m2) != 0 || len(f) != 1+tt.inboxLeft/2 {
				t.Errorf("after m2 failed, INBOX holds %v, want m2 untouched", f)
			}
			if err := imapin.Once(context.Background(), cfg, r.handle); err != nil {
				t.Fatal(err)
			}
			done := ts.flags(t, "Referee/Done")
			if len(done) != 2 || !has(done["m1"], imapin.DoneFlag) || !has(done["m2"], imap.FlagSeen) {
				t.Errorf("done folder holds %v, want m1 and m2 flagged done and seen", done)
			}
			inbox := ts.flags(t, "INBOX")
			if len(inbox) != tt.inboxLeft {
				t.Errorf("INBOX holds %v, want %d messages", inbox, tt.inboxLeft)
			}
			for s, f := range inbox {
				if !has(f, imap.FlagDeleted) || !has(f, imapin.DoneFlag) {
					t.Errorf("%s left in INBOX with flags %v", s, f)
				}
			}
			if s := strings.Join(r.list(), " "); s != "m1 m2 m2" {
				t.Errorf("handled %q, want m1 m2 m2", s)
			}
		})
	}
}

func TestRunReconnectsAfterDroppedConnection(t *testing.T) {
	// Brief: after ANY failure Run reconnects (1 s backoff) and loses no
	// message. A message is handled twice only when the connection broke
	// between its handler's success and the done flag of its batch (the
	// store dedupes those by UID and Message-ID); every other message is
	// handled exactly once. With batches of one (the old way), that is
	// the message being handled when the line broke; with batches of 20,
	// every message of its batch handled so far (m1 and m2 here).
	for _, c := range []struct {
		batch int
		want  []string
	}{
		{1, []string{"m1", "m2", "m2", "m3"}},
		{20, []string{"m1", "m2", "m1", "m2", "m3"}},
	} {
		t.Run(fmt.Sprintf("batch=%d", c.batch), func(t *testing.T) {
			ts := newServer(t, capsFull)
			ts.appendMsgs(t, "INBOX", 1, 2, 3)
			r := newRecorder()
			var dropped sync.Once
			r.hook = func(s string) {
				if s == "m2" {
					dropped.Do(ts.ln.drop) // cut the line while m2 is being handled
				}
			}
			cfg := ts.cfg()
			cfg.Poll = time.Hour
			cfg.Batch = c.batch
			runBG(t, cfg, r.handle)
			r.await(t, c.want...)
			waitDone(t, ts, "m1", "m2", "m3")
			// Now cut it while Run idles, and deliver new mail meanwhile.
			ts.ln.drop()
			ts.appendMsgs(t, "INBOX", 4)
			r.await(t, "m4")
			waitDone(t, ts, "m1", "m2", "m3", "m4")
			if got, want := strings.Join(r.list(), " "), strings.Join(append(c.want, "m4"), " "); got != want {
				t.Errorf("handled %q, want %q", got, want)
			}
		})
	}
}

// TestBatchMarkedDoneTogether: the messages of one batch are flagged done
// with one UID STORE after the last of them was handled, not one STORE a
// message; none is flagged before its handler returned.
func TestBatchMarkedDoneTogether(t *testing.T) {
	ts := newServer(t, capsFull)
	ts.appendMsgs(t, "INBOX", 1, 2, 3, 4, 5)
	var seen []map[string][]imap.Flag
	h := func(ctx context.Context, m imapin.Message) error {
		seen = append(seen, ts.flags(t, "INBOX"))
		return nil
	}
	cfg := ts.cfg()
	cfg.Batch = 3
	if err := imapin.Once(context.Background(), cfg, h); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 5 {
		t.Fatalf("%d messages handled, want 5", len(seen))
	}
	// While m1-m3 (the first batch) are handled none is done; while m4
	// and m5 are, the whole first batch is and neither of these.
	for i, f := range seen {
		for j := 1; j <= 5; j++ {
			name := fmt.Sprintf("m%d", j)
			want := i >= 3 && j <= 3
			if has(f[name], imapin.DoneFlag) != want {
				t.Errorf("while m%d was handled, %s done: %v, want %v", i+1, name, !want, want)
			}
		}
	}
	waitDone(t, ts, "m1", "m2", "m3", "m4", "m5")
}

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestUIDValidityChangeRescans(t *testing.T) {
	// Brief: when UIDVALIDITY changes (the mailbox was deleted and
	// recreated), Run logs it and looks at every message again.
	ts := newServer(t, capsNoIdle)
	ts.withoutIdle(t)
	if err := ts.user.Create("Games", nil); err != nil {
		t.Fatal(err)
	}
	ts.appendMsgs(t, "Games", 1)
	var logs syncBuffer
	var validities []uint32
	var mu sync.Mutex
	r := newRecorder()
	h := func(ctx context.Context, m imapin.Message) error {
		mu.Lock()
		validities = append(validities, m.UIDValidity)
		mu.Unlock()
		return r.handle(ctx, m)
	}
	cfg := ts.cfg()
	cfg.Mailbox = "Games"
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	stop := runBG(t, cfg, h)
	r.await(t, "m1")
	// Recreate the mailbox in one step from the server side, as a
	// restored backup would, with the same message in it again.
	if err := ts.user.Delete("Games"); err != nil {
		t.Fatal(err)
	}
	if err := ts.user.Create("Games", nil); err != nil {
		t.Fatal(err)
	}
	ts.appendMsgs(t, "Games", 1)
	r.await(t, "m1")
	stop()
	mu.Lock()
	defer mu.Unlock()
	if len(validities) != 2 || validities[0] == validities[1] {
		t.Errorf("UIDVALIDITY seen: %v, want two different values", validities)
	}
	if !strings.Contains(logs.String(), "UIDVALIDITY changed") {
		t.Errorf("no log line about the UIDVALIDITY change:\n%s", logs.String())
	}
}

func TestHungServerDoesNotHang(t *testing.T) {
	// A server that accepts the login and then never answers must not hang
	// the reader: the command timeout drops the connection.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		fmt.Fprint(c, "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n")
		sc := bufio.NewScanner(c)
		for sc.Scan() {
			tag, rest, _ := strings.Cut(sc.Text(), " ")
			if strings.HasPrefix(strings.ToUpper(rest), "LOGIN") {
				fmt.Fprintf(c, "%s OK [CAPABILITY IMAP4rev1] logged in\r\n", tag)
			} // everything else: silence
		}
	}()
	cfg := imapin.Config{Addr: ln.Addr().String(), User: user, Password: password, TLS: "none", CommandTimeout: 200 * time.Millisecond}
	done := make(chan error, 1)
	go func() {
		done <- imapin.Once(context.Background(), cfg, func(context.Context, imapin.Message) error { return nil })
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "selecting") {
			t.Errorf("Once = %v, want an error naming the SELECT that got no answer", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Once still waits for a silent server after 10 s")
	}
}

func TestTLSModes(t *testing.T) {
	// Brief: TLS "starttls" and "tls" reach the server encrypted (the
	// server refuses LOGIN in clear text), and a certificate that cannot be
	// verified is refused unless InsecureSkipVerify is set.
	for _, mode := range []string{"starttls", "tls"} {
		ts := newTLSServer(t, capsFull, mode)
		if _, err := ts.user.Append("INBOX", literal{bytes.NewReader(msg(1)), int64(len(msg(1)))}, &imap.AppendOptions{}); err != nil {
			t.Fatal(err)
		}
		cfg := ts.cfg()
		cfg.TLS = mode
		if err := imapin.Once(context.Background(), cfg, func(context.Context, imapin.Message) error { return nil }); err == nil || !strings.Contains(err.Error(), "certificate") ||
			!strings.Contains(err.Error(), "--tls-ca") {
			t.Errorf("%s with a self-signed certificate: %v, want a certificate error that names --tls-ca", mode, err)
		}
		cfg.InsecureSkipVerify = true
		r := newRecorder()
		if err := imapin.Once(context.Background(), cfg, r.handle); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if s := strings.Join(r.list(), " "); s != "m1" {
			t.Errorf("%s: handled %q, want m1", mode, s)
		}
		// Issue 38: a private CA is given with --tls-ca (RootCAs); the
		// test server's certificate is its own authority.
		withCA := cfg
		withCA.RootCAs = x509.NewCertPool()
		withCA.RootCAs.AddCert(ts.cert)
		if _, err := ts.user.Append("INBOX", literal{bytes.NewReader(msg(2)), int64(len(msg(2)))}, &imap.AppendOptions{}); err != nil {
			t.Fatal(err)
		}
		r = newRecorder()
		if err := imapin.Once(context.Background(), withCA, r.handle); err != nil {
			t.Errorf("%s with the certificate's CA in RootCAs: %v", mode, err)
		} else if s := strings.Join(r.list(), " "); s != "m2" {
			t.Errorf("%s with the CA: handled %q, want m2", mode, s)
		}
	}
}

// literal is a message for imapmemserver's User.Append.
type literal struct {
	*bytes.Reader
	n int64
}

func (l literal) Size() int64 { return l.n }

func TestConfigErrors(t *testing.T) {
	// Brief: TLS "none" is refused unless the host is a loopback address,
	// and the error says so; other mistakes name what was read.
	for _, tt := range []struct {
		cfg  imapin.Config
		want string
	}{
		{imapin.Config{Addr: "192.0.2.1:143", TLS: "none"}, "loopback"},
		{imapin.Config{Addr: "imap.example.org:143", TLS: "none"}, "starttls"},
		{imapin.Config{Addr: "127.0.0.1:143", TLS: "ssl"}, `"ssl" is unknown`},
		{imapin.Config{Addr: "imap.example.org", TLS: "tls"}, "host:port"},
	} {
		err := imapin.Once(context.Background(), tt.cfg, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want one mentioning %q", tt.cfg, err, tt.want)
		}
	}
}

func TestThroughEmbeddedServer(t *testing.T) {
	// The whole path of `referee serve` without a mail server: mail sent by
	// SMTP to a plus-address of the referee is read by IMAP, in order.
	srv, err := embedded.Start(context.Background(), embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.EnsureUser(user)
	c := smtpout.New(smtpout.Config{Addr: srv.SMTPAddr(), TLS: "none"})
	for i := 1; i <= 3; i++ {
		if err := c.Send(context.Background(), "a@example.test", []string{fmt.Sprintf("referee+%d@example.test", i)}, msg(i)); err != nil {
			t.Fatal(err)
		}
	}
	r := newRecorder()
	cfg := imapin.Config{Addr: srv.IMAPAddr(), User: user, Password: srv.Password(), TLS: "none", Poll: time.Hour}
	runBG(t, cfg, r.handle)
	r.await(t, "m1", "m2", "m3")
	if err := c.Send(context.Background(), "a@example.test", []string{user}, msg(4)); err != nil {
		t.Fatal(err)
	}
	r.await(t, "m4")
}
