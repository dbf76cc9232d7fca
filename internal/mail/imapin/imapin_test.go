package imapin_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"referee/internal/mail/embedded"
	"referee/internal/mail/imapin"
	"referee/internal/mail/smtpout"
)

func start(t *testing.T) *embedded.Server {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	srv.EnsureUser("referee@example.test")
	return srv
}

func send(t *testing.T, srv *embedded.Server, to string, n int) {
	t.Helper()
	c := smtpout.New(smtpout.Config{Addr: srv.SMTPAddr(), TLS: "none"})
	raw := fmt.Sprintf("From: a@example.test\r\nTo: %s\r\nSubject: m%d\r\nMessage-ID: <m%d@x>\r\n\r\nbody %d\r\n", to, n, n, n)
	if err := c.Send(context.Background(), "a@example.test", []string{to}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
}

func cfg(srv *embedded.Server) imapin.Config {
	return imapin.Config{Addr: srv.IMAPAddr(), User: "referee@example.test", Password: srv.Password(), TLS: "none", Poll: 100 * time.Millisecond}
}

func subjects(ms []imapin.Message) []string {
	var out []string
	for _, m := range ms {
		i := strings.Index(string(m.Raw), "Subject: ")
		out = append(out, strings.Fields(string(m.Raw[i+9:]))[0])
	}
	return out
}

func TestOnceInUIDOrderAndMarkedDone(t *testing.T) {
	srv := start(t)
	for i := 1; i <= 3; i++ {
		send(t, srv, fmt.Sprintf("referee+%d@example.test", i), i) // plus-addresses reach the referee
	}
	var got []imapin.Message
	h := func(_ context.Context, m imapin.Message) error { got = append(got, m); return nil }
	if err := imapin.Once(context.Background(), cfg(srv), h); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(subjects(got), " "); s != "m1 m2 m3" {
		t.Fatalf("handled %q, want m1 m2 m3 in UID order", s)
	}
	if got[0].UIDValidity == 0 || got[0].UID >= got[1].UID {
		t.Errorf("UIDs: %d/%d, %d", got[0].UIDValidity, got[0].UID, got[1].UID)
	}
	got = nil
	if err := imapin.Once(context.Background(), cfg(srv), h); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("a second pass handled %d messages already done", len(got))
	}
}

func TestFailingHandlerLeavesMessage(t *testing.T) {
	// A message whose handler fails is not marked done: the next pass gets it again.
	srv := start(t)
	send(t, srv, "referee@example.test", 1)
	send(t, srv, "referee@example.test", 2)
	fail := errors.New("database busy")
	var seen []string
	h := func(_ context.Context, m imapin.Message) error {
		seen = append(seen, subjects([]imapin.Message{m})[0])
		if strings.Contains(string(m.Raw), "m1") {
			return fail
		}
		return nil
	}
	imapin.Once(context.Background(), cfg(srv), h)
	seen = nil
	imapin.Once(context.Background(), cfg(srv), h)
	if strings.Join(seen, " ") != "m1" {
		t.Errorf("second pass handled %v, want only m1 (m2 was done)", seen)
	}
}

func TestRunWakesOnNewMailAndMovesToDoneFolder(t *testing.T) {
	srv := start(t)
	c := cfg(srv)
	c.Poll = time.Hour // only IDLE can wake it in time
	c.DoneFolder = "Done"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	got := make(chan string, 10)
	errc := make(chan error, 1)
	go func() {
		errc <- imapin.Run(ctx, c, func(_ context.Context, m imapin.Message) error {
			mu.Lock()
			defer mu.Unlock()
			got <- subjects([]imapin.Message{m})[0]
			return nil
		})
	}()
	time.Sleep(300 * time.Millisecond) // let it reach IDLE
	sent := time.Now()
	send(t, srv, "referee@example.test", 7)
	select {
	case s := <-got:
		if s != "m7" {
			t.Errorf("got %s", s)
		}
		t.Logf("IDLE wake-up after %v", time.Since(sent))
	case <-time.After(5 * time.Second):
		t.Fatal("IDLE did not wake for new mail within 5 s")
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	// The message was moved: INBOX has nothing left to do.
	var left []imapin.Message
	imapin.Once(context.Background(), cfg(srv), func(_ context.Context, m imapin.Message) error { left = append(left, m); return nil })
	if len(left) != 0 {
		t.Errorf("INBOX still holds %d messages after the move", len(left))
	}
	d := cfg(srv)
	d.Mailbox = "Done"
	var moved []imapin.Message
	// Messages in Done carry the done flag, so a pass over Done finds none to do.
	if err := imapin.Once(context.Background(), d, func(_ context.Context, m imapin.Message) error { moved = append(moved, m); return nil }); err != nil {
		t.Errorf("Done folder: %v", err)
	}
	if len(moved) != 0 {
		t.Errorf("moved messages lost their done flag")
	}
}

func TestRunReconnectsAfterServerRestart(t *testing.T) {
	// The server goes away while Run is connected; Run keeps retrying and
	// handles mail once a server is back on the same address.
	srv := start(t)
	addr := srv.IMAPAddr()
	smtpAddr := srv.SMTPAddr()
	c := cfg(srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 10)
	go imapin.Run(ctx, c, func(_ context.Context, m imapin.Message) error { got <- subjects([]imapin.Message{m})[0]; return nil })
	time.Sleep(200 * time.Millisecond)
	srv.Close()
	time.Sleep(300 * time.Millisecond)
	srv2, err := embedded.Start(context.Background(), embedded.Options{IMAPAddr: addr, SMTPAddr: smtpAddr})
	if err != nil {
		t.Skipf("could not rebind %s: %v", addr, err)
	}
	defer srv2.Close()
	srv2.EnsureUser("referee@example.test")
	send(t, srv2, "referee@example.test", 9)
	select {
	case s := <-got:
		if s != "m9" {
			t.Errorf("got %s", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no reconnect within 10 s")
	}
}

func TestNoTLSRefusedOffLoopback(t *testing.T) {
	err := imapin.Once(context.Background(), imapin.Config{Addr: "192.0.2.1:143", TLS: "none"}, nil)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("err = %v, want a refusal naming loopback", err)
	}
}
