package daemon_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"referee/internal/daemon"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
)

// brokenMailbox is a mailbox that cannot be read (the IMAP server down,
// a refused login).
type brokenMailbox struct{}

func (brokenMailbox) Run(ctx context.Context, _ imapin.Handler, _ func()) error {
	<-ctx.Done()
	return ctx.Err()
}
func (brokenMailbox) Once(context.Context, imapin.Handler) error {
	return errors.New("connecting to the IMAP server: connection refused")
}

// refusedLogin is an SMTP session that cannot be opened: the server
// refused the login.
type refusedLogin struct{}

func (refusedLogin) Send(context.Context, string, []string, []byte) error {
	return &smtpout.SessionError{Err: errors.New("SMTP AUTH PLAIN as \"referee\": 535 5.7.8 authentication credentials invalid")}
}

// TestOnceForCron: issue 38: "serve --once" from cron must deliver what it
// can and then fail with the reason: an IMAP failure does not hold back the
// outbox, and a blocked outbox is an error even when the mailbox was read.
func TestOnceForCron(t *testing.T) {
	t.Run("IMAP fails: the outbox goes out first", func(t *testing.T) {
		w := newWorld(t)
		if _, err := w.app.NewGame(context.Background(), "chess", "alice@example.test", "bob@example.test", nil); err != nil {
			t.Fatal(err)
		}
		cfg := w.config()
		cfg.Mailbox = brokenMailbox{}
		err := daemon.Run(context.Background(), w.app, cfg)
		if err == nil || !strings.Contains(err.Error(), "reading the mailbox") || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("Run: %v; want the IMAP failure", err)
		}
		if n, _ := w.app.Store().PendingOutbox(context.Background()); n != 0 {
			t.Errorf("%d mails still in the outbox; want the new game's two delivered before the error", n)
		}
		if a := w.inbox("alice@example.test"); len(a) != 1 {
			t.Errorf("alice got %d mails, want 1", len(a))
		}
	})
	t.Run("sending blocked", func(t *testing.T) {
		w := newWorld(t)
		if _, err := w.app.NewGame(context.Background(), "chess", "alice@example.test", "bob@example.test", nil); err != nil {
			t.Fatal(err)
		}
		cfg := w.config()
		cfg.Sender = refusedLogin{}
		err := daemon.Run(context.Background(), w.app, cfg)
		if err == nil || !strings.Contains(err.Error(), "sending is blocked") || !strings.Contains(err.Error(), "535") ||
			!strings.Contains(err.Error(), "2 mails wait") {
			t.Errorf("Run with the SMTP login refused: %v; want \"sending is blocked\", the reason and the mails waiting", err)
		}
		// The next run, before the retry time: nothing is tried, and
		// sending is still blocked (recorded by the earlier run).
		cfg.Sender = smtpout.New(w.config().SMTP)
		if err := daemon.Run(context.Background(), w.app, cfg); err == nil || !strings.Contains(err.Error(), "sending is blocked") {
			t.Errorf("the next run: %v; want \"sending is blocked\" still", err)
		}
	})
	t.Run("all well", func(t *testing.T) {
		w := newWorld(t)
		if err := daemon.Run(context.Background(), w.app, w.config()); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}
