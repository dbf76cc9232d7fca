package daemon_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"referee/internal/app"
	"referee/internal/daemon"
	"referee/internal/dice"
	"referee/internal/game"
	"referee/internal/mail/embedded"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
	"referee/internal/notation"
	"referee/internal/rules"
)

const referee = "referee@example.test"

// world is a referee with its mailbox on the embedded server, and players
// who read their mail over IMAP and answer over SMTP.
type world struct {
	t    *testing.T
	srv  *embedded.Server
	db   string
	app  *app.App
	last map[string]*mail // the last mail each player received
	n    int
}

type mail struct {
	subject, replyTo, messageID, text string
	autoSubmitted                     string   // the header field
	types                             []string // the content types of the parts, in order
}

func newWorld(t *testing.T) *world {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, u := range []string{referee, "alice@example.test", "bob@example.test", "mallory@example.test"} {
		srv.EnsureUser(u)
	}
	w := &world{t: t, srv: srv, db: filepath.Join(t.TempDir(), "referee.db"), last: map[string]*mail{}}
	w.open()
	return w
}

func (w *world) open() {
	a, err := app.Open(context.Background(), app.Options{DB: w.db, Address: referee})
	if err != nil {
		w.t.Fatal(err)
	}
	w.app = a
	w.t.Cleanup(func() { a.Close() })
}

func (w *world) config() daemon.Config {
	return daemon.Config{
		Once: true,
		IMAP: imapin.Config{Addr: w.srv.IMAPAddr(), User: referee, Password: w.srv.Password(), TLS: "none"},
		SMTP: smtpout.Config{Addr: w.srv.SMTPAddr(), TLS: "none"},
	}
}

// pump lets the referee read its mailbox and deliver its outbox once.
func (w *world) pump() {
	w.t.Helper()
	if err := daemon.Run(context.Background(), w.app, w.config()); err != nil {
		w.t.Fatal(err)
	}
}

// inbox returns the new mails of user (each is read once).
func (w *world) inbox(user string) []*mail {
	w.t.Helper()
	var out []*mail
	err := imapin.Once(context.Background(), imapin.Config{Addr: w.srv.IMAPAddr(), User: user, Password: w.srv.Password(), TLS: "none"},
		func(_ context.Context, m imapin.Message) error {
			out = append(out, parse(w.t, m.Raw))
			return nil
		})
	if err != nil {
		w.t.Fatal(err)
	}
	if len(out) > 0 {
		w.last[user] = out[len(out)-1]
	}
	return out
}

func parse(t *testing.T, raw []byte) *mail {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	m := &mail{messageID: r.Header.Get("Message-ID"), autoSubmitted: r.Header.Get("Auto-Submitted")}
	m.subject, _ = r.Header.Subject()
	if rt, err := r.Header.AddressList("Reply-To"); err == nil && len(rt) > 0 {
		m.replyTo = rt[0].Address
	}
	for {
		p, err := r.NextPart()
		if err != nil {
			break
		}
		var ct string
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			ct, _, _ = h.ContentType()
		case *gomail.AttachmentHeader:
			ct, _, _ = h.ContentType()
		}
		m.types = append(m.types, ct)
		if ct == "text/plain" && m.text == "" {
			b, _ := io.ReadAll(p.Body)
			m.text = string(b)
		}
	}
	return m
}

// reply sends body from user in answer to the last mail user received;
// from overrides the From address (forgeries).
func (w *world) reply(user, from, body string) []byte {
	w.t.Helper()
	prev := w.last[user]
	if prev == nil {
		w.t.Fatalf("%s has no mail to reply to", user)
	}
	w.n++
	raw := []byte(fmt.Sprintf("From: <%s>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <t%d@example.test>\r\nIn-Reply-To: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\nOn Sunday, Referee <%s> wrote:\r\n> %s\r\n",
		from, prev.replyTo, prev.subject, w.n, prev.messageID, strings.ReplaceAll(body, "\n", "\r\n"), referee, "old board"))
	w.sendRaw(from, prev.replyTo, raw)
	return raw
}

func (w *world) sendRaw(from, to string, raw []byte) {
	w.t.Helper()
	if err := smtpout.New(smtpout.Config{Addr: w.srv.SMTPAddr(), TLS: "none"}).Send(context.Background(), from, []string{to}, raw); err != nil {
		w.t.Fatal(err)
	}
}

