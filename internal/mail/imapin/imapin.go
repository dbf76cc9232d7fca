// Package imapin reads the referee's mailbox over IMAP: it hands every
// message that is not yet done to a handler, in UID order, and marks it done
// (a keyword, and optionally a move to another folder) only after the
// handler returned nil. It waits for new mail with IDLE where the server has
// it and polls otherwise, and reconnects with backoff after any failure.
package imapin

import (
	"bytes"
	"cmp"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/charset"

	"referee/internal/mail/oauth"
	"referee/internal/mail/secret"
	"referee/internal/mail/tlsconf"
)

// DoneFlag marks a message the referee has finished with.
const DoneFlag imap.Flag = "$RefereeDone"

// Config says where the mailbox is.
type Config struct {
	Addr     string // host:port
	User     string
	Password string
	// Secret, when set, supplies the password instead of Password: a file
	// or command read again when the server refuses it (a rotated
	// password needs no restart).
	Secret *secret.Source
	TLS    string // "none" (loopback only), "starttls" or "tls" (default)
	// Auth is how to log in: "password" (default: LOGIN with User and
	// Password), "xoauth2" or "oauthbearer" (AUTHENTICATE with a bearer
	// token from Token). A token the server refuses is invalidated and a
	// new one tried once at once; if that fails too, the next reconnect
	// tries again.
	Auth    string
	Token   oauth.TokenSource
	Mailbox string // default INBOX
	// DoneFolder, if set, is where done messages are moved (created if
	// missing); "" leaves them in Mailbox with the done flag.
	DoneFolder string
	// Poll is the polling interval without IDLE, and how often IDLE is
	// restarted (at most 25 minutes, as RFC 2177 advises). Default 1 min.
	Poll time.Duration
	// InsecureSkipVerify skips TLS certificate checks (tests only).
	InsecureSkipVerify bool
	// Logger receives connection events and failures; nil discards them.
	Logger *slog.Logger
	// Batch is how many messages' sizes are fetched at once (their texts
	// are fetched one by one), and how many handled messages are marked
	// done at once (see conn.batch); default 20.
	Batch int
	// NoIdle polls even when the server offers IDLE.
	NoIdle bool
	// CommandTimeout bounds how long the server may take to answer one
	// command (a fetch batch included) before the connection is dropped and
	// re-established; default 2 min.
	CommandTimeout time.Duration
	// MaxBytes is the largest message handed over whole. Of a larger one
	// only the first MaxBytes+1 bytes are fetched (enough to read its
	// header and answer), with its true Size. Default DefaultMaxBytes.
	MaxBytes int64
	// OnPass, when set, is called after every complete pass over the
	// mailbox: the server was reached and everything new was handled.
	OnPass func()
	// OnSession, when set, is told how each session of Run began or
	// ended: nil after a successful login, the error when the session
	// failed (it reconnects after a backoff). /readyz reads it.
	OnSession func(err error)
	// RootCAs, when set, are the authorities trusted for the server's
	// certificate instead of the system's (serve --tls-ca).
	RootCAs *x509.CertPool
}

// DefaultMaxBytes is MaxBytes when the Config leaves it 0.
const DefaultMaxBytes = 32 << 20

// Message is one message of the mailbox.
type Message struct {
	UIDValidity uint32
	UID         uint32
	// Raw is the message's text, or when it is larger than
	// Config.MaxBytes its first MaxBytes+1 bytes: len(Raw) < Size then.
	Raw          []byte
	InternalDate time.Time
	// Size is the message's true size in bytes (RFC822.SIZE).
	Size int64
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
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 2 * time.Minute
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
}

// conn is one logged-in session.
type conn struct {
	cfg    Config
	c      *imapclient.Client
	exists chan struct{} // signalled when the server reports new mail
}

// guard drops the connection if the server has not answered within the
// command timeout: imapclient waits for a response without a deadline, so a
// server that hangs would otherwise hang the reader. The caller stops the
// returned timer once the command completed.
func (cn *conn) guard(what string) *time.Timer {
	return time.AfterFunc(cn.cfg.CommandTimeout, func() {
		cn.cfg.Logger.Warn("the IMAP server did not answer in time; dropping the connection",
			"command", what, "timeout", cn.cfg.CommandTimeout)
		cn.c.Close()
	})
}

