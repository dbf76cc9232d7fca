package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"

	"referee/internal/app"
	"referee/internal/web"
)

// webFlags are serve's and site's settings of the public pages
// (internal/web).
type webFlags struct {
	http, public, title, baseURL string
}

func (w *webFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
}, serve bool) {
	if serve {
		fs.StringVar(&w.http, "http", "", "serve the public game pages on this `host:port` (its own listener: /status and /metrics stay on --status-addr)")
	}
	fs.StringVar(&w.public, "public", web.PublicFinished, "which games the web pages show: all (running and finished), finished or none; never a private game")
	fs.StringVar(&w.title, "site-title", "", "the pages' title (default: \"Games at\" the referee's address)")
	fs.StringVar(&w.baseURL, "base-url", "", "the pages' public `URL` (e.g. https://games.example.org/), for absolute links in the Atom feed")
}

func (w *webFlags) site(a *app.App) (*web.Site, error) {
	return web.NewSite(a, web.Options{Public: w.public, Referee: a.Referee(), Title: w.title, BaseURL: w.baseURL})
}

// serveWeb starts the public pages on --http, if given; the returned stop
// ends them.
func (w *webFlags) serveWeb(ctx context.Context, a *app.App, log *slog.Logger, stderr io.Writer) (stop func(), ok bool) {
	if w.http == "" {
		return func() {}, true
	}
	s, err := w.site(a)
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: %v\n", err)
		return nil, false
	}
	ln, err := net.Listen("tcp", w.http)
	if err != nil {
		fmt.Fprintf(stderr, "referee serve: --http %s: %v; give a free host:port such as 127.0.0.1:8080\n", w.http, err)
		return nil, false
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := s.Serve(wctx, ln, log.With("part", "web")); err != nil && wctx.Err() == nil {
			log.Error("web pages stopped", "err", err)
		}
	}()
	log.Info("web pages served", "addr", ln.Addr().String(), "public", w.public)
	return func() { cancel(); <-done }, true
}

func runSite(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("site", "--out DIR [--public all|finished|none]",
		"Writes the public game pages as static files into DIR, for any web server: the same pages serve --http serves. Run again, it writes only what changed since the last export.", stderr)
	db := dbFlag(fs)
	address := addressFlag(fs)
	out := fs.String("out", "", "the `directory` to write the pages into (made if missing)")
	var w webFlags
	w.register(fs, false)
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "referee site: give the directory to write into, e.g. referee site --out public_html")
		return exitUsage
	}
	if err := web.CheckPublic(w.public); err != nil {
		fmt.Fprintf(stderr, "referee site: %v\n", err)
		return exitUsage
	}
	a, code := openExistingApp(ctx, "site", *db, *address, stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	s, err := w.site(a)
	if err != nil {
		return failed(stderr, "site", err)
	}
	r, err := s.ExportChanges(ctx, *out)
	if err != nil {
		return failed(stderr, "site", err)
	}
	fmt.Fprintf(stdout, "site: %d files written to %s, %d unchanged since the last export, %d removed (--public %s)\n",
		r.Written, *out, r.Files-r.Written, r.Removed, w.public)
	return exitOK
}
