package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// MaxRequestBytes caps what the server reads of a request's body: the
// pages take none, so anything more is refused.
const MaxRequestBytes = 1 << 10

// Handler serves the site: GET and HEAD only (405 otherwise), each file at
// its name ("/" is index.html; a list takes its filters as query
// parameters too, "/?variant=chess&state=finished&before=1234"), with its content type, an ETag (a strong
// one: the hash of the bytes) and caching headers, and a security policy
// that lets nothing from another site in; text is gzipped for the clients
// that accept it (static.go).
func (s *Site) Handler(log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "The pages are read-only: only GET and HEAD are allowed.", http.StatusMethodNotAllowed)
			return
		}
		if r.ContentLength > MaxRequestBytes {
			http.Error(w, "A request for a page carries no body.", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		asked := name
		if r.URL.RawQuery != "" {
			asked += "?" + r.URL.RawQuery // a list's filters (Page)
		}
		p, err := s.Page(r.Context(), asked)
		if errors.Is(err, ErrNotFound) {
			http.Error(w, "There is no such page here; the index is at /.", http.StatusNotFound)
			return
		}
		if err != nil {
			log.Error("web page", "page", name, "err", err)
			http.Error(w, "The page could not be made; the organiser's log says why.", http.StatusInternalServerError)
			return
		}
		sum := sha256.Sum256(p.Body)
		etag := `"` + hex.EncodeToString(sum[:12]) + `"`
		h.Set("ETag", etag)
		if p.Final {
			h.Set("Cache-Control", "public, max-age=86400")
		} else {
			h.Set("Cache-Control", "public, max-age=60, must-revalidate")
		}
		h.Set("Content-Type", p.ContentType)
		if match := r.Header.Get("If-None-Match"); match != "" && etagMatch(match, etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		// ServeContent answers HEAD and Range requests as well.
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(p.Body))
	}))
}

func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// NewServer is an HTTP server for h with the timeouts and limits a server
// open to the internet needs.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// Serve serves the site on ln until ctx ends.
func (s *Site) Serve(ctx context.Context, ln net.Listener, log *slog.Logger) error {
	srv := NewServer(s.Handler(log))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("web server on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}
