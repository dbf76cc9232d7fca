package web_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"referee/internal/web"
)

// TestLoad is the load test of issue 31: 200 concurrent clients (keep-alive
// connections) ask the web server on loopback for the index, game pages at
// every ply, pictures, records and the feed for 30 s. It runs only with
// REFEREE_WEB_LOAD=1 (REFEREE_WEB_LOAD_SECONDS and REFEREE_WEB_LOAD_CLIENTS
// change the defaults), and fails on any error or non-200 answer, or when
// the heap after a collection grew by more than 32 MB. It logs requests per
// second, the median and p99 latency, and the heap and RSS before and
// after. Client and server share the process (and the machine's cores).
func TestLoad(t *testing.T) {
	if os.Getenv("REFEREE_WEB_LOAD") != "1" {
		t.Skip("the load test runs with REFEREE_WEB_LOAD=1")
	}
	seconds, clients := envInt("REFEREE_WEB_LOAD_SECONDS", 30), envInt("REFEREE_WEB_LOAD_CLIENTS", 200)
	f := openFixture(t)
	s := site(t, f, web.PublicAll)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, ln, nil)
	base := "http://" + ln.Addr().String() + "/"
	names := siteNames(t, s)
	heap0, rss0 := memory()
	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients, IdleConnTimeout: time.Minute}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	var mu sync.Mutex
	var lat []time.Duration
	var failures []string
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for i := c; time.Now().Before(deadline); i++ {
				name := names[i%len(names)]
				t0 := time.Now()
				resp, err := client.Get(base + name)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != 200 {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				if err != nil {
					mu.Lock()
					failures = append(failures, name+": "+err.Error())
					mu.Unlock()
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	tr.CloseIdleConnections()
	heap1, rss1 := memory()
	if len(failures) > 0 {
		t.Errorf("%d failed requests, e.g. %q", len(failures), failures[:min(5, len(failures))])
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(float64(len(lat))*p))]
	}
	t.Logf("%d clients, %d s, %d pages: %d requests, %.0f requests/s, p50 %v, p99 %v, max %v; heap after GC %.1f MB -> %.1f MB, RSS %.1f MB -> %.1f MB",
		clients, seconds, len(names), len(lat), float64(len(lat))/float64(seconds), q(0.5), q(0.99), q(1), mb(heap0), mb(heap1), mb(rss0), mb(rss1))
	if heap1 > heap0+32<<20 {
		t.Errorf("the heap grew from %.1f MB to %.1f MB under load", mb(heap0), mb(heap1))
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// memory is the live heap after a collection and the process's resident
// set (from /proc, 0 where there is none).
func memory() (heap, rss uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				rss = kb << 10
			}
		}
	}
	return m.HeapAlloc, rss
}

// siteNames lists every file of the site (from an export).
func siteNames(t *testing.T, s *web.Site) []string {
	t.Helper()
	dir := t.TempDir()
	if _, err := s.Export(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if !strings.HasPrefix(f.Name(), ".") {
			names = append(names, f.Name())
		}
	}
	return names
}
