// Package e2e plays games by mail through mail servers, the referee
// reading over IMAP and answering over SMTP as the players do. The safety
// scenarios (crash, mailbox rebuild, forged From, bot loop, two daemons,
// lobby) run against two mail systems with one code path (backend_test.go):
// the embedded servers in every `go test`, and private Dovecot and Postfix
// instances (internal/mailtest, scripts/mailservers.sh; Postfix takes the
// mail over SMTP and delivers it to Dovecot over LMTP) on free ports of
// 127.0.0.1 when asked: CI=true or REFEREE_E2E=1. The tests of Postfix
// itself (down, then back), the games of every variant and the benchmarks
// run on the real servers only.
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"referee/internal/app"
	"referee/internal/daemon"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
	"referee/internal/mailtest"
	"referee/internal/notation"
	"referee/internal/rules"
	"referee/internal/store"
)

const (
	referee  = "referee@example.test"
	password = mailtest.Password
)

// env is one test's mail servers, and what the test's helpers share.
type env struct {
	mail mailSystem
	// real is the private Dovecot and Postfix pair, nil on the embedded
	// servers: for the tests that stop Postfix or talk LMTP.
	real  *mailtest.Servers
	seq   atomic.Int64 // Message-ID numbers of the test's mails
	boxes sessions     // the players' open IMAP sessions
	// toReferee counts the mails the test handed to the mail system for
	// the referee (see handled).
	toReferee atomic.Int64
}

// mailWait bounds the wait for one reply: far above the fraction of a
// second a reply takes, so that a machine busy with other builds does not
// fail a test that is only slow.
const mailWait = 45 * time.Second

// newEnv starts private Dovecot and Postfix instances for t, or skips t
// when the end-to-end tests were not asked for (see mailtest.Enabled).
func newEnv(t testing.TB) *env {
	t.Helper()
	srv := mailtest.Start(t)
	e := &env{mail: dovecot{srv}, real: srv}
	t.Cleanup(e.boxes.closeAll) // before the servers stop
	return e
}

func repoRoot() string {
	dir, _ := os.Getwd()
	for dir != "/" {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		dir = filepath.Dir(dir)
	}
	return "."
}

// player reads mail over IMAP and sends over SMTP.
type player struct {
	addr string
	last *received
}

type received struct {
	subject, replyTo, messageID, text string
	size                              int // of the whole mail, in bytes
}

// drain marks every new message of user done and returns them, in the
// order they arrived. It keeps one IMAP session per user open for the
// whole test: a new session costs Dovecot a login and a process, about 150
// ms on a busy machine, against under a millisecond for a poll on an open
// one.
func (e *env) drain(t testing.TB, user string) []*received {
	t.Helper()
	raws, err := e.boxes.fetchNew(e.mail.imapAddr(), user)
	if err != nil {
		// Once more on a new session: the server may have closed the old.
		e.boxes.drop(user)
		raws, err = e.boxes.fetchNew(e.mail.imapAddr(), user)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []*received
	for _, raw := range raws {
		out = append(out, parseMail(t, raw))
	}
	return out
}

func parseMail(t testing.TB, raw []byte) *received {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	m := &received{messageID: r.Header.Get("Message-ID"), size: len(raw)}
	m.subject, _ = r.Header.Subject()
	if rt, err := r.Header.AddressList("Reply-To"); err == nil && len(rt) > 0 {
		m.replyTo = rt[0].Address
	}
	for {
		p, err := r.NextPart()
		if err != nil {
			break
		}
		if h, ok := p.Header.(*gomail.InlineHeader); ok {
			if ct, _, _ := h.ContentType(); ct == "text/plain" && m.text == "" {
				b, _ := io.ReadAll(p.Body)
				m.text = string(b)
			}
		}
	}
	return m
}

// waitMail waits until user has received n new mails.
func (e *env) waitMail(t testing.TB, p *player, n int, timeout time.Duration) []*received {
	t.Helper()
	var got []*received
	deadline := time.Now().Add(timeout)
	for len(got) < n {
		got = append(got, e.drain(t, p.addr)...)
		if len(got) >= n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s received %d mails within %v, want %d: %v", p.addr, len(got), timeout, n, subjectsOf(got))
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.last = got[len(got)-1]
	return got
}

func subjectsOf(ms []*received) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.subject)
	}
	return out
}

