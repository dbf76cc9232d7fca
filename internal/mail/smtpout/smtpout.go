// Package smtpout delivers the referee's mail to an SMTP server.
package smtpout

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"referee/internal/mail/oauth"
	"referee/internal/mail/secret"
	"referee/internal/mail/tlsconf"
)

// Config says where and how to send.
type Config struct {
	Addr           string // host:port
	User, Password string // AUTH PLAIN when User is set
	// Secret, when set, supplies the password instead of Password: a file
	// or command read again when the server refuses it.
	Secret             *secret.Source
	TLS                string // "none" (loopback only), "starttls" or "tls"
	HeloName           string // default "localhost"
	InsecureSkipVerify bool   // tests only
	// RootCAs, when set, are the authorities trusted for the server's
	// certificate instead of the system's (serve --tls-ca).
	RootCAs *x509.CertPool
	// Timeout bounds the connection and every read and write on it;
	// default 1 min.
	Timeout time.Duration
	// Auth is how to log in: "password" (default: AUTH PLAIN when User is
	// set), "xoauth2" or "oauthbearer" (a bearer token from Token for
	// User). A token the server refuses is invalidated and a new one
	// tried once on the same connection.
	Auth string
	// Token supplies the bearer tokens of the OAuth auth modes.
	Token oauth.TokenSource
	// LoginIfOffered is for a User that was not given but defaulted (to
	// the referee's address): the password login happens whenever the
	// server offers AUTH, and a server that offers none (a loopback relay
	// that needs no login) is sent to without one, which Logger is told
	// once. A given User always logs in, or fails.
	LoginIfOffered bool
	Logger         *slog.Logger
}

