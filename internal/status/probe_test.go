package status

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/store"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHealthReadyAndMetrics: /healthz answers while the database does;
// /readyz fails, naming the check, when a mail server cannot be reached
// or the outbox's oldest mail has waited too long; /metrics carries the
// client library's go_* and process_* metrics and referee_build_info
// beside the referee_* ones.
func TestHealthReadyAndMetrics(t *testing.T) {
	ctx := context.Background()
	open := func(t *testing.T) *store.Store {
		st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }

	up, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	down, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	downAddr := down.Addr().String()
	down.Close() // nothing listens there any more

	for _, c := range []struct {
		name      string
		smtp      string
		waiting   time.Duration // age of one outbox mail; 0 for none
		delivered time.Duration // how long ago another mail was delivered; 0 for never
		wantCode  int
		wantLines []string
	}{
		{"all well", up.Addr().String(), 0, 0, 200, []string{"ok imap", "ok smtp", "ok outbox"}},
		{"smtp down", downAddr, 0, 0, 503, []string{"ok imap", "FAIL smtp: cannot connect to " + downAddr}},
		{"fresh mail waiting", up.Addr().String(), time.Minute, 0, 200, []string{"ok outbox"}},
		{"outbox stuck", up.Addr().String(), 2 * time.Hour, 0, 503, []string{"FAIL outbox: 1 mails waiting, the oldest for 2h0m0s"}},
		{"stuck since the last delivery", up.Addr().String(), 2 * time.Hour, time.Hour, 503, []string{"FAIL outbox: 1 mails waiting"}},
		// Paced under --send-limit: mail waits for hours, in order, while
		// other mail goes out: that is not stuck.
		{"paced, still delivering", up.Addr().String(), 2 * time.Hour, 5 * time.Minute, 200, []string{"ok outbox"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			if c.waiting > 0 {
				if err := st.Update(ctx, func(tx *store.Tx) error {
					_, err := tx.Enqueue(store.Outgoing{To: "a@x.org", From: "r@x.org", MessageID: "<1@x>", Raw: []byte("x"), Created: now.Add(-c.waiting)})
					return err
				}); err != nil {
					t.Fatal(err)
				}
			}
			if c.delivered > 0 {
				var id int64
				if err := st.Update(ctx, func(tx *store.Tx) error {
					var err error
					id, err = tx.Enqueue(store.Outgoing{To: "b@x.org", From: "r@x.org", MessageID: "<2@x>", Raw: []byte("x"), Created: now.Add(-3 * time.Hour)})
					return err
				}); err != nil {
					t.Fatal(err)
				}
				sentAt := now.Add(-c.delivered)
				claim, err := st.ClaimOutgoing(ctx, id, sentAt, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				if err := st.MarkSent(ctx, claim, sentAt); err != nil {
					t.Fatal(err)
				}
			}
			h := NewHandler(st, NewMetrics(now), clock, Options{Ready: []Check{
				Reachable("imap", up.Addr().String()), Reachable("smtp", c.smtp), OutboxNotStuck(st, 30*time.Minute, clock)}})
			srv := httptest.NewServer(h)
			defer srv.Close()
			code, body := get(t, srv.URL+"/readyz")
			if code != c.wantCode {
				t.Errorf("/readyz: %d, want %d\n%s", code, c.wantCode, body)
			}
			for _, l := range c.wantLines {
				if !strings.Contains(body, l) {
					t.Errorf("/readyz lacks %q:\n%s", l, body)
				}
			}
			if code, body := get(t, srv.URL+"/healthz"); code != 200 || body != "ok\n" {
				t.Errorf("/healthz: %d %q", code, body)
			}
		})
	}

	st := open(t)
	srv := httptest.NewServer(NewHandler(st, NewMetrics(now), clock, Options{Build: Build{Version: "v1.2.3", Revision: "abc", GoVersion: "go1.26.8"}}))
	defer srv.Close()
	_, metrics := get(t, srv.URL+"/metrics")
	for _, want := range []string{
		"\ngo_goroutines ",
		"\nprocess_resident_memory_bytes ",
		"\nprocess_start_time_seconds ",
		`referee_build_info{goversion="go1.26.8",revision="abc",version="v1.2.3"} 1`,
		"\nreferee_outbox_pending ",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// Each metric is described once: the library's and the report's never
	// collide.
	seen := map[string]bool{}
	for l := range strings.Lines(metrics) {
		if name, ok := strings.CutPrefix(l, "# TYPE "); ok {
			name = strings.Fields(name)[0]
			if seen[name] {
				t.Errorf("metric %s described twice", name)
			}
			seen[name] = true
		}
	}

	// A closed database: /healthz fails.
	st.Close()
	if code, body := get(t, srv.URL+"/healthz"); code != 503 || !strings.Contains(body, "the database does not answer") {
		t.Errorf("/healthz with the database closed: %d %q", code, body)
	}
}