// start creates a game and delivers the opening mails.
func (w *world) start(variant string, seed *dice.Seed) int64 {
	w.t.Helper()
	g, err := w.app.NewGame(context.Background(), variant, "alice@example.test", "bob@example.test", seed)
	if err != nil {
		w.t.Fatal(err)
	}
	w.pump()
	for _, u := range []string{"alice@example.test", "bob@example.test"} {
		if got := w.inbox(u); len(got) != 1 {
			w.t.Fatalf("%s got %d opening mails, want 1", u, len(got))
		}
	}
	return g.ID
}

// move sends a move as user and checks that both players got one mail.
func (w *world) move(user, body string) (mover, other *mail) {
	w.t.Helper()
	w.reply(user, user, body)
	w.pump()
	a, b := w.inbox("alice@example.test"), w.inbox("bob@example.test")
	if len(a) != 1 || len(b) != 1 {
		w.t.Fatalf("after %s's %q: alice got %d mails, bob %d; want 1 each\nalice: %v\nbob: %v", user, body, len(a), len(b), subjects(a), subjects(b))
	}
	if user == "alice@example.test" {
		return a[0], b[0]
	}
	return b[0], a[0]
}

func subjects(ms []*mail) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.subject)
	}
	return out
}

func TestFullGameByMail(t *testing.T) {
	// Fool's mate by mail: each move reaches the referee through SMTP and
	// IMAP, and both players get the new board; the mate ends the game.
	w := newWorld(t)
	id := w.start("chess", nil)
	_, bob := w.move("alice@example.test", "f3\nGood luck!")
	if !strings.Contains(bob.subject, "your turn (Black)") || !strings.Contains(bob.text, `writes: "Good luck!"`) {
		t.Errorf("Bob's mail: subject %q; relayed message missing:\n%s", bob.subject, bob.text)
	}
	w.move("bob@example.test", "e5")
	w.move("alice@example.test", "g4")
	_, alice := w.move("bob@example.test", "Qh4#")
	// The game-over mail keeps a reply address: board, help and record
	// still work on a finished game.
	if !strings.Contains(alice.subject, "Game over: Black won, checkmate") || alice.replyTo == "" {
		t.Errorf("after the mate Alice got %q (Reply-To %q)", alice.subject, alice.replyTo)
	}
	g, err := w.app.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != "finished" || g.Result != "0-1" || len(g.Actions) != 4 {
		t.Errorf("game: %s %s, %d actions", g.Status, g.Result, len(g.Actions))
	}
	// Read from the parsed mail, not its raw bytes, where any text could
	// match by chance.
	if alice.autoSubmitted != "auto-replied" || !slices.Contains(alice.types, "image/png") || !slices.Contains(alice.types, "text/html") {
		t.Errorf("a board mail lacks Auto-Submitted, the HTML part or the PNG picture: Auto-Submitted %q, parts %q", alice.autoSubmitted, alice.types)
	}
}

func TestDuplicateDeliveryAppliedOnce(t *testing.T) {
	w := newWorld(t)
	id := w.start("chess", nil)
	raw := w.reply("alice@example.test", "alice@example.test", "e4")
	w.sendRaw("alice@example.test", w.last["alice@example.test"].replyTo, raw) // the same message again
	w.pump()
	a, b := w.inbox("alice@example.test"), w.inbox("bob@example.test")
	if len(a) != 1 || len(b) != 1 {
		t.Errorf("a duplicated message caused %d + %d mails, want 1 + 1", len(a), len(b))
	}
	g, _ := w.app.Game(context.Background(), id)
	if len(g.Actions) != 1 {
		t.Errorf("%d actions, want 1", len(g.Actions))
	}
}

