package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/mail/smtpout"
)

// One daemon per database (DESIGN.md, "Never lose, never double"): a
// second `referee serve` on the same database refuses to start and names
// the first one's pid, and `serve --once` next to a running daemon either
// refuses or never sends a reply twice. Both run against a slow SMTP
// server (a relay in the test that holds every DATA for a while before
// handing the mail to the mail system's SMTP server), which leaves the outbox's mails due long
// enough for a second sender to see them.

// slowRelay is an SMTP server that holds each message for delay, then
// relays it to the mail system, and counts what it relayed by Message-ID.
type slowRelay struct {
	addr     string
	upstream *smtpout.Client
	delay    time.Duration

	mu       sync.Mutex
	relayed  map[string]int // Message-ID -> times relayed
	order    []string
	inFlight int         // DATA commands begun and not yet answered
	data     chan string // Message-ID of each DATA as it begins (dropped when full)
}

func (e *env) startSlowRelay(t testing.TB, delay time.Duration) *slowRelay {
	t.Helper()
	r := &slowRelay{upstream: smtpout.New(smtpout.Config{Addr: e.mail.smtpAddr(), TLS: "none"}), delay: delay,
		relayed: map[string]int{}, data: make(chan string, 64)}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = l.Addr().String()
	s := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &relaySession{r: r}, nil }))
	s.Domain = "slow-relay.example.test"
	s.ReadTimeout, s.WriteTimeout = time.Minute, time.Minute
	s.ErrorLog = log.New(io.Discard, "", 0)
	go s.Serve(l)
	t.Cleanup(func() { s.Close() })
	return r
}

// twice lists the Message-IDs relayed more than once.
func (r *slowRelay) twice() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for id, n := range r.relayed {
		if n > 1 {
			out = append(out, fmt.Sprintf("%s ×%d", id, n))
		}
	}
	sort.Strings(out)
	return out
}

func (r *slowRelay) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.order)
}

type relaySession struct {
	r    *slowRelay
	from string
	to   []string
}

func (s *relaySession) Reset()        { s.from, s.to = "", nil }
func (s *relaySession) Logout() error { return nil }
func (s *relaySession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}
func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}
func (s *relaySession) Data(body io.Reader) error {
	raw, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	id := headerOf(raw, "Message-ID")
	s.r.mu.Lock()
	s.r.inFlight++
	s.r.mu.Unlock()
	defer func() {
		s.r.mu.Lock()
		s.r.inFlight--
		s.r.mu.Unlock()
	}()
	select {
	case s.r.data <- id:
	default:
	}
	time.Sleep(s.r.delay)
	if err := s.r.upstream.Send(context.Background(), s.from, s.to, raw); err != nil {
		return fmt.Errorf("relaying to the mail system: %w", err)
	}
	s.r.mu.Lock()
	s.r.relayed[id]++
	s.r.order = append(s.r.order, id)
	s.r.mu.Unlock()
	return nil
}

// lockedBuffer collects a child process's stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serveProc is a `referee serve` process.
type serveProc struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	done   chan struct{}
	err    error // after done
}

func (p *serveProc) pid() int { return p.cmd.Process.Pid }

// exited waits up to d for the process to end.
func (p *serveProc) exited(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}

// startServe starts `referee serve` (with extra flags) on db, reading the
// private Dovecot and sending through smtpAddr. It is killed at cleanup if
// still running.
func (e *env) startServe(t testing.TB, bin, db, smtpAddr string, extra ...string) *serveProc {
	t.Helper()
	args := append([]string{"serve", "--db", db, "--address", referee, "--imap", e.mail.imapAddr(), "--imap-user", referee,
		"--imap-pass", password, "--imap-tls", "none", "--smtp", smtpAddr, "--smtp-tls", "none",
		"--poll", "200ms", "--retry", "200ms", "--log-level", "info"}, extra...)
	p := &serveProc{cmd: exec.Command(bin, args...), stderr: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.done
	})
	return p
}

// stop ends a serve process as an operator does (SIGTERM), waiting for it.
func (p *serveProc) stop(t testing.TB) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	if !p.exited(15 * time.Second) {
		t.Errorf("referee serve (pid %d) did not stop within 15 s of SIGTERM", p.pid())
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// namesPid reports whether text names pid as a number of its own.
func namesPid(text string, pid int) bool {
	p := strconv.Itoa(pid)
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r < '0' || r > '9' }) {
		if f == p {
			return true
		}
	}
	return false
}

// waitIdle waits until the relay holds no mail: every DATA it began was
// relayed (or refused).
func (r *slowRelay) waitIdle(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(mailWait)
	for {
		r.mu.Lock()
		n := r.inFlight
		r.mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the relay still holds %d mail(s) after %v", n, mailWait)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// settled waits until the referee of db has handled everything (see
// handled) and the relay holds nothing: a reply sent twice has arrived.
func (e *env) settled(t testing.TB, relay *slowRelay, db string, ps ...*player) {
	t.Helper()
	e.handled(t, db, ps...)
	relay.waitIdle(t)
}

func TestSecondDaemonRefused(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, e *env) { secondDaemonRefused(t, e, "") })
}

