package web_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/internal/app"
	"referee/internal/apptest"
	"referee/internal/web"
)

// archive is the database of BenchmarkPages: REFEREE_BENCH_GAMES games
// (100,000 by default) between a hundredth as many players, one in four
// still running (every other one of those shown two moves late), made
// once and kept in the temporary directory (apptest.ArchiveDB).
func archive(tb testing.TB) (apptest.Archive, string) {
	tb.Helper()
	n := envInt("REFEREE_BENCH_GAMES", 100000)
	a := apptest.Archive{Games: n, Players: max(2, n/100), RunningEvery: 4}
	t0 := time.Now()
	path, err := apptest.ArchiveDB(context.Background(), a)
	if err != nil {
		tb.Fatal(err)
	}
	if d := time.Since(t0); d > time.Second {
		tb.Logf("made the archive of %d games in %v: %s", n, d.Round(time.Second), path)
	}
	return a, path
}

// archiveNames are the pages BenchmarkPages asks for: a finished game's
// page, a page at a ply of it, its picture, a running game's page, a
// player's page, the index.
func archiveNames(a apptest.Archive) map[string]string {
	finished, running := 0, 0
	for i := range a.Games {
		if _, _, _, r := a.ArchiveGame(i); r && running == 0 {
			running = i + 1
		} else if !r && finished == 0 && i > a.Games/2 {
			finished = i + 1
		}
	}
	return map[string]string{
		"index":   "index.html",
		"game":    fmt.Sprintf("game-%d.html", finished),
		"ply":     fmt.Sprintf("game-%d-3.html", finished),
		"picture": fmt.Sprintf("game-%d-3.png", finished),
		"running": fmt.Sprintf("game-%d.html", running),
		"feed":    "feed.atom",
	}
}

// BenchmarkPages measures the pages of a large archive (issue 39): each
// page made in the process (the first time, and again), and then
// `serve --http`'s share in a process of its own (TestArchiveServer):
// how long its first page takes after the start, and its resident memory
// after REFEREE_BENCH_REQUESTS (1,000) distinct pages. Targets at 100,000
// games: each page under 50 ms, the first page under 1 s, RSS under
// 80 MB. The first page's time is split: start-ms (the process's start:
// exec, the runtime and every package's init), open-ms (app.Open: SQLite,
// the schema's check, the key), site-ms (web.NewSite) and index-ms (the
// first request, from the server's "listening" to its answer); with
// REFEREE_BENCH_COLD=1 the pages of the database and of the program are
// dropped from the page cache first (posix_fadvise DONTNEED on those files
// only), as after a reboot.
//
//	go test -run XXX -bench 'Pages/(index|game|ply|picture|running|feed)$' -benchtime 200x ./internal/web/
//	go test -run XXX -bench 'Pages/serve$' -benchtime 1x ./internal/web/
func BenchmarkPages(b *testing.B) {
	a, path := archive(b)
	ctx := context.Background()
	ra, err := app.Open(ctx, app.Options{DB: path, Address: "referee@example.test"})
	if err != nil {
		b.Fatal(err)
	}
	defer ra.Close()
	for key, name := range archiveNames(a) {
		b.Run(key, func(b *testing.B) {
			s, err := web.NewSite(ra, web.Options{Public: web.PublicAll, Referee: ra.Referee()})
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			if _, err := s.Page(ctx, name); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			first := time.Since(t0)
			cpu0, n := cpuTime(os.Getpid()), 0
			for b.Loop() {
				if _, err := s.Page(ctx, name); err != nil {
					b.Fatal(err)
				}
				n++
			}
			// The CPU time of one page: the machine is shared, and a page
			// waits for a core as long as it runs on one.
			b.ReportMetric((cpuTime(os.Getpid())-cpu0).Seconds()*1000/float64(n), "cpu-ms/op")
			b.ReportMetric(first.Seconds()*1000, "first-ms")
		})
	}
	b.Run("serve", func(b *testing.B) {
		for range b.N {
			if os.Getenv("REFEREE_BENCH_COLD") != "" {
				if err := dropCache(path); err != nil {
					b.Fatal(err)
				}
			}
			r := serveArchive(b, a, path, envInt("REFEREE_BENCH_REQUESTS", 1000))
			ms := func(d time.Duration) float64 { return d.Seconds() * 1000 }
			b.ReportMetric(ms(r.first), "first-page-ms")
			b.ReportMetric(ms(r.firstCPU), "first-page-cpu-ms")
			b.ReportMetric(ms(r.listening-r.open-r.site), "start-ms")
			b.ReportMetric(ms(r.open), "open-ms")
			b.ReportMetric(ms(r.site), "site-ms")
			b.ReportMetric(ms(r.first-r.listening), "index-ms")
			b.ReportMetric(r.rssMB, "RSS-MB")
			b.ReportMetric(ms(r.perPage), "ms/page")
		}
	})
}

