package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// dryRun is a boolean flag of a kind package flag does not define: it is
// boolean because its Value says so (IsBoolFlag), which is all parseFlags
// may rely on.
type dryRun struct{ on bool }

func (d *dryRun) String() string     { return strconv.FormatBool(d != nil && d.on) }
func (d *dryRun) Set(s string) error { v, err := strconv.ParseBool(s); d.on = v; return err }
func (d *dryRun) IsBoolFlag() bool   { return true }

// TestParseFlagsAnywhere: flags may come before, between or after a
// command's arguments; a boolean flag (told by its Value, whatever its
// type) never takes the next word; "--" ends the flags.
func TestParseFlagsAnywhere(t *testing.T) {
	tests := []struct {
		args     []string
		wantArgs []string
		db       string
		dry      bool
		code     int
	}{
		{[]string{"add", "a@x.test", "--db", "g.db"}, []string{"add", "a@x.test"}, "g.db", false, exitOK},
		{[]string{"--db", "g.db", "add", "a@x.test"}, []string{"add", "a@x.test"}, "g.db", false, exitOK},
		{[]string{"add", "--db=g.db", "a@x.test"}, []string{"add", "a@x.test"}, "g.db", false, exitOK},
		{[]string{"add", "--dry", "a@x.test"}, []string{"add", "a@x.test"}, "", true, exitOK},
		{[]string{"--dry", "add", "a@x.test", "--db", "g.db"}, []string{"add", "a@x.test"}, "g.db", true, exitOK},
		{[]string{"add", "--dry=false", "a@x.test"}, []string{"add", "a@x.test"}, "", false, exitOK},
		{[]string{"add", "--", "--db", "x"}, []string{"add", "--db", "x"}, "", false, exitOK},
		{[]string{"-", "--db", "g.db"}, []string{"-"}, "g.db", false, exitOK},
		{[]string{"add", "--nope", "a@x.test"}, nil, "", false, exitUsage},
		{[]string{"add", "--db"}, nil, "", false, exitUsage},
		{[]string{"add", "--help"}, nil, "", false, exitOK},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fs := flag.NewFlagSet("referee test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			db := fs.String("db", "", "")
			var dry dryRun
			fs.Var(&dry, "dry", "")
			code, ok := parseFlags(fs, tt.args)
			if code != tt.code || ok != (tt.wantArgs != nil) {
				t.Fatalf("parseFlags = %d, %v; want %d, %v", code, ok, tt.code, tt.wantArgs != nil)
			}
			if !ok {
				return
			}
			if !slices.Equal(fs.Args(), tt.wantArgs) || *db != tt.db || dry.on != tt.dry {
				t.Errorf("arguments %q, --db %q, --dry %v; want %q, %q, %v", fs.Args(), *db, dry.on, tt.wantArgs, tt.db, tt.dry)
			}
		})
	}
}

