package imapin_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"

	"referee/internal/mail/imapin"
	"referee/internal/mail/oauth"
	"referee/internal/mail/oauth/oauthtest"
)

var (
	tokenPrefix  = oauthtest.TokenPrefix
	issuedToken  = oauthtest.Issued
	tokenCommand = oauthtest.Command
)

// oauthServer is an in-process IMAP server on 127.0.0.1 that takes XOAUTH2
// and OAUTHBEARER, accepting the tokens valid says are valid.
type oauthServer struct {
	addr string
	user *imapmemserver.User
	mu   sync.Mutex
	seen []string // "MECH user token" of every attempt
}

func (s *oauthServer) attempts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

func newOAuthServer(t *testing.T, mechs []string, valid func(token string) bool) *oauthServer {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser(user, password)
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	srv := &oauthServer{user: u}
	opts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &saslSession{idleSession: idleSession{mem.NewSession().(imapserver.SessionIMAP4rev2)}, srv: srv, mechs: mechs, valid: valid}, nil, nil
		},
		Caps:         capsFull,
		InsecureAuth: true,
		Logger:       log.New(io.Discard, "", 0),
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := imapserver.New(opts)
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	srv.addr = ln.Addr().String()
	return srv
}

// saslSession is a memserver session that authenticates with bearer
// tokens, as imapserver.SessionSASL.
type saslSession struct {
	idleSession
	srv   *oauthServer
	mechs []string
	valid func(string) bool
}

func (s *saslSession) AuthenticateMechanisms() []string { return s.mechs }

// check records an attempt and, for a valid token, logs the memserver
// session in.
func (s *saslSession) check(mech, u, token string) error {
	s.srv.mu.Lock()
	s.srv.seen = append(s.srv.seen, mech+" "+u+" "+token)
	s.srv.mu.Unlock()
	if u != user || !s.valid(token) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "Invalid credentials (Failure)"}
	}
	return s.Login(user, password)
}

func (s *saslSession) Authenticate(mech string) (sasl.Server, error) {
	switch mech {
	case oauth.XOAuth2:
		return oauth.NewXOAuth2Server(func(u, token string) error { return s.check(mech, u, token) }), nil
	case oauth.OAuthBearer:
		var failed error
		inner := sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if failed = s.check(mech, o.Username, o.Token); failed != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})
		// go-sasl fails with its own error type, which imapserver would
		// turn into a server bug; a real server says NO
		// [AUTHENTICATIONFAILED].
		return saslFunc(func(resp []byte) ([]byte, bool, error) {
			ch, done, err := inner.Next(resp)
			if err != nil && failed != nil {
				err = failed
			}
			return ch, done, err
		}), nil
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
}

type saslFunc func([]byte) ([]byte, bool, error)

func (f saslFunc) Next(resp []byte) ([]byte, bool, error) { return f(resp) }