// checkPlain refuses clear-text IMAP anywhere but on loopback.
func checkPlain(mode, host string) error {
	if mode != "none" {
		return nil
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	return fmt.Errorf("IMAP TLS mode \"none\" for %s: without TLS the password or OAuth token travels in clear text, which is allowed only on a loopback address (127.0.0.1, ::1, localhost); use TLS \"starttls\" or \"tls\"", host)
}

func dial(ctx context.Context, cfg Config) (*conn, error) {
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("IMAP address %q is not host:port (e.g. imap.example.org:993): %w", cfg.Addr, err)
	}
	if err := checkPlain(cfg.TLS, host); err != nil {
		return nil, err
	}
	if err := checkAuth(cfg); err != nil {
		return nil, err
	}
	cn := &conn{cfg: cfg, exists: make(chan struct{}, 1)}
	opts := &imapclient.Options{
		TLSConfig:   tlsconf.Config(host, cfg.RootCAs, cfg.InsecureSkipVerify),
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
		return nil, fmt.Errorf("IMAP TLS mode %q is unknown: use \"none\" (loopback only), \"starttls\" or \"tls\"", cfg.TLS)
	}
	if err != nil {
		if why := tlsconf.Explain(err, "--imap-tls"); why != "" {
			return nil, fmt.Errorf("connecting to the IMAP server %s (TLS %q): %s: %w", cfg.Addr, cfg.TLS, why, err)
		}
		return nil, fmt.Errorf("connecting to the IMAP server %s (TLS %q): %w", cfg.Addr, cfg.TLS, err)
	}
	cn.c = c
	// Close the connection when ctx ends, so that no command blocks shutdown.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	go func() {
		<-c.Closed()
		stop()
	}()
	if err := cn.login(ctx, host); err != nil {
		c.Close()
		return nil, err
	}
	if cfg.DoneFolder != "" {
		if err := cn.ensureFolder(cfg.DoneFolder); err != nil {
			c.Close()
			return nil, err
		}
	}
	return cn, nil
}

// checkAuth refuses an unknown auth mode, or an OAuth one without a token
// source.
func checkAuth(cfg Config) error {
	switch cfg.Auth {
	case "", "password":
		return nil
	case "xoauth2", "oauthbearer":
		if cfg.Token == nil {
			return fmt.Errorf("IMAP auth %q needs a token source (the command that prints an access token); none is configured", cfg.Auth)
		}
		return nil
	}
	return fmt.Errorf("IMAP auth %q is unknown: use \"password\", \"xoauth2\" or \"oauthbearer\"", cfg.Auth)
}