// TestEveryCommandTakesFlagsAfterItsArguments: the same admin commands
// with --db before and after their arguments, and global flags before the
// command name, all act on the same database.
func TestEveryCommandTakesFlagsAfterItsArguments(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	if code, _, errs := cli(t, "new", "--variant", "chess", "--white", "alice@example.org", "--black", "bob@example.org", "--db", db); code != 0 {
		t.Fatalf("new --db after the other flags: %d %s", code, errs)
	}
	record := filepath.Join(dir, "1.pgn")
	steps := []struct {
		args []string
		out  string // stdout says this
	}{
		{[]string{"player", "add", "carol@example.org", "--db", db}, "carol@example.org may challenge"},
		{[]string{"player", "--db", db, "add", "dave@example.org"}, "dave@example.org may challenge"},
		{[]string{"player", "list", "--db", db}, "dave@example.org"},
		{[]string{"--db", db, "player", "list"}, "carol@example.org"},
		{[]string{"--db=" + db, "show", "1"}, "White to play"},
		{[]string{"show", "1", "--db", db}, "White to play"},
		{[]string{"--db", db, "--address", "ref@example.org", "new", "--variant", "chectoe", "--white", "a@example.org", "--black", "b@example.org"}, "2"},
		{[]string{"list", "--status", "active", "--db", db}, "alice@example.org"},
		{[]string{"watch", "1", "eve@example.org", "--db", db}, "eve@example.org"},
		{[]string{"unwatch", "--db", db, "1", "eve@example.org"}, "eve@example.org"},
		{[]string{"verify", "2", "--db", db}, ""},
		{[]string{"status", "--db", db, "--json"}, `"schema_version"`},
		{[]string{"--db", db, "status", "--json"}, `"schema_version"`},
		{[]string{"key", "--db", db}, ""},
		{[]string{"abort", "1", "--db", db, "--reason", "a test"}, ""},
		{[]string{"list", "--db", db, "--status", "aborted"}, "aborted"},
	}
	for _, s := range steps {
		code, out, errs := cli(t, s.args...)
		if code != 0 || !strings.Contains(out, s.out) {
			t.Errorf("referee %s: exit %d, stdout %q, stderr %q; want 0 and %q", strings.Join(s.args, " "), code, out, errs, s.out)
		}
	}
	code, out, errs := cli(t, "export", "2", "--db", db)
	if code != 0 {
		t.Fatalf("export 2 --db: %d %s", code, errs)
	}
	if err := os.WriteFile(record, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	// --record is boolean: the file after it is the argument.
	if code, _, errs := cli(t, "verify", "--record", record, "--db", db); code != 0 {
		t.Errorf("verify --record FILE --db: %d %s", code, errs)
	}
	if code, _, errs := cli(t, "backup", filepath.Join(dir, "copy.db"), "--db", db); code != 0 {
		t.Errorf("backup FILE --db: %d %s", code, errs)
	}
}

// TestGlobalFlagsBeforeTheCommand: what may come before the command name,
// and what is refused there with a hint.
func TestGlobalFlagsBeforeTheCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"--db", db, "variants"}, exitUsage, "", "flag provided but not defined: -db"}, // variants has no --db: the command says so
		{[]string{"--db", db, "init"}, exitOK, "is ready", ""},
		{[]string{"--db", db, "--help"}, exitOK, "Usage: referee", ""},
		{[]string{"--db", db, "help"}, exitOK, "Usage: referee", ""},
		{[]string{"--json", "status"}, exitUsage, "", "only --db and --address may come before"},
		{[]string{"--db"}, exitUsage, "", "no value"},
		{[]string{"--db", db}, exitUsage, "", "no command"},
		{[]string{"--db", db, "shwo", "1"}, exitUsage, "", `unknown command "shwo"`},
		{[]string{"init", "extra", "--db", db}, exitUsage, "", `read the argument "extra"`},
	}
	for _, tt := range tests {
		code, out, errs := cli(t, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) {
			t.Errorf("referee %s: exit %d, stdout %q, stderr %q; want %d, %q, %q", strings.Join(tt.args, " "), code, out, errs, tt.code, tt.stdout, tt.stderr)
		}
	}
}