// oauthCfg is the reader's configuration for srv with a token source that
// runs cmd.
func oauthCfg(t *testing.T, srv *oauthServer, mech, cmd string, logger *slog.Logger) imapin.Config {
	t.Helper()
	src, err := oauth.NewCommandSource(oauth.Options{Command: cmd, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	return imapin.Config{Addr: srv.addr, User: user, TLS: "none", Auth: mech, Token: src, Poll: 100 * time.Millisecond, Logger: logger}
}

func appendTo(t *testing.T, u *imapmemserver.User, n int) {
	t.Helper()
	if _, err := u.Append("INBOX", literalOf(msg(n)), &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
}

type bytesLiteral struct{ *bytes.Reader }

func (l bytesLiteral) Size() int64 { return l.Reader.Size() }

func literalOf(b []byte) imap.LiteralReader { return bytesLiteral{bytes.NewReader(b)} }

func TestOAuthLogin(t *testing.T) {
	// Brief: the reader logs in with XOAUTH2 or OAUTHBEARER with a token
	// from the configured command; when the server refuses the token (an
	// expired one) the command runs again and the new token gets in; the
	// token appears in no error and no log line.
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
			srv := newOAuthServer(t, []string{"XOAUTH2", "OAUTHBEARER"}, func(tok string) bool {
				var n int
				_, err := fmt.Sscanf(strings.TrimPrefix(tok, tokenPrefix+"-"), "%d", &n)
				return err == nil && n >= tt.firstOK
			})
			appendTo(t, srv.user, 1)
			cmd, runs := tokenCommand(t)
			var logs syncBuffer
			cfg := oauthCfg(t, srv, mech, cmd, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
			r := newRecorder()
			if err := imapin.Once(context.Background(), cfg, r.handle); err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if got := r.list(); len(got) != 1 || got[0] != "m1" {
				t.Errorf("%s: handled %v, want [m1]", name, got)
			}
			if runs() != tt.wantRuns {
				t.Errorf("%s: the command ran %d times, want %d", name, runs(), tt.wantRuns)
			}
			var want []string
			for i := 1; i <= tt.wantRuns; i++ {
				want = append(want, fmt.Sprintf("%s %s %s-%d", strings.ToUpper(mech), user, tokenPrefix, i))
			}
			if got := srv.attempts(); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%s: the server saw %q, want %q", name, got, want)
			}
			if issuedToken.MatchString(logs.String()) {
				t.Errorf("%s: the log shows a token:\n%s", name, logs.String())
			}
			if tt.wantRuns > 1 && !strings.Contains(logs.String(), "refused the OAuth token") {
				t.Errorf("%s: the log does not tell of the refusal:\n%s", name, logs.String())
			}
		}
	}
}

func TestOAuthRunReconnectsWithNewToken(t *testing.T) {
	// Brief: when even the second token is refused, the session fails; the
	// reconnect runs the command again, and the third token gets in.
	srv := newOAuthServer(t, []string{"XOAUTH2"}, func(tok string) bool { return tok == tokenPrefix+"-3" })
	appendTo(t, srv.user, 1)
	cmd, runs := tokenCommand(t)
	var logs syncBuffer
	cfg := oauthCfg(t, srv, "xoauth2", cmd, slog.New(slog.NewTextHandler(&logs, nil)))
	r := newRecorder()
	stop := runBG(t, cfg, r.handle)
	r.await(t, "m1")
	stop()
	if runs() != 3 {
		t.Errorf("the command ran %d times, want 3", runs())
	}
	if !strings.Contains(logs.String(), "refused a newly obtained token too") || !strings.Contains(logs.String(), "reconnecting") {
		t.Errorf("the log does not tell of the failed session and the reconnect:\n%s", logs.String())
	}
	if issuedToken.MatchString(logs.String()) {
		t.Errorf("the log shows a token:\n%s", logs.String())
	}
}

func TestOAuthFailures(t *testing.T) {
	// Brief: each failure names what was read and what to do; none shows
	// a token.
	valid := func(tok string) bool { return tok == tokenPrefix+"-1" }
	for _, tt := range []struct {
		name  string
		mechs []string // what the server offers
		auth  string
		cmd   string // "" = the counting command
		want  []string
	}{
		{"command fails", []string{"XOAUTH2"}, "xoauth2",
			"echo 'invalid_grant: Token has been expired or revoked.' >&2; exit 2",
			[]string{"getting a token", "exit status 2", "invalid_grant: Token has been expired or revoked.", `"echo 'invalid_grant`}},
		{"every token refused", []string{"XOAUTH2", "OAUTHBEARER"}, "oauthbearer",
			"echo " + tokenPrefix + "-x",
			[]string{"refused a newly obtained token too", "AUTHENTICATIONFAILED", `status "invalid_token"`, "mail scope"}},
		{"mechanism not offered", []string{"XOAUTH2"}, "oauthbearer", "",
			[]string{"does not offer AUTHENTICATE OAUTHBEARER (it offers XOAUTH2", "another IMAP auth mode"}},
	} {
		srv := newOAuthServer(t, tt.mechs, valid)
		cmd := tt.cmd
		if cmd == "" {
			cmd, _ = tokenCommand(t)
		}
		var logs syncBuffer
		cfg := oauthCfg(t, srv, tt.auth, cmd, slog.New(slog.NewTextHandler(&logs, nil)))
		err := imapin.Once(context.Background(), cfg, newRecorder().handle)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
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
		cfg  imapin.Config
		want string
	}{
		{imapin.Config{Addr: "127.0.0.1:1", TLS: "none", Auth: "xoauth2"}, `"xoauth2" needs a token source`},
		{imapin.Config{Addr: "127.0.0.1:1", TLS: "none", Auth: "oauth", Token: src}, `"oauth" is unknown: use "password", "xoauth2" or "oauthbearer"`},
		{imapin.Config{Addr: "192.0.2.1:143", TLS: "none", Auth: "xoauth2", Token: src}, "loopback"},
	} {
		err := imapin.Once(context.Background(), tt.cfg, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want one mentioning %q", tt.cfg, err, tt.want)
		}
	}
}