// Client sends messages: Send over a connection of its own, or many in
// turn over one Session (Open).
type Client struct {
	cfg     Config
	noLogin sync.Once // the warning that the server offers no login
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.HeloName == "" {
		cfg.HeloName = "localhost"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Client{cfg: cfg}
}

// IsPermanent reports whether err is a permanent SMTP failure (5xx): sending
// the same message again will fail again.
func IsPermanent(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code >= 500 && se.Code < 600
}

// SessionError says that the session cannot send anything: it could not be
// opened (the server is unreachable, TLS or EHLO failed, or it refused the
// login), or the server refused MAIL FROM with an authentication code
// (530 authentication required, ...). It concerns no message in
// particular.
type SessionError struct{ Err error }

func (e *SessionError) Error() string { return e.Err.Error() }
func (e *SessionError) Unwrap() error { return e.Err }

// authCodes are the server's answers that concern the referee's login, not
// a message: 530 authentication required, 534 mechanism too weak, 535
// credentials invalid, 538 encryption required, 454 temporary
// authentication failure (RFC 4954).
var authCodes = []int{454, 530, 534, 535, 538}

// IsBlocked reports whether err means that no mail can go out for now,
// whatever the message (a SessionError): that is the organiser's problem to
// fix, not the recipient's, and such a message must wait, never become a
// dead letter. An authentication code at RCPT or after DATA concerns that
// message only (a server may answer 454 to one recipient), so it is not.
func IsBlocked(err error) bool {
	var se *SessionError
	return errors.As(err, &se)
}

// IsRefusal reports whether err is the server's answer refusing the
// message (at MAIL, at RCPT for an address it will not take, or after
// DATA), as opposed to a broken connection, its 421 (closing), or a
// session that cannot send at all (IsBlocked).
func IsRefusal(err error) bool {
	var sm *smtp.SMTPError
	return errors.As(err, &sm) && sm.Code != 421 && !IsBlocked(err)
}

// Send delivers raw from from to every address of to, over a new
// connection. It returns only after the server accepted the message (250
// after DATA), or an error naming the step that failed; IsPermanent tells
// whether trying again can help. Each read and write on the connection is
// bounded by the configured Timeout, and ctx ending aborts the send.
func (c *Client) Send(ctx context.Context, from string, to []string, raw []byte) error {
	if len(to) == 0 {
		return fmt.Errorf("sending mail from %s: no recipient given; pass at least one address", from)
	}
	s, err := c.Open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Send(ctx, from, to, raw)
}

// Session is one SMTP connection, logged in, over which messages are sent
// one after another: each Send is its own mail transaction (MAIL, RCPT,
// DATA), preceded by RSET when it is not the first, so that a message the
// server refused leaves nothing behind for the next. A Session is not safe
// for concurrent use.
type Session struct {
	c    *Client
	conn net.Conn
	sc   *smtp.Client
	sent int   // transactions begun
	bad  error // why the connection can no longer be used, or nil
	// offered is whether the last Send reached the message's text (the
	// server took DATA): before that, a failed Send left nothing of the
	// message with the server.
	offered bool
}

// Open connects, says EHLO, starts TLS and logs in as configured, and
// returns the session; ctx bounds only these steps. Close it when done.
// Its errors are SessionErrors (IsBlocked).
func (c *Client) Open(ctx context.Context) (*Session, error) {
	s, err := c.open(ctx)
	if err != nil {
		return nil, &SessionError{Err: err}
	}
	return s, nil
}

func (c *Client) open(ctx context.Context) (*Session, error) {
	host, _, err := net.SplitHostPort(c.cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("SMTP address %q is not host:port (e.g. smtp.example.org:587): %w", c.cfg.Addr, err)
	}
	if c.cfg.TLS == "none" {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return nil, fmt.Errorf("SMTP TLS mode \"none\" for %s: without TLS the password or OAuth token and the mail travel in clear text, which is allowed only on a loopback address; use TLS \"starttls\" or \"tls\"", host)
		}
	}
	switch c.cfg.TLS {
	case "none", "starttls", "tls", "":
	default:
		return nil, fmt.Errorf("SMTP TLS mode %q is unknown: use \"none\" (loopback only), \"starttls\" or \"tls\"", c.cfg.TLS)
	}
	switch c.cfg.Auth {
	case "", "password":
	case "xoauth2", "oauthbearer":
		if c.cfg.Token == nil || c.cfg.User == "" {
			return nil, fmt.Errorf("SMTP auth %q needs a user (the mailbox's address) and a token source (the command that prints an access token)", c.cfg.Auth)
		}
	default:
		return nil, fmt.Errorf("SMTP auth %q is unknown: use \"password\", \"xoauth2\" or \"oauthbearer\"", c.cfg.Auth)
	}
	d := net.Dialer{Timeout: c.cfg.Timeout}
	raw0, err := d.DialContext(ctx, "tcp", c.cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("connecting to the SMTP server %s: %w", c.cfg.Addr, err)
	}
	s := &Session{c: c, conn: raw0}
	if err := s.setup(ctx, host); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// setup runs the steps of Open after the connection is made.
func (s *Session) setup(ctx context.Context, host string) (err error) {
	c := s.c
	conn := timeoutConn{Conn: s.conn, d: c.cfg.Timeout}
	// Closing the connection when ctx ends unblocks whatever step is running.
	stop := context.AfterFunc(ctx, func() { s.conn.Close() })
	defer stop()
	tlsCfg := tlsconf.Config(host, c.cfg.RootCAs, c.cfg.InsecureSkipVerify)
	switch c.cfg.TLS {
	case "none":
		s.sc = smtp.NewClient(conn)
	case "tls", "":
		// The handshake now, so that its failure is called one (else it
		// happens at the first read, and looks like EHLO's).
		tc := tls.Client(conn, tlsCfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return c.fail(ctx, "TLS handshake", err)
		}
		s.sc = smtp.NewClient(tc)
	case "starttls":
		// The EHLO before STARTTLS says "localhost": go-smtp offers no way
		// to name it; the EHLO after it uses HeloName.
		if s.sc, err = smtp.NewClientStartTLS(conn, tlsCfg); err != nil {
			return c.fail(ctx, "STARTTLS", err)
		}
	}
	s.sc.CommandTimeout = c.cfg.Timeout
	s.sc.SubmissionTimeout = c.cfg.Timeout
	if err := s.sc.Hello(c.cfg.HeloName); err != nil {
		step := "EHLO " + c.cfg.HeloName
		if c.cfg.TLS == "starttls" && tlsconf.Explain(err, "") != "" {
			// go-smtp shakes hands after STARTTLS at the next command.
			step = "TLS handshake after STARTTLS"
		}
		return c.fail(ctx, step, err)
	}
	return c.auth(ctx, s.sc, host)
}

// Send delivers raw from from to every address of to as one mail
// transaction of the session. It returns only after the server accepted the
// message (250 after DATA), or an error naming the step that failed, which
// concerns this message only: IsPermanent tells whether trying it again can
// help, and Broken whether the session can send another. ctx ending aborts
// the send and breaks the session.
func (s *Session) Send(ctx context.Context, from string, to []string, raw []byte) error {
	c := s.c
	if len(to) == 0 {
		return fmt.Errorf("sending mail from %s: no recipient given; pass at least one address", from)
	}
	if s.bad != nil {
		return fmt.Errorf("SMTP session to %s is no longer usable (temporary failure, will be retried): %w", c.cfg.Addr, s.bad)
	}
	if err := ctx.Err(); err != nil {
		// Done before it began: nothing was sent, and the session ends here
		// (an AfterFunc would close the connection at some later moment).
		s.bad = err
		s.conn.Close()
		return fmt.Errorf("sending mail to %s: %w", strings.Join(to, ", "), err)
	}
	stop := context.AfterFunc(ctx, func() { s.conn.Close() })
	err := s.transaction(ctx, from, to, raw)
	if !stop() {
		// The context ended during the send and the connection is closed,
		// whatever the transaction's outcome.
		s.bad = cmp.Or(err, ctx.Err())
	}
	if err != nil && broken(err) {
		s.bad = err
	}
	return err
}

func (s *Session) transaction(ctx context.Context, from string, to []string, raw []byte) error {
	c, sc := s.c, s.sc
	s.offered = false
	if s.sent++; s.sent > 1 {
		if err := sc.Reset(); err != nil {
			return c.fail(ctx, "RSET", err)
		}
	}
	if err := sc.Mail(from, nil); err != nil {
		err = c.fail(ctx, fmt.Sprintf("MAIL FROM:<%s>", from), err)
		var sm *smtp.SMTPError
		if errors.As(err, &sm) && slices.Contains(authCodes, sm.Code) {
			// The server wants a login this session does not have: no
			// message can go out over it.
			return &SessionError{Err: err}
		}
		return err
	}
	for _, rcpt := range to {
		if err := sc.Rcpt(rcpt, nil); err != nil {
			return c.fail(ctx, fmt.Sprintf("RCPT TO:<%s>", rcpt), err)
		}
	}
	w, err := sc.Data()
	if err != nil {
		return c.fail(ctx, "DATA", err)
	}
	s.offered = true
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return c.fail(ctx, "sending the message text after DATA", err)
	}
	if err := w.Close(); err != nil {
		return c.fail(ctx, "end of DATA (the message was not accepted)", err)
	}
	return nil
}