// TestInvokedAs: the serve banner's command line is the one the user
// typed, except for the throw-away binary of `go run`.
func TestInvokedAs(t *testing.T) {
	tests := []struct{ arg0, want string }{
		{"referee", "referee"},
		{"./referee", "./referee"},
		{"/usr/local/bin/referee", "/usr/local/bin/referee"},
		{"/tmp/go-build1234567/b001/exe/referee", "go run ./cmd/referee"},
		{"/home/me/.cache/tmp/go-build99/b001/exe/referee", "go run ./cmd/referee"}, // GOTMPDIR elsewhere
		{"/home/me/exe/referee", "/home/me/exe/referee"},                            // an exe directory of the user's own
		// A second `go run` runs the binary from the build cache (Go 1.24 on), as measured here.
		{"/root/.cache/go-build/10/10fb8cfff23f302f933f4975fdf7684675d85efa1efdf5200cbd439cbaccd175-d/referee", "go run ./cmd/referee"},
		{"/srv/referee/10/not-a-hash-d/referee", "/srv/referee/10/not-a-hash-d/referee"},
		{"/tmp/go-build1234567/b001/referee.test", "/tmp/go-build1234567/b001/referee.test"},
		{"", "referee"},
	}
	for _, tt := range tests {
		if got := invokedAs(tt.arg0); got != tt.want {
			t.Errorf("invokedAs(%q) = %q, want %q", tt.arg0, got, tt.want)
		}
	}
	for _, v := range []string{"REFEREE_DB", "REFEREE_ADDRESS"} {
		t.Setenv(v, "") // restored after the test
		os.Unsetenv(v)
	}
	for _, tt := range []struct{ db, address, want string }{
		{"referee.db", "referee@example.test", "go run ./cmd/referee"},
		{"games.db", "referee@example.test", "go run ./cmd/referee --db games.db"},
		{"my games.db", "ref@games.test", "go run ./cmd/referee --db 'my games.db' --address ref@games.test"},
	} {
		if got := startCommand("/tmp/go-build1/b001/exe/referee", tt.db, tt.address); got != tt.want {
			t.Errorf("startCommand(%q, %q) = %q, want %q", tt.db, tt.address, got, tt.want)
		}
	}
}

// TestServeBannerSaysHowToStartAGame: serve on the embedded server prints
// a `new` command line that starts from how serve was run and names its
// database; run as printed, it starts a game in that database.
func TestServeBannerSaysHowToStartAGame(t *testing.T) {
	for _, v := range []string{"REFEREE_DB", "REFEREE_ADDRESS"} {
		t.Setenv(v, "") // restored after the test
		os.Unsetenv(v)
	}
	db := filepath.Join(t.TempDir(), "banner.db")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var outb, errb bytes.Buffer
	code := run(ctx, []string{"serve", "--once", "--db", db, "--embedded-imap", "127.0.0.1:0", "--embedded-smtp", "127.0.0.1:0"}, &outb, &errb)
	if code != exitOK {
		t.Fatalf("serve --once: exit %d, stderr %s", code, errb.String())
	}
	var line string
	for l := range strings.Lines(outb.String()) {
		if rest, ok := strings.CutPrefix(l, "Start a game:"); ok {
			line = strings.TrimSpace(rest)
		}
	}
	prefix := invokedAs(os.Args[0]) + " --db " + shellQuote(db) + " new "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("the banner's command %q does not start with %q:\n%s", line, prefix, outb.String())
	}
	// The printed line, after the program's name, is a command this
	// binary runs.
	args := strings.Fields(strings.TrimPrefix(line, invokedAs(os.Args[0])))
	if strings.ContainsAny(db, " '") {
		t.Skipf("the temporary directory %q needs quoting; the line is not split here", db)
	}
	if code, out, errs := cli(t, args...); code != 0 || strings.TrimSpace(out) != "1" {
		t.Errorf("running the banner's command %q: exit %d, stdout %q, stderr %q", args, code, out, errs)
	}
}

// TestReadmeListsEveryCommand: the README's admin block has a line for
// every command of the binary but serve (which has the README's opening
// and its own sections), and names no command the binary lacks.
func TestReadmeListsEveryCommand(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "### Admin commands\n\n```\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no code block under \"### Admin commands\"")
	}
	listed := map[string]bool{}
	for l := range strings.Lines(block) {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "referee" {
			listed[f[1]] = true
		}
	}
	known := map[string]bool{}
	for _, c := range commands() {
		known[c.name] = true
		if c.name != "serve" && !listed[c.name] {
			t.Errorf("the README's admin block has no line for \"referee %s\" (%s)", c.name, c.summary)
		}
	}
	for name := range listed {
		if !known[name] {
			t.Errorf("the README's admin block lists \"referee %s\", which the binary does not have", name)
		}
	}
}
