package smtpout

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// recorder is an in-process SMTP backend that records messages, checks a
// password when one is set, and can fail a step with a configured code.
type recorder struct {
	got      chan []byte
	rcpts    chan []string
	user     string // "" = no AUTH offered
	password string
	failAt   string // "RCPT" or "DATA"
	failCode int
	refuse   string // a recipient refused at RCPT with failCode
	conns    atomic.Int32
	cert     *x509.Certificate // the server certificate in modes tls and starttls
}

func (r *recorder) NewSession(*smtp.Conn) (smtp.Session, error) {
	r.conns.Add(1)
	return &sess{r: r}, nil
}

type sess struct {
	r      *recorder
	authed bool
	to     []string
}

func (s *sess) Reset()        { s.to = nil }
func (s *sess) Logout() error { return nil }

func (s *sess) AuthMechanisms() []string {
	if s.r.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *sess) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != s.r.user || pass != s.r.password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "bad credentials"}
		}
		s.authed = true
		return nil
	}), nil
}

func (s *sess) Mail(string, *smtp.MailOptions) error {
	if s.r.user != "" && !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}
	}
	return nil
}

func (s *sess) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.r.failAt == "RCPT" || to == s.r.refuse {
		return &smtp.SMTPError{Code: s.r.failCode, Message: "refused for the test"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *sess) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if s.r.failAt == "DATA" {
		return &smtp.SMTPError{Code: s.r.failCode, Message: "refused for the test"}
	}
	s.r.got <- b
	s.r.rcpts <- s.to
	return nil
}

// selfSigned makes a certificate for 127.0.0.1.
func selfSigned(t *testing.T) *tls.Config {
	c, _ := selfSignedCert(t)
	return c
}

// selfSignedCert is selfSigned, with the parsed certificate.
func selfSignedCert(t *testing.T) (*tls.Config, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, cert
}

// serve starts the backend on 127.0.0.1 with the given TLS mode.
func serve(t *testing.T, rec *recorder, mode string) string {
	t.Helper()
	if rec.got == nil {
		rec.got = make(chan []byte, 4)
		rec.rcpts = make(chan []string, 4)
	}
	srv := smtp.NewServer(rec)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = silent{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "starttls":
		srv.TLSConfig, rec.cert = selfSignedCert(t)
	case "tls":
		var c *tls.Config
		c, rec.cert = selfSignedCert(t)
		ln = tls.NewListener(ln, c)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

type silent struct{}

func (silent) Printf(string, ...any) {}
func (silent) Println(...any)        {}

var raw = []byte("From: r@x.test\r\nTo: a@x.test\r\nSubject: hi\r\n\r\nline one\r\n.leading dot\r\n..two dots\r\nlast line without break")

func TestSendByteExactInEveryTLSModeWithAuth(t *testing.T) {
	// Brief: the message arrives byte-exact (dot-stuffing undone, a final
	// line without CRLF is completed by nothing but the terminator), AUTH
	// PLAIN is used when a user is set, and plain/STARTTLS/implicit TLS all
	// work.
	for _, mode := range []string{"none", "starttls", "tls"} {
		for _, auth := range []bool{false, true} {
			rec := &recorder{}
			cfg := Config{TLS: mode, InsecureSkipVerify: true, Timeout: 5 * time.Second}
			if auth {
				rec.user, rec.password = "referee", "pw"
				cfg.User, cfg.Password = "referee", "pw"
			}
			cfg.Addr = serve(t, rec, mode)
			to := []string{"a@x.test", "b@x.test"}
			if err := New(cfg).Send(context.Background(), "r@x.test", to, raw); err != nil {
				t.Fatalf("%s, auth %v: %v", mode, auth, err)
			}
			got := <-rec.got
			want := append(bytes.Clone(raw), "\r\n"...) // SMTP ends the text with CRLF
			if !bytes.Equal(got, want) {
				t.Errorf("%s, auth %v: received %q\nwant %q", mode, auth, got, want)
			}
			if r := <-rec.rcpts; strings.Join(r, ",") != "a@x.test,b@x.test" {
				t.Errorf("%s: recipients %v", mode, r)
			}
		}
	}
}

func TestAuthFailureSaysWhatHappened(t *testing.T) {
	// Issue 38: a refused login (535) blocks sending and the mail is
	// retried (daemon), so the error must say the login was refused and
	// must not call it "permanent, retrying will not help".
	rec := &recorder{user: "referee", password: "right"}
	addr := serve(t, rec, "none")
	err := New(Config{Addr: addr, TLS: "none", User: "referee", Password: "wrong"}).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw)
	if err == nil || !IsBlocked(err) || !strings.Contains(err.Error(), "AUTH") || !strings.Contains(err.Error(), "password") ||
		!strings.Contains(err.Error(), "refused the login, with 535") {
		t.Errorf("err = %v, want a refused AUTH that mentions the password and the code", err)
	}
	for _, bad := range []string{"permanent", "will not help", "retr"} {
		if err != nil && strings.Contains(err.Error(), bad) {
			t.Errorf("err = %v: says %q, but what happens next is the outbox's choice (it retries)", err, bad)
		}
	}
}

// TestTLSFailureIsNamed: issue 38: a certificate the client does not
// trust was reported as a failure of "EHLO localhost". It must be called
// a TLS failure that names --tls-ca; with the CA given (RootCAs, serve
// --tls-ca) the same server is accepted.
func TestTLSFailureIsNamed(t *testing.T) {
	for _, mode := range []string{"tls", "starttls"} {
		rec := &recorder{}
		addr := serve(t, rec, mode)
		cfg := Config{Addr: addr, TLS: mode, Timeout: 5 * time.Second}
		err := New(cfg).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw)
		if err == nil || !IsBlocked(err) || strings.Contains(err.Error(), "EHLO") || !strings.Contains(err.Error(), "--tls-ca") ||
			!strings.Contains(err.Error(), "certificate is signed by an authority this machine does not trust") {
			t.Errorf("%s, untrusted certificate: err = %v; want a TLS failure naming --tls-ca, not EHLO", mode, err)
		}
		// The test server's certificate is its own authority.
		cfg.RootCAs = x509.NewCertPool()
		cfg.RootCAs.AddCert(rec.cert)
		if err := New(cfg).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw); err != nil {
			t.Errorf("%s, with its CA trusted: %v", mode, err)
		}
	}
	// A server that speaks no TLS on a port given as "tls".
	addr := serve(t, &recorder{}, "none")
	err := New(Config{Addr: addr, TLS: "tls", Timeout: 5 * time.Second}).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw)
	if err == nil || !strings.Contains(err.Error(), "did not answer in TLS") || !strings.Contains(err.Error(), "--smtp-tls starttls") {
		t.Errorf("plain server, TLS mode tls: err = %v; want \"did not answer in TLS\" and the advice", err)
	}
}

