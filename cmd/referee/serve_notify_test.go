package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// freeAddr returns a loopback address nothing listens on (a moment ago).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServeTellsSystemdAndAnswersHealth: serve under Type=notify sends
// READY=1 once it serves and STOPPING=1 on SIGTERM (the context's end),
// pings the watchdog, and `referee health` (the container's HEALTHCHECK)
// gets 200 from /healthz and /readyz.
func TestServeTellsSystemdAndAnswersHealth(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got := make(chan string, 64)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			got <- string(buf[:n])
		}
	}()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "200000")
	t.Setenv("WATCHDOG_PID", "")
	statusAddr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "r.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	var outb, errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve", "--db", db, "--embedded-imap", "127.0.0.1:0",
			"--embedded-smtp", "127.0.0.1:0", "--status-addr", statusAddr}, &outb, &errb)
	}()
	wait := func(want string) {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case s := <-got:
				if s == want {
					return
				}
			case code := <-done:
				t.Fatalf("serve ended (%d) before %s:\n%s", code, want, errb.String())
			case <-timeout:
				t.Fatalf("no %s from serve:\n%s", want, errb.String())
			}
		}
	}
	wait("READY=1")
	wait("WATCHDOG=1")
	for _, path := range []string{"/healthz", "/readyz"} {
		// /readyz waits for the first IMAP login, which may follow READY=1.
		var code int
		var out, errs string
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			code, out, errs = cli(t, "health", "--url", "http://"+statusAddr+path)
			if code == 0 || time.Now().After(deadline) {
				break
			}
		}
		if code != 0 || !strings.HasPrefix(out, "ok") {
			t.Errorf("health %s: %d %q %q", path, code, out, errs)
		}
	}
	// The database holds secrets, the mailboxes players' mail: the
	// referee's user alone may read them.
	for path, want := range map[string]os.FileMode{db: 0o600, db + ".mail": 0o700 | os.ModeDir} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v, %v; want mode %v", path, fi.Mode(), err, want)
		}
	}
	cancel()
	wait("STOPPING=1")
	if code := <-done; code != exitOK {
		t.Errorf("serve: exit %d\n%s", code, errb.String())
	}
}

// TestHealthCommand: exit status 0 only for a 200; the failing answer or
// the connection error is printed.
func TestHealthCommand(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/readyz" {
			http.Error(w, "FAIL smtp: cannot connect", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	}))
	defer srv.Close()
	for _, c := range []struct {
		url      string
		code     int
		contains string
	}{
		{srv.URL + "/healthz", exitOK, "ok"},
		{srv.URL + "/readyz", exitFail, "FAIL smtp"},
		{"http://" + freeAddr(t) + "/healthz", exitFail, "is \"referee serve\" running with --status-addr?"},
		{"::", exitUsage, "give an http:// URL"},
		// host:port as --status-addr takes it and the README shows it:
		// http:// and the path are added (/readyz with --ready).
		{strings.TrimPrefix(srv.URL, "http://"), exitOK, "ok"},
		{strings.TrimPrefix(srv.URL, "http://") + "/healthz", exitOK, "ok"},
		{strings.TrimPrefix(srv.URL, "http://") + " --ready", exitFail, "FAIL smtp"},
	} {
		args := append([]string{"health", "--url"}, strings.Fields(c.url)...)
		code, out, errs := cli(t, args...)
		if code != c.code || !strings.Contains(out+errs, c.contains) {
			t.Errorf("health --url %s: %d %q %q; want %d and %q", c.url, code, out, errs, c.code, c.contains)
		}
	}
	t.Setenv("REFEREE_STATUS_ADDR", "0.0.0.0:9999")
	if u := defaultHealthURL("/readyz"); u != "http://127.0.0.1:9999/readyz" {
		t.Errorf("default URL for 0.0.0.0:9999: %s", u)
	}
}
