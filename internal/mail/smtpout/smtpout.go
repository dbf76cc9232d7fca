// Package smtpout delivers the referee's mail to an SMTP server.
package smtpout

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"referee/internal/mail/oauth"
)

// Config says where and how to send.
type Config struct {
	Addr               string // host:port
	User, Password     string // AUTH PLAIN when User is set
	TLS                string // "none" (loopback only), "starttls" or "tls"
	HeloName           string // default "localhost"
	InsecureSkipVerify bool   // tests only
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
}

// Client sends messages, one connection per message.
type Client struct{ cfg Config }

// New returns a client for cfg.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.HeloName == "" {
		cfg.HeloName = "localhost"
	}
	return &Client{cfg: cfg}
}

// IsPermanent reports whether err is a permanent SMTP failure (5xx): sending
// the same message again will fail again.
func IsPermanent(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code >= 500 && se.Code < 600
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
	host, _, err := net.SplitHostPort(c.cfg.Addr)
	if err != nil {
		return fmt.Errorf("SMTP address %q is not host:port (e.g. smtp.example.org:587): %w", c.cfg.Addr, err)
	}
	if c.cfg.TLS == "none" {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("SMTP TLS mode \"none\" for %s: without TLS the password or OAuth token and the mail travel in clear text, which is allowed only on a loopback address; use TLS \"starttls\" or \"tls\"", host)
		}
	}
	switch c.cfg.TLS {
	case "none", "starttls", "tls", "":
	default:
		return fmt.Errorf("SMTP TLS mode %q is unknown: use \"none\" (loopback only), \"starttls\" or \"tls\"", c.cfg.TLS)
	}
	switch c.cfg.Auth {
	case "", "password":
	case "xoauth2", "oauthbearer":
		if c.cfg.Token == nil || c.cfg.User == "" {
			return fmt.Errorf("SMTP auth %q needs a user (the mailbox's address) and a token source (the command that prints an access token)", c.cfg.Auth)
		}
	default:
		return fmt.Errorf("SMTP auth %q is unknown: use \"password\", \"xoauth2\" or \"oauthbearer\"", c.cfg.Auth)
	}
	d := net.Dialer{Timeout: c.cfg.Timeout}
	raw0, err := d.DialContext(ctx, "tcp", c.cfg.Addr)
	if err != nil {
		return fmt.Errorf("connecting to the SMTP server %s: %w", c.cfg.Addr, err)
	}
	conn := timeoutConn{Conn: raw0, d: c.cfg.Timeout}
	// Closing the connection when ctx ends unblocks whatever step is running.
	stop := context.AfterFunc(ctx, func() { raw0.Close() })
	defer stop()
	defer raw0.Close()
	tlsCfg := &tls.Config{ServerName: host, InsecureSkipVerify: c.cfg.InsecureSkipVerify}
	var sc *smtp.Client
	switch c.cfg.TLS {
	case "none":
		sc = smtp.NewClient(conn)
	case "tls", "":
		sc = smtp.NewClient(tls.Client(conn, tlsCfg))
	case "starttls":
		// The EHLO before STARTTLS says "localhost": go-smtp offers no way
		// to name it; the EHLO after it uses HeloName.
		if sc, err = smtp.NewClientStartTLS(conn, tlsCfg); err != nil {
			return c.fail(ctx, "STARTTLS", err)
		}
	}
	sc.CommandTimeout = c.cfg.Timeout
	sc.SubmissionTimeout = c.cfg.Timeout
	defer sc.Close()
	if err := sc.Hello(c.cfg.HeloName); err != nil {
		return c.fail(ctx, "EHLO "+c.cfg.HeloName, err)
	}
	if err := c.auth(ctx, sc, host); err != nil {
		return err
	}
	if err := sc.Mail(from, nil); err != nil {
		return c.fail(ctx, fmt.Sprintf("MAIL FROM:<%s>", from), err)
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
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return c.fail(ctx, "sending the message text after DATA", err)
	}
	if err := w.Close(); err != nil {
		return c.fail(ctx, "end of DATA (the message was not accepted)", err)
	}
	// The message is accepted; a failed QUIT changes nothing.
	_ = sc.Quit()
	return nil
}

// auth logs in as the configured auth mode says.
func (c *Client) auth(ctx context.Context, sc *smtp.Client, host string) error {
	if c.cfg.Auth == "" || c.cfg.Auth == "password" {
		if c.cfg.User == "" {
			return nil
		}
		if err := sc.Auth(sasl.NewPlainClient("", c.cfg.User, c.cfg.Password)); err != nil {
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

// fail wraps err with the step and server, and says whether it is worth
// trying again.
func (c *Client) fail(ctx context.Context, step string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("SMTP %s at %s: interrupted: %w", step, c.cfg.Addr, ctx.Err())
	}
	kind := "temporary failure, will be retried"
	if IsPermanent(err) {
		kind = "permanent failure, retrying will not help"
	}
	return fmt.Errorf("SMTP %s at %s (%s): %w", step, c.cfg.Addr, kind, err)
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
