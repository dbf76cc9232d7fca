package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"referee/internal/app"
	"referee/internal/apptest"
	"referee/internal/mail/reader"
)

// BenchmarkServeRSS runs the `referee serve` binary against the real
// servers with 100 and with 10,000 active games in its database (created
// directly in the store), plays rssGames games × rssRounds rounds of moves
// through it, and reports its peak resident memory (VmHWM) and the time per
// round. Target: at most 40 MB with 10,000 games.
func BenchmarkServeRSS(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "referee")
	build := exec.Command("go", "build", "-o", bin, "./cmd/referee")
	build.Dir = repoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	e := newEnv(b)
	var last string
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				for _, u := range append([]string{referee}, benchPlayers[:]...) {
					e.drain(b, u)
				}
				db := filepath.Join(b.TempDir(), "r.db")
				a, err := app.Open(context.Background(), app.Options{DB: db, Address: referee})
				if err != nil {
					b.Fatal(err)
				}
				ids, err := apptest.CreateGames(context.Background(), a.Store(), time.Now(), n, benchPlayers[0], benchPlayers[1])
				a.Close()
				if err != nil {
					b.Fatal(err)
				}
				cmd := exec.Command(bin, "serve", "--db", db, "--address", referee,
					"--imap", e.mail.imapAddr(), "--imap-tls", "none", "--imap-pass", password,
					"--smtp", e.mail.smtpAddr(), "--smtp-tls", "none", "--log-level", "warn")
				cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				stopped := sync.OnceFunc(func() {
					cmd.Process.Signal(syscall.SIGTERM)
					cmd.Wait()
				})
				b.Cleanup(stopped)
				const rssGames, rssRounds = 10, 6
				moves := apptest.Moves(rssRounds)
				b.StartTimer()
				start := time.Now()
				for r := range rssRounds {
					var wg sync.WaitGroup
					for g := range rssGames {
						wg.Add(1)
						go func() {
							defer wg.Done()
							tok := reader.Token{GameID: ids[g], Secret: apptest.Secret(g, r%2), Ply: r}
							p := &player{addr: benchPlayers[r%2], last: &received{
								subject: fmt.Sprintf("[chess #%d]", ids[g]), replyTo: fmt.Sprintf("referee+%s@example.test", tok),
								messageID: fmt.Sprintf("<rss-%d-%d@example.test>", g, r)}}
							e.send(b, p, moves[r])
						}()
					}
					wg.Wait()
					for _, who := range benchPlayers {
						e.collect(b, who, rssGames)
					}
				}
				perRound := time.Since(start) / rssRounds
				b.StopTimer()
				hwm, rss := procMemory(b, cmd.Process.Pid)
				stopped()
				b.ReportMetric(hwm, "peak-RSS-MB")
				b.ReportMetric(rss, "RSS-MB")
				b.ReportMetric(float64(perRound.Milliseconds()), "ms/round")
				last = fmt.Sprintf("serve with %d games: peak RSS %.1f MB (now %.1f MB), %d ms per round of %d moves (target <= 40 MB)",
					n, hwm, rss, perRound.Milliseconds(), rssGames)
				b.Log(last)
			}
		})
	}
}

// procMemory reads the peak and current resident set size of pid, in MB.
func procMemory(tb testing.TB, pid int) (hwm, rss float64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		switch k {
		case "VmHWM":
			hwm = kb / 1024
		case "VmRSS":
			rss = kb / 1024
		}
	}
	return hwm, rss
}
