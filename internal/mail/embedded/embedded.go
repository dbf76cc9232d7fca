// Package embedded is the zero-setup mail system behind `referee serve` with
// no mail server configured: an SMTP server and an IMAP server on loopback,
// sharing mailboxes, for one domain. Any address of the domain is an
// account; nothing is ever relayed elsewhere. With a directory the
// mailboxes live on disk and survive a restart with their UIDs (see
// store.go); without one they live in memory.
package embedded

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options configure the servers.
type Options struct {
	Domain   string // default example.test
	IMAPAddr string // default 127.0.0.1:1143; ":0" ports allowed
	SMTPAddr string // default 127.0.0.1:1025
	Password string // every account's password; default "referee"
	// Dir is where the mailboxes are kept (created if missing), so that
	// they survive a restart with their UIDs and UIDVALIDITY; "" keeps
	// them in memory, lost at Close.
	Dir    string
	Logger *slog.Logger
}

// Server is the running pair of servers.
type Server struct {
	opts     Options
	store    *mailStore
	imap     *imapserver.Server
	smtp     *smtp.Server
	imapLn   net.Listener
	smtpLn   net.Listener
	wg       sync.WaitGroup
	closeErr error
	once     sync.Once
}

// Start starts both servers on loopback.
func Start(ctx context.Context, o Options) (*Server, error) {
	if o.Domain == "" {
		o.Domain = "example.test"
	}
	o.Domain = strings.ToLower(o.Domain)
	if o.IMAPAddr == "" {
		o.IMAPAddr = "127.0.0.1:1143"
	}
	if o.SMTPAddr == "" {
		o.SMTPAddr = "127.0.0.1:1025"
	}
	if o.Password == "" {
		o.Password = "referee"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	for _, a := range []string{o.IMAPAddr, o.SMTPAddr} {
		host, _, err := net.SplitHostPort(a)
		if ip := net.ParseIP(host); err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
			return nil, fmt.Errorf("the embedded mail server listens on loopback only, not %q", a)
		}
	}
	st, err := openStore(o.Dir, o.Logger, time.Now)
	if err != nil {
		return nil, fmt.Errorf("embedded mail store in %q: %w", o.Dir, err)
	}
	s := &Server{opts: o, store: st}
	var lc net.ListenConfig
	if s.imapLn, err = lc.Listen(ctx, "tcp", o.IMAPAddr); err != nil {
		return nil, fmt.Errorf("embedded IMAP server on %s: %w", o.IMAPAddr, err)
	}
	if s.smtpLn, err = lc.Listen(ctx, "tcp", o.SMTPAddr); err != nil {
		s.imapLn.Close()
		return nil, fmt.Errorf("embedded SMTP server on %s: %w", o.SMTPAddr, err)
	}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{s: s}, nil, nil
		},
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}, imap.CapIdle: {}, imap.CapMove: {},
			imap.CapUIDPlus: {}, imap.CapNamespace: {}, imap.CapESearch: {},
		},
		InsecureAuth: true, // loopback only, checked above
		Logger:       slogLogger{o.Logger},
	})
	s.smtp = smtp.NewServer(&backend{s: s})
	s.smtp.Domain = "localhost"
	s.smtp.MaxMessageBytes = 32 << 20
	s.smtp.MaxRecipients = 50
	s.smtp.AllowInsecureAuth = true
	s.smtp.ReadTimeout = time.Minute
	s.smtp.WriteTimeout = time.Minute
	s.smtp.ErrorLog = slogLogger{o.Logger}
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.imap.Serve(s.imapLn) }()
	go func() { defer s.wg.Done(); s.smtp.Serve(s.smtpLn) }()
	context.AfterFunc(ctx, func() { s.Close() })
	o.Logger.Info("embedded mail server started", "domain", o.Domain, "imap", s.IMAPAddr(), "smtp", s.SMTPAddr(), "dir", o.Dir)
	return s, nil
}

// IMAPAddr is the IMAP server's address.
func (s *Server) IMAPAddr() string { return s.imapLn.Addr().String() }

// SMTPAddr is the SMTP server's address.
func (s *Server) SMTPAddr() string { return s.smtpLn.Addr().String() }

// Password is every account's password.
func (s *Server) Password() string { return s.opts.Password }

// Domain is the mail domain.
func (s *Server) Domain() string { return s.opts.Domain }

// Instructions tell a person how to point a mail client at the servers
// and how to start a game. referee is the command line that runs the
// referee, as the person can type it ("referee", "go run ./cmd/referee",
// "./referee --db games.db"): the instructions show `<referee> new ...`.
func (s *Server) Instructions(referee string) string {
	return fmt.Sprintf(`Embedded mail server for @%[1]s (loopback only, nothing leaves this machine):
  IMAP  %[2]s   (no TLS)
  SMTP  %[3]s   (no TLS; authentication optional, with the same user and password)
  Every address @%[1]s is an account: user = the full address, password = %[4]q.
Start a game:  %[5]s new --variant chess --white alice@%[1]s --black bob@%[1]s
then read alice@%[1]s's mail with any mail client and reply with a move.`,
		s.opts.Domain, s.IMAPAddr(), s.SMTPAddr(), s.opts.Password, referee)
}

