package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"referee/internal/mail/oauth"
)

func TestServeOAuthSettingsErrors(t *testing.T) {
	// Brief: inconsistent OAuth settings are refused before anything runs,
	// with exit status 2 and a message that says what to do.
	real := []string{"--imap", "127.0.0.1:1", "--imap-tls", "none", "--smtp", "127.0.0.1:1", "--smtp-tls", "none", "--imap-pass", "pw"}
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		want []string
	}{
		{"token auth without a command", []string{"--imap-pass", "", "--imap-auth", "xoauth2"}, nil,
			[]string{"--imap-auth xoauth2 needs --imap-token-cmd", "docs/providers.md"}},
		{"a command with password auth", []string{"--smtp-token-cmd", "oauth2l fetch"}, nil,
			[]string{"--smtp-token-cmd is set but --smtp-auth is password", "add --smtp-auth xoauth2"}},
		{"a command from the environment with password auth", nil, map[string]string{"REFEREE_IMAP_TOKEN_CMD": "pizauth show referee"},
			[]string{"--imap-token-cmd is set but --imap-auth is password"}},
		{"token auth and a password", []string{"--imap-auth", "oauthbearer", "--imap-token-cmd", "echo t"}, nil,
			[]string{"--imap-auth oauthbearer logs in with a token, but --imap-pass or --imap-pass-file is set too"}},
		{"unknown auth", []string{"--smtp-auth", "bearer"}, nil,
			[]string{`--smtp-auth "bearer": use password, xoauth2 or oauthbearer`}},
		{"OAuth in clear text to another host", []string{"--imap-pass", "", "--imap", "imap.example.org:143", "--imap-auth", "xoauth2", "--imap-token-cmd", "echo t"}, nil,
			[]string{"--imap-tls none sends passwords or OAuth tokens in clear text", "not imap.example.org", "use starttls or tls"}},
		{"OAuth settings for the embedded server", []string{"--imap", "", "--imap-auth", "xoauth2"}, nil,
			[]string{"apply to a real mail server"}},
	} {
		for k, v := range tt.env {
			t.Setenv(k, v)
		}
		db := filepath.Join(t.TempDir(), "r.db")
		args := append(append([]string{"serve", "--once", "--db", db}, real...), tt.args...)
		code, _, errs := cli(t, args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d; stderr %q", tt.name, code, exitUsage, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q does not say %q", tt.name, errs, w)
			}
		}
		for k := range tt.env {
			os.Unsetenv(k)
		}
	}
}

// oauthIMAPSession is an in-memory IMAP session that logs in only with
// XOAUTH2 and the token "imap-token-1".
type oauthIMAPSession struct {
	imapserver.SessionIMAP4rev2
	seen func(string)
}

func (s oauthIMAPSession) AuthenticateMechanisms() []string { return []string{oauth.XOAuth2} }

func (s oauthIMAPSession) Authenticate(mech string) (sasl.Server, error) {
	return oauth.NewXOAuth2Server(func(user, token string) error {
		s.seen("IMAP " + mech + " " + user + " " + token)
		if token != "imap-token-1" {
			return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "Invalid credentials"}
		}
		return s.Login(user, "pw")
	}), nil
}

// oauthSMTP is an SMTP backend that takes OAUTHBEARER with the token
// "smtp-token-1" and records what it receives.
type oauthSMTP struct {
	seen func(string)
	got  chan []byte
}

func (b *oauthSMTP) NewSession(*smtp.Conn) (smtp.Session, error) { return &oauthSMTPSession{b: b}, nil }

type oauthSMTPSession struct {
	b      *oauthSMTP
	authed bool
}

func (s *oauthSMTPSession) AuthMechanisms() []string { return []string{sasl.OAuthBearer} }
func (s *oauthSMTPSession) Auth(string) (sasl.Server, error) {
	return sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
		s.b.seen("SMTP OAUTHBEARER " + o.Username + " " + o.Token)
		if o.Token != "smtp-token-1" {
			return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
		}
		s.authed = true
		return nil
	}), nil
}
func (s *oauthSMTPSession) Reset()        {}
func (s *oauthSMTPSession) Logout() error { return nil }
func (s *oauthSMTPSession) Mail(string, *smtp.MailOptions) error {
	if !s.authed {
		return &smtp.SMTPError{Code: 530, Message: "authentication required"}
	}
	return nil
}
func (s *oauthSMTPSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *oauthSMTPSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err == nil {
		s.b.got <- b
	}
	return err
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}
func (quiet) Println(...any)        {}

func TestServeOnceWithOAuth(t *testing.T) {
	// Brief: `serve --once` with --imap-auth xoauth2 and --smtp-auth
	// oauthbearer logs in to both servers with the tokens its commands
	// print, reads the mailbox and sends the reply; no token shows in its
	// output.
	const referee = "referee@example.test"
	var mu sync.Mutex
	var seen []string
	record := func(s string) { mu.Lock(); seen = append(seen, s); mu.Unlock() }

	mail := "From: alice@example.org\r\nTo: referee@example.test\r\nSubject: hello\r\nMessage-ID: <a1@example.org>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nhelp\r\n"
	imapAddr, _ := loopbackIMAP(t, referee, []string{mail}, func(s imapserver.Session) imapserver.Session {
		return oauthIMAPSession{s.(imapserver.SessionIMAP4rev2), record}
	})

	backend := &oauthSMTP{seen: record, got: make(chan []byte, 4)}
	smtpAddr := loopbackSMTP(t, backend)

	dir := t.TempDir()
	// Each command prints its token with a run number: a second run would
	// print a token the servers refuse.
	cmd := func(name string) string {
		f := filepath.Join(dir, name)
		return `echo x >> '` + f + `'; printf '{"access_token":"` + name + `-%s","expires_in":3600}\n' "$(wc -l < '` + f + `' | tr -d ' ')"`
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"serve", "--once", "--db", filepath.Join(dir, "r.db"), "--address", referee,
		"--imap", imapAddr, "--imap-tls", "none", "--imap-auth", "xoauth2", "--imap-token-cmd", cmd("imap-token"),
		"--smtp", smtpAddr, "--smtp-tls", "none", "--smtp-auth", "oauthbearer", "--smtp-token-cmd", cmd("smtp-token"),
		"--log-level", "debug"}, &out, &errb)
	if code != exitOK {
		t.Fatalf("serve --once: exit %d\n%s", code, errb.String())
	}
	select {
	case <-backend.got:
	default:
		t.Errorf("no reply was sent; log:\n%s", errb.String())
	}
	mu.Lock()
	got := strings.Join(seen, "|")
	mu.Unlock()
	if want := "IMAP XOAUTH2 " + referee + " imap-token-1|SMTP OAUTHBEARER " + referee + " smtp-token-1"; got != want {
		t.Errorf("the servers saw %q, want %q", got, want)
	}
	if s := out.String() + errb.String(); strings.Contains(s, "token-1") {
		t.Errorf("a token shows in the output:\n%s", s)
	}
}

type literal struct {
	io.Reader
	n int64
}

func (l literal) Size() int64 { return l.n }
