package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// defaultHealthURL is the /healthz of the status listener that serve opens
// with --status-addr (or REFEREE_STATUS_ADDR, as the container sets it), on
// loopback when it listens on every address.
func defaultHealthURL(path string) string {
	addr := os.Getenv("REFEREE_STATUS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:9180"
	}
	if host, port, err := net.SplitHostPort(addr); err == nil && (host == "" || host == "0.0.0.0" || host == "::") {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	return "http://" + addr + path
}

// runHealth asks a running serve whether it is alive (or, with --ready,
// ready): the container's HEALTHCHECK, since the image has no curl.
func runHealth(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("health", "[--ready] [--url URL]", "Asks a running \"referee serve\" (started with --status-addr) whether it is alive: GET /healthz,\nor /readyz with --ready. Exit status 0 when it answers 200, 1 otherwise (for HEALTHCHECK).", stderr)
	ready := fs.Bool("ready", false, "ask /readyz (IMAP logged in and read lately, an SMTP login works, sending not blocked) instead of /healthz")
	url := fs.String("url", "", "the `URL` or host:port to ask (default: /healthz or /readyz at REFEREE_STATUS_ADDR, else 127.0.0.1:9180)")
	timeout := fs.Duration("timeout", 10*time.Second, "give up after this long")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	path := "/healthz"
	if *ready {
		path = "/readyz"
	}
	if *url == "" {
		*url = defaultHealthURL(path)
	} else {
		*url = healthURL(*url, path)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		fmt.Fprintf(stderr, "referee health: --url %q: %v; give an http:// URL such as %s\n", *url, err, defaultHealthURL("/healthz"))
		return exitUsage
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "referee health: %s: %v (is \"referee serve\" running with --status-addr?)\n", *url, err)
		return exitFail
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "referee health: %s answered %s: %s\n", *url, resp.Status, strings.TrimSpace(string(body)))
		return exitFail
	}
	fmt.Fprint(stdout, string(body))
	return exitOK
}

// healthURL completes a --url given as the status listener's address, as
// --status-addr takes it ("127.0.0.1:9180", "[::1]:9180/readyz"): without
// a scheme it is http://, and without a path it asks path (/healthz, or
// /readyz with --ready). A full URL is used as it is.
func healthURL(u, path string) string {
	if strings.Contains(u, "://") {
		return u
	}
	u = "http://" + u
	if !strings.Contains(strings.TrimPrefix(u, "http://"), "/") {
		u += path
	}
	return u
}