// served is what serveArchive measured.
type served struct {
	// first is the time from the start to the index's answer, and
	// firstCPU the CPU time the server had used by then; listening is the
	// time from the start to the server's "listening", of which open and
	// site were app.Open and web.NewSite, as the server measured them.
	first, firstCPU, listening, open, site time.Duration
	rssMB                                  float64
	perPage                                time.Duration // the mean time of one distinct page
}

// serveArchive starts TestArchiveServer in a process of its own on the
// archive at path, asks it for the index, then for requests distinct
// pages one after another, and reads its resident memory.
func serveArchive(b *testing.B, a apptest.Archive, path string, requests int) (r served) {
	start := time.Now()
	cmd := exec.Command(os.Args[0], "-test.run=^TestArchiveServer$")
	cmd.Env = append(os.Environ(), "REFEREE_ARCHIVE_SERVER="+path)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("the server said nothing: %v", err)
	}
	r.listening = time.Since(start)
	var addr string
	var open, site int64
	if _, err := fmt.Sscanf(line, "listening %s open=%d site=%d", &addr, &open, &site); err != nil {
		b.Fatalf("the server said %q: %v", line, err)
	}
	r.open, r.site = time.Duration(open), time.Duration(site)
	base := "http://" + addr
	client := &http.Client{Timeout: 120 * time.Second}
	get := func(name string) {
		resp, err := client.Get(base + "/" + name)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%s: status %d", name, resp.StatusCode)
		}
	}
	get("index.html")
	r.first, r.firstCPU = time.Since(start), cpuTime(cmd.Process.Pid)
	t0 := time.Now()
	for i := range requests {
		n := (i*7919)%a.Games + 1
		_, _, plies, running := a.ArchiveGame(n - 1)
		ply := i % (plies - 2) // within a delayed game's delay
		switch i % 4 {
		case 0:
			get(fmt.Sprintf("game-%d.html", n))
		case 1:
			get(fmt.Sprintf("game-%d-%d.html", n, ply))
		case 2:
			get(fmt.Sprintf("game-%d-%d.png", n, ply))
		case 3:
			if running {
				get(fmt.Sprintf("game-%d.html", n))
			} else {
				get(fmt.Sprintf("game-%d.pgn", n))
			}
		}
	}
	r.perPage = time.Since(t0) / time.Duration(max(1, requests))
	st, err2 := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err2 == nil {
		for _, l := range strings.Split(string(st), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
				r.rssMB = kb / 1024
			}
		}
	}
	return r
}

// dropCache drops the pages of the database at path from the page cache
// (with its -wal and -shm files, where they exist), and those of the
// server's program, as after a reboot; the other files' pages stay.
func dropCache(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm", os.Args[0]} {
		f, err := os.Open(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		// posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED): the whole file.
		const fadvDontNeed = 4
		_, _, errno := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, fadvDontNeed, 0, 0)
		f.Close()
		if errno != 0 {
			return fmt.Errorf("dropping %s from the page cache: %w", p, errno)
		}
	}
	return nil
}

// cpuTime is the user and system CPU time process pid has used (from
// /proc; 0 where there is none).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name in parentheses: state is the
	// first, utime the 12th and stime the 13th.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // clock ticks: 100 a second on Linux
}

// TestArchiveServer is the server process of BenchmarkPages: with
// REFEREE_ARCHIVE_SERVER naming a database it serves its pages (all
// public) on a loopback port, says "listening ADDR" on its standard
// output, and stops when its standard input closes. Otherwise it is
// skipped.
func TestArchiveServer(t *testing.T) {
	path := os.Getenv("REFEREE_ARCHIVE_SERVER")
	if path == "" {
		t.Skip("the server process of BenchmarkPages")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t0 := time.Now()
	a, err := app.Open(ctx, app.Options{DB: path, Address: "referee@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	t1 := time.Now()
	s, err := web.NewSite(a, web.Options{Public: web.PublicAll, Referee: a.Referee()})
	if err != nil {
		t.Fatal(err)
	}
	t2 := time.Now()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("listening %s open=%d site=%d\n", ln.Addr(), t1.Sub(t0), t2.Sub(t1))
	go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
	if err := s.Serve(ctx, ln, nil); err != nil {
		t.Fatal(err)
	}
}
