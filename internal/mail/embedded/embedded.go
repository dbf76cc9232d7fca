// Package embedded is the zero-setup mail system behind `referee serve` with
// no mail server configured: an SMTP server and an IMAP server on loopback,
// sharing in-memory mailboxes, for one domain. Any address of the domain is
// an account; nothing is ever relayed elsewhere.
package embedded

import (
	"bytes"
	"context"
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
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
)

// Options configure the servers.
type Options struct {
	Domain   string // default example.test
	IMAPAddr string // default 127.0.0.1:1143; ":0" ports allowed
	SMTPAddr string // default 127.0.0.1:1025
	Password string // every account's password; default "referee"
	Logger   *slog.Logger
}

// Server is the running pair of servers.
type Server struct {
	opts     Options
	mem      *imapmemserver.Server
	imap     *imapserver.Server
	smtp     *smtp.Server
	imapLn   net.Listener
	smtpLn   net.Listener
	mu       sync.Mutex
	users    map[string]*imapmemserver.User
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
	s := &Server{opts: o, mem: imapmemserver.New(), users: map[string]*imapmemserver.User{}}
	var lc net.ListenConfig
	var err error
	if s.imapLn, err = lc.Listen(ctx, "tcp", o.IMAPAddr); err != nil {
		return nil, fmt.Errorf("embedded IMAP server on %s: %w", o.IMAPAddr, err)
	}
	if s.smtpLn, err = lc.Listen(ctx, "tcp", o.SMTPAddr); err != nil {
		s.imapLn.Close()
		return nil, fmt.Errorf("embedded SMTP server on %s: %w", o.SMTPAddr, err)
	}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			sess, ok := s.mem.NewSession().(imapserver.SessionIMAP4rev2)
			if !ok {
				return nil, nil, errors.New("embedded: the in-memory IMAP session lacks IMAP4rev2")
			}
			return idleSession{sess}, nil, nil
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
	o.Logger.Info("embedded mail server started", "domain", o.Domain, "imap", s.IMAPAddr(), "smtp", s.SMTPAddr())
	return s, nil
}

// idlePeriod bounds how late an idling client learns of mail that arrived
// just before its IDLE began.
const idlePeriod = time.Second

// idleSession fixes a gap in imapmemserver's IDLE: updates queued between
// the client's last command and the start of IDLE (a message delivered in
// that instant) are not sent until the next update arrives, so an idling
// client could miss new mail indefinitely. This Idle sends what is pending
// first and then re-checks every idlePeriod. Poll and the inner Idle never
// run at the same time, so writes to w stay sequential.
type idleSession struct {
	imapserver.SessionIMAP4rev2
}

// Idle waits for updates until stop is closed.
func (s idleSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		if err := s.SessionIMAP4rev2.Poll(w, true); err != nil {
			return err
		}
		inner := make(chan struct{})
		timer := time.NewTimer(idlePeriod)
		go func() {
			defer close(inner)
			select {
			case <-stop:
			case <-timer.C:
			}
		}()
		if err := s.SessionIMAP4rev2.Idle(w, inner); err != nil {
			timer.Stop()
			return err
		}
		// Without a selected mailbox the inner Idle returns at once: wait
		// out the period rather than spin.
		<-inner
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

// IMAPAddr is the IMAP server's address.
func (s *Server) IMAPAddr() string { return s.imapLn.Addr().String() }

// SMTPAddr is the SMTP server's address.
func (s *Server) SMTPAddr() string { return s.smtpLn.Addr().String() }

// Password is every account's password.
func (s *Server) Password() string { return s.opts.Password }

// Domain is the mail domain.
func (s *Server) Domain() string { return s.opts.Domain }

// Instructions tell a person how to point a mail client at the servers.
func (s *Server) Instructions() string {
	return fmt.Sprintf(`Embedded mail server for @%[1]s (loopback only, nothing leaves this machine):
  IMAP  %[2]s   (no TLS)
  SMTP  %[3]s   (no TLS, no authentication needed)
  Every address @%[1]s is an account: user = the full address, password = %[4]q.
Start a game:  referee new --variant chess --white alice@%[1]s --black bob@%[1]s
then read alice@%[1]s's mail with any mail client and reply with a move.`,
		s.opts.Domain, s.IMAPAddr(), s.SMTPAddr(), s.opts.Password)
}

// EnsureUser creates the account of addr if it does not exist yet and
// returns its canonical name. Plus-addresses map to their base account.
func (s *Server) EnsureUser(addr string) string {
	name := canonical(addr)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[name]; !ok {
		u := imapmemserver.NewUser(name, s.opts.Password)
		if err := u.Create("INBOX", nil); err != nil {
			s.opts.Logger.Error("embedded: creating INBOX", "user", name, "err", err)
		}
		s.mem.AddUser(u)
		s.users[name] = u
	}
	return name
}

func canonical(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return addr
	}
	local, _, _ := strings.Cut(addr[:at], "+")
	return local + addr[at:]
}

// Deliver puts raw into the INBOX of addr (which must be of the domain).
func (s *Server) Deliver(addr string, raw []byte) error {
	name := s.EnsureUser(addr)
	s.mu.Lock()
	u := s.users[name]
	s.mu.Unlock()
	_, err := u.Append("INBOX", literal{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{Time: time.Now()})
	if err != nil {
		return fmt.Errorf("delivering to %s: %w", name, err)
	}
	return nil
}

// Close stops both servers.
func (s *Server) Close() error {
	s.once.Do(func() {
		err1 := s.imap.Close()
		err2 := s.smtp.Close()
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

type literal struct {
	*bytes.Reader
	n int64
}

func (l literal) Size() int64 { return l.n }

// backend is the SMTP side.
type backend struct{ s *Server }

func (b *backend) NewSession(c *smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s    *Server
	from string
	to   []string
}

func (se *session) Reset()        { se.from, se.to = "", nil }
func (se *session) Logout() error { return nil }

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !strings.HasSuffix(strings.ToLower(to), "@"+se.s.opts.Domain) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: "relaying denied: this embedded server delivers only to @" + se.s.opts.Domain}
	}
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for _, to := range se.to {
		hdr := fmt.Sprintf("Return-Path: <%s>\r\nDelivered-To: %s\r\nReceived: from localhost by referee-embedded for <%s>; %s\r\n",
			se.from, strings.ToLower(to), strings.ToLower(to), time.Now().UTC().Format(time.RFC1123Z))
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