// EnsureUser creates the account of addr if it does not exist yet and
// returns its canonical name. Plus-addresses map to their base account.
func (s *Server) EnsureUser(addr string) string {
	name := canonical(addr)
	if _, err := s.store.ensureAccount(name); err != nil {
		s.opts.Logger.Error("embedded: creating an account", "user", name, "err", err)
	}
	return name
}

// inDomain reports whether addr is an address of the server's domain with
// a non-empty local part.
func (s *Server) inDomain(addr string) bool {
	local, domain, ok := strings.Cut(canonical(addr), "@")
	return ok && local != "" && domain == s.opts.Domain
}

// canonical lower-cases addr and drops a +detail from its local part.
func canonical(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return addr
	}
	local, _, _ := strings.Cut(addr[:at], "+")
	return local + addr[at:]
}

// Deliver puts raw, unchanged, into the INBOX of addr's account (creating
// the account, or an INBOX a mail client deleted). addr must be of the
// domain.
func (s *Server) Deliver(addr string, raw []byte) error {
	if !s.inDomain(addr) {
		return fmt.Errorf("delivering to %q: not an address @%s, the embedded server's only domain", addr, s.opts.Domain)
	}
	name := canonical(addr)
	a, err := s.store.ensureAccount(name)
	if err != nil {
		return fmt.Errorf("delivering to %s: %w", name, err)
	}
	opts := &imap.AppendOptions{Time: time.Now()}
	for range 2 {
		var mb *mailbox
		if mb, err = a.mailbox("INBOX"); err == nil {
			if _, err = mb.appendReader(bytes.NewReader(raw), opts); err == nil {
				return nil
			}
		}
		var ie *imap.Error
		if !errors.As(err, &ie) || (ie.Code != imap.ResponseCodeNonExistent && ie.Code != imap.ResponseCodeTryCreate) {
			break
		}
		// A mail client deleted the INBOX (or is deleting it right now).
		if cerr := a.create("INBOX"); cerr != nil {
			s.opts.Logger.Warn("embedded: recreating INBOX", "user", name, "err", cerr)
		}
	}
	return fmt.Errorf("delivering to the INBOX of %s: %w", name, err)
}

// Close stops both servers.
func (s *Server) Close() error {
	s.once.Do(func() {
		err1 := s.imap.Close()
		err2 := s.smtp.Close()
		// The servers close only the listeners their Serve already
		// registered; right after Start that may not have happened yet.
		s.imapLn.Close()
		s.smtpLn.Close()
		s.wg.Wait()
		s.closeErr = errors.Join(ignoreClosed(err1), ignoreClosed(err2))
	})
	return s.closeErr
}

func ignoreClosed(err error) error {
	if err == nil || errors.Is(err, net.ErrClosed) || errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// backend is the SMTP side.
type backend struct{ s *Server }

// NewSession starts an SMTP session for c.
func (b *backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{s: b.s, c: c}, nil
}

type session struct {
	s    *Server
	c    *smtp.Conn
	from string
	to   []string
}

func (se *session) Reset()        { se.from, se.to = "", nil }
func (se *session) Logout() error { return nil }

// AuthMechanisms offers AUTH PLAIN for mail clients that insist on
// authenticating; sending works without it too.
func (se *session) AuthMechanisms() []string { return []string{sasl.Plain} }

// Auth checks an address of the domain against the shared password.
func (se *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if !se.s.inDomain(user) || subtle.ConstantTimeCompare([]byte(pass), []byte(se.s.opts.Password)) != 1 {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8},
				Message: fmt.Sprintf("authentication failed: log in with a full address @%s and the embedded server's password", se.s.opts.Domain)}
		}
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !se.s.inDomain(to) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("relaying denied: <%s> is not an address @%s, the only domain this embedded server delivers to; nothing leaves this machine", to, se.s.opts.Domain)}
	}
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading the message text: %w", err)
	}
	helo, remote := se.c.Hostname(), "unknown"
	if c := se.c.Conn(); c != nil {
		remote = c.RemoteAddr().String()
	}
	now := time.Now().Format(time.RFC1123Z)
	for _, to := range se.to {
		rcpt := strings.ToLower(to)
		hdr := fmt.Sprintf("Return-Path: <%s>\r\nDelivered-To: %s\r\nReceived: from %s (%s)\r\n\tby %s (referee embedded) with ESMTP\r\n\tfor <%s>; %s\r\n",
			se.from, rcpt, helo, remote, se.s.smtp.Domain, rcpt, now)
		if err := se.s.Deliver(to, append([]byte(hdr), body...)); err != nil {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: err.Error()}
		}
	}
	return nil
}

// slogLogger adapts slog to the servers' Printf loggers.
type slogLogger struct{ l *slog.Logger }

func (l slogLogger) Printf(format string, v ...any) { l.l.Debug(fmt.Sprintf(format, v...)) }
func (l slogLogger) Println(v ...any)               { l.l.Debug(fmt.Sprint(v...)) }