// broken reports whether err leaves the connection unusable: anything but
// the server's own answer to a command, and its 421 (closing).
func broken(err error) bool {
	var se *smtp.SMTPError
	return !errors.As(err, &se) || se.Code == 421
}

// Noop checks that the session still answers (NOOP), as before reusing a
// session that waited idle: servers close idle connections. A failure
// breaks the session.
func (s *Session) Noop(ctx context.Context) error {
	if s.bad != nil {
		return fmt.Errorf("SMTP session to %s is no longer usable: %w", s.c.cfg.Addr, s.bad)
	}
	stop := context.AfterFunc(ctx, func() { s.conn.Close() })
	err := s.sc.Noop()
	if !stop() {
		err = cmp.Or(err, ctx.Err())
	}
	if err != nil {
		s.bad = err
		return s.c.fail(ctx, "NOOP", err)
	}
	return nil
}

// Broken reports whether the session can no longer send (the connection
// failed or the server closed it); open a new one to go on.
func (s *Session) Broken() bool { return s.bad != nil }

// Offered reports whether the last Send got as far as the message's text
// (the server answered DATA). A Send that failed before had the server
// hold nothing of the message: sending it again, over a new session,
// cannot deliver it twice.
func (s *Session) Offered() bool { return s.offered }

// Close ends the session (QUIT when it is still usable) and closes the
// connection. Messages already accepted stay accepted whatever QUIT says.
func (s *Session) Close() error {
	if s.sc != nil {
		if s.bad == nil {
			_ = s.sc.Quit()
		}
		s.sc.Close()
	}
	if err := s.conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("closing the SMTP connection to %s: %w", s.c.cfg.Addr, err)
	}
	return nil
}