// TestSecondDaemonThroughHardLinkRefused: the second daemon reaches the
// database through a hard link, a path of its own to the same file (issue
// 28: both ran, a move was lost and the players got contradictory answers).
func TestSecondDaemonThroughHardLinkRefused(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, e *env) { secondDaemonRefused(t, e, "hard link") })
}

// secondDaemonRefused starts a daemon, then a second one on the same
// database (through a hard link when via says so), on one mail system, and
// checks that the second refuses, naming the first, and that no reply is
// sent twice.
func secondDaemonRefused(t *testing.T, e *env, via string) {
	alice, bob := setupPlayers()
	bin := buildReferee(t)
	relay := e.startSlowRelay(t, 1500*time.Millisecond)
	db := filepath.Join(t.TempDir(), "referee.db")
	newGame(t, db, "chess", alice, bob)

	first := e.startServe(t, bin, db, relay.addr)
	e.waitBoth(t, alice, bob)

	secondDB := db
	if via == "hard link" {
		secondDB = filepath.Join(t.TempDir(), "same.db")
		if err := os.Link(db, secondDB); err != nil {
			t.Fatal(err)
		}
	}
	second := e.startServe(t, bin, secondDB, relay.addr)
	if second.exited(10 * time.Second) {
		if exitCode(second.err) == 0 {
			t.Errorf("the second referee serve exited with status 0 next to pid %d; want a failure status", first.pid())
		}
		if !namesPid(second.stderr.String(), first.pid()) {
			t.Errorf("the second referee serve refused without naming pid %d of the first:\n%s", first.pid(), second.stderr.String())
		}
	} else {
		t.Errorf("a second referee serve (pid %d) runs on the database that pid %d serves; want it to refuse to start, naming pid %d",
			second.pid(), first.pid(), first.pid())
	}

	// Whatever happened, no reply may be sent twice.
	e.send(t, alice, "e4")
	e.waitBoth(t, alice, bob)
	e.settled(t, relay, db, alice, bob)
	if dup := relay.twice(); len(dup) > 0 {
		t.Errorf("with two referee serve on one database, %d of %d replies were sent more than once: %s", len(dup), relay.count(), strings.Join(dup, ", "))
	}
	if late := append(e.drain(t, alice.addr), e.drain(t, bob.addr)...); len(late) > 0 {
		t.Errorf("the players received %d extra mail(s):%s", len(late), describe(late))
	}
	first.stop(t)
}

func TestOnceNextToDaemon(t *testing.T) {
	t.Parallel()
	eachBackend(t, testOnceNextToDaemon)
}

// testOnceNextToDaemon is TestOnceNextToDaemon on one mail system.
func testOnceNextToDaemon(t *testing.T, e *env) {
	alice, bob := setupPlayers()
	bin := buildReferee(t)
	relay := e.startSlowRelay(t, 1500*time.Millisecond)
	db := filepath.Join(t.TempDir(), "referee.db")
	newGame(t, db, "chess", alice, bob)

	daemon := e.startServe(t, bin, db, relay.addr)
	e.waitBoth(t, alice, bob)
	e.settled(t, relay, db, alice, bob)
	for len(relay.data) > 0 {
		<-relay.data
	}

	// The daemon has begun sending the move's two replies (each held 1.5 s
	// by the relay) when `serve --once` runs on the same database.
	e.send(t, alice, "e4")
	select {
	case <-relay.data:
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon sent no reply to the move within 30 s")
	}
	once := e.startServe(t, bin, db, relay.addr, "--once")
	if !once.exited(60 * time.Second) {
		t.Fatal("referee serve --once did not finish within 60 s")
	}
	if code := exitCode(once.err); code != 0 {
		if !namesPid(once.stderr.String(), daemon.pid()) {
			t.Errorf("referee serve --once failed (status %d) without naming pid %d of the running daemon:\n%s", code, daemon.pid(), once.stderr.String())
		} else {
			t.Logf("referee serve --once refused next to pid %d: %s", daemon.pid(), strings.TrimSpace(once.stderr.String()))
		}
	}
	e.waitBoth(t, alice, bob)
	e.settled(t, relay, db, alice, bob)
	if dup := relay.twice(); len(dup) > 0 {
		t.Errorf("serve --once next to a running daemon sent %d of %d replies a second time: %s", len(dup), relay.count(), strings.Join(dup, ", "))
	}
	if late := append(e.drain(t, alice.addr), e.drain(t, bob.addr)...); len(late) > 0 {
		t.Errorf("the players received %d extra mail(s):%s", len(late), describe(late))
	}
	daemon.stop(t)
}
