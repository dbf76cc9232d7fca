package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// verbRun runs one verb with its arguments (the words that are not flags,
// in order), once its flags are parsed.
type verbRun func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// verb is one verb of a command that has verbs ("referee event start"),
// as cmd/go's base.Command is one go command: a name, a usage line, a short
// and a long help, and its own flag set. A verb's flags are defined by its
// flags function on a flag set of the verb's own, so "event start --help"
// lists the flags start reads and nothing else, and "event start --casual"
// is refused with start's usage (exit 2) instead of being accepted and
// ignored.
type verb struct {
	name  string
	usage string // what follows "referee CMD VERB" in the usage line
	long  string // the help text of "referee CMD VERB --help"
	nargs int    // how many arguments the verb takes
	// flags defines the verb's flags on fs and returns the verb's run.
	// The run reads its flags through the variables flags declared, so a
	// flag the run never reads is a compile error ("declared and not
	// used"); TestVerbsOwnTheirFlags refuses the ways around that (a
	// definition whose result is dropped, or a "_ =" use).
	flags func(fs *flag.FlagSet) verbRun
}

// verbCommand is a command made of verbs ("referee event VERB ...").
type verbCommand struct {
	name   string
	verbs  []verb
	footer string // the last paragraph of the command's usage
}

// usage writes the command's usage: one line per verb.
func (c verbCommand) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: referee %s VERB ...\n", c.name)
	for _, v := range c.verbs {
		fmt.Fprintf(w, "  referee %s %s %s\n", c.name, v.name, v.usage)
	}
	if c.footer != "" {
		fmt.Fprintf(w, "\n%s\n", c.footer)
	}
}

// flagSet returns the verb's own flag set, with its flags defined, and
// the verb's run.
func (c verbCommand) flagSet(v verb, stderr io.Writer) (*flag.FlagSet, verbRun) {
	fs := newFlags(c.name+" "+v.name, v.usage, v.long, stderr)
	return fs, v.flags(fs)
}

// run is "referee CMD VERB ...": it finds the verb, parses the verb's own
// flags (before, between or after its arguments), checks the number of
// arguments and runs the verb.
func (c verbCommand) run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	// The global flags (--db, --address) may come before the verb: main
	// hands "referee --db games.db event list" on as "--db games.db list".
	lead, help := leadingGlobalFlags(args)
	if help || lead == len(args) || strings.HasPrefix(args[lead], "-") {
		c.usage(stderr) // as every command's --help
		if help {
			return exitOK
		}
		return exitUsage
	}
	name, rest := args[lead], append(args[:lead:lead], args[lead+1:]...)
	for _, v := range c.verbs {
		if v.name != name {
			continue
		}
		fs, run := c.flagSet(v, stderr)
		if code, ok := parseFlags(fs, rest); !ok {
			if code == exitUsage {
				c.foreignFlagHint(fs, v, rest, stderr)
			}
			return code
		}
		if fs.NArg() != v.nargs {
			fmt.Fprintf(stderr, "referee %s %s: read %d argument(s) %q; write \"referee %s %s %s\".\n", c.name, v.name, fs.NArg(),
				strings.Join(fs.Args(), " "), c.name, v.name, v.usage)
			return exitUsage
		}
		return run(ctx, fs.Args(), stdout, stderr)
	}
	names := make([]string, len(c.verbs))
	for i, v := range c.verbs {
		names[i] = v.name
	}
	fmt.Fprintf(stderr, "referee %s: %q is not a verb of \"referee %s\"; use one of %s.\n", c.name, name, c.name, strings.Join(names, ", "))
	return exitUsage
}

// foreignFlagHint says, after a flag was refused, which verb of the
// command the flag belongs to ("--casual is a flag of \"referee event
// new\""), for the user who put it on the wrong verb.
func (c verbCommand) foreignFlagHint(fs *flag.FlagSet, v verb, args []string, stderr io.Writer) {
	for _, a := range args {
		if a == "--" {
			return
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if fs.Lookup(name) != nil {
			continue
		}
		for _, o := range c.verbs {
			if o.name == v.name {
				continue
			}
			if ofs, _ := c.flagSet(o, io.Discard); ofs.Lookup(name) != nil {
				fmt.Fprintf(stderr, "\nreferee %s %s: --%s is a flag of \"referee %s %s\", not of %s.\n", c.name, v.name, name, c.name, o.name, v.name)
				return
			}
		}
	}
}

// leadingGlobalFlags returns how many words at the start of args are
// global flags (--db, --address) and their values, and whether a -h or
// --help came first among the flags.
func leadingGlobalFlags(args []string) (n int, help bool) {
	global := globalFlags()
	for n < len(args) && strings.HasPrefix(args[n], "-") && args[n] != "-" && args[n] != "--" {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[n], "-"), "=")
		if name == "h" || name == "help" {
			return n, true
		}
		f := global.Lookup(name)
		if f == nil {
			return n, false
		}
		n++
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			n++ // the flag's value
		}
	}
	return min(n, len(args)), false
}