// auth logs in as the configured auth mode says.
func (c *Client) auth(ctx context.Context, sc *smtp.Client, host string) error {
	if c.cfg.Auth == "" || c.cfg.Auth == "password" {
		if c.cfg.User == "" {
			return nil
		}
		if ok, _ := sc.Extension("AUTH"); !ok && c.cfg.LoginIfOffered {
			c.noLogin.Do(func() {
				c.cfg.Logger.Warn("the SMTP server offers no login (no AUTH after EHLO): sending without one; give --smtp-user to require it",
					"smtp", c.cfg.Addr, "user", c.cfg.User)
			})
			return nil
		}
		pass := c.cfg.Password
		if c.cfg.Secret != nil {
			p, err := c.cfg.Secret.Password(ctx)
			if err != nil {
				return c.fail(ctx, fmt.Sprintf("AUTH PLAIN as %q: reading the password", c.cfg.User), err)
			}
			pass = p
		}
		err := sc.Auth(sasl.NewPlainClient("", c.cfg.User, pass))
		var se *smtp.SMTPError
		if err != nil && c.cfg.Secret != nil && errors.As(err, &se) {
			// Refused: the password may have been rotated since it was
			// read. Read it again and, if it changed, try once more at
			// once (RFC 4954 allows another AUTH after a failed one).
			if p, changed, rerr := c.cfg.Secret.Refused(ctx, pass); rerr != nil {
				return c.fail(ctx, fmt.Sprintf("AUTH PLAIN as %q (check the SMTP user and password; reading it again failed: %v)", c.cfg.User, rerr), err)
			} else if changed {
				err = sc.Auth(sasl.NewPlainClient("", c.cfg.User, p))
			}
		}
		if err != nil {
			return c.fail(ctx, fmt.Sprintf("AUTH PLAIN as %q (check the SMTP user and password)", c.cfg.User), err)
		}
		return nil
	}
	mech := strings.ToUpper(c.cfg.Auth)
	step := fmt.Sprintf("AUTH %s as %q", mech, c.cfg.User)
	if ok, offered := sc.Extension("AUTH"); !slices.Contains(strings.Fields(strings.ToUpper(offered)), mech) {
		if !ok {
			offered = "no AUTH at all"
		}
		return fmt.Errorf("SMTP %s at %s: the server does not offer %s (it offers %s); choose another SMTP auth mode", step, c.cfg.Addr, mech, offered)
	}
	_, portStr, _ := net.SplitHostPort(c.cfg.Addr)
	port, _ := strconv.Atoi(portStr)
	for attempt := 1; ; attempt++ {
		tok, err := c.cfg.Token.Token(ctx)
		if err != nil {
			return c.fail(ctx, step+": getting a token", err)
		}
		client, err := oauth.NewClient(mech, c.cfg.User, host, port, tok)
		if err != nil {
			return err
		}
		err = sc.Auth(client)
		if err == nil {
			return nil
		}
		var se *smtp.SMTPError
		if !errors.As(err, &se) {
			return c.fail(ctx, step, err) // not the server's answer
		}
		c.cfg.Token.Invalidate(tok)
		if attempt == 1 {
			continue // RFC 4954 allows another AUTH after a failed one
		}
		why := client.Rejection()
		if why == "" {
			why = "no detail"
		}
		return c.fail(ctx, fmt.Sprintf("%s (the server refused a newly obtained token too, %s; check that the token command gets a token for this account with the provider's mail scope)", step, why), err)
	}
}

