package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestJournalPriorities: under journald each line starts with the syslog
// priority of its level (sd-daemon(3)), and carries no time of its own.
func TestJournalPriorities(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		var b strings.Builder
		log, err := newLoggerFor(&b, "debug", format, true)
		if err != nil {
			t.Fatal(err)
		}
		log = log.With("part", "imap")
		log.Debug("d")
		log.Info("i")
		log.Warn("w")
		log.Error("e")
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		want := []string{"<7>", "<6>", "<4>", "<3>"}
		if len(lines) != len(want) {
			t.Fatalf("%s: %d lines, want %d:\n%s", format, len(lines), len(want), b.String())
		}
		for i, l := range lines {
			if !strings.HasPrefix(l, want[i]) || !strings.Contains(l, "imap") || strings.Contains(l, "time") {
				t.Errorf("%s line %d = %q, want prefix %s, the attribute, no time", format, i, l, want[i])
			}
		}
	}
}

// TestUnderJournald: only the very stream named by $JOURNAL_STREAM counts;
// stderr redirected to a file while the variable is inherited does not.
func TestUnderJournald(t *testing.T) {
	dir := t.TempDir()
	a, err := os.Create(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := os.Create(filepath.Join(dir, "b"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	fi, _ := a.Stat()
	st := fi.Sys().(*syscall.Stat_t)
	t.Setenv("JOURNAL_STREAM", fmt.Sprintf("%d:%d", st.Dev, st.Ino))
	if !underJournald(a) {
		t.Error("the stream named by JOURNAL_STREAM is not recognised")
	}
	if underJournald(b) {
		t.Error("another file is taken for the journal")
	}
	t.Setenv("JOURNAL_STREAM", "")
	if underJournald(a) {
		t.Error("without JOURNAL_STREAM, a file is taken for the journal")
	}
}
