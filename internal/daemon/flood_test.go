package daemon_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/internal/app"
	"referee/internal/daemon"
	"referee/internal/mail/smtpout"
	core "referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// tarpit is an SMTP server that relays only to example.test and refuses
// every other recipient at RCPT, more slowly with each refusal in the
// session (as Postfix's smtpd_error_sleep_time does).
type tarpit struct {
	step time.Duration // the delay added by each refusal of a session
	mu   sync.Mutex
	got  map[string]time.Time // accepted recipient -> when
	// worst is the most refusals one session saw.
	worst int
}

func (b *tarpit) NewSession(*smtp.Conn) (smtp.Session, error) { return &tarpitSession{b: b}, nil }

type tarpitSession struct {
	b       *tarpit
	to      string
	refused int
}

func (s *tarpitSession) Reset()                               { s.to = "" }
func (s *tarpitSession) Logout() error                        { return nil }
func (s *tarpitSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *tarpitSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !strings.HasSuffix(to, "@example.test") {
		s.refused++
		s.b.mu.Lock()
		s.b.worst = max(s.b.worst, s.refused)
		s.b.mu.Unlock()
		time.Sleep(time.Duration(s.refused) * s.b.step)
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Relay access denied"}
	}
	s.to = to
	return nil
}
func (s *tarpitSession) Data(r io.Reader) error {
	if _, err := io.ReadAll(r); err != nil {
		return err
	}
	s.b.mu.Lock()
	s.b.got[s.to] = time.Now()
	s.b.mu.Unlock()
	return nil
}

func (b *tarpit) arrived(to string) (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	at, ok := b.got[to]
	return at, ok
}

