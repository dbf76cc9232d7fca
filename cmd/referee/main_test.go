package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// cli runs the referee binary's main logic in-process.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestAdminCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	if code, out, errs := cli(t, "init", "--db", db); code != 0 || !strings.Contains(out, "referee key") {
		t.Fatalf("init: %d %q %q", code, out, errs)
	}
	code, out, _ := cli(t, "new", "--db", db, "--variant", "cuarenta", "--white", "alice@example.org", "--black", "Bob <bob@example.org>")
	if code != 0 || strings.TrimSpace(out) != "1" {
		t.Fatalf("new: %d %q", code, out)
	}
	if code, out, _ := cli(t, "list", "--db", db); code != 0 || !strings.Contains(out, "cuarenta") || !strings.Contains(out, "bob@example.org") {
		t.Errorf("list: %d %q", code, out)
	}
	if code, out, _ := cli(t, "show", "--db", db, "1"); code != 0 || !strings.Contains(out, "###") || !strings.Contains(out, "White to play") {
		t.Errorf("show: %d %q", code, out)
	}
	if code, out, _ := cli(t, "export", "--db", db, "1"); code != 0 || !strings.Contains(out, `[Variant "cuarenta"]`) {
		t.Errorf("export: %d %q", code, out)
	}
	if code, _, errs := cli(t, "abort", "--db", db, "1", "--reason", "player left"); code != 0 {
		t.Errorf("abort: %d %q", code, errs)
	}
	if code, out, _ := cli(t, "list", "--db", db, "--status", "aborted"); code != 0 || !strings.Contains(out, "aborted") {
		t.Errorf("list aborted: %d %q", code, out)
	}
}

func TestBadArgumentsChangeNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	cli(t, "new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "b@example.org")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"new", "--db", db, "--variant", "checkers", "--white", "a@example.org", "--black", "b@example.org"}, "not a variant"},
		{[]string{"new", "--db", db, "--variant", "chess", "--white", "not-an-address", "--black", "b@example.org"}, "not a mail address"},
		{[]string{"new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "a@example.org"}, "same address"},
		{[]string{"new", "--db", db, "--variant", "chess", "--white", "a@example.org"}, "--black is missing"},
		{[]string{"show", "--db", db, "42"}, "no game #42"},
		{[]string{"show", "--db", db, "x"}, "not a game id"},
		{[]string{"abort", "--db", db, "1"}, "--reason"},
		{[]string{"list", "--db", db, "--status", "paused"}, "not a status"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"perft", "--variant", "chess", "--depth", "2", "--moves", "e4 e4"}, "move 2"},
	}
	for _, tt := range tests {
		code, _, errs := cli(t, tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errs, tt.want)
		}
	}
	cli(t, "abort", "--db", db, "1", "--reason", "test")
	if code, _, errs := cli(t, "abort", "--db", db, "1", "--reason", "again"); code != 2 || !strings.Contains(errs, "aborted already") {
		t.Errorf("aborting an aborted game: %d %q", code, errs)
	}
	if code, out, _ := cli(t, "list", "--db", db); code != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("after the refused commands the database holds:\n%s", out)
	}
}

func TestPerftAndMovesOutput(t *testing.T) {
	if code, out, _ := cli(t, "perft", "--variant", "chess", "--depth", "3"); code != 0 || !strings.HasSuffix(out, "8902\n") {
		t.Errorf("perft: %d %q", code, out)
	}
	code, out, _ := cli(t, "perft", "--variant", "chess", "--depth", "2", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 21 || lines[20] != "400" || lines[0] != "a2a3 20" {
		t.Errorf("divide: %d %q", code, out)
	}
	code, out, _ = cli(t, "moves", "--variant", "chess", "--moves", "e4 e5 Nf3", "--format", "san")
	if code != 0 || !strings.Contains(out, "Nc6\n") || strings.Count(out, "\n") != 29 {
		t.Errorf("moves: %d %q", code, out)
	}
	code, out, _ = cli(t, "moves", "--variant", "chectoe", "--rolls", "2")
	if code != 0 || !strings.Contains(out, "N@a1\n") || !strings.Contains(out, "reroll\n") {
		t.Errorf("chectoe moves: %d %q", code, out)
	}
	if code, _, errs := cli(t, "moves", "--variant", "chectoe", "--rolls", "7"); code != 2 || !strings.Contains(errs, "1 to 6") {
		t.Errorf("roll 7: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "moves", "--variant", "chectoe"); code != 2 || !strings.Contains(errs, "--rolls") {
		t.Errorf("no rolls: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "moves", "--variant", "chectoe", "--rolls", "2 3 4"); code != 2 || !strings.Contains(errs, "rolls") {
		t.Errorf("too many rolls: %d %q", code, errs)
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands() {
		code, _, errs := cli(t, c.name, "--help")
		if code != 0 || !strings.Contains(errs, "Usage: referee "+c.name) {
			t.Errorf("%s --help: exit %d, %q", c.name, code, errs)
		}
	}
}