func TestForgedSenderRefused(t *testing.T) {
	// Mallory uses Alice's reply code from her own address: refused, the
	// game unchanged, Alice's and Bob's inboxes untouched.
	w := newWorld(t)
	id := w.start("chess", nil)
	w.reply("alice@example.test", "mallory@example.test", "e4")
	w.pump()
	m := w.inbox("mallory@example.test")
	// The refusal does not tell Mallory that the code she used is valid.
	if len(m) != 1 || !strings.Contains(m[0].text, "could not be tied to a game of yours") || strings.Contains(m[0].text, "belongs") {
		t.Errorf("mallory got %v", subjects(m))
	}
	if a, b := w.inbox("alice@example.test"), w.inbox("bob@example.test"); len(a)+len(b) != 0 {
		t.Errorf("the players got mail about a forgery: %v %v", subjects(a), subjects(b))
	}
	g, _ := w.app.Game(context.Background(), id)
	if len(g.Actions) != 0 {
		t.Error("a forged move was applied")
	}
}

func TestStaleMoveRefused(t *testing.T) {
	// Bob answers an older mail after the game moved on: refused, with the
	// current board, never applied.
	w := newWorld(t)
	w.start("chess", nil)
	old := w.last["bob@example.test"]
	w.move("alice@example.test", "e4")
	w.move("bob@example.test", "e5")
	w.move("alice@example.test", "Nf3")
	w.last["bob@example.test"] = old
	w.reply("bob@example.test", "bob@example.test", "Nc6")
	w.pump()
	b := w.inbox("bob@example.test")
	if len(b) != 1 || !strings.Contains(b[0].text, "older mail") || !strings.Contains(b[0].subject, "Not played") {
		t.Fatalf("bob got %v", subjects(b))
	}
}

func TestErrorsSayWhatWasRead(t *testing.T) {
	w := newWorld(t)
	w.start("chess", nil)
	w.reply("alice@example.test", "alice@example.test", "Bc4")
	w.pump()
	a := w.inbox("alice@example.test")
	if len(a) != 1 || !strings.Contains(a[0].text, `"Bc4"`) || !strings.Contains(a[0].text, "in the way") {
		t.Fatalf("alice got %v:\n%s", subjects(a), a[0].text)
	}
	// Bob is not to move.
	w.reply("bob@example.test", "bob@example.test", "e5")
	w.pump()
	b := w.inbox("bob@example.test")
	if len(b) != 1 || !strings.Contains(b[0].text, "White's turn") {
		t.Fatalf("bob got %v", subjects(b))
	}
}

func TestAutomaticMailNeverAnswered(t *testing.T) {
	w := newWorld(t)
	w.start("chess", nil)
	prev := w.last["alice@example.test"]
	raw := fmt.Sprintf("From: alice@example.test\r\nTo: %s\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <ooo@x>\r\n\r\nI am away.\r\n", prev.replyTo)
	w.sendRaw("alice@example.test", prev.replyTo, []byte(raw))
	w.pump()
	if a := w.inbox("alice@example.test"); len(a) != 0 {
		t.Errorf("an auto-reply was answered: %v", subjects(a))
	}
}

func TestRestartMidGame(t *testing.T) {
	// The referee stops and starts again between moves: the game goes on.
	w := newWorld(t)
	id := w.start("cuarenta", nil)
	w.move("alice@example.test", "Fd1-d5")
	w.app.Close()
	w.open()
	w.move("bob@example.test", movesOf(t, w, id))
	g, _ := w.app.Game(context.Background(), id)
	if len(g.Actions) != 2 {
		t.Errorf("%d actions after the restart, want 2", len(g.Actions))
	}
}

// movesOf returns a legal move of the side to act, in canonical notation.
func movesOf(t *testing.T, w *world, id int64) string {
	g, err := w.app.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := g.Replay()
	if err != nil {
		t.Fatal(err)
	}
	ms := rep.Final.Legal()
	return coordOf(rep, ms[0])
}