// login logs in with the configured auth mode.
func (cn *conn) login(ctx context.Context, host string) error {
	cfg := cn.cfg
	if cfg.Auth == "" || cfg.Auth == "password" {
		pass := cfg.Password
		if cfg.Secret != nil {
			p, err := cfg.Secret.Password(ctx)
			if err != nil {
				return fmt.Errorf("logging in to %s as %q: %w", cfg.Addr, cfg.User, err)
			}
			pass = p
		}
		for attempt := 1; ; attempt++ {
			t := cn.guard("LOGIN")
			err := cn.c.Login(cfg.User, pass).Wait()
			t.Stop()
			if err == nil {
				return nil
			}
			var ie *imap.Error
			if cfg.Secret != nil && attempt == 1 && errors.As(err, &ie) {
				// Refused: the password may have been rotated since it
				// was read. Read it again, and try at once if it changed.
				p, changed, rerr := cfg.Secret.Refused(ctx, pass)
				if rerr != nil {
					return fmt.Errorf("logging in to %s as %q: %w (check the user and password); reading the password again: %w", cfg.Addr, cfg.User, err, rerr)
				}
				if changed {
					cfg.Logger.Warn("the IMAP server refused the password; trying the one now in "+cfg.Secret.String(), "addr", cfg.Addr, "user", cfg.User)
					pass = p
					continue
				}
			}
			return fmt.Errorf("logging in to %s as %q: %w (check the user and password)", cfg.Addr, cfg.User, err)
		}
	}
	mech := strings.ToUpper(cfg.Auth)
	if offered := cn.c.Caps().AuthMechanisms(); !slices.Contains(offered, mech) {
		return fmt.Errorf("logging in to %s as %q: the server does not offer AUTHENTICATE %s (it offers %s); choose another IMAP auth mode",
			cfg.Addr, cfg.User, mech, strings.Join(offered, ", "))
	}
	_, portStr, _ := net.SplitHostPort(cfg.Addr)
	port, _ := strconv.Atoi(portStr)
	for attempt := 1; ; attempt++ {
		tok, err := cfg.Token.Token(ctx)
		if err != nil {
			return fmt.Errorf("logging in to %s as %q with %s: getting a token: %w", cfg.Addr, cfg.User, mech, err)
		}
		sc, err := oauth.NewClient(mech, cfg.User, host, port, tok)
		if err != nil {
			return err
		}
		t := cn.guard("AUTHENTICATE")
		err = cn.c.Authenticate(sc)
		t.Stop()
		if err == nil {
			return nil
		}
		// Any tagged answer counts as a refusal, BAD too: after an XOAUTH2
		// error challenge imapclient sends the empty response as "=", which
		// Dovecot answers with BAD rather than NO.
		var ie *imap.Error
		if !errors.As(err, &ie) {
			// Not the server's answer: the connection failed.
			return fmt.Errorf("logging in to %s as %q with %s: %w", cfg.Addr, cfg.User, mech, err)
		}
		cfg.Token.Invalidate(tok)
		why := sc.Rejection()
		if why == "" {
			why = "no detail"
		}
		if attempt == 1 {
			cfg.Logger.Warn("the IMAP server refused the OAuth token; getting a new one",
				"addr", cfg.Addr, "user", cfg.User, "mech", mech, "err", err, "detail", why)
			continue
		}
		return fmt.Errorf("logging in to %s as %q with %s: the server refused a newly obtained token too: %w (%s); check that the token command gets a token for this account with the provider's mail scope",
			cfg.Addr, cfg.User, mech, err, why)
	}
}

// ensureFolder creates folder unless it exists.
func (cn *conn) ensureFolder(folder string) error {
	t := cn.guard("LIST")
	found, err := cn.c.List("", folder, nil).Collect()
	t.Stop()
	if err != nil {
		return fmt.Errorf("looking for the done folder %q: %w", folder, err)
	}
	if len(found) > 0 {
		return nil
	}
	t = cn.guard("CREATE")
	err = cn.c.Create(folder, nil).Wait()
	t.Stop()
	var ie *imap.Error
	if err != nil && !(errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists) {
		return fmt.Errorf("creating the done folder %q: %w (create it by hand, or choose another folder)", folder, err)
	}
	cn.cfg.Logger.Info("created the done folder", "folder", folder)
	return nil
}

