// Package imapin reads the referee's mailbox over IMAP: it hands every
// message that is not yet done to a handler, in UID order, and marks it done
// (a keyword, and optionally a move to another folder) only after the
// handler returned nil. It waits for new mail with IDLE where the server has
// it and polls otherwise, and reconnects with backoff after any failure.
package imapin

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/charset"
)

// DoneFlag marks a message the referee has finished with.
const DoneFlag imap.Flag = "$RefereeDone"

// Config says where the mailbox is.
type Config struct {
	Addr       string // host:port
	User       string
	Password   string
	TLS        string // "none" (loopback only), "starttls" or "tls"
	Mailbox    string // default INBOX
	DoneFolder string // "" = flag only
	// Poll is the polling interval without IDLE, and how often IDLE is
	// restarted (at most 25 minutes, as RFC 2177 advises). Default 1 min.
	Poll time.Duration
	// InsecureSkipVerify skips TLS certificate checks (tests only).
	InsecureSkipVerify bool
	Logger             *slog.Logger
	// Batch is how many messages are fetched at once; default 20.
	Batch int
	// NoIdle polls even when the server offers IDLE.
	NoIdle bool
}

// Message is one message of the mailbox.
type Message struct {
	UIDValidity  uint32
	UID          uint32
	Raw          []byte
	InternalDate time.Time
}

// Handler acts on one message. It returns nil only when the message's
// outcome is committed; the message is then marked done.
type Handler func(ctx context.Context, m Message) error

func (c *Config) defaults() {
	if c.Mailbox == "" {
		c.Mailbox = "INBOX"
	}
	if c.Poll <= 0 {
		c.Poll = time.Minute
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Batch <= 0 {
		c.Batch = 20
	}
}

// conn is one logged-in session.
type conn struct {
	cfg    Config
	c      *imapclient.Client
	exists chan struct{} // signalled when the server reports new mail
}

func dial(ctx context.Context, cfg Config) (*conn, error) {
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("IMAP address %q is not host:port", cfg.Addr)
	}
	if cfg.TLS == "none" {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return nil, fmt.Errorf("IMAP without TLS sends the password in clear text; it is allowed only on loopback, not %s: use starttls or tls", host)
		}
	}
	cn := &conn{cfg: cfg, exists: make(chan struct{}, 1)}
	opts := &imapclient.Options{
		TLSConfig:   &tls.Config{ServerName: host, InsecureSkipVerify: cfg.InsecureSkipVerify},
		WordDecoder: &mime.WordDecoder{CharsetReader: charset.Reader},
		Dialer:      &net.Dialer{Timeout: 30 * time.Second},
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case cn.exists <- struct{}{}:
					default:
					}
				}
			},
		},
	}
	var c *imapclient.Client
	switch cfg.TLS {
	case "none":
		c, err = imapclient.DialInsecure(cfg.Addr, opts)
	case "starttls":
		c, err = imapclient.DialStartTLS(cfg.Addr, opts)
	case "tls", "":
		c, err = imapclient.DialTLS(cfg.Addr, opts)
	default:
		return nil, fmt.Errorf("IMAP TLS mode %q: use none, starttls or tls", cfg.TLS)
	}
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", cfg.Addr, err)
	}
	cn.c = c
	// Close the connection when ctx ends, so that no command blocks shutdown.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	go func() {
		<-c.Closed()
		stop()
	}()
	if err := c.Login(cfg.User, cfg.Password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("logging in to %s as %s: %w", cfg.Addr, cfg.User, err)
	}
	if cfg.DoneFolder != "" {
		if err := c.Create(cfg.DoneFolder, nil).Wait(); err != nil {
			var ie *imap.Error
			if !errors.As(err, &ie) || ie.Code != imap.ResponseCodeAlreadyExists {
				cfg.Logger.Debug("creating the done folder", "folder", cfg.DoneFolder, "err", err)
			}
		}
	}
	return cn, nil
}