// send answers p's last mail from the referee, as a mail client does.
func (e *env) send(t testing.TB, p *player, body string) {
	t.Helper()
	n := e.seq.Add(1)
	raw := fmt.Sprintf("From: <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <e2e-%d-%d@example.test>\r\nIn-Reply-To: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		p.addr, p.last.replyTo, p.last.subject, time.Now().UnixNano(), n, p.last.messageID, body)
	e.sendRaw(t, p.addr, p.last.replyTo, raw)
}

// sendRaw hands raw to Postfix, from the envelope sender from to to.
func (e *env) sendRaw(t testing.TB, from, to, raw string) {
	t.Helper()
	if err := smtpout.New(smtpout.Config{Addr: e.mail.smtpAddr(), TLS: "none"}).Send(context.Background(), from, []string{to}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	if toReferee(to) {
		e.toReferee.Add(1)
	}
}

// referee runs the daemon in-process against the real servers.
type refereeProc struct {
	app *app.App
	// stop stops the daemon and closes the app (once; again at cleanup).
	stop func()
	done chan error
}

func (e *env) runReferee(t testing.TB, db string, noIdle bool) *refereeProc {
	t.Helper()
	a, err := app.Open(context.Background(), app.Options{DB: db, Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &refereeProc{app: a, stop: cancel, done: make(chan error, 1)}
	go func() {
		r.done <- daemon.Run(ctx, a, daemon.Config{
			IMAP:        imapin.Config{Addr: e.mail.imapAddr(), User: referee, Password: password, TLS: "none", Poll: 200 * time.Millisecond, NoIdle: noIdle},
			SMTP:        smtpout.Config{Addr: e.mail.smtpAddr(), TLS: "none"},
			OutboxEvery: 200 * time.Millisecond,
			RetryBase:   300 * time.Millisecond,
		})
	}()
	r.stop = sync.OnceFunc(func() {
		cancel()
		<-r.done
		a.Close()
	})
	t.Cleanup(r.stop)
	return r
}

func setupPlayers() (*player, *player) {
	return &player{addr: "alice@example.test"}, &player{addr: "bob@example.test"}
}

// legalMove asks the referee's own state for a move of the side to act, as
// a test oracle, in canonical notation.
func legalMove(t testing.TB, a *app.App, id int64, pick int) (string, rules.Color) {
	t.Helper()
	g, err := a.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := g.Replay()
	if err != nil {
		t.Fatal(err)
	}
	legal := rep.Final.Legal()
	if len(legal) == 0 {
		t.Fatalf("game #%d: no legal move in %s", id, rep.Final)
	}
	return notation.SAN(rep.Final, legal[pick%len(legal)]), rep.Final.Turn()
}

func (e *env) playGame(t *testing.T, noIdle bool, variant string, moves []string, plies int) {
	alice, bob := setupPlayers()
	r := e.runReferee(t, filepath.Join(t.TempDir(), "referee.db"), noIdle)
	g, err := r.app.NewGame(context.Background(), variant, alice.addr, bob.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.waitBoth(t, alice, bob)
	players := map[rules.Color]*player{rules.White: alice, rules.Black: bob}
	for i := 0; i < plies; i++ {
		mv, side := "", rules.White
		if i < len(moves) {
			mv = moves[i]
			_, side = legalMove(t, r.app, g.ID, 0)
		} else {
			mv, side = legalMove(t, r.app, g.ID, i*5+1)
		}
		start := time.Now()
		e.send(t, players[side], mv)
		a := e.waitMail(t, alice, 1, mailWait)
		b := e.waitMail(t, bob, 1, mailWait)
		if len(a) != 1 || len(b) != 1 {
			t.Fatalf("after %q: %d and %d mails", mv, len(a), len(b))
		}
		t.Logf("%s ply %d %q: both replies in %v", variant, i+1, mv, time.Since(start).Round(time.Millisecond))
		if got, _ := r.app.Game(context.Background(), g.ID); got.Status != "active" {
			return
		}
	}
	// End the game: the side to act resigns, and confirms.
	_, side := legalMove(t, r.app, g.ID, 0)
	e.send(t, players[side], "resign")
	if got := e.waitMail(t, players[side], 1, mailWait); !strings.Contains(got[0].subject, "Confirm") {
		t.Fatalf("%s: resign was answered with %q, want a request to confirm", variant, got[0].subject)
	}
	e.send(t, players[side], "confirm")
	e.waitBoth(t, alice, bob)
	final, _ := r.app.Game(context.Background(), g.ID)
	if final.Status != "finished" || final.Result == "" {
		t.Errorf("%s: game ended %s %q", variant, final.Status, final.Result)
	}
	if !strings.Contains(alice.last.subject, "Game over") {
		t.Errorf("%s: Alice's last mail is %q", variant, alice.last.subject)
	}
}

func TestEveryVariantByMailIDLE(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			// The games share the servers, one after the other: none
			// starts with a mail of the one before.
			for _, u := range []string{referee, "alice@example.test", "bob@example.test"} {
				e.drain(t, u)
			}
			if v.Name() == "chess" {
				e.playGame(t, false, "chess", []string{"f3", "e5", "g4", "Qh4#"}, 4) // a complete game, to mate
				return
			}
			plies := 6
			if v.Name() == "toetotoe" {
				plies = 16 // all eight deployments, six swaps, two moves of play
			}
			e.playGame(t, false, v.Name(), nil, plies)
		})
	}
}

func TestPollingPath(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.playGame(t, true, "chess", []string{"f3", "e5", "g4", "Qh4#"}, 4)
}

// chessGame makes two fresh players and a chess game between them in a new
// database, before any daemon runs.
func chessGame(t testing.TB) (alice, bob *player, db string, id int64) {
	t.Helper()
	alice, bob = setupPlayers()
	db = filepath.Join(t.TempDir(), "referee.db")
	return alice, bob, db, newGame(t, db, "chess", alice, bob)
}

// waitBoth waits for one new mail to each player (the opening mails, or
// the replies to a move).
func (e *env) waitBoth(t testing.TB, alice, bob *player) {
	t.Helper()
	e.waitMail(t, alice, 1, mailWait)
	e.waitMail(t, bob, 1, mailWait)
}

// newGame creates a game in a new database at db, before any daemon runs.
func newGame(t testing.TB, db, variant string, white, black *player) int64 {
	t.Helper()
	a, err := app.Open(context.Background(), app.Options{DB: db, Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	g, err := a.NewGame(context.Background(), variant, white.addr, black.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// lmtpDeliver hands raw straight to this instance's Dovecot over LMTP, as
// Postfix would.
func (e *env) lmtpDeliver(t testing.TB, from, to, raw string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", e.real.LMTPAddr, 5*time.Second)
	if err != nil {
		t.Fatalf("LMTP: %v", err)
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("test.example.test"); err != nil {
		t.Fatalf("LMTP LHLO: %v", err)
	}
	if err := c.SendMail(from, []string{to}, strings.NewReader(raw)); err != nil {
		t.Fatalf("LMTP delivery: %v", err)
	}
	if toReferee(to) {
		e.toReferee.Add(1)
	}
	c.Quit()
}

func TestPostfixDownThenBack(t *testing.T) {
	// Postfix stops after the move reached the referee's mailbox: the
	// referee applies it, cannot deliver the replies, keeps them, and
	// delivers them once Postfix is back. Only this test's private Postfix
	// is stopped.
	t.Parallel()
	e := newEnv(t)
	alice, bob, db, id := chessGame(t)
	r := e.runReferee(t, db, false)
	e.waitBoth(t, alice, bob)
	if err := e.real.StopPostfix(); err != nil {
		t.Fatal(err)
	}
	if c, err := net.DialTimeout("tcp", e.mail.smtpAddr(), time.Second); err == nil {
		c.Close()
		t.Fatalf("Postfix still answers on %s after it was stopped", e.mail.smtpAddr())
	}
	restarted := false
	defer func() {
		if !restarted {
			e.real.StartPostfix()
		}
	}()
	// With Postfix down, Alice's move goes straight into the referee's
	// mailbox through Dovecot's LMTP listener, as Postfix would have.
	raw := fmt.Sprintf("From: <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <down-%d@example.test>\r\n\r\ne4\r\n",
		alice.addr, alice.last.replyTo, alice.last.subject, time.Now().UnixNano())
	e.lmtpDeliver(t, alice.addr, alice.last.replyTo, raw)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if got, err := r.app.Game(context.Background(), id); err == nil && len(got.Actions) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the move was not applied while Postfix was down")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The referee's record that it tried: both replies queued, the one
	// that asks Bob to move (served first) with a failed attempt behind
	// it. While sending is blocked the outbox probes the server with the
	// most urgent mail only; the mover's confirmation waits its turn.
	for deadline := time.Now().Add(mailWait); ; time.Sleep(50 * time.Millisecond) {
		queued, err := r.app.Store().ListOutbox(context.Background(), store.OutboxQueued)
		if err != nil {
			t.Fatal(err)
		}
		tried := 0
		for _, o := range queued {
			if o.Attempts > 0 && o.LastError != "" && o.Priority == store.PriorityGame {
				tried++
			}
		}
		if len(queued) == 2 && tried == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("while Postfix is down: %d replies queued, %d tried of those asking a player to move; want 2 queued, the move's tried", len(queued), tried)
		}
	}
	if err := e.real.StartPostfix(); err != nil {
		t.Fatal(err)
	}
	restarted = true
	e.waitBoth(t, alice, bob)
}