func TestServerRefusals(t *testing.T) {
	// Brief: 4xx is temporary, 5xx permanent, and the error names the step.
	for _, tt := range []struct {
		at        string
		code      int
		permanent bool
		step      string
	}{
		{"RCPT", 450, false, "RCPT TO:<a@x.test>"},
		{"RCPT", 550, true, "RCPT TO:<a@x.test>"},
		{"DATA", 451, false, "end of DATA"},
		{"DATA", 554, true, "end of DATA"},
	} {
		addr := serve(t, &recorder{failAt: tt.at, failCode: tt.code}, "none")
		err := New(Config{Addr: addr, TLS: "none"}).Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw)
		if err == nil || IsPermanent(err) != tt.permanent || !strings.Contains(err.Error(), tt.step) {
			t.Errorf("%d at %s: err %v, permanent %v; want permanent=%v naming %q", tt.code, tt.at, err, IsPermanent(err), tt.permanent, tt.step)
		}
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != tt.code {
			t.Errorf("%d at %s: the SMTP error is not reachable with errors.As: %v", tt.code, tt.at, err)
		}
	}
}

func TestServerDownOrSilent(t *testing.T) {
	// Brief: a server that is down gives a temporary error, and one that
	// accepts the connection but never answers cannot hang the sender.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	ln.Close()
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer mute.Close()
	go func() {
		for {
			c, err := mute.Accept()
			if err != nil {
				return
			}
			defer c.Close() // never greets
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tt := range []struct {
		name, addr string
		ctx        context.Context
		timeout    time.Duration
	}{
		{"down", down, context.Background(), 5 * time.Second},
		{"silent, timeout", mute.Addr().String(), context.Background(), 200 * time.Millisecond},
		{"silent, context deadline", mute.Addr().String(), func() context.Context {
			c, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			t.Cleanup(cancel)
			return c
		}(), time.Hour},
	} {
		done := make(chan error, 1)
		go func() {
			done <- New(Config{Addr: tt.addr, TLS: "none", Timeout: tt.timeout}).Send(tt.ctx, "r@x.test", []string{"a@x.test"}, raw)
		}()
		select {
		case err := <-done:
			if err == nil || IsPermanent(err) || !strings.Contains(err.Error(), "the connection failed") && !strings.Contains(err.Error(), "interrupted") && !strings.Contains(err.Error(), "connecting") {
				t.Errorf("%s: err = %v, want a temporary error", tt.name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Send still running after 10 s", tt.name)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		to   []string
		want string
	}{
		{Config{Addr: "192.0.2.1:25", TLS: "none"}, []string{"a@x.test"}, "loopback"},
		{Config{Addr: "127.0.0.1:25", TLS: "ssl"}, []string{"a@x.test"}, `"ssl" is unknown`},
		{Config{Addr: "smtp.example.org", TLS: "tls"}, []string{"a@x.test"}, "host:port"},
		{Config{Addr: "127.0.0.1:25", TLS: "none"}, nil, "no recipient"},
	} {
		err := New(tt.cfg).Send(context.Background(), "r@x.test", tt.to, raw)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want one mentioning %q", tt.cfg, err, tt.want)
		}
	}
}

func TestSessionSendsManyOverOneConnection(t *testing.T) {
	// Brief: a batch goes over ONE connection; a message the server refuses
	// fails alone (RSET before the next), and the session goes on.
	rec := &recorder{refuse: "bad@x.test", failCode: 550, got: make(chan []byte, 8), rcpts: make(chan []string, 8)}
	addr := serve(t, rec, "none")
	s, err := New(Config{Addr: addr, TLS: "none", Timeout: 5 * time.Second}).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, to := range []string{"a@x.test", "bad@x.test", "b@x.test", "c@x.test"} {
		err := s.Send(context.Background(), "r@x.test", []string{to}, raw)
		if to == "bad@x.test" {
			if err == nil || !IsPermanent(err) || s.Broken() {
				t.Fatalf("mail %d to %s: err %v, broken %v; want a permanent refusal of this mail only", i, to, err, s.Broken())
			}
			continue
		}
		if err != nil {
			t.Fatalf("mail %d to %s: %v", i, to, err)
		}
		if r := <-rec.rcpts; len(r) != 1 || r[0] != to {
			t.Errorf("mail %d: recipients %v, want [%s]", i, r, to)
		}
		<-rec.got
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if n := rec.conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}

func TestSessionBrokenByCancel(t *testing.T) {
	// A send interrupted by its context leaves the session broken: the
	// caller opens a new one for the next message.
	s := openSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Send(ctx, "r@x.test", []string{"a@x.test"}, raw); err == nil || !s.Broken() {
		t.Fatalf("err %v, broken %v; want an error and a broken session", err, s.Broken())
	}
	if err := s.Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw); err == nil || IsPermanent(err) {
		t.Errorf("send on a broken session: %v, want a temporary error", err)
	}
}

func TestNoopTellsALiveSessionFromADeadOne(t *testing.T) {
	// The outbox checks a session that rested with NOOP before reusing it:
	// a live one answers, one the server dropped fails and is broken.
	s := openSession(t)
	if err := s.Noop(context.Background()); err != nil || s.Broken() {
		t.Fatalf("NOOP on a live session: %v, broken %v", err, s.Broken())
	}
	s.conn.Close() // as when the server drops an idle connection
	if err := s.Noop(context.Background()); err == nil || !s.Broken() {
		t.Fatalf("NOOP on a dropped session: %v, broken %v; want an error and a broken session", err, s.Broken())
	}
}

// openSession opens a session to a new plain test server, closed when the
// test ends.
func openSession(t *testing.T) *Session {
	t.Helper()
	addr := serve(t, &recorder{}, "none")
	s, err := New(Config{Addr: addr, TLS: "none", Timeout: 5 * time.Second}).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestBlockedOrRefused (issue 27, "SMTP login is never silently off"): a
// refused login, a login the server requires but did not get (530 at MAIL
// FROM) and an unreachable server block the session, whatever the
// message: the outbox keeps such mail waiting. A recipient's refusal, even
// with an authentication-like code at RCPT, concerns that message only.
func TestBlockedOrRefused(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := closed.Addr().String()
	closed.Close()
	for _, tt := range []struct {
		name             string
		rec              *recorder // nil: nothing listens
		user, password   string
		blocked, refusal bool
	}{
		{"535 at AUTH", &recorder{user: "referee", password: "right"}, "referee", "wrong", true, false},
		{"530 at MAIL FROM, no login given", &recorder{user: "referee", password: "right"}, "", "", true, false},
		{"server down", nil, "", "", true, false},
		{"454 at RCPT", &recorder{failAt: "RCPT", failCode: 454}, "", "", false, true},
		{"550 at RCPT", &recorder{failAt: "RCPT", failCode: 550}, "", "", false, true},
		{"554 after DATA", &recorder{failAt: "DATA", failCode: 554}, "", "", false, true},
		{"421 at RCPT", &recorder{failAt: "RCPT", failCode: 421}, "", "", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr := down
			if tt.rec != nil {
				addr = serve(t, tt.rec, "none")
			}
			err := New(Config{Addr: addr, TLS: "none", User: tt.user, Password: tt.password, Timeout: 5 * time.Second}).
				Send(context.Background(), "r@x.test", []string{"a@x.test"}, raw)
			if err == nil || IsBlocked(err) != tt.blocked || IsRefusal(err) != tt.refusal {
				t.Errorf("err %v: blocked %v, refusal %v; want %v, %v", err, IsBlocked(err), IsRefusal(err), tt.blocked, tt.refusal)
			}
		})
	}
}
