package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadCommandsNeedADatabase: the commands that read or act on an
// existing database refuse a path with none, naming it, and create nothing
// there (issue 28: `list` on a mistyped --db created a database and said
// "no games").
func TestReadCommandsNeedADatabase(t *testing.T) {
	for _, args := range [][]string{
		{"list"}, {"show", "1"}, {"export", "1"}, {"status"}, {"key"}, {"verify", "1"},
		{"abort", "1", "--reason", "x"}, {"watch", "1", "carol@example.org"}, {"tick"},
		{"player", "list"}, {"outbox"},
	} {
		t.Run(args[0], func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "mistyped.db")
			code, out, errs := cli(t, append([]string{args[0], "--db", db}, args[1:]...)...)
			if code != 2 || !strings.Contains(errs, "no database at "+db) {
				t.Errorf("%v on a missing database: exit %d, %q %q; want exit 2 (a bad --db) naming %s", args, code, out, errs, db)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("%v created a database at %s", args, db)
			}
		})
	}
}

// TestNewRefusesInvalidAddresses: `referee new` holds the players'
// addresses to RFC 5321's limits and valid domains (issue 28).
func TestNewRefusesInvalidAddresses(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	for _, bad := range []string{strings.Repeat("a", 5000) + "@example.org", "alice@[127.0.0.1]", "alice@-bad-.test"} {
		code, _, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", bad, "--black", "bob@example.org")
		if code == 0 || len(errs) > 600 {
			t.Errorf("new --white %.40q: exit %d, %d bytes of error; want a short refusal", bad, code, len(errs))
		}
	}
}
