package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"syscall"
)

// underJournald reports whether f is the stream systemd connected to the
// journal: $JOURNAL_STREAM holds "DEVICE:INODE" of that stream, and a
// process that still writes to it (not redirected elsewhere) may prefix
// each line with its priority (sd-daemon(3)).
func underJournald(f *os.File) bool {
	env := os.Getenv("JOURNAL_STREAM")
	if env == "" || f == nil {
		return false
	}
	var dev, ino uint64
	if _, err := fmt.Sscanf(env, "%d:%d", &dev, &ino); err != nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Dev) == dev && uint64(st.Ino) == ino
}

// journalHandler writes each record as one line prefixed with its syslog
// priority ("<3>" error, "<4>" warning, "<6>" info, "<7>" debug), which
// journald strips and keeps as the entry's PRIORITY, so that
// "journalctl -p warning" shows the warnings and errors. The line itself is
// the inner handler's (text or JSON), without the time, which journald
// records.
type journalHandler struct {
	inner slog.Handler // writes into *buf
	out   io.Writer
	mu    *sync.Mutex
	buf   *bytes.Buffer
}

func newJournalHandler(out io.Writer, opts *slog.HandlerOptions, json bool) *journalHandler {
	h := &journalHandler{out: out, mu: new(sync.Mutex), buf: new(bytes.Buffer)}
	o := *opts
	o.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}
	if json {
		h.inner = slog.NewJSONHandler(h.buf, &o)
	} else {
		h.inner = slog.NewTextHandler(h.buf, &o)
	}
	return h
}

// priority maps a slog level to a syslog priority.
func priority(l slog.Level) int {
	switch {
	case l >= slog.LevelError:
		return 3
	case l >= slog.LevelWarn:
		return 4
	case l >= slog.LevelInfo:
		return 6
	}
	return 7
}

func (h *journalHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *journalHandler) Handle(ctx context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.buf.Reset()
	fmt.Fprintf(h.buf, "<%d>", priority(r.Level))
	if err := h.inner.Handle(ctx, r); err != nil {
		return err
	}
	_, err := h.out.Write(h.buf.Bytes())
	return err
}

func (h *journalHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.inner = h.inner.WithAttrs(as)
	return &c
}

func (h *journalHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.inner = h.inner.WithGroup(name)
	return &c
}
