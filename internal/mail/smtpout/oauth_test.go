package smtpout

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"referee/internal/mail/oauth"
	"referee/internal/mail/oauth/oauthtest"
)

var (
	tokenPrefix  = oauthtest.TokenPrefix
	issuedToken  = oauthtest.Issued
	tokenCommand = oauthtest.Command
)

// oauthBackend is an in-process SMTP server that takes XOAUTH2 and
// OAUTHBEARER with the tokens valid accepts, and requires AUTH for MAIL.
type oauthBackend struct {
	mechs []string
	valid func(string) bool
	got   chan []byte
	mu    sync.Mutex
	seen  []string // "MECH user token" of every attempt
}

func (b *oauthBackend) attempts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.seen...)
}

func (b *oauthBackend) NewSession(*smtp.Conn) (smtp.Session, error) { return &oauthSess{b: b}, nil }

type oauthSess struct {
	b      *oauthBackend
	authed bool
}

var errBadToken = &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Username and Password not accepted"}

func (s *oauthSess) check(mech, user, token string) bool {
	s.b.mu.Lock()
	s.b.seen = append(s.b.seen, mech+" "+user+" "+token)
	s.b.mu.Unlock()
	s.authed = user == "referee@example.test" && s.b.valid(token)
	return s.authed
}

func (s *oauthSess) AuthMechanisms() []string { return s.b.mechs }

func (s *oauthSess) Auth(mech string) (sasl.Server, error) {
	switch mech {
	case oauth.XOAuth2:
		return oauth.NewXOAuth2Server(func(u, tok string) error {
			if !s.check(mech, u, tok) {
				return errBadToken
			}
			return nil
		}), nil
	case oauth.OAuthBearer:
		inner := sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if !s.check(mech, o.Username, o.Token) {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})
		return saslFunc(func(resp []byte) ([]byte, bool, error) {
			ch, done, err := inner.Next(resp)
			if err != nil {
				err = errBadToken // as a real server answers
			}
			return ch, done, err
		}), nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

type saslFunc func([]byte) ([]byte, bool, error)

func (f saslFunc) Next(resp []byte) ([]byte, bool, error) { return f(resp) }

func (s *oauthSess) Reset()        {}
func (s *oauthSess) Logout() error { return nil }
func (s *oauthSess) Mail(string, *smtp.MailOptions) error {
	if !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}
	}
	return nil
}
func (s *oauthSess) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *oauthSess) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err == nil {
		s.b.got <- b
	}
	return err
}