// TestStrangersCannotStallTheGames (issue 28): 300 junk mails from 300
// forged senders, through a server that refuses outside recipients at RCPT
// and tarpits the session. The answers to strangers are capped per hour
// across all senders; those queued wait behind a move's mails, which go
// out within seconds; no session sees more than a few refusals (a fresh
// one follows); and a refused answer to a stranger is dropped, never
// retried or kept as a dead letter.
func TestStrangersCannotStallTheGames(t *testing.T) {
	for _, tt := range []struct {
		name   string
		cap    int // Options.MaxStrangerAnswers
		queued int // answers to strangers queued by the flood
	}{
		{"default cap", 0, app.DefaultMaxStrangerAnswers},
		{"no cap", -1, 300}, // the outbox's order alone protects the move
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			a, err := app.Open(ctx, app.Options{DB: filepath.Join(t.TempDir(), "r.db"), Address: referee, MaxStrangerAnswers: tt.cap})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			b := &tarpit{step: 20 * time.Millisecond, got: map[string]time.Time{}}
			srv := smtp.NewServer(b)
			srv.Domain = "localhost"
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go srv.Serve(ln)
			defer srv.Close()
			ob := &daemon.Outbox{Store: a.Store(), Render: a.Render, Now: time.Now, Log: slog.New(slog.DiscardHandler),
				Sender: smtpout.New(smtpout.Config{Addr: ln.Addr().String(), TLS: "none", Timeout: 10 * time.Second})}

			g, err := a.NewGame(ctx, "chess", "alice@example.test", "bob@example.test", nil)
			if err != nil {
				t.Fatal(err)
			}
			if n, err := ob.Flush(ctx); err != nil || n != 2 {
				t.Fatalf("the opening mails: %d sent, %v", n, err)
			}
			for i := range 300 {
				raw := fmt.Appendf(nil, "From: junk%d@evil%d.test\r\nTo: %s\r\nSubject: win a prize\r\nMessage-ID: <junk%d@evil.test>\r\n\r\nhello\r\n", i, i, referee, i)
				if _, err := a.Process(ctx, raw, 1, uint32(i+1)); err != nil {
					t.Fatal(err)
				}
			}
			out, _ := a.Store().ListOutbox(ctx, store.OutboxQueued)
			if len(out) != tt.queued {
				t.Fatalf("the flood queued %d answers; want %d", len(out), tt.queued)
			}

			loopCtx, stop := context.WithCancel(ctx)
			nudge := make(chan struct{}, 1)
			done := make(chan struct{})
			go func() { ob.Loop(loopCtx, time.Hour, nudge); close(done) }()
			time.Sleep(300 * time.Millisecond) // the loop is busy with the flood's answers
			move := fmt.Appendf(nil, "From: alice@example.test\r\nTo: %s\r\nSubject: Re: move\r\nMessage-ID: <m1@example.test>\r\n\r\ne4\r\n",
				a.Referee().ReplyAddress(g, rules.White))
			queued := time.Now()
			if p, err := a.Process(ctx, move, 1, 1000); err != nil || p.Verdict != core.Applied {
				t.Fatalf("alice's e4: %+v %v", p, err)
			}
			nudge <- struct{}{}
			var last time.Time
			for _, to := range []string{"alice@example.test", "bob@example.test"} {
				for {
					at, ok := b.arrived(to)
					if ok && at.After(queued) {
						if at.After(last) {
							last = at
						}
						break
					}
					if time.Since(queued) > 30*time.Second {
						t.Fatalf("the move's mail to %s did not arrive in 30 s", to)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			took := last.Sub(queued)
			t.Logf("the move's two mails arrived %v after the move was queued", took)
			if took > 5*time.Second {
				t.Errorf("the move's mails took %v behind the flood; want a few seconds at most", took)
			}
			stop()
			<-done
			b.mu.Lock()
			worst := b.worst
			b.mu.Unlock()
			if worst > 3 {
				t.Errorf("one session saw %d refusals; want a fresh session after 3", worst)
			}
			all, _ := a.Store().Outbox(ctx)
			tried := 0
			for _, o := range all {
				if o.Priority != store.PriorityStranger || o.Attempts == 0 {
					continue
				}
				tried++
				if st := o.State(time.Now()); st != store.StateDropped {
					t.Errorf("a refused answer to %s is %s; want dropped", o.To, st)
				}
			}
			if tried == 0 {
				t.Error("no answer to a stranger was tried")
			}
		})
	}
}

// TestOldAndNewMailAfterTheUpgrade: mail queued before the outbox kept
// data (its text written, perhaps signed, when it was queued) is sent as it
// was written; mail queued since is written from its data at send time,
// and a second send of the same row (a crash between the server's
// acceptance and the record of it) sends the same bytes.
func TestOldAndNewMailAfterTheUpgrade(t *testing.T) {
	ctx := context.Background()
	a, err := app.Open(ctx, app.Options{DB: filepath.Join(t.TempDir(), "r.db"), Address: referee})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	old := "From: referee@example.test\r\nTo: carol@example.test\r\nSubject: written in 2025\r\n\r\nold text\r\n"
	err = a.Store().Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Enqueue(store.Outgoing{To: "carol@example.test", From: referee, MessageID: "<old@example.test>", Raw: []byte(old)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.NewGame(ctx, "chess", "alice@example.test", "bob@example.test", nil); err != nil {
		t.Fatal(err)
	}
	// A sender claims alice's opening mail and hands it to the server,
	// then dies before it records the server's 250.
	var alice store.Outgoing
	for _, o := range mustOutbox(t, a) {
		if o.To == "alice@example.test" {
			alice = o
		}
	}
	if c, err := a.Store().ClaimOutgoing(ctx, alice.ID, time.Now(), time.Hour); err != nil || c == nil {
		t.Fatalf("claim: %v %v", c, err)
	}
	handed, err := a.Render(alice)
	if err != nil {
		t.Fatal(err)
	}
	// The next start releases the dead run's claims and sends everything.
	if n, err := a.Store().ReleaseAllClaims(ctx); err != nil || n != 1 {
		t.Fatalf("released %d claims, %v", n, err)
	}
	s := &memSender{sent: map[string][]string{}}
	ob := &daemon.Outbox{Store: a.Store(), Sender: s, Render: a.Render, Now: time.Now, Log: slog.New(slog.DiscardHandler)}
	if n, err := ob.Flush(ctx); err != nil || n != 3 {
		t.Fatalf("flush: %d sent, %v; want 3", n, err)
	}
	if got := s.sent["carol@example.test"]; len(got) != 1 || got[0] != old {
		t.Errorf("the old mail went out as %q; want it as written", got)
	}
	got := s.sent["alice@example.test"]
	if len(got) != 1 || !strings.Contains(got[0], "Content-Type: multipart/alternative") {
		t.Fatalf("alice's opening mail was not written from its data: %.200q", got)
	}
	if got[0] != string(handed) {
		t.Errorf("the mail sent again after the crash differs from the one handed over before it (%d and %d bytes)", len(got[0]), len(handed))
	}
}

func mustOutbox(t *testing.T, a *app.App) []store.Outgoing {
	t.Helper()
	all, err := a.Store().Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return all
}
