package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestPruneSentText: only the text of mail sent before the cutoff goes;
// mail sent since, waiting, refused for good or dropped keeps it, and the
// rows all stay.
func TestPruneSentText(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	day := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	ids := map[string]int64{}
	for _, to := range []string{"old@x.test", "new@x.test", "waiting@x.test", "dead@x.test", "dropped@x.test"} {
		ids[to] = enqueue(t, s, to, day)
	}
	send := func(to string, at time.Time) {
		c, err := s.ClaimOutgoing(ctx, ids[to], at, time.Minute)
		if err != nil || c == nil {
			t.Fatalf("claim %s: %v %v", to, c, err)
		}
		if err := s.MarkSent(ctx, c, at); err != nil {
			t.Fatal(err)
		}
	}
	send("old@x.test", day)
	send("new@x.test", day.AddDate(0, 0, 20))
	c, _ := s.ClaimOutgoing(ctx, ids["dead@x.test"], day, time.Minute)
	if err := s.MarkDead(ctx, c, "550 no such user", day); err != nil {
		t.Fatal(err)
	}
	if err := s.DropOutgoing(ctx, ids["dropped@x.test"], day); err != nil {
		t.Fatal(err)
	}
	n, err := s.PruneSentText(ctx, day.AddDate(0, 0, 10))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d, %v; want 1", n, err)
	}
	for to, id := range ids {
		o, err := s.OutgoingByID(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", to, err)
		}
		if pruned := len(o.Raw) == 0; pruned != (to == "old@x.test") {
			t.Errorf("%s: text of %d bytes after pruning", to, len(o.Raw))
		}
		if o.MessageID == "" || o.To != to {
			t.Errorf("%s: the row lost its record: %+v", to, o)
		}
	}
	if n, err := s.PruneSentText(ctx, day.AddDate(0, 0, 10)); err != nil || n != 0 {
		t.Errorf("pruning again: %d, %v; want nothing more", n, err)
	}
	// The pruning reads the kept texts only, each mail's row by its id.
	var plan strings.Builder
	rows, err := s.db.QueryContext(ctx, `EXPLAIN QUERY PLAN `+pruneSent, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, parent, notused int
		var detail string
		rows.Scan(&id, &parent, &notused, &detail)
		plan.WriteString(detail + "; ")
	}
	if p := plan.String(); strings.Contains(p, "SCAN o") || !strings.Contains(p, "SEARCH o USING INTEGER PRIMARY KEY") {
		t.Errorf("query plan %q: want a scan of the kept texts and a search of the outbox by id", p)
	}
}