// fail wraps err with the step and server, and says what happened: a
// TLS failure and its cause, the server's refusal (for now, or for good),
// or a failed connection. It says nothing of what happens next: that is
// the caller's choice (the outbox retries a refused login and a
// temporary refusal, and keeps a mail refused for good for the
// organiser), which the caller's log says.
func (c *Client) fail(ctx context.Context, step string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("SMTP %s at %s: interrupted: %w", step, c.cfg.Addr, ctx.Err())
	}
	if w := what(step, err); w != "" {
		return fmt.Errorf("SMTP %s at %s (%s): %w", step, c.cfg.Addr, w, err)
	}
	return fmt.Errorf("SMTP %s at %s: %w", step, c.cfg.Addr, err)
}

// what says what err was, at step ("" when err says it well enough: a
// password file that cannot be read, a token command that failed).
func what(step string, err error) string {
	if why := tlsconf.Explain(err, "--smtp-tls"); why != "" {
		return why
	}
	var se *smtp.SMTPError
	if !errors.As(err, &se) {
		var ne net.Error
		if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
			return "the connection failed or timed out"
		}
		return ""
	}
	if strings.HasPrefix(step, "AUTH") {
		if se.Code/100 == 4 {
			return fmt.Sprintf("the server refused the login for now, with %d", se.Code)
		}
		return fmt.Sprintf("the server refused the login, with %d", se.Code)
	}
	if strings.HasPrefix(step, "MAIL") && slices.Contains(authCodes, se.Code) {
		return fmt.Sprintf("the server wants a login this session does not have, with %d", se.Code)
	}
	switch se.Code / 100 {
	case 4:
		return fmt.Sprintf("the server refused it for now, with %d", se.Code)
	case 5:
		return fmt.Sprintf("the server refused it for good, with %d", se.Code)
	}
	return fmt.Sprintf("the server answered %d", se.Code)
}

// timeoutConn bounds every read and write, whatever deadlines go-smtp sets
// (it clears them between commands and sets none while the message text is
// written).
type timeoutConn struct {
	net.Conn
	d time.Duration
}

func (c timeoutConn) Read(p []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.d)); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

func (c timeoutConn) Write(p []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(time.Now().Add(c.d)); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

// rateWords are what servers say when a sender sends too much: Gmail's
// "421 4.7.0 Try again later" and "550 5.4.5 Daily user sending limit
// exceeded", Microsoft's "554 5.2.0 ... Sender exceeded recipient rate
// limit" and "4.7.500 Server busy". Postfix's "452 4.3.1 Insufficient
// system resources" or a full mailbox match none of them.
var rateWords = []string{"rate", "too many", "limit exceeded", "quota", "sending limit", "try again later", "slow down", "server busy", "throttl"}

// IsRateLimit reports whether err is a server's "too many messages"
// answer: any 421 (the server closes the session and asks to come back
// later), or a 450, 451, 452, 550 or 554 whose text speaks of rates,
// quotas or limits (the enhanced codes vary: 4.7.x, 5.7.x, 5.4.5, 5.2.0,
// and RFC 3463 has none of its own for it). Such a mail is not at fault:
// it waits and the outbox slows down, whatever the code's class.
func IsRateLimit(err error) bool {
	var se *smtp.SMTPError
	if !errors.As(err, &se) {
		return false
	}
	if se.Code == 421 {
		return true
	}
	switch se.Code {
	case 450, 451, 452, 550, 554:
	default:
		return false
	}
	text := strings.ToLower(se.Message)
	for _, w := range rateWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}
