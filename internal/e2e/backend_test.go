package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/emersion/go-imap/v2/imapclient"

	"referee/internal/mail/embedded"
	"referee/internal/mailtest"
)

// The safety scenarios run against two mail systems, as go-imap runs one
// client suite against its own server and against Dovecot: the embedded
// servers (internal/mail/embedded, in this process) in every `go test`,
// and private Dovecot and Postfix instances (internal/mailtest) when asked
// (CI=true or REFEREE_E2E=1). One scenario, one code path; only what a
// mail system is differs, behind mailSystem.

// mailSystem is what the scenarios need of a mail system.
type mailSystem interface {
	// imapAddr and smtpAddr are where mailboxes are read and mail is
	// sent; every @example.test address is an account with the password
	// mailtest.Password, and plus-addresses land in their base account.
	imapAddr() string
	smtpAddr() string
	// dropInbox deletes user's INBOX with everything in it, as a provider
	// migration does: the next INBOX is empty, with a new UIDVALIDITY.
	// Nobody may have it selected meanwhile.
	dropInbox(user string) error
}

// dovecot is the private Dovecot and Postfix pair.
type dovecot struct{ srv *mailtest.Servers }

func (d dovecot) imapAddr() string { return d.srv.IMAPAddr }
func (d dovecot) smtpAddr() string { return d.srv.SMTPAddr }

// dropInbox removes the Maildir: Dovecot makes a new INBOX, with a new
// UIDVALIDITY, at the next login (an IMAP DELETE of INBOX is refused).
func (d dovecot) dropInbox(user string) error {
	if err := os.RemoveAll(filepath.Join(d.srv.State, "mail", user)); err != nil {
		return fmt.Errorf("deleting the Maildir of %s: %w", user, err)
	}
	return nil
}

// embeddedMail is the referee's own embedded servers, with their
// mailboxes on disk as `referee serve` keeps them.
type embeddedMail struct{ srv *embedded.Server }

func (m embeddedMail) imapAddr() string { return m.srv.IMAPAddr() }
func (m embeddedMail) smtpAddr() string { return m.srv.SMTPAddr() }

// dropInbox deletes INBOX over IMAP and creates it again, which gives it
// a UIDVALIDITY above every earlier one of the account.
func (m embeddedMail) dropInbox(user string) error {
	c, err := imapclient.DialInsecure(m.srv.IMAPAddr(), nil)
	if err != nil {
		return fmt.Errorf("IMAP dial: %w", err)
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		return fmt.Errorf("IMAP login %s: %w", user, err)
	}
	if err := c.Delete("INBOX").Wait(); err != nil {
		return fmt.Errorf("IMAP DELETE INBOX of %s: %w", user, err)
	}
	if err := c.Create("INBOX", nil).Wait(); err != nil {
		return fmt.Errorf("IMAP CREATE INBOX of %s: %w", user, err)
	}
	return nil
}

// newEmbeddedEnv starts embedded mail servers for t on free loopback
// ports, stopped when t ends.
func newEmbeddedEnv(t testing.TB) *env {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{Domain: mailtest.Domain, IMAPAddr: "127.0.0.1:0",
		SMTPAddr: "127.0.0.1:0", Password: password, Dir: filepath.Join(t.TempDir(), "mail")})
	if err != nil {
		t.Fatalf("starting the embedded mail servers: %v", err)
	}
	e := &env{mail: embeddedMail{srv}}
	t.Cleanup(func() { srv.Close() })
	t.Cleanup(e.boxes.closeAll) // before the servers stop
	return e
}

// eachBackend runs scenario against the embedded servers, and against
// private Dovecot and Postfix instances (skipped unless asked for, see
// mailtest.Enabled), as parallel subtests "embedded" and "dovecot".
func eachBackend(t *testing.T, scenario func(t *testing.T, e *env)) {
	t.Run("embedded", func(t *testing.T) {
		t.Parallel()
		scenario(t, newEmbeddedEnv(t))
	})
	t.Run("dovecot", func(t *testing.T) {
		t.Parallel()
		scenario(t, newEnv(t))
	})
}