func serveOAuth(t *testing.T, b *oauthBackend) string {
	t.Helper()
	b.got = make(chan []byte, 4)
	srv := smtp.NewServer(b)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = silent{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func oauthClient(t *testing.T, addr, mech, cmd string, logs io.Writer) *Client {
	t.Helper()
	src, err := oauth.NewCommandSource(oauth.Options{Command: cmd, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return New(Config{Addr: addr, TLS: "none", User: "referee@example.test", Auth: mech, Token: src, Timeout: 5 * time.Second})
}

func TestOAuthSend(t *testing.T) {
	// Brief: the sender logs in with XOAUTH2 or OAUTHBEARER with a token
	// from the configured command; a token the server refuses (an expired
	// one) makes the command run again and the mail still goes out, in
	// the same Send; the next Send uses the cached token; no token shows
	// in a log.
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		for _, tt := range []struct {
			name     string
			firstOK  int // the first run whose token the server takes
			wantRuns int
		}{
			{"token accepted", 1, 1},
			{"first token expired", 2, 2},
		} {
			name := mech + ", " + tt.name
			b := &oauthBackend{mechs: []string{"PLAIN", "XOAUTH2", "OAUTHBEARER"}, valid: func(tok string) bool {
				var n int
				_, err := fmt.Sscanf(strings.TrimPrefix(tok, tokenPrefix+"-"), "%d", &n)
				return err == nil && n >= tt.firstOK
			}}
			addr := serveOAuth(t, b)
			cmd, runs := tokenCommand(t)
			var logs bytes.Buffer
			c := oauthClient(t, addr, mech, cmd, &logs)
			for i := range 2 {
				if err := c.Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw); err != nil {
					t.Fatalf("%s: send %d: %v", name, i+1, err)
				}
				<-b.got
			}
			if runs() != tt.wantRuns {
				t.Errorf("%s: the command ran %d times, want %d", name, runs(), tt.wantRuns)
			}
			var want []string
			for i := 1; i <= tt.wantRuns; i++ {
				want = append(want, fmt.Sprintf("%s referee@example.test %s-%d", strings.ToUpper(mech), tokenPrefix, i))
			}
			want = append(want, want[len(want)-1]) // the second Send: cached
			if got := b.attempts(); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%s: the server saw %q, want %q", name, got, want)
			}
			if issuedToken.MatchString(logs.String()) {
				t.Errorf("%s: the log shows a token:\n%s", name, logs.String())
			}
		}
	}
}

func TestOAuthSendFailures(t *testing.T) {
	// Brief: each failure names the step, what was read and what to do,
	// and says whether a retry can help; none shows a token.
	valid := func(tok string) bool { return tok == tokenPrefix+"-1" }
	for _, tt := range []struct {
		name      string
		mechs     []string
		auth      string
		cmd       string // "" = the counting command
		permanent bool
		want      []string
	}{
		{"command fails", []string{"XOAUTH2"}, "xoauth2",
			"echo 'invalid_grant: Token has been expired or revoked.' >&2; exit 2", false,
			[]string{"AUTH XOAUTH2 as \"referee@example.test\": getting a token", "exit status 2", "invalid_grant: Token has been expired or revoked."}},
		{"every token refused", []string{"XOAUTH2", "OAUTHBEARER"}, "oauthbearer",
			"echo " + tokenPrefix + "-x", true,
			[]string{"refused a newly obtained token too", `status "invalid_token"`, "mail scope", "535"}},
		{"mechanism not offered", []string{"PLAIN"}, "xoauth2", "", false,
			[]string{"does not offer XOAUTH2 (it offers PLAIN)", "another SMTP auth mode"}},
	} {
		addr := serveOAuth(t, &oauthBackend{mechs: tt.mechs, valid: valid})
		cmd := tt.cmd
		if cmd == "" {
			cmd, _ = tokenCommand(t)
		}
		var logs bytes.Buffer
		err := oauthClient(t, addr, tt.auth, cmd, &logs).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if IsPermanent(err) != tt.permanent {
			t.Errorf("%s: permanent %v, want %v: %v", tt.name, IsPermanent(err), tt.permanent, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tt.name, err, w)
			}
		}
		if issuedToken.MatchString(err.Error()+logs.String()) || strings.Contains(err.Error(), tokenPrefix+"-x") {
			t.Errorf("%s: a token shows in the error or the log: %v\n%s", tt.name, err, logs.String())
		}
	}
}

func TestOAuthConfigErrors(t *testing.T) {
	src, err := oauth.NewCommandSource(oauth.Options{Command: "echo x"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{Addr: "127.0.0.1:25", TLS: "none", User: "r@x.test", Auth: "xoauth2"}, `"xoauth2" needs a user`},
		{Config{Addr: "127.0.0.1:25", TLS: "none", Auth: "oauthbearer", Token: src}, "needs a user"},
		{Config{Addr: "127.0.0.1:25", TLS: "none", User: "r@x.test", Auth: "bearer", Token: src}, `"bearer" is unknown`},
		{Config{Addr: "192.0.2.1:25", TLS: "none", User: "r@x.test", Auth: "xoauth2", Token: src}, "OAuth token"},
	} {
		err := New(tt.cfg).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want one mentioning %q", tt.cfg, err, tt.want)
		}
	}
}