// pass processes every message that is not done. It returns how many were
// handled successfully.
func (cn *conn) pass(ctx context.Context, h Handler, lastValidity *uint32) (int, error) {
	t := cn.guard("SELECT")
	sel, err := cn.c.Select(cn.cfg.Mailbox, nil).Wait()
	t.Stop()
	if err != nil {
		return 0, fmt.Errorf("selecting the mailbox %q: %w", cn.cfg.Mailbox, err)
	}
	// What the server reported before this pass is covered by the search.
	select {
	case <-cn.exists:
	default:
	}
	if *lastValidity != 0 && sel.UIDValidity != *lastValidity {
		cn.cfg.Logger.Warn("the mailbox's UIDVALIDITY changed: every message is looked at again (duplicates are recognised by Message-ID)",
			"mailbox", cn.cfg.Mailbox, "old", *lastValidity, "new", sel.UIDValidity)
	}
	*lastValidity = sel.UIDValidity
	t = cn.guard("UID SEARCH")
	data, err := cn.c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{DoneFlag}}, nil).Wait()
	t.Stop()
	if err != nil {
		return 0, fmt.Errorf("searching %q for messages not yet done: %w", cn.cfg.Mailbox, err)
	}
	uids := data.AllUIDs()
	slices.Sort(uids)
	done := 0
	for start := 0; start < len(uids); start += cn.cfg.Batch {
		batch := uids[start:min(start+cn.cfg.Batch, len(uids))]
		n, err := cn.batch(ctx, h, batch, sel.UIDValidity)
		done += n
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// batch handles the messages of one batch of UIDs, in order, and marks
// the ones handled done together at the end (one UID STORE, and one MOVE
// with a done folder), also when it stops early: in a burst of mail the
// server updates its flags once a batch instead of once a message (with
// the embedded server, a file written and synced per message and
// command). Each message is still marked only after its handler
// returned, that is after its outcome was committed. Should the process
// die in between, the messages not yet marked are handed over again at
// the next start, as one was before, and the handler recognises them
// (app.Process: the same UID or Message-ID is a duplicate): up to a
// batch of them instead of one. It returns how many were handled and
// marked.
func (cn *conn) batch(ctx context.Context, h Handler, batch []imap.UID, validity uint32) (int, error) {
	var handled []imap.UID
	mark := func(err error) (int, error) {
		if len(handled) == 0 {
			return 0, err
		}
		if merr := cn.markDone(handled); merr != nil {
			return 0, errors.Join(err, merr)
		}
		return len(handled), err
	}
	// First what each message is (its size above all), without its
	// text; then the texts one at a time, so that only one message is
	// ever held, cut to MaxBytes+1 bytes when it is larger.
	t := cn.guard("UID FETCH")
	infos, err := cn.c.Fetch(imap.UIDSetNum(batch...), &imap.FetchOptions{UID: true, Flags: true, InternalDate: true, RFC822Size: true}).Collect()
	t.Stop()
	if err != nil {
		return 0, fmt.Errorf("fetching the sizes of messages %d to %d of %q: %w", batch[0], batch[len(batch)-1], cn.cfg.Mailbox, err)
	}
	slices.SortFunc(infos, func(a, b *imapclient.FetchMessageBuffer) int { return cmp.Compare(a.UID, b.UID) })
	for _, info := range infos {
		if ctx.Err() != nil {
			return mark(ctx.Err())
		}
		if info.UID == 0 || !slices.Contains(batch, info.UID) || isDone(info.Flags) {
			// Not what was asked for (an unsolicited FLAGS update, say),
			// or done meanwhile.
			continue
		}
		m, ok, err := cn.fetchText(info, validity)
		if err != nil {
			return mark(err)
		}
		if !ok {
			continue // expunged meanwhile
		}
		if m.Size > cn.cfg.MaxBytes {
			cn.cfg.Logger.Warn("a message is larger than the limit; the handler gets its beginning only",
				"mailbox", cn.cfg.Mailbox, "uid", m.UID, "size", m.Size, "limit", cn.cfg.MaxBytes)
		}
		if err := h(ctx, m); err != nil {
			if ctx.Err() != nil {
				return mark(ctx.Err())
			}
			cn.cfg.Logger.Error("a message could not be processed; it stays in the mailbox for the next pass",
				"mailbox", cn.cfg.Mailbox, "uidvalidity", m.UIDValidity, "uid", m.UID, "err", err)
			continue
		}
		handled = append(handled, info.UID)
	}
	return mark(nil)
}

// isDone reports whether flags hold DoneFlag (keywords are
// case-insensitive).
func isDone(flags []imap.Flag) bool {
	return slices.ContainsFunc(flags, func(f imap.Flag) bool { return strings.EqualFold(string(f), string(DoneFlag)) })
}

// fetchText fetches the text of the message info describes: all of it up
// to MaxBytes, else its first MaxBytes+1 bytes (BODY.PEEK[]<0.N>), so the
// handler can still read the header and answer. Whatever the server sends,
// no more than MaxBytes+1 bytes are kept. ok is false when the message is
// gone.
func (cn *conn) fetchText(info *imapclient.FetchMessageBuffer, validity uint32) (m Message, ok bool, err error) {
	limit := cn.cfg.MaxBytes
	section := &imap.FetchItemBodySection{Peek: true} // BODY.PEEK[]: reading does not set \Seen
	if info.RFC822Size > limit {
		section.Partial = &imap.SectionPartial{Offset: 0, Size: limit + 1}
	}
	m = Message{UIDValidity: validity, UID: uint32(info.UID), InternalDate: info.InternalDate, Size: info.RFC822Size}
	t := cn.guard("UID FETCH")
	defer t.Stop()
	cmd := cn.c.Fetch(imap.UIDSetNum(info.UID), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}})
	for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
		var uid imap.UID
		var raw []byte
		var got bool
		for item := msg.Next(); item != nil; item = msg.Next() {
			switch item := item.(type) {
			case imapclient.FetchItemDataUID:
				uid = item.UID
			case imapclient.FetchItemDataBodySection:
				if item.Literal == nil {
					continue
				}
				if section.Partial == nil {
					// The server's RFC822.SIZE may have been wrong.
					m.Size = max(m.Size, item.Literal.Size())
				}
				buf := make([]byte, 0, min(item.Literal.Size(), limit+1))
				w := bytes.NewBuffer(buf)
				if _, rerr := io.Copy(w, io.LimitReader(item.Literal, limit+1)); rerr != nil {
					cmd.Close()
					return m, false, fmt.Errorf("reading message %d of %q: %w", info.UID, cn.cfg.Mailbox, rerr)
				}
				raw, got = w.Bytes(), true
			}
		}
		if uid == info.UID && got {
			m.Raw, ok = raw, true
		}
	}
	if err := cmd.Close(); err != nil {
		return m, false, fmt.Errorf("fetching message %d of %q: %w", info.UID, cn.cfg.Mailbox, err)
	}
	return m, ok, nil
}

