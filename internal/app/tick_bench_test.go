package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"referee/internal/apptest"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// BenchmarkTickDue is one minute's tick of the clocks with 10,000 timed
// chess games (3 days a move) of which some are due: half of them for a
// reminder (a quarter of the time left), half for a loss on time. Each due
// game is loaded, decided, stored and its mails queued (two for a loss,
// one for a reminder). The metric us/due is the cost per due game, which
// should not grow with the number due
// (go test -run XXX -bench TickDue -benchmem -benchtime 3x ./internal/app/).
func BenchmarkTickDue(b *testing.B) {
	const games = 10000
	for _, due := range []int{100, 1000, 2000} {
		b.Run(fmt.Sprintf("games=%d/due=%d", games, due), func(b *testing.B) {
			ctx := context.Background()
			now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
			dir := b.TempDir()
			template := filepath.Join(dir, "template.db")
			a, err := Open(ctx, Options{Catalog: testCatalog(), DB: template, Address: "referee@example.test", Now: func() time.Time { return now }})
			if err != nil {
				b.Fatal(err)
			}
			err = a.st.Update(ctx, func(tx *store.Tx) error {
				for i := range games {
					c, err := referee.ParseTimeControl("3d")
					if err != nil {
						return err
					}
					switch {
					case i%(games/due) != 0: // not due: under a day used
						c.TurnStart = now.Add(-time.Duration(i%24) * time.Hour)
					case (i/(games/due))%2 == 0: // a reminder: 2.5 of 3 days used
						c.TurnStart = now.Add(-60 * time.Hour)
					default: // a loss on time
						c.TurnStart = now.Add(-73 * time.Hour)
					}
					g := &referee.Game{Variant: rules.Chess(), Status: referee.StatusActive, Start: rules.Chess().Start().String(),
						Created: now.Add(-80 * time.Hour)}
					g.Players[0] = referee.Player{Address: fmt.Sprintf("w%d@example.test", i), Secret: apptest.Secret(i, 0)}
					g.Players[1] = referee.Player{Address: fmt.Sprintf("b%d@example.test", i), Secret: apptest.Secret(i, 1)}
					g.State.Clock = c
					if _, err := tx.CreateGame(toStoreGame(g)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			if err := a.Close(); err != nil {
				b.Fatal(err)
			}
			var spent time.Duration
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				db := filepath.Join(dir, fmt.Sprintf("run%d.db", i))
				copyFile(b, template, db)
				a, err := Open(ctx, Options{Catalog: testCatalog(), DB: db, Address: "referee@example.test", Now: func() time.Time { return now }})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				began := time.Now()
				changed, err := a.Tick(ctx)
				spent += time.Since(began)
				b.StopTimer()
				if err != nil || changed != due {
					b.Fatalf("tick: %d changed, %v; want %d", changed, err, due)
				}
				if err := a.Close(); err != nil {
					b.Fatal(err)
				}
				os.Remove(db)
				b.StartTimer()
			}
			b.StopTimer()
			b.ReportMetric(float64(spent.Microseconds())/float64(b.N*due), "us/due")
		})
	}
}

func copyFile(tb testing.TB, from, to string) {
	tb.Helper()
	in, err := os.Open(from)
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		tb.Fatal(err)
	}
	if err := out.Close(); err != nil {
		tb.Fatal(err)
	}
}
