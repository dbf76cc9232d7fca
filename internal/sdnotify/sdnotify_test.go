package sdnotify

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// fakeSystemd listens where $NOTIFY_SOCKET points, as systemd does, and
// returns the datagrams it receives.
func fakeSystemd(t *testing.T, abstract bool) (string, <-chan string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "notify")
	addr := name
	if abstract {
		name = "@referee-sdnotify-test-" + strconv.Itoa(os.Getpid())
		addr = "\x00" + name[1:]
	}
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: addr, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ch := make(chan string, 16)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				close(ch)
				return
			}
			ch <- string(buf[:n])
		}
	}()
	return name, ch
}

func recv(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("no notification arrived")
		return ""
	}
}

func TestReadyAndStoppingReachTheSocket(t *testing.T) {
	for _, abstract := range []bool{false, true} {
		name, ch := fakeSystemd(t, abstract)
		t.Setenv("NOTIFY_SOCKET", name)
		n := FromEnv()
		if err := n.Ready(); err != nil {
			t.Fatal(err)
		}
		if got := recv(t, ch); got != "READY=1" {
			t.Errorf("%s: got %q, want READY=1", name, got)
		}
		if err := n.Stopping(); err != nil {
			t.Fatal(err)
		}
		if got := recv(t, ch); got != "STOPPING=1" {
			t.Errorf("%s: got %q, want STOPPING=1", name, got)
		}
	}
}

func TestOutsideSystemdNothingIsSent(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	n := FromEnv()
	if n != nil {
		t.Fatalf("FromEnv without $NOTIFY_SOCKET = %+v, want nil", n)
	}
	if err := n.Ready(); err != nil {
		t.Errorf("Ready on nil: %v", err)
	}
	n.Watchdog(context.Background(), time.Second, nil, nil) // returns at once
}

func TestWatchdogInterval(t *testing.T) {
	me := strconv.Itoa(os.Getpid())
	for _, c := range []struct {
		usec, pid string
		want      time.Duration
		bad       bool
	}{
		{"", "", 0, false},
		{"30000000", "", 30 * time.Second, false},
		{"30000000", me, 30 * time.Second, false},
		{"30000000", "1", 0, false}, // another process's watchdog
		{"x", "", 0, true},
		{"-5", "", 0, true},
		{"30000000", "pid", 0, true},
	} {
		t.Setenv("WATCHDOG_USEC", c.usec)
		t.Setenv("WATCHDOG_PID", c.pid)
		got, err := WatchdogInterval()
		if got != c.want || (err != nil) != c.bad {
			t.Errorf("WATCHDOG_USEC=%q WATCHDOG_PID=%q: %v, %v; want %v (error: %v)", c.usec, c.pid, got, err, c.want, c.bad)
		}
	}
}

// TestWatchdogPingsOnlyWhileHealthy: a ping goes out each half interval
// while the health check passes, and none while it fails, so that systemd
// restarts a wedged daemon.
func TestWatchdogPingsOnlyWhileHealthy(t *testing.T) {
	for _, c := range []struct {
		name  string
		err   error
		pings bool
	}{
		{"healthy", nil, true},
		{"failing", errors.New("database locked"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			name, ch := fakeSystemd(t, false)
			n := &Notifier{socket: name}
			ctx, cancel := context.WithCancel(context.Background())
			checks := make(chan struct{}, 100)
			health := func(context.Context) error {
				checks <- struct{}{}
				return c.err
			}
			done := make(chan struct{})
			go func() {
				n.Watchdog(ctx, 10*time.Millisecond, health, slog.New(slog.NewTextHandler(io.Discard, nil)))
				close(done)
			}()
			for range 4 {
				<-checks
			}
			cancel()
			<-done
			if c.pings {
				if s := recv(t, ch); s != "WATCHDOG=1" {
					t.Errorf("got %q, want WATCHDOG=1", s)
				}
				return
			}
			// Give a wrongly sent ping time to arrive (a pass can be
			// false here, never a failure).
			time.Sleep(50 * time.Millisecond)
			if got := len(ch); got > 0 {
				t.Errorf("after 4 failing checks (%v): %d pings, want none", c.err, got)
			}
		})
	}
}
