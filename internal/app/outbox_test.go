package app

import (
	"bytes"
	"context"
	"testing"

	"referee/internal/store"
)

// TestRenderIsDeterministicAndSendsOldMailAsWritten: a mail queued as data
// is written the same twice (a resend after a crash is the same mail); a
// mail queued before the outbox kept data is sent as it was written; one
// with neither is refused with a reason.
func TestRenderIsDeterministicAndSendsOldMailAsWritten(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	if _, err := a.NewGame(ctx, "chectoe", "alice@example.org", "bob@example.org", nil); err != nil {
		t.Fatal(err)
	}
	out, err := a.Store().Outbox(ctx)
	if err != nil || len(out) != 2 {
		t.Fatalf("outbox: %d mails, %v", len(out), err)
	}
	for _, o := range out {
		if len(o.Data) == 0 || len(o.Raw) != 0 || o.Kind != "opening" || o.Priority != store.PriorityGame {
			t.Errorf("queued opening mail: %d bytes of data, %d of text, kind %q, priority %d; want data only, opening, %d",
				len(o.Data), len(o.Raw), o.Kind, o.Priority, store.PriorityGame)
		}
		one, err := a.Render(o)
		if err != nil {
			t.Fatal(err)
		}
		two, _ := a.Render(o)
		if !bytes.Equal(one, two) || len(one) < 1000 {
			t.Errorf("mail to %s written twice: %d and %d bytes, not the same", o.To, len(one), len(two))
		}
	}
	old := store.Outgoing{ID: 9, To: "x@example.org", Raw: []byte("Subject: old\r\n\r\nwritten in 2025\r\n")}
	if got, err := a.Render(old); err != nil || !bytes.Equal(got, old.Raw) {
		t.Errorf("an old mail: %q, %v; want it as written", got, err)
	}
	if _, err := a.Render(store.Outgoing{ID: 10, To: "x@example.org"}); err == nil {
		t.Error("a mail with neither data nor text was written")
	}
}

// BenchmarkRender writes one board mail from its outbox data, as the
// sender does at send time: MIME, text, HTML and the board's picture,
// the picture kept from the mail before (the same position: picture=kept)
// or drawn for each mail (picture=drawn).
// (go test -run XXX -bench Render ./internal/app/)
func BenchmarkRender(b *testing.B) {
	for _, c := range []struct {
		name  string
		bytes int
	}{{"kept", 0}, {"drawn", -1}} {
		b.Run("picture="+c.name, func(b *testing.B) {
			ctx := context.Background()
			a, err := Open(ctx, Options{Catalog: testCatalog(), DB: b.TempDir() + "/r.db", Address: "referee@example.test", PictureBytes: c.bytes})
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			if _, err := a.NewGame(ctx, "chess", "alice@example.org", "bob@example.org", nil); err != nil {
				b.Fatal(err)
			}
			out, err := a.Store().Outbox(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var raw []byte
			for b.Loop() {
				if raw, err = a.Render(out[0]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(out[0].Data)), "data-bytes")
			b.ReportMetric(float64(len(raw)), "mail-bytes")
		})
	}
}