// markDone flags messages done and seen and, with a done folder, moves
// them there.
func (cn *conn) markDone(uids []imap.UID) error {
	set := imap.UIDSetNum(uids...)
	flags := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{DoneFlag, imap.FlagSeen}}
	t := cn.guard("UID STORE")
	err := cn.c.Store(set, flags, nil).Close()
	t.Stop()
	if err != nil {
		return fmt.Errorf("flagging messages %v of %q as done: %w", set, cn.cfg.Mailbox, err)
	}
	if cn.cfg.DoneFolder == "" {
		return nil
	}
	t = cn.guard("UID MOVE")
	defer t.Stop()
	if cn.c.Caps().Has(imap.CapMove) {
		if _, err := cn.c.Move(set, cn.cfg.DoneFolder).Wait(); err != nil {
			return fmt.Errorf("moving messages %v from %q to %q: %w", set, cn.cfg.Mailbox, cn.cfg.DoneFolder, err)
		}
		return nil
	}
	// imapclient's own MOVE fallback pipelines COPY, STORE \Deleted and
	// EXPUNGE, so a failed COPY would still delete the messages. Here each
	// step waits for the previous one.
	if _, err := cn.c.Copy(set, cn.cfg.DoneFolder).Wait(); err != nil {
		return fmt.Errorf("copying messages %v from %q to %q (the server has no MOVE): %w", set, cn.cfg.Mailbox, cn.cfg.DoneFolder, err)
	}
	del := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
	if err := cn.c.Store(set, del, nil).Close(); err != nil {
		return fmt.Errorf("marking messages %v of %q deleted after copying them to %q: %w", set, cn.cfg.Mailbox, cn.cfg.DoneFolder, err)
	}
	if !cn.c.Caps().Has(imap.CapUIDPlus) {
		// Without UIDPLUS an EXPUNGE would also remove whatever else a mail
		// client marked \Deleted; leave the copies flagged for the owner to
		// expunge.
		return nil
	}
	if err := cn.c.UIDExpunge(set).Close(); err != nil {
		return fmt.Errorf("expunging messages %v of %q after copying them to %q: %w", set, cn.cfg.Mailbox, cn.cfg.DoneFolder, err)
	}
	return nil
}

