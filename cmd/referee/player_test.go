package main

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
	"referee/internal/store"
)

func TestPlayerCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	cli(t, "init", "--db", db) // "player list" reads an existing database only
	steps := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"player", "--db", db, "list"}, 0, "no players added or removed"},
		{[]string{"player", "--db", db, "add", "Carol+Chess@Example.org"}, 0, "carol@example.org may challenge"},
		{[]string{"player", "--db", db, "remove", "mallory@example.org"}, 0, "may no longer challenge"},
		{[]string{"player", "--db", db, "list"}, 0, "removed"},
		{[]string{"player", "--db", db, "add", "not an address"}, 2, ""},
		{[]string{"player", "--db", db, "add"}, 2, ""},
		{[]string{"player", "--db", db, "promote", "carol@example.org"}, 2, ""},
	}
	for _, s := range steps {
		code, out, errs := cli(t, s.args...)
		if code != s.code || !strings.Contains(out, s.out) {
			t.Errorf("%s: %d %q %q; want %d and %q", strings.Join(s.args[3:], " "), code, out, errs, s.code, s.out)
		}
		if s.code == 2 && !strings.Contains(errs, "referee player") {
			t.Errorf("%s: the error does not say what to write: %q", strings.Join(s.args[3:], " "), errs)
		}
	}
	if _, out, _ := cli(t, "player", "--db", db, "list"); !strings.Contains(out, "added") || !strings.Contains(out, "carol@example.org") {
		t.Errorf("list: %q", out)
	}
	// The stop list (issue 28): an address that answered "stop" to an
	// invitation is listed for the organiser to see.
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(context.Background(), func(tx *store.Tx) error {
		return tx.SetStopped("victim@example.org", true, 4, time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := `stopped  2026-11-25  victim@example.org (answered "stop" to invitation 4: gets no invitations until it sends "start")`
	if _, out, _ := cli(t, "player", "--db", db, "list"); !strings.Contains(out, want) {
		t.Errorf("list does not show the stop list:\n%s\nwant a line %q", out, want)
	}
}

func TestServeLobbyFlags(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "players.txt")
	if err := os.WriteFile(list, []byte("# the club\nalice@example.org\n\nBob <bob@example.org>\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("alice@example.org\nnot an address\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		players referee.Players
		n       int    // addresses read from a file
		err     string // "" for none
	}{
		{nil, "known", 0, ""},
		{[]string{"--players", "open"}, "open", 0, ""},
		{[]string{"--players", list}, "list", 2, ""},
		{[]string{"--players", bad}, "", 0, "line 2"},
		{[]string{"--players", filepath.Join(dir, "missing")}, "", 0, "neither open, known nor a readable file"},
		{[]string{"--max-games", "0"}, "", 0, "at least 1"},
		{[]string{"--default-time", "3h"}, "", 0, "--default-time"},
		{[]string{"--variants", "chess,checkers"}, "", 0, "checkers"},
		{[]string{"--variants", "Chess,toto40", "--default-time", "10d+1d"}, "known", 0, ""},
	}
	for _, tt := range tests {
		var s serveFlags
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s.register(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		lc, l, err := s.lobbyOptions()
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%v: error %v, want one saying %q", tt.args, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%v: %v", tt.args, err)
		case tt.err == "" && (lc.Players != tt.players || len(l) != tt.n):
			t.Errorf("%v: players %q with %d addresses, want %q with %d", tt.args, lc.Players, len(l), tt.players, tt.n)
		}
	}
}
