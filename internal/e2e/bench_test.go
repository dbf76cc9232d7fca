package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"referee/internal/mail/smtpout"
	"referee/internal/notation"
	"referee/internal/rules"
)

// Benchmarks against the real servers (go test -run XXX -bench . ./internal/e2e):
//   MoveLatency: from Postfix accepting a move to both replies in the
//     players' Dovecot mailboxes, with IDLE; reports p50 and p99.
//   Throughput: games × moves sent at once, round by round, until every
//     reply arrived; Floor: the same number of mails sent and fetched with no
//     referee in between.

const benchGames, benchRounds = 10, 4

func walk(n int) []string {
	pos := rules.Chess().Start()
	var out []string
	for i := range n {
		legal := pos.Legal()
		m := legal[(i*7+2)%len(legal)]
		out = append(out, notation.SAN(pos, m))
		pos, _ = pos.Play(m)
	}
	return out
}

func BenchmarkMoveLatency(b *testing.B) {
	e := newEnv(b)
	alice, bob := setupPlayers()
	r := e.runReferee(b, filepath.Join(b.TempDir(), "r.db"), false)
	if _, err := r.app.NewGame(context.Background(), "chess", alice.addr, bob.addr, nil); err != nil {
		b.Fatal(err)
	}
	e.waitMail(b, alice, 1, 30*time.Second)
	e.waitMail(b, bob, 1, 30*time.Second)
	moves := walk(max(b.N, 1))
	players := []*player{alice, bob}
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		e.send(b, players[i%2], moves[i])
		e.waitMail(b, alice, 1, 30*time.Second)
		e.waitMail(b, bob, 1, 30*time.Second)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds())/1000, "p99-ms")
}

func BenchmarkThroughput(b *testing.B) {
	e := newEnv(b)
	for range b.N {
		for _, u := range []string{referee, "alice@example.test", "bob@example.test"} {
			e.drain(b, u)
		}
		alice, bob := setupPlayers()
		r := e.runReferee(b, filepath.Join(b.TempDir(), "r.db"), false)
		type g struct{ a, b *player }
		games := make([]g, benchGames)
		for i := range games {
			games[i] = g{&player{addr: alice.addr}, &player{addr: bob.addr}}
			if _, err := r.app.NewGame(context.Background(), "chess", alice.addr, bob.addr, nil); err != nil {
				b.Fatal(err)
			}
		}
		// Opening mails: hand each game its own last mail, by game number.
		assign := func() {
			for _, who := range []string{alice.addr, bob.addr} {
				got := e.collect(b, who, benchGames)
				for _, m := range got {
					var id int
					fmt.Sscanf(m.subject[len("[chess #"):], "%d", &id)
					if who == alice.addr {
						games[id-1].a.last = m
					} else {
						games[id-1].b.last = m
					}
				}
			}
		}
		assign()
		moves := walk(benchRounds)
		b.ResetTimer()
		for round := range benchRounds {
			var wg sync.WaitGroup
			for _, gm := range games {
				p := gm.a
				if round%2 == 1 {
					p = gm.b
				}
				wg.Add(1)
				go func() { defer wg.Done(); e.send(b, p, moves[round]) }()
			}
			wg.Wait()
			assign()
		}
		b.StopTimer()
		r.stop() // the next iteration's referee reads the same mailbox
		b.ReportMetric(float64(benchGames*benchRounds), "moves/op")
	}
}

func BenchmarkFloor(b *testing.B) {
	// The same volume as Throughput: games×rounds mails in, twice that out,
	// sent and fetched with no referee in between.
	e := newEnv(b)
	for range b.N {
		for _, u := range []string{referee, "alice@example.test", "bob@example.test"} {
			e.drain(b, u)
		}
		c := smtpout.New(smtpout.Config{Addr: e.srv.SMTPAddr, TLS: "none"})
		b.ResetTimer()
		for range benchRounds {
			var wg sync.WaitGroup
			for i := range benchGames {
				wg.Add(1)
				go func() {
					defer wg.Done()
					raw := fmt.Sprintf("From: alice@example.test\r\nTo: referee@example.test\r\nSubject: m%d\r\nMessage-ID: <floor-%d-%d@x>\r\n\r\ne4\r\n", i, time.Now().UnixNano(), i)
					c.Send(context.Background(), "alice@example.test", []string{referee}, []byte(raw))
				}()
			}
			wg.Wait()
			e.collect(b, referee, benchGames)
			for i := range benchGames {
				for _, to := range []string{"alice@example.test", "bob@example.test"} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						raw := fmt.Sprintf("From: referee@example.test\r\nTo: %s\r\nSubject: r%d\r\nMessage-ID: <floor-r-%d-%d@x>\r\n\r\nboard\r\n", to, i, time.Now().UnixNano(), i)
						c.Send(context.Background(), referee, []string{to}, []byte(raw))
					}()
				}
			}
			wg.Wait()
			e.collect(b, "alice@example.test", benchGames)
			e.collect(b, "bob@example.test", benchGames)
		}
	}
}

// The helpers below are the test helpers for benchmarks (testing.TB).

func (e *env) collect(tb testing.TB, user string, n int) []*received {
	var got []*received
	deadline := time.Now().Add(60 * time.Second)
	for len(got) < n {
		got = append(got, e.drain(tb, user)...)
		if time.Now().After(deadline) {
			tb.Fatalf("%s: %d of %d mails", user, len(got), n)
		}
		if len(got) < n {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return got
}