// wait blocks until new mail may be there, the refresh period ends, ctx
// ends, or the connection fails.
func (cn *conn) wait(ctx context.Context) error {
	if cn.cfg.NoIdle || !cn.c.Caps().Has(imap.CapIdle) {
		timer := time.NewTimer(cn.cfg.Poll)
		defer timer.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-cn.c.Closed():
			return errors.New("the IMAP server closed the connection while polling")
		case <-timer.C:
			return nil
		}
	}
	t := cn.guard("IDLE")
	idle, err := cn.c.Idle()
	t.Stop()
	if err != nil {
		return fmt.Errorf("starting IDLE: %w", err)
	}
	// RFC 2177: re-issue IDLE at least every 29 minutes.
	timer := time.NewTimer(min(cn.cfg.Poll, 25*time.Minute))
	defer timer.Stop()
	var werr error
	select {
	case <-ctx.Done():
		werr = ctx.Err()
	case <-cn.c.Closed():
		werr = errors.New("the IMAP server closed the connection during IDLE")
	case <-cn.exists:
	case <-timer.C:
	}
	t = cn.guard("DONE")
	defer t.Stop()
	if err := idle.Close(); err != nil && werr == nil {
		werr = fmt.Errorf("ending IDLE: %w", err)
	}
	if err := idle.Wait(); err != nil && werr == nil {
		werr = fmt.Errorf("IDLE: %w", err)
	}
	return werr
}

func (cn *conn) close() {
	t := cn.guard("LOGOUT")
	defer t.Stop()
	_ = cn.c.Logout().Wait()
	cn.c.Close()
}

// Once connects, processes every message that is not done, and logs out.
// A message whose handler failed stays for a later pass and does not make
// Once fail; an IMAP failure does.
func Once(ctx context.Context, cfg Config, h Handler) error {
	cfg.defaults()
	cn, err := dial(ctx, cfg)
	if err != nil {
		return err
	}
	defer cn.close()
	var v uint32
	if _, err = cn.pass(ctx, h, &v); err == nil && cfg.OnPass != nil {
		cfg.OnPass()
	}
	return err
}

// Mailbox is an IMAP mailbox as the daemon's source of mail.
type Mailbox struct{ Config Config }

// Run is Run with m's Config; passed (if not nil) is called after every
// complete pass, as Config.OnPass.
func (m Mailbox) Run(ctx context.Context, h Handler, passed func()) error {
	cfg := m.Config
	if passed != nil {
		cfg.OnPass = passed
	}
	return Run(ctx, cfg, h)
}

// Once is Once with m's Config.
func (m Mailbox) Once(ctx context.Context, h Handler) error { return Once(ctx, m.Config, h) }

// Run processes the mailbox until ctx is done: a pass over what is there,
// then IDLE (or polling) for new mail, and again. Any failure is logged and
// followed by a reconnect after a backoff of 1 s doubling up to 1 min,
// reset after a successful pass. It returns only when ctx is done, with
// ctx's error.
func Run(ctx context.Context, cfg Config, h Handler) error {
	cfg.defaults()
	backoff := time.Second
	var validity uint32
	for {
		err := session(ctx, cfg, h, &validity, func() { backoff = time.Second })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if cfg.OnSession != nil {
			cfg.OnSession(err)
		}
		cfg.Logger.Warn("IMAP session failed; reconnecting", "addr", cfg.Addr, "err", err, "in", backoff)
		timer := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
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
	if cfg.OnSession != nil {
		cfg.OnSession(nil)
	}
	idle := !cfg.NoIdle && cn.c.Caps().Has(imap.CapIdle)
	cfg.Logger.Info("IMAP connected", "addr", cfg.Addr, "user", cfg.User, "mailbox", cfg.Mailbox, "idle", idle)
	for {
		n, err := cn.pass(ctx, h, validity)
		if err != nil {
			return err
		}
		ok()
		if cfg.OnPass != nil {
			cfg.OnPass()
		}
		if n > 0 {
			cfg.Logger.Debug("IMAP pass", "handled", n)
		}
		if err := cn.wait(ctx); err != nil {
			return err
		}
	}
}
