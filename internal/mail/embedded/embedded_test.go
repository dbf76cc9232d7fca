package embedded

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"referee/internal/mail/smtpout"
)

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start(context.Background(), Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func send(t *testing.T, s *Server, from string, to []string, raw []byte) error {
	t.Helper()
	return smtpout.New(smtpout.Config{Addr: s.SMTPAddr(), TLS: "none", Timeout: 5 * time.Second}).
		Send(context.Background(), from, to, raw)
}

func msg(n int) []byte {
	return fmt.Appendf(nil, "From: alice@example.test\r\nSubject: m%d\r\nMessage-ID: <m%d@example.test>\r\n\r\nbody %d\r\n", n, n, n)
}

// login logs in over IMAP like a mail client, with opts for unilateral
// data.
func login(t *testing.T, s *Server, user string, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, s.Password()).Wait(); err != nil {
		t.Fatalf("login as %s: %v", user, err)
	}
	return c
}

// inbox returns the full text of every message in user's INBOX.
func inbox(t *testing.T, s *Server, user string) [][]byte {
	t.Helper()
	c := login(t, s, user, nil)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSet{imap.UIDRange{Start: 1, Stop: 0}}, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, m := range msgs {
		out = append(out, m.FindBodySection(section))
	}
	return out
}

func TestSendThenReadByIMAP(t *testing.T) {
	// Issue 11: mail sent through the SMTP side for any address @domain is
	// in that account's INBOX, byte-exact after the trace headers the
	// server adds (Return-Path, Delivered-To, Received); a plus-address
	// goes to the base account, and its Delivered-To keeps the detail.
	s := start(t)
	if err := send(t, s, "alice@example.test", []string{"bob@example.test", "Referee+17.abc.3@Example.TEST"}, msg(1)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ user, deliveredTo string }{
		{"bob@example.test", "bob@example.test"},
		{"referee@example.test", "referee+17.abc.3@example.test"},
	} {
		got := inbox(t, s, tt.user)
		if len(got) != 1 {
			t.Fatalf("%s has %d messages, want 1", tt.user, len(got))
		}
		hdr, ok := bytes.CutSuffix(got[0], msg(1))
		if !ok {
			t.Fatalf("%s: message changed in transit:\n%s", tt.user, got[0])
		}
		for _, want := range []string{"Return-Path: <alice@example.test>\r\n", "Delivered-To: " + tt.deliveredTo + "\r\n", "Received: from localhost (127.0.0.1:"} {
			if !bytes.Contains(hdr, []byte(want)) {
				t.Errorf("%s: trace headers %q lack %q", tt.user, hdr, want)
			}
		}
	}
}

func TestForeignDomainRefused(t *testing.T) {
	// Issue 11: nothing ever leaves the machine: a recipient outside the
	// domain (or with an empty local part) is refused with 550.
	s := start(t)
	for _, tt := range []struct{ rcpt, want string }{
		{"someone@elsewhere.invalid", "relaying denied"},
		{"x@example.test.evil", "relaying denied"},
		{"a@b@example.test", "relaying denied"},
		{"@example.test", "501"}, // go-smtp refuses the syntax itself
	} {
		err := send(t, s, "alice@example.test", []string{tt.rcpt}, msg(1))
		if err == nil || !smtpout.IsPermanent(err) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("mail to %q: %v, want a permanent refusal mentioning %q", tt.rcpt, err, tt.want)
		}
	}
	if s.inDomain("@example.test") || s.inDomain("+x@example.test") {
		t.Error("an empty local part counts as an address of the domain")
	}
}

func TestLoginCreatesAccount(t *testing.T) {
	// A person can log in before any mail arrived, with the address in any
	// case; a wrong password or another domain is refused.
	s := start(t)
	login(t, s, "Carol@Example.test", nil)
	if got := inbox(t, s, "carol@example.test"); len(got) != 0 {
		t.Errorf("new account has %d messages", len(got))
	}
	for _, tt := range []struct{ user, pass string }{
		{"carol@example.test", "wrong"},
		{"carol@elsewhere.invalid", "referee"},
	} {
		c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Login(tt.user, tt.pass).Wait(); err == nil {
			t.Errorf("login as %s/%s succeeded", tt.user, tt.pass)
		}
		c.Close()
	}
}