func TestOutboxSurvivesSMTPOutage(t *testing.T) {
	// The SMTP server refuses everything for a while: the mail stays queued
	// with a retry time, and is delivered once the server works again.
	w := newWorld(t)
	if _, err := w.app.NewGame(context.Background(), "chess", "alice@example.test", "bob@example.test", nil); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	down := &daemon.Outbox{Store: w.app.Store(), Sender: failing{}, Render: w.app.Render, Log: discard(), Now: func() time.Time { return now }}
	if n, err := down.Flush(context.Background()); err != nil || n != 0 {
		t.Fatalf("flush with the server down: %d sent, %v", n, err)
	}
	pending, _ := w.app.Store().PendingOutbox(context.Background())
	if pending != 2 {
		t.Fatalf("%d mails pending, want 2", pending)
	}
	up := &daemon.Outbox{Store: w.app.Store(), Sender: smtpout.New(smtpout.Config{Addr: w.srv.SMTPAddr(), TLS: "none"}), Render: w.app.Render, Log: discard(),
		Now: func() time.Time { return now.Add(daemon.Backoff(1)) }}
	if n, err := up.Flush(context.Background()); err != nil || n != 2 {
		t.Fatalf("flush with the server back: %d sent, %v", n, err)
	}
	if a := w.inbox("alice@example.test"); len(a) != 1 {
		t.Errorf("alice got %d mails, want 1", len(a))
	}
	all, _ := w.app.Store().Outbox(context.Background())
	for _, o := range all {
		if o.Attempts != 2 || o.Sent == nil {
			t.Errorf("outbox %d: %d attempts, sent %v", o.ID, o.Attempts, o.Sent)
		}
	}
}

type failing struct{}

func (failing) Send(context.Context, string, []string, []byte) error {
	return errors.New("421 4.3.0 service not available")
}

func TestChecToeGameWithFixedSeed(t *testing.T) {
	// A Chec Toe game with a fixed seed: every roll the referee announced is
	// the documented HMAC derivation, the record verifies, and a tampered
	// record does not.
	w := newWorld(t)
	seed, _ := dice.ParseSeed("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	id := w.start("chectoe", &seed)
	for range 6 {
		user := "alice@example.test"
		g, _ := w.app.Game(context.Background(), id)
		rep, _ := g.Replay()
		if rep.Final.Turn() == 1 {
			user = "bob@example.test"
		}
		w.move(user, "pass")
	}
	g, _ := w.app.Game(context.Background(), id)
	if len(g.Rolls) < 7 {
		t.Fatalf("%d rolls after 6 turns", len(g.Rolls))
	}
	for _, r := range g.Rolls {
		if want := dice.Roll(seed, fmt.Sprint(id), r.N); r.Value != want {
			t.Errorf("roll %d = %d, the derivation gives %d", r.N, r.Value, want)
		}
	}
	rep, err := w.app.Verify(context.Background(), id)
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %v\n%s", err, rep)
	}
	if err := w.app.Abort(context.Background(), id, "end of the test"); err != nil {
		t.Fatal(err)
	}
	rec, err := w.app.Export(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rec.WriteTo(&buf)
	text := buf.String()
	check := func(text string) bool {
		r, err := game.ParseRecord(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := app.VerifyRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		return rep.OK()
	}
	if !check(text) {
		t.Fatalf("the honest record does not verify:\n%s", text)
	}
	if _, err := app.ReplayRecord(mustParse(t, text), nil); err != nil {
		t.Errorf("the record does not replay: %v", err)
	}
	first := g.Rolls[0]
	tampered := strings.Replace(text, fmt.Sprintf("{die 1 = %d ", first.Value), fmt.Sprintf("{die 1 = %d ", first.Value%6+1), 1)
	if check(tampered) {
		t.Error("a record with a changed roll verifies")
	}
	seedTag := seed.Hex()
	if check(strings.Replace(text, seedTag, "ff"+seedTag[2:], 1)) {
		t.Error("a record with a changed seed verifies")
	}
	i := strings.Index(text, " sig ") + 5
	flip := map[byte]byte{'0': '1', '1': '0'}
	b := []byte(text)
	if c, ok := flip[b[i]]; ok {
		b[i] = c
	} else {
		b[i] = '0'
	}
	if check(string(b)) {
		t.Error("a record with a changed signature verifies")
	}
}

func mustParse(t *testing.T, text string) *game.Record {
	r, err := game.ParseRecord(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func coordOf(rep *game.Replay, m rules.Move) string { return notation.Coord(rep.Final, m) }

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestStatusAfterAPass(t *testing.T) {
	// The daemon records its IMAP contact and times every mail, so that
	// "referee status" and /metrics can tell it is alive.
	w := newWorld(t)
	w.start("chess", nil)
	w.move("alice@example.test", "e4")
	st, err := w.app.Store().Status(context.Background())
	if err != nil || st.LastIMAP.IsZero() || st.LastDelivery.IsZero() || st.Inbound["applied"] != 1 {
		t.Errorf("status after a move: %+v, %v", st, err)
	}
}
