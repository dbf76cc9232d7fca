package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
)

// globalFlags are the flags that may come before the command name
// ("referee --db games.db show 2"): they are handed on to the command, as
// if written after it. Only these are read there, because before the
// command is known only they can be told apart from their values.
func globalFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("referee", flag.ContinueOnError)
	dbFlag(fs)
	addressFlag(fs)
	return fs
}

// errHelp is returned by splitCommand for a -h or --help before the
// command name.
var errHelp = errors.New("help asked")

// splitCommand splits args into the flags written before the command
// name, the command name, and the command's own arguments. Whether a flag
// takes the next word as its value is asked of the flag itself (its
// Value's IsBoolFlag, as package flag does).
func splitCommand(args []string) (flags []string, name string, rest []string, err error) {
	global := globalFlags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return args[:i], args[i+1], args[i+2:], nil
			}
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return args[:i], a, args[i+1:], nil
		}
		fname, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if fname == "h" || fname == "help" {
			return nil, "", nil, errHelp
		}
		f := global.Lookup(fname)
		if f == nil {
			return nil, "", nil, fmt.Errorf("read the flag %q before the command; only --db and --address may come before it "+
				"(every other flag goes after the command, e.g. \"referee show 2 --db games.db\")", a)
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); hasValue || (ok && b.IsBoolFlag()) {
			continue
		}
		if i+1 == len(args) {
			return nil, "", nil, fmt.Errorf("read %q with no value and no command after it: write e.g. \"referee %s games.db show 2\"", a, a)
		}
		i++ // the flag's value
	}
	return nil, "", nil, fmt.Errorf("read %q but no command: write \"referee [--db PATH] COMMAND ...\"", strings.Join(args, " "))
}

// invokedAs is how the user ran this program, for instructions that
// print a command line to copy: os.Args[0] as typed ("referee",
// "./referee", "/usr/local/bin/referee"), or "go run ./cmd/referee" when
// the binary is one `go run` built in a temporary directory, whose path
// the user never typed and which is gone after the run.
func invokedAs(arg0 string) string {
	if arg0 == "" {
		return "referee"
	}
	if builtByGoRun(arg0) {
		return "go run ./cmd/referee"
	}
	return arg0
}

// builtByGoRun says whether path is a binary `go run` built: it lives in
// a directory .../go-build<random>/b<N>/exe/ under the temporary directory,
// or, when `go run` runs it again from the build cache (Go 1.24 on), in
// GOCACHE/<2 hex>/<64 hex>-d/.
func builtByGoRun(path string) bool {
	dir := filepath.Dir(filepath.Clean(path))
	if cachedRunDir(filepath.Base(dir)) && isHex(filepath.Base(filepath.Dir(dir)), 2) {
		return true
	}
	if filepath.Base(dir) != "exe" {
		return false
	}
	for d := filepath.Dir(dir); d != filepath.Dir(d); d = filepath.Dir(d) {
		if strings.HasPrefix(filepath.Base(d), "go-build") {
			return true
		}
	}
	return false
}

// cachedRunDir says whether name is the build cache's directory of an
// executable: 64 hex digits and "-d".
func cachedRunDir(name string) bool {
	h, ok := strings.CutSuffix(name, "-d")
	return ok && isHex(h, 64)
}

// isHex says whether s is n lower-case hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// startCommand is the command line the serve banner shows to start a
// game, beginning as the user ran serve and naming the database and
// address serve uses when `new` would not find them by default.
func startCommand(arg0, db, address string) string {
	cmd := invokedAs(arg0)
	def := globalFlags()
	if db != def.Lookup("db").DefValue {
		cmd += " --db " + shellQuote(db)
	}
	if address != def.Lookup("address").DefValue {
		cmd += " --address " + shellQuote(address)
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell when it holds anything beyond
// letters, digits and ./_-@+:=,.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./_-@+:=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