// pass processes every message that is not done. It returns how many were
// handled successfully.
func (cn *conn) pass(ctx context.Context, h Handler, lastValidity *uint32) (int, error) {
	sel, err := cn.c.Select(cn.cfg.Mailbox, nil).Wait()
	if err != nil {
		return 0, fmt.Errorf("selecting %s: %w", cn.cfg.Mailbox, err)
	}
	if *lastValidity != 0 && sel.UIDValidity != *lastValidity {
		cn.cfg.Logger.Warn("the mailbox's UIDVALIDITY changed: every message is looked at again (duplicates are recognised by Message-ID)",
			"old", *lastValidity, "new", sel.UIDValidity)
	}
	*lastValidity = sel.UIDValidity
	data, err := cn.c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{DoneFlag}}, nil).Wait()
	if err != nil {
		return 0, fmt.Errorf("searching %s: %w", cn.cfg.Mailbox, err)
	}
	uids := data.AllUIDs()
	slices.Sort(uids)
	done := 0
	section := &imap.FetchItemBodySection{Peek: true}
	for start := 0; start < len(uids); start += cn.cfg.Batch {
		batch := uids[start:min(start+cn.cfg.Batch, len(uids))]
		msgs, err := cn.c.Fetch(imap.UIDSetNum(batch...), &imap.FetchOptions{UID: true, InternalDate: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return done, fmt.Errorf("fetching messages: %w", err)
		}
		slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
		for _, msg := range msgs {
			if ctx.Err() != nil {
				return done, ctx.Err()
			}
			m := Message{UIDValidity: sel.UIDValidity, UID: uint32(msg.UID), Raw: msg.FindBodySection(section), InternalDate: msg.InternalDate}
			if err := h(ctx, m); err != nil {
				cn.cfg.Logger.Error("a message could not be processed; it stays for the next pass", "uid", m.UID, "err", err)
				continue
			}
			if err := cn.markDone(msg.UID); err != nil {
				return done, err
			}
			done++
		}
	}
	return done, nil
}

func (cn *conn) markDone(uid imap.UID) error {
	set := imap.UIDSetNum(uid)
	flags := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{DoneFlag, imap.FlagSeen}}
	if err := cn.c.Store(set, flags, nil).Close(); err != nil {
		return fmt.Errorf("flagging message %d done: %w", uid, err)
	}
	if cn.cfg.DoneFolder == "" {
		return nil
	}
	if _, err := cn.c.Move(set, cn.cfg.DoneFolder).Wait(); err != nil {
		return fmt.Errorf("moving message %d to %s: %w", uid, cn.cfg.DoneFolder, err)
	}
	return nil
}

// wait blocks until new mail may be there, the refresh period ends, ctx
// ends, or the connection fails.
func (cn *conn) wait(ctx context.Context) error {
	refresh := min(cn.cfg.Poll, 25*time.Minute)
	if cn.cfg.NoIdle || !cn.c.Caps().Has(imap.CapIdle) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cn.c.Closed():
			return errors.New("the IMAP connection closed")
		case <-time.After(refresh):
			return nil
		}
	}
	idle, err := cn.c.Idle()
	if err != nil {
		return fmt.Errorf("starting IDLE: %w", err)
	}
	var werr error
	select {
	case <-ctx.Done():
		werr = ctx.Err()
	case <-cn.c.Closed():
		werr = errors.New("the IMAP connection closed")
	case <-cn.exists:
	case <-time.After(refresh):
	}
	if err := idle.Close(); err != nil && werr == nil {
		werr = fmt.Errorf("ending IDLE: %w", err)
	}
	if err := idle.Wait(); err != nil && werr == nil {
		werr = fmt.Errorf("IDLE: %w", err)
	}
	return werr
}

func (cn *conn) close() {
	_ = cn.c.Logout().Wait()
	cn.c.Close()
}

// Once connects, processes every message that is not done, and logs out.
func Once(ctx context.Context, cfg Config, h Handler) error {
	cfg.defaults()
	cn, err := dial(ctx, cfg)
	if err != nil {
		return err
	}
	defer cn.close()
	var v uint32
	_, err = cn.pass(ctx, h, &v)
	return err
}

// Run processes the mailbox until ctx is done: a pass over what is there,
// then IDLE (or polling) for new mail, and again. Any failure is logged and
// followed by a reconnect after a backoff of 1 s doubling up to 1 min,
// reset after a successful pass. It returns only when ctx is done.
func Run(ctx context.Context, cfg Config, h Handler) error {
	cfg.defaults()
	backoff := time.Second
	var validity uint32
	for {
		err := session(ctx, cfg, h, &validity, func() { backoff = time.Second })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		cfg.Logger.Warn("IMAP session failed; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Minute)
	}
}

func session(ctx context.Context, cfg Config, h Handler, validity *uint32, ok func()) error {
	cn, err := dial(ctx, cfg)
	if err != nil {
		return err
	}
	defer cn.close()
	cfg.Logger.Info("IMAP connected", "addr", cfg.Addr, "user", cfg.User, "idle", cn.c.Caps().Has(imap.CapIdle))
	for {
		n, err := cn.pass(ctx, h, validity)
		if err != nil {
			return err
		}
		ok()
		if n > 0 {
			cfg.Logger.Debug("IMAP pass", "handled", n)
		}
		if err := cn.wait(ctx); err != nil {
			return err
		}
	}
}
