package app

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"referee/internal/apptest"
	"referee/internal/dice"
	"referee/internal/mail/reader"
	"referee/internal/notation"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// benchRecord is the stored record of the first n plies of apptest.Moves:
// each action's canonical notation, coordinate form and position after it.
func benchRecord(tb testing.TB, n int) []referee.Action {
	tb.Helper()
	pos := rules.Chess().Start()
	var out []referee.Action
	for i, san := range apptest.Moves(n) {
		m, err := notation.Parse(pos, san)
		if err != nil {
			tb.Fatalf("ply %d %s: %v", i, san, err)
		}
		coord := notation.Coord(pos, m)
		color := pos.Turn()
		if pos, err = pos.Play(m); err != nil {
			tb.Fatalf("ply %d %s: %v", i, san, err)
		}
		out = append(out, referee.Action{Ply: i, Color: color, SAN: san, Coord: coord, Position: pos.String()})
	}
	return out
}

// insertGameAt stores an active chess game of alice against bob whose
// record is acts, directly (no mail), and returns it. The secrets are
// apptest.Secret(n, 0) and apptest.Secret(n, 1).
func insertGameAt(tb testing.TB, a *App, n int, acts []referee.Action, clock *referee.Clock) *referee.Game {
	tb.Helper()
	var seed dice.Seed
	copy(seed[:], fmt.Appendf(nil, "bench seed %d", n))
	g := &referee.Game{Variant: rules.Chess(), Status: referee.StatusActive, Start: rules.Chess().Start().String(), Seed: seed,
		Created: a.opts.Now().UTC().Truncate(time.Second), Actions: acts}
	g.Players[0] = referee.Player{Address: "alice@example.test", Secret: apptest.Secret(n, 0)}
	g.Players[1] = referee.Player{Address: "bob@example.test", Secret: apptest.Secret(n, 1)}
	g.State.Clock = clock
	err := a.st.Update(context.Background(), func(tx *store.Tx) error {
		id, err := tx.CreateGame(toStoreGame(g))
		if err != nil {
			return err
		}
		g.ID = id
		for _, act := range acts {
			sa := toStoreAction(id, act, 0, g.Created)
			sa.InboundID = nil
			if err := tx.AppendAction(sa); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// benchMove sends ply k of apptest.Moves (moves) in the n-th bench game g
// through Process and fails unless it was played.
func benchMove(tb testing.TB, a *App, g *referee.Game, n, k int, moves []string) Processed {
	tb.Helper()
	c := k % 2
	tok := reader.Token{GameID: g.ID, Secret: apptest.Secret(n, c), Ply: k}
	raw := fmt.Appendf(nil, "From: %s\r\nTo: referee+%s@example.test\r\nSubject: Re: move\r\nMessage-ID: <ply-%d-%d@example.test>\r\n\r\n%s\r\n",
		g.Players[c].Address, tok, g.ID, k, moves[k])
	res, err := a.Process(context.Background(), raw, 0, 0)
	if err != nil || res.Verdict != referee.Applied {
		tb.Fatalf("game #%d ply %d %s: %v %v %s", g.ID, k, moves[k], err, res.Verdict, res.Detail)
	}
	return res
}

// writeQueued writes the mails a move queued, outbox ids first+1 to
// first+n, as the sender does at send time (text, HTML, picture, MIME).
func writeQueued(tb testing.TB, a *App, first int64, n int) {
	tb.Helper()
	for id := first + 1; id <= first+int64(n); id++ {
		o, err := a.Store().OutgoingByID(context.Background(), id)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := a.Render(*o); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkMoveAtPly is one move decided and its mails written, through
// the store (Process: record the mail, load the game, decide, queue both
// board mails as data; then both mails written from that data as the
// sender writes them), in a chess game already at that ply whose
// previous move went through this daemon too. It should not grow with the
// ply (go test -run XXX -bench MoveAtPly -benchmem ./internal/app/).
func BenchmarkMoveAtPly(b *testing.B) { benchMoveAtPly(b, false) }

// BenchmarkMoveAtPlyCacheMiss is BenchmarkMoveAtPly with the game's kept
// position forgotten before the move (another process changed it, the
// daemon restarted, or the cache let it go): the record is replayed from
// move 1, as every move did before positions were kept.
func BenchmarkMoveAtPlyCacheMiss(b *testing.B) { benchMoveAtPly(b, true) }

func benchMoveAtPly(b *testing.B, miss bool) {
	for _, ply := range []int{10, 200} {
		b.Run(fmt.Sprintf("ply=%d", ply), func(b *testing.B) {
			ctx := context.Background()
			a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(b.TempDir(), "r.db"), Address: "referee@example.test"})
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			moves := apptest.Moves(ply + 1)
			before := benchRecord(b, ply-1)
			n, queued := 0, int64(0) // games made, mails queued so far (outbox ids 1 to queued)
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				g := insertGameAt(b, a, n, before, nil)
				queued += int64(benchMove(b, a, g, n, ply-1, moves).Mails) // the game reaches the ply through Process
				if miss {
					a.positions.drop(g.ID)
				}
				b.StartTimer()
				began := processCPU()
				res := benchMove(b, a, g, n, ply, moves)
				writeQueued(b, a, queued, res.Mails)
				cpu += processCPU() - began
				queued += int64(res.Mails)
				n++
			}
			// The process's CPU time (user and system, every thread) per
			// move: on a machine shared with other work, wall time moves
			// with the load, CPU time much less.
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkTick is one minute's tick of the clocks with 10,000 timed games
// of which none is due (go test -run XXX -bench Tick -benchmem ./internal/app/).
func BenchmarkTick(b *testing.B) {
	const games = 10000
	b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
		ctx := context.Background()
		now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
		a, err := Open(ctx, Options{Catalog: testCatalog(), DB: filepath.Join(b.TempDir(), "r.db"), Address: "referee@example.test",
			Now: func() time.Time { return now }})
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
		err = a.st.Update(ctx, func(tx *store.Tx) error {
			for i := range games {
				c, err := referee.ParseTimeControl("3d")
				if err != nil {
					return err
				}
				c.TurnStart = now.Add(-time.Duration(i%24) * time.Hour)
				g := &referee.Game{Variant: rules.Chess(), Status: referee.StatusActive, Start: rules.Chess().Start().String(),
					Created: now}
				g.Players[0] = referee.Player{Address: "alice@example.test", Secret: apptest.Secret(i, 0)}
				g.Players[1] = referee.Player{Address: "bob@example.test", Secret: apptest.Secret(i, 1)}
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
		for b.Loop() {
			if changed, err := a.Tick(ctx); err != nil || changed != 0 {
				b.Fatalf("tick: %d changed, %v", changed, err)
			}
		}
	})
}

// processCPU is the CPU time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