func TestSMTPAuthOptional(t *testing.T) {
	// Mail clients that insist on SMTP AUTH can use the account's address
	// and the shared password.
	s := start(t)
	for _, tt := range []struct {
		user, pass string
		ok         bool
	}{
		{"alice@example.test", "referee", true},
		{"alice@example.test", "nope", false},
		{"alice@elsewhere.invalid", "referee", false},
	} {
		err := smtpout.New(smtpout.Config{Addr: s.SMTPAddr(), TLS: "none", User: tt.user, Password: tt.pass}).
			Send(context.Background(), tt.user, []string{"bob@example.test"}, msg(1))
		if (err == nil) != tt.ok {
			t.Errorf("AUTH as %s/%s: %v, want ok=%v", tt.user, tt.pass, err, tt.ok)
		}
	}
}

// idler logs in as user, selects INBOX and returns a channel signalled on
// every EXISTS.
func idler(t *testing.T, s *Server, user string) (*imapclient.Client, chan uint32) {
	t.Helper()
	exists := make(chan uint32, 10)
	c := login(t, s, user, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				exists <- *d.NumMessages
			}
		},
	}})
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	return c, exists
}

func awaitExists(t *testing.T, exists chan uint32, want uint32) {
	t.Helper()
	select {
	case n := <-exists:
		if n != want {
			t.Errorf("EXISTS %d, want %d", n, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no EXISTS within 5 s")
	}
}

func TestIdleWakeUp(t *testing.T) {
	// Issue 11: an idling client hears of new mail: mail delivered while
	// it idles, and mail delivered just before its IDLE began (which
	// go-imap's session tracker alone would not report).
	s := start(t)
	s.EnsureUser("referee@example.test")
	c, exists := idler(t, s, "referee@example.test")
	if !c.Caps().Has(imap.CapIdle) || !c.Caps().Has(imap.CapMove) || !c.Caps().Has(imap.CapUIDPlus) {
		t.Fatalf("capabilities %v lack IDLE, MOVE or UIDPLUS", c.Caps())
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	if err := send(t, s, "alice@example.test", []string{"referee@example.test"}, msg(1)); err != nil {
		t.Fatal(err)
	}
	awaitExists(t, exists, 1)
	if err := idle.Close(); err != nil {
		t.Fatal(err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatal(err)
	}
	// Delivered between the last command and IDLE.
	if err := send(t, s, "alice@example.test", []string{"referee@example.test"}, msg(2)); err != nil {
		t.Fatal(err)
	}
	idle, err = c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	awaitExists(t, exists, 2)
	if err := idle.Close(); err != nil {
		t.Fatal(err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentFirstDeliveries(t *testing.T) {
	// Many messages for an account that does not exist yet, at once: one
	// account is created and every message is in it.
	s := start(t)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- send(t, s, "alice@example.test", []string{fmt.Sprintf("dave+%d@example.test", i)}, msg(i))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := inbox(t, s, "dave@example.test"); len(got) != 20 {
		t.Errorf("dave has %d messages, want 20", len(got))
	}
}

func TestOptions(t *testing.T) {
	// Listening anywhere but loopback is refused; the instructions name
	// both addresses, the domain and the password; Close may be called
	// twice, and ending Start's context closes the servers.
	if _, err := Start(context.Background(), Options{IMAPAddr: "0.0.0.0:0", SMTPAddr: "127.0.0.1:0"}); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a non-loopback listen address: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, Options{Domain: "Games.Test", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	in := s.Instructions("go run ./cmd/referee")
	for _, want := range []string{s.IMAPAddr(), s.SMTPAddr(), "@games.test", `"pw"`, "full address",
		"go run ./cmd/referee new --variant chess --white alice@games.test --black bob@games.test"} {
		if !strings.Contains(in, want) {
			t.Errorf("instructions lack %q:\n%s", want, in)
		}
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := send(t, s, "a@games.test", []string{"b@games.test"}, msg(1))
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the SMTP server still accepts mail 5 s after the context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close after the context ended: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func FuzzCanonical(f *testing.F) {
	// canonical reads addresses from SMTP envelopes and IMAP logins: it
	// must never panic, be idempotent, and keep the domain.
	for _, s := range []string{"a@example.test", "A+b@Example.TEST", "@", "+@", "a@b@c", "", " x@y "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		c := canonical(addr)
		if canonical(c) != c {
			t.Errorf("canonical(%q) = %q, but canonical of that is %q", addr, c, canonical(c))
		}
		if i := strings.LastIndexByte(c, '@'); i >= 0 && strings.Contains(c[:i], "+") {
			t.Errorf("canonical(%q) = %q keeps a +detail", addr, c)
		}
	})
}
