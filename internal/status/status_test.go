package status

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/store"
)

func TestReportFromTheDatabaseAndTheDaemon(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	err = st.Update(ctx, func(tx *store.Tx) error {
		if _, err := tx.CreateGame(&store.Game{Variant: "chess", Status: "active", StartPosition: "s", Position: "s", DieSeed: make([]byte, 32),
			Players: [2]store.Player{{Color: 0, Address: "a@x.org", Secret: "aaaaaaaaaa"}, {Color: 1, Address: "b@x.org", Secret: "bbbbbbbbbb"}}}); err != nil {
			return err
		}
		for i, o := range []string{"applied", "applied", "rejected", "ignored"} {
			if _, _, err := tx.RecordInbound(store.Inbound{Digest: string(rune('a' + i)), Outcome: o, Received: now}); err != nil {
				return err
			}
		}
		_, err := tx.Enqueue(store.Outgoing{To: "a@x.org", From: "r@x.org", MessageID: "<1@x>", Raw: []byte("x"), Created: now.Add(-90 * time.Second)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RecordIMAPContact(ctx, now.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	m := NewMetrics(now.Add(-time.Hour))
	m.Observe("applied", 3*time.Millisecond)
	m.Observe("applied", 40*time.Millisecond)
	m.Observe("rejected", 2*time.Second)

	srv := httptest.NewServer(Handler(st, m, func() time.Time { return now }))
	defer srv.Close()
	get := func(path string) string {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %s %s", path, resp.Status, b)
		}
		return string(b)
	}
	var rep Report
	if err := json.Unmarshal([]byte(get("/status")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Games["active"] != 1 || rep.Mails["applied"] != 2 || rep.Mails["ignored"] != 1 || rep.OutboxPending != 1 ||
		rep.OutboxOldestAge != 90 || rep.LastIMAPContact == nil || !rep.LastIMAPContact.Equal(now.Add(-time.Minute)) ||
		rep.LastSMTPDelivery != nil || rep.Processing.Count != 3 {
		t.Errorf("report: %+v", rep)
	}
	// Cumulative buckets: 3 ms is within 5 ms, 40 ms within 50 ms, 2 s within 2.5 s.
	want := []uint64{1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3}
	for i, n := range rep.Processing.Cumulative {
		if n != want[i] {
			t.Errorf("bucket le=%g: %d, want %d", Buckets[i], n, want[i])
		}
	}
	metrics := get("/metrics")
	for _, line := range []string{
		`referee_games{status="active"} 1`,
		`referee_mails_received_total{outcome="rejected"} 1`,
		`referee_outbox_pending 1`,
		`referee_outbox_oldest_age_seconds 90`,
		`referee_processing_seconds_bucket{le="0.05"} 2`,
		`referee_processing_seconds_bucket{le="+Inf"} 3`,
		`referee_processing_seconds_count 3`,
		`referee_last_smtp_delivery_timestamp_seconds 0`,
	} {
		if !strings.Contains(metrics, line+"\n") {
			t.Errorf("/metrics lacks %q:\n%s", line, metrics)
		}
	}
	var text bytes.Buffer
	Collect(store.Status{Games: map[string]int{}, Inbound: map[string]int{}}, nil, now).WriteText(&text)
	if !strings.Contains(text.String(), "Last IMAP contact: never") {
		t.Errorf("text:\n%s", text.String())
	}
}

// TestSendingBlockedIsReported: while the daemon records that sending is
// blocked, the text report says so with the reason and /metrics exports
// it; once it works again, neither does.
func TestSendingBlockedIsReported(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	why := "SMTP AUTH PLAIN as \"referee@example.org\" at smtp.example.org:587: 535 5.7.8 bad credentials"
	for _, tt := range []struct {
		why    string
		text   string
		metric string
	}{
		{why, "SENDING IS BLOCKED since 2026-11-23T11:00:00Z (1h0m0s ago): " + why, "referee_sending_blocked 1\n"},
		{"", "", "referee_sending_blocked 0\n"},
	} {
		if err := st.SetSendingBlocked(ctx, tt.why, now.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		s, err := st.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r := Collect(s, nil, now)
		var text, prom strings.Builder
		r.WriteText(&text)
		r.WritePrometheus(&prom)
		if tt.text != "" && !strings.Contains(text.String(), tt.text) {
			t.Errorf("the report does not say %q:\n%s", tt.text, text.String())
		}
		if tt.text == "" && strings.Contains(text.String(), "BLOCKED") {
			t.Errorf("the report says blocked once it works:\n%s", text.String())
		}
		if !strings.Contains(prom.String(), tt.metric) {
			t.Errorf("/metrics lacks %q:\n%s", tt.metric, prom.String())
		}
	}
}
