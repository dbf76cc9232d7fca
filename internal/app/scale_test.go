package app

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"referee/internal/apptest"
	"referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/store"
)

// BenchmarkScale shows what the number of games in the database costs:
// `referee list` (one page) and the processing of one move (record, replay,
// decide, compose both board mails, queue), with 100 and with 10,000
// active games created directly in the store. Neither should grow with
// the number of games. (go test -run XXX -bench Scale -benchmem ./internal/app/)
func BenchmarkScale(b *testing.B) {
	moves := apptest.Moves(40)
	for _, n := range []int{100, 10000} {
		ctx := context.Background()
		a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(b.TempDir(), "r.db"), Address: "referee@example.test"})
		if err != nil {
			b.Fatal(err)
		}
		ids, err := apptest.CreateGames(ctx, a.Store(), time.Now(), n, "alice@example.test", "bob@example.test")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("games=%d/list", n), func(b *testing.B) {
			for b.Loop() {
				gs, total, err := a.GameList(ctx, "", 100)
				if err != nil || total != n || len(gs) != min(n, 100) {
					b.Fatalf("%d of %d listed, %v", len(gs), total, err)
				}
			}
		})
		b.Run(fmt.Sprintf("games=%d/tick", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := a.Tick(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("games=%d/move", n), func(b *testing.B) {
			// Move k of game i: the same work whatever the number of games,
			// one ply deeper every len(ids) moves.
			played := make([]int, len(ids))
			i := 0
			for b.Loop() {
				g := i % len(ids)
				k := played[g]
				if k >= len(moves) {
					b.Fatalf("more than %d moves per game; use fewer iterations", len(moves))
				}
				c, from := k%2, []string{"alice@example.test", "bob@example.test"}[k%2]
				tok := reader.Token{GameID: ids[g], Secret: apptest.Secret(g, c), Ply: k}
				raw := fmt.Appendf(nil, "From: %s\r\nTo: referee+%s@example.test\r\nSubject: Re: move\r\nMessage-ID: <scale-%d-%d@example.test>\r\n\r\n%s\r\n",
					from, tok, g, k, moves[k])
				res, err := a.Process(ctx, raw, 0, 0)
				if err != nil || res.Verdict != referee.Applied {
					b.Fatalf("game %d move %d %s: %v %v %s", ids[g], k, moves[k], err, res.Verdict, res.Detail)
				}
				played[g]++
				i++
			}
		})
		a.Close()
	}
}

// BenchmarkFinishedGameSize plays games of 40 plies to a resignation
// through Process, and reports the database size per finished game and
// once the outbox's data of sent mail is pruned (the outbox keeps each
// mail as the data it is written from at send time).
func BenchmarkFinishedGameSize(b *testing.B) {
	const plies = 40
	moves := apptest.Moves(plies)
	ctx := context.Background()
	for range b.N {
		db := filepath.Join(b.TempDir(), "r.db")
		a, err := Open(ctx, Options{Catalog: testCatalog(), DB: db, Address: "referee@example.test"})
		if err != nil {
			b.Fatal(err)
		}
		const games = 5
		ids, err := apptest.CreateGames(ctx, a.Store(), time.Now(), games, "alice@example.test", "bob@example.test")
		if err != nil {
			b.Fatal(err)
		}
		before := dbSize(b, db)
		for g, id := range ids {
			send := func(k int, text string) {
				c, from := k%2, []string{"alice@example.test", "bob@example.test"}[k%2]
				tok := reader.Token{GameID: id, Secret: apptest.Secret(g, c), Ply: min(k, plies)}
				raw := fmt.Appendf(nil, "From: %s\r\nTo: referee+%s@example.test\r\nSubject: Re: move\r\nMessage-ID: <size-%d-%d-%s@example.test>\r\n\r\n%s\r\n",
					from, tok, g, k, text, text)
				if res, err := a.Process(ctx, raw, 0, 0); err != nil || res.Verdict != referee.Applied {
					b.Fatalf("game %d ply %d %q: %v %v %s", id, k, text, err, res.Verdict, res.Detail)
				}
			}
			for k, m := range moves {
				send(k, m)
			}
			send(plies, "resign")
			send(plies, "confirm")
		}
		after := dbSize(b, db)
		// serve --keep-sent-days: once the text of sent mail is pruned,
		// what a finished game keeps (the freed pages are reused).
		sendAll(b, a.Store())
		if _, err := a.Store().PruneSentText(ctx, time.Now().Add(time.Hour)); err != nil {
			b.Fatal(err)
		}
		a.Close()
		pruned := dbSize(b, db)
		b.ReportMetric(float64(after-before)/games/1024, "KB/game")
		b.ReportMetric(float64(pruned-before)/games/1024, "KB/game-pruned")
	}
}

// sendAll marks every mail of the outbox sent, as the daemon's outbox does
// once the SMTP server accepted it.
func sendAll(tb testing.TB, st *store.Store) {
	ctx := context.Background()
	all, err := st.Outbox(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Now()
	for _, o := range all {
		c, err := st.ClaimOutgoing(ctx, o.ID, now, time.Minute)
		if err != nil || c == nil {
			tb.Fatalf("claiming mail #%d: %v %v", o.ID, c, err)
		}
		if err := st.MarkSent(ctx, c, now); err != nil {
			tb.Fatal(err)
		}
	}
}

// dbSize checkpoints the database at path and returns the bytes its pages
// in use take (the file less its free pages, which later writes reuse).
func dbSize(tb testing.TB, path string) int64 {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		tb.Fatal(err)
	}
	var outbox int64
	db.QueryRow(`SELECT COALESCE(SUM(LENGTH(raw)), 0) FROM outbox_text`).Scan(&outbox)
	var pages, free, pageSize int64
	db.QueryRow(`PRAGMA page_count`).Scan(&pages)
	db.QueryRow(`PRAGMA freelist_count`).Scan(&free)
	db.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	used := (pages - free) * pageSize
	tb.Logf("database file %d KB, in use %d KB, of which mail text %d KB", st.Size()/1024, used/1024, outbox/1024)
	return used
}
