// Package e2e plays games by mail through real mail servers: Postfix takes
// the players' mail (SMTP), delivers it to Dovecot (LMTP), and the referee
// reads it over IMAP and answers through Postfix. scripts/mailservers.sh
// starts both on 127.0.0.1 for these tests and stops them at the end.
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"referee/internal/app"
	"referee/internal/daemon"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
	"referee/internal/notation"
	"referee/internal/rules"
)

const (
	imapAddr = "127.0.0.1:10143"
	smtpAddr = "127.0.0.1:10025"
	referee  = "referee@example.test"
	password = "secret"
)

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

func script(args ...string) error {
	cmd := exec.Command("bash", append([]string{filepath.Join(repoRoot(), "scripts", "mailservers.sh")}, args...)...)
	cmd.Stdin, cmd.Stdout = nil, nil
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("mailservers.sh %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return nil
}

func TestMain(m *testing.M) {
	_, errD := exec.LookPath("dovecot")
	_, errP := exec.LookPath("postfix")
	if errD != nil || errP != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "e2e: Dovecot and Postfix are not installed, but CI must run these tests (.ci/run installs them)")
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "e2e: SKIP: Dovecot and Postfix are not installed (apt-get install dovecot-imapd dovecot-lmtpd postfix)")
		os.Exit(0)
	}
	if err := script("start"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if err := script("stop"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(code)
}

// player reads mail over IMAP and sends over SMTP.
type player struct {
	addr string
	last *received
}

type received struct {
	subject, replyTo, messageID, text string
}

func imapCfg(user string) imapin.Config {
	return imapin.Config{Addr: imapAddr, User: user, Password: password, TLS: "none"}
}

// drain marks every message of user done and returns them.
func drain(t testing.TB, user string) []*received {
	t.Helper()
	var out []*received
	err := imapin.Once(context.Background(), imapCfg(user), func(_ context.Context, m imapin.Message) error {
		out = append(out, parseMail(t, m.Raw))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func parseMail(t testing.TB, raw []byte) *received {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	m := &received{messageID: r.Header.Get("Message-ID")}
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
func waitMail(t testing.TB, p *player, n int, timeout time.Duration) []*received {
	t.Helper()
	var got []*received
	deadline := time.Now().Add(timeout)
	for len(got) < n {
		got = append(got, drain(t, p.addr)...)
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

var msgSeq struct {
	sync.Mutex
	n int
}

func send(t testing.TB, p *player, body string) {
	t.Helper()
	msgSeq.Lock()
	msgSeq.n++
	n := msgSeq.n
	msgSeq.Unlock()
	raw := fmt.Sprintf("From: <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <e2e-%d-%d@example.test>\r\nIn-Reply-To: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		p.addr, p.last.replyTo, p.last.subject, time.Now().UnixNano(), n, p.last.messageID, body)
	if err := smtpout.New(smtpout.Config{Addr: smtpAddr, TLS: "none"}).Send(context.Background(), p.addr, []string{p.last.replyTo}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
}

// referee runs the daemon in-process against the real servers.
type refereeProc struct {
	app  *app.App
	stop func()
	done chan error
}

func runReferee(t testing.TB, db string, noIdle bool) *refereeProc {
	t.Helper()
	a, err := app.Open(context.Background(), app.Options{DB: db, Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &refereeProc{app: a, stop: cancel, done: make(chan error, 1)}
	go func() {
		r.done <- daemon.Run(ctx, a, daemon.Config{
			IMAP:        imapin.Config{Addr: imapAddr, User: referee, Password: password, TLS: "none", Poll: 200 * time.Millisecond, NoIdle: noIdle},
			SMTP:        smtpout.Config{Addr: smtpAddr, TLS: "none"},
			OutboxEvery: 200 * time.Millisecond,
			RetryBase:   300 * time.Millisecond,
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-r.done
		a.Close()
	})
	return r
}

func setupPlayers(t testing.TB) (*player, *player) {
	t.Helper()
	for _, u := range []string{referee, "alice@example.test", "bob@example.test"} {
		drain(t, u) // earlier tests' mail is not this test's
	}
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

func playGame(t *testing.T, noIdle bool, variant string, moves []string, plies int) {
	alice, bob := setupPlayers(t)
	r := runReferee(t, filepath.Join(t.TempDir(), "referee.db"), noIdle)
	g, err := r.app.NewGame(context.Background(), variant, alice.addr, bob.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitMail(t, alice, 1, 10*time.Second)
	waitMail(t, bob, 1, 10*time.Second)
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
		send(t, players[side], mv)
		a := waitMail(t, alice, 1, 10*time.Second)
		b := waitMail(t, bob, 1, 10*time.Second)
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
	send(t, players[side], "resign")
	if got := waitMail(t, players[side], 1, 10*time.Second); !strings.Contains(got[0].subject, "Confirm") {
		t.Fatalf("%s: resign was answered with %q, want a request to confirm", variant, got[0].subject)
	}
	send(t, players[side], "confirm")
	waitMail(t, alice, 1, 10*time.Second)
	waitMail(t, bob, 1, 10*time.Second)
	final, _ := r.app.Game(context.Background(), g.ID)
	if final.Status != "finished" || final.Result == "" {
		t.Errorf("%s: game ended %s %q", variant, final.Status, final.Result)
	}
	if !strings.Contains(alice.last.subject, "Game over") {
		t.Errorf("%s: Alice's last mail is %q", variant, alice.last.subject)
	}
}

func TestEveryVariantByMailIDLE(t *testing.T) {
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			if v.Name() == "chess" {
				playGame(t, false, "chess", []string{"f3", "e5", "g4", "Qh4#"}, 4) // a complete game, to mate
				return
			}
			plies := 6
			if v.Name() == "toetotoe" {
				plies = 16 // all eight deployments, six swaps, two moves of play
			}
			playGame(t, false, v.Name(), nil, plies)
		})
	}
}

func TestPollingPath(t *testing.T) {
	playGame(t, true, "chess", []string{"f3", "e5", "g4", "Qh4#"}, 4)
}

func TestPostfixDownThenBack(t *testing.T) {
	// Postfix stops after the move reached the referee's mailbox: the
	// referee applies it, cannot deliver the replies, keeps them, and
	// delivers them once Postfix is back.
	alice, bob := setupPlayers(t)
	db := filepath.Join(t.TempDir(), "referee.db")
	a, err := app.Open(context.Background(), app.Options{DB: db, Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	g, err := a.NewGame(context.Background(), "chess", alice.addr, bob.addr, nil)
	a.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := runReferee(t, db, false)
	waitMail(t, alice, 1, 10*time.Second)
	waitMail(t, bob, 1, 10*time.Second)
	if err := exec.Command("postfix", "stop").Run(); err != nil {
		t.Fatal(err)
	}
	restarted := false
	defer func() {
		if !restarted {
			script("start")
		}
	}()
	// With Postfix down, Alice's move goes straight into the referee's
	// mailbox through Dovecot's LMTP listener, as Postfix would have.
	raw := fmt.Sprintf("From: <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <down-%d@example.test>\r\n\r\ne4\r\n",
		alice.addr, alice.last.replyTo, alice.last.subject, time.Now().UnixNano())
	lmtp := exec.Command("swaks", "--protocol", "LMTP", "--server", "127.0.0.1:10024", "--from", alice.addr, "--to", alice.last.replyTo, "--data", "-")
	lmtp.Stdin = strings.NewReader(raw)
	if out, err := lmtp.CombinedOutput(); err != nil {
		t.Fatalf("LMTP delivery: %v\n%s", err, out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ := r.app.Game(context.Background(), g.ID)
		if len(got.Actions) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the move was not applied while Postfix was down")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // a few failed delivery attempts
	if n, _ := r.app.Store().PendingOutbox(context.Background()); n != 2 {
		t.Fatalf("%d replies pending while Postfix is down, want 2", n)
	}
	if err := script("start"); err != nil {
		t.Fatal(err)
	}
	restarted = true
	waitMail(t, alice, 1, 20*time.Second)
	waitMail(t, bob, 1, 20*time.Second)
}
