package app

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"referee/internal/apptest"
	"referee/internal/mail/reader"
	"referee/internal/referee"
)

// BenchmarkMoveTx measures how long one move holds the database's write
// transaction (BEGIN to the end of COMMIT): the inbound record, the game's
// change and its mails queued. It reports the median and the 90th
// percentile over the moves of the run as tx-ms and tx-p90-ms. Moves are
// played in games of 40 plies, a new game after each.
// (go test -run XXX -bench MoveTx ./internal/app/)
func BenchmarkMoveTx(b *testing.B) {
	ctx := context.Background()
	a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(b.TempDir(), "r.db"), Address: "referee@example.test"})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	var held []time.Duration
	recording := false
	a.Store().ObserveWrites(func(d time.Duration) {
		if recording {
			held = append(held, d)
		}
	})
	moves := apptest.Moves(40)
	var ids []int64
	k := len(moves)
	for b.Loop() {
		if k == len(moves) {
			b.StopTimer()
			more, err := apptest.CreateGames(ctx, a.Store(), time.Now(), 1, "alice@example.test", "bob@example.test")
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, more...)
			k = 0
			b.StartTimer()
		}
		g := len(ids) - 1
		c, from := k%2, []string{"alice@example.test", "bob@example.test"}[k%2]
		tok := reader.Token{GameID: ids[g], Secret: apptest.Secret(0, c), Ply: k} // each game is the first of its batch
		raw := fmt.Appendf(nil, "From: %s\r\nTo: referee+%s@example.test\r\nSubject: Re: move\r\nMessage-ID: <tx-%d-%d@example.test>\r\n\r\n%s\r\n",
			from, tok, g, k, moves[k])
		recording = true
		res, err := a.Process(ctx, raw, 0, 0)
		recording = false
		if err != nil || res.Verdict != referee.Applied {
			b.Fatalf("game %d move %d %s: %v %v %s", ids[g], k, moves[k], err, res.Verdict, res.Detail)
		}
		k++
	}
	slices.Sort(held)
	if n := len(held); n > 0 {
		b.ReportMetric(float64(held[n/2])/1e6, "tx-ms")
		b.ReportMetric(float64(held[n*9/10])/1e6, "tx-p90-ms")
	}
}
