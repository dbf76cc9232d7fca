// Package smtpout delivers the referee's mail to an SMTP server.
package smtpout

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Config says where and how to send.
type Config struct {
	Addr               string // host:port
	User, Password     string // AUTH PLAIN when User is set
	TLS                string // "none" (loopback only), "starttls" or "tls"
	HeloName           string // default "localhost"
	InsecureSkipVerify bool   // tests only
	Timeout            time.Duration
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

// Send delivers raw from from to every address of to. It returns only after
// the server accepted the message (250 after DATA), or an error naming the
// step that failed.
func (c *Client) Send(ctx context.Context, from string, to []string, raw []byte) error {
	host, _, err := net.SplitHostPort(c.cfg.Addr)
	if err != nil {
		return fmt.Errorf("SMTP address %q is not host:port", c.cfg.Addr)
	}
	if c.cfg.TLS == "none" {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("SMTP without TLS is allowed only on loopback, not %s: use starttls or tls", host)
		}
	}
	dl := time.Now().Add(c.cfg.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	d := net.Dialer{Deadline: dl}
	conn, err := d.DialContext(ctx, "tcp", c.cfg.Addr)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", c.cfg.Addr, err)
	}
	conn.SetDeadline(dl)
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	tlsCfg := &tls.Config{ServerName: host, InsecureSkipVerify: c.cfg.InsecureSkipVerify}
	var sc *smtp.Client
	switch c.cfg.TLS {
	case "none":
		sc = smtp.NewClient(conn)
	case "tls", "":
		sc = smtp.NewClient(tls.Client(conn, tlsCfg))
	case "starttls":
		if sc, err = smtp.NewClientStartTLS(conn, tlsCfg); err != nil {
			conn.Close()
			return fmt.Errorf("STARTTLS with %s: %w", c.cfg.Addr, err)
		}
	default:
		conn.Close()
		return fmt.Errorf("SMTP TLS mode %q: use none, starttls or tls", c.cfg.TLS)
	}
	defer sc.Close()
	if err := sc.Hello(c.cfg.HeloName); err != nil {
		return fmt.Errorf("EHLO to %s: %w", c.cfg.Addr, err)
	}
	if c.cfg.User != "" {
		if err := sc.Auth(sasl.NewPlainClient("", c.cfg.User, c.cfg.Password)); err != nil {
			return fmt.Errorf("AUTH as %s at %s: %w", c.cfg.User, c.cfg.Addr, err)
		}
	}
	if err := sc.Mail(from, nil); err != nil {
		return fmt.Errorf("MAIL FROM:<%s> at %s: %w", from, c.cfg.Addr, err)
	}
	for _, rcpt := range to {
		if err := sc.Rcpt(rcpt, nil); err != nil {
			return fmt.Errorf("RCPT TO:<%s> at %s: %w", rcpt, c.cfg.Addr, err)
		}
	}
	w, err := sc.Data()
	if err != nil {
		return fmt.Errorf("DATA at %s: %w", c.cfg.Addr, err)
	}
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return fmt.Errorf("sending the message to %s: %w", c.cfg.Addr, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("end of DATA at %s (message not accepted): %w", c.cfg.Addr, err)
	}
	_ = sc.Quit()
	return nil
}
