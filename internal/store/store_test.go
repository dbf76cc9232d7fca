package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func newGame() *Game {
	return &Game{Variant: "chess", Status: "active", StartPosition: "start", Position: "start", DieSeed: make([]byte, 32),
		Players: [2]Player{{Color: 0, Address: "alice@example.test", Name: "Alice", Secret: "aaaaaaaaaa"}, {Color: 1, Address: "bob@example.test", Secret: "bbbbbbbbbb"}}}
}

func TestSchemaVersionAndReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	v, err := s.Version(ctx)
	if err != nil || v != len(migrations()) {
		t.Fatalf("version = %d, %v; want %d", v, err, len(migrations()))
	}
	if err := s.Update(ctx, func(tx *Tx) error { _, err := tx.CreateGame(newGame()); return err }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Reopening applies nothing again and keeps the data.
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	gs, err := s2.Games(ctx, "")
	if err != nil || len(gs) != 1 {
		t.Fatalf("after reopen: %d games, %v; want 1", len(gs), err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(ctx, path)
	if err == nil {
		t.Fatal("opening a database of schema version 99 succeeded; want a clear refusal")
	}
	t.Log(err)
}

func TestGameRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	g := newGame()
	err := s.Update(ctx, func(tx *Tx) error {
		if _, err := tx.CreateGame(g); err != nil {
			return err
		}
		g.Position, g.Ply, g.Status, g.Result, g.ResultReason = "after", 2, "finished", "1-0", "checkmate"
		by := 1
		g.DrawOfferBy, g.DrawOfferPly = &by, 1
		return tx.UpdateGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Position != "after" || got.Ply != 2 || got.Result != "1-0" || got.ResultReason != "checkmate" ||
		got.DrawOfferBy == nil || *got.DrawOfferBy != 1 || got.Players != g.Players {
		t.Errorf("got %+v, want %+v", got, g)
	}
	if _, err := s.Game(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game(999) error = %v, want ErrNotFound", err)
	}
	if gs, _ := s.Games(ctx, "active"); len(gs) != 0 {
		t.Errorf("Games(active) = %d games, want 0 (the game is finished)", len(gs))
	}
}

func TestActionsAndRollsOrdered(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	g := newGame()
	err := s.Update(ctx, func(tx *Tx) error {
		if _, err := tx.CreateGame(g); err != nil {
			return err
		}
		for _, p := range []int{2, 0, 1} {
			if err := tx.AppendAction(Action{GameID: g.ID, Ply: p, Color: p % 2, Notation: fmt.Sprint("m", p), Coord: "x", Position: "p"}); err != nil {
				return err
			}
			if err := tx.AppendRoll(Roll{GameID: g.ID, N: p + 1, Ply: p, Value: p + 1, Signature: []byte{1}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	as, _ := s.Actions(ctx, g.ID)
	rs, _ := s.Rolls(ctx, g.ID)
	for i := range 3 {
		if as[i].Ply != i || rs[i].N != i+1 {
			t.Errorf("order: action %d has ply %d, roll %d has n %d", i, as[i].Ply, i, rs[i].N)
		}
	}
	// The same ply twice is refused (primary key).
	err = s.Update(ctx, func(tx *Tx) error {
		return tx.AppendAction(Action{GameID: g.ID, Ply: 1, Notation: "dup", Coord: "x", Position: "p"})
	})
	if err == nil {
		t.Error("a second action with ply 1 was stored")
	}
	// A roll outside 1..6 is refused (check constraint).
	if err := s.Update(ctx, func(tx *Tx) error { return tx.AppendRoll(Roll{GameID: g.ID, N: 9, Value: 7}) }); err == nil {
		t.Error("a roll of 7 was stored")
	}
}

func TestInboundDedupe(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	tests := []struct {
		name string
		in   Inbound
		dup  bool
	}{
		{"first", Inbound{MessageID: "<a@x>", UIDValidity: 7, UID: 1, Digest: "d1"}, false},
		{"same Message-ID, other UID", Inbound{MessageID: "<a@x>", UIDValidity: 7, UID: 2, Digest: "d1"}, true},
		// A server that forgot its mail hands out UID 1 again, under the
		// same UIDVALIDITY, to a new mail: it must not look old.
		{"same UID, another mail", Inbound{MessageID: "<b@x>", UIDValidity: 7, UID: 1, Digest: "d2"}, false},
		{"new UIDVALIDITY, new id", Inbound{MessageID: "<c@x>", UIDValidity: 8, UID: 1, Digest: "d3"}, false},
		{"no Message-ID, new UID", Inbound{UIDValidity: 8, UID: 2, Digest: "d4"}, false},
		{"no Message-ID, same UID", Inbound{UIDValidity: 8, UID: 2, Digest: "d4"}, true},
		// The mailbox was rebuilt: new UIDVALIDITY, the old mail re-added.
		{"no Message-ID, rebuilt mailbox", Inbound{UIDValidity: 9, UID: 1, Digest: "d4"}, true},
		{"same Message-ID, rebuilt mailbox", Inbound{MessageID: "<a@x>", UIDValidity: 9, UID: 5, Digest: "d1"}, true},
		{"neither (not from IMAP)", Inbound{Digest: "d5"}, false},
		{"the same mail again, not from IMAP", Inbound{Digest: "d5"}, true},
	}
	for _, tt := range tests {
		var dup bool
		err := s.Update(ctx, func(tx *Tx) error {
			var err error
			_, dup, err = tx.RecordInbound(tt.in)
			return err
		})
		if err != nil || dup != tt.dup {
			t.Errorf("%s: dup = %v, %v; want %v", tt.name, dup, err, tt.dup)
		}
	}
}

func TestOutboxLifecycle(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	var id int64
	err := s.Update(ctx, func(tx *Tx) error {
		var err error
		id, err = tx.Enqueue(Outgoing{To: "alice@example.test", From: "referee@example.test", MessageID: "<m@x>", Raw: []byte("raw"), Created: now})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	due, _ := s.DueOutbox(ctx, now, 10)
	if len(due) != 1 || string(due[0].Raw) != "raw" {
		t.Fatalf("due = %+v, want the one message", due)
	}
	c, err := s.ClaimOutgoing(ctx, id, now, time.Minute)
	if err != nil || c == nil {
		t.Fatalf("claim = %v, %v", c, err)
	}
	next := now.Add(time.Minute)
	if err := s.MarkFailed(ctx, c, "421 try later", next); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueOutbox(ctx, now, 10); len(due) != 0 {
		t.Errorf("a failed message is due again before its retry time")
	}
	due, _ = s.DueOutbox(ctx, next, 10)
	if len(due) != 1 || due[0].Attempts != 1 || due[0].LastError != "421 try later" {
		t.Fatalf("at retry time: %+v", due)
	}
	if c, err = s.ClaimOutgoing(ctx, id, next, time.Minute); err != nil || c == nil {
		t.Fatalf("claim at retry time = %v, %v", c, err)
	}
	if err := s.MarkSent(ctx, c, next); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueOutbox(ctx, next.Add(time.Hour), 10); len(due) != 0 {
		t.Errorf("a sent message is still due")
	}
}

func TestFailedTransactionLeavesNothing(t *testing.T) {
	// A game's change and its mails are one transaction: when the work fails
	// half-way, neither the game nor the queued mail may remain.
	ctx := context.Background()
	s, _ := openTemp(t)
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx *Tx) error {
		g := newGame()
		if _, err := tx.CreateGame(g); err != nil {
			return err
		}
		if _, err := tx.Enqueue(Outgoing{To: "a@x.test", From: "r@x.test", MessageID: "<1@x>", Raw: []byte("x")}); err != nil {
			return err
		}
		if _, _, err := tx.RecordInbound(Inbound{MessageID: "<in@x>", Digest: "d"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update error = %v, want boom", err)
	}
	gs, _ := s.Games(ctx, "")
	ob, _ := s.Outbox(ctx)
	counts, _ := s.InboundCount(ctx)
	if len(gs) != 0 || len(ob) != 0 || len(counts) != 0 {
		t.Errorf("after a failed transaction: %d games, %d mails, inbound %v; want none", len(gs), len(ob), counts)
	}
}

func TestConcurrentUpdates(t *testing.T) {
	// Writers from many goroutines all succeed (IMMEDIATE transactions and a
	// busy timeout, not "database is locked").
	ctx := context.Background()
	s, _ := openTemp(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Update(ctx, func(tx *Tx) error {
				if _, err := tx.CreateGame(newGame()); err != nil {
					return err
				}
				_, err := tx.Enqueue(Outgoing{To: fmt.Sprintf("p%d@x.test", i), From: "r@x.test", MessageID: "<m>", Raw: []byte("x")})
				return err
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if gs, _ := s.Games(ctx, ""); len(gs) != 40 {
		t.Errorf("%d games, want 40", len(gs))
	}
}

func TestForeignKeysEnforced(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	err := s.Update(ctx, func(tx *Tx) error {
		return tx.AppendAction(Action{GameID: 42, Ply: 0, Notation: "e4", Coord: "e2e4", Position: "p"})
	})
	if err == nil {
		t.Error("an action for a game that does not exist was stored")
	}
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Setting(ctx, "k"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing setting: %v, want ErrNotFound", err)
	}
	for _, v := range []string{"one", "two"} {
		if err := s.Update(ctx, func(tx *Tx) error { return tx.SetSetting("k", []byte(v)) }); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := s.Setting(ctx, "k"); err != nil || string(v) != "two" {
		t.Errorf("setting = %q, %v; want two", v, err)
	}
}

func TestSchemaEmbedded(t *testing.T) {
	if ms := migrations(); len(ms) < 6 || !strings.Contains(ms[0], "CREATE TABLE games") {
		t.Fatalf("the schema files are not embedded: %d versions", len(ms))
	}
}

// TestMigrationsAreNumberedInOrder: schema_N_*.sql are applied in order of
// N (numerically: 10 after 9), and a gap, a repeat or a name without its
// number is refused with the file's name.
func TestMigrationsAreNumberedInOrder(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name  string
		files fstest.MapFS
		want  []string // the texts in order; nil: an error naming bad
		bad   string
	}{
		{"in order", fstest.MapFS{"schema_2_b.sql": file("two"), "schema_1_a.sql": file("one")}, []string{"one", "two"}, ""},
		{"numeric order", fstest.MapFS{
			"schema_1_a.sql": file("1"), "schema_2_a.sql": file("2"), "schema_3_a.sql": file("3"), "schema_4_a.sql": file("4"),
			"schema_5_a.sql": file("5"), "schema_6_a.sql": file("6"), "schema_7_a.sql": file("7"), "schema_8_a.sql": file("8"),
			"schema_9_a.sql": file("9"), "schema_10_a.sql": file("10"),
		}, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}, ""},
		{"gap", fstest.MapFS{"schema_1_a.sql": file("one"), "schema_3_c.sql": file("three")}, nil, "schema_3_c.sql"},
		{"repeat", fstest.MapFS{"schema_1_a.sql": file("one"), "schema_1_b.sql": file("one again")}, nil, "schema_1_"},
		{"no number", fstest.MapFS{"schema_1_a.sql": file("one"), "schema_deadline.sql": file("x")}, nil, "schema_deadline.sql"},
		{"none", fstest.MapFS{}, nil, "schema_1_"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readMigrations(tt.files)
			if tt.want == nil {
				if err == nil || !strings.Contains(err.Error(), tt.bad) {
					t.Fatalf("readMigrations = %q, %v; want an error naming %s", got, err, tt.bad)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("readMigrations = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	// The embedded files themselves.
	if _, err := readMigrations(schemaFiles); err != nil {
		t.Fatal(err)
	}
}

// TestUpgradeFromEveryVersion: a database left at any older schema version
// is brought up to the current one by Open, and ends with the same tables
// and indexes as a database created new.
func TestUpgradeFromEveryVersion(t *testing.T) {
	ctx := context.Background()
	fresh, _ := openTemp(t)
	want := schemaOf(t, fresh.db)
	ms := migrations()
	for v := 1; v < len(ms); v++ {
		t.Run(fmt.Sprintf("from=%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			db, err := sql.Open("sqlite3", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range ms[:v] {
				if _, err := db.Exec(m); err != nil {
					t.Fatalf("version %d: %v", i+1, err)
				}
			}
			if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
				t.Fatal(err)
			}
			db.Close()
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("opening a database of version %d: %v", v, err)
			}
			defer s.Close()
			if got, err := s.Version(ctx); err != nil || got != len(ms) {
				t.Errorf("version after the upgrade = %d, %v; want %d", got, err, len(ms))
			}
			if got := schemaOf(t, s.db); !slices.Equal(got, want) {
				t.Errorf("schema after the upgrade from version %d differs from a new database's:\n got %q\nwant %q", v, got, want)
			}
		})
	}
}

// schemaOf lists the tables and indexes of db with their SQL, by name.
func schemaOf(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var typ, name, q string
		if err := rows.Scan(&typ, &name, &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, typ+" "+name+": "+strings.Join(strings.Fields(q), " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
