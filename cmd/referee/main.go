// Command referee is a play-by-email referee for chess variants: a daemon
// (`referee serve`) that reads moves from a mailbox and answers with the new
// board, and an admin command line on the same binary.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand of the referee binary.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// Exit statuses shared by every subcommand.
const (
	exitOK    = 0 // done
	exitFail  = 1 // a runtime failure (database, network, ...)
	exitUsage = 2 // bad arguments or input; nothing was changed
)

func commands() []command {
	plain := func(f func(args []string, stdout, stderr io.Writer) int) func(context.Context, []string, io.Writer, io.Writer) int {
		return func(_ context.Context, args []string, stdout, stderr io.Writer) int { return f(args, stdout, stderr) }
	}
	return []command{
		{"serve", "run the referee daemon against a mailbox (an embedded one by default)", runServe},
		{"demo", "play a short scripted game through the embedded mail server and print it", runDemo},
		{"init", "create the database and the referee's signing key", runInit},
		{"new", "start a game and mail both players", runNew},
		{"list", "list games", runList},
		{"show", "show one game: players, board, moves, whose turn", runShow},
		{"abort", "end a game without a result and tell both players", runAbort},
		{"export", "print a game's record (PGN-style, with die rolls)", runExport},
		{"replay", "re-validate a game record move by move", runReplay},
		{"ratings", "list the players' ratings per variant; --rebuild recomputes them", runRatings},
		{"verify", "check a game's die rolls against the commitment and signatures", runVerify},
		{"key", "print the referee's public signing key", runKey},
		{"watch", "add a spectator to a game", runWatch},
		{"unwatch", "remove a spectator", runUnwatch},
		{"watch-delay", "show a game to spectators some moves late", runWatchDelay},
		{"site", "write the public game pages as static files", runSite},
		{"player", "add, remove or list the players who may challenge by mail", runPlayer},
		{"event", "run tournaments: new, list, show, start, withdraw, replace, close", runEvent},
		{"tick", "send due reminders and apply losses on time", runTick},
		{"outbox", "show the mail still to deliver; retry or drop a mail", runOutbox},
		{"backup", "write a consistent copy of the database, even while serve runs", runBackup},
		{"inspect", "show how the referee reads one mail (JSON), changing nothing", runInspect},
		{"variants", "list the games the referee hosts", runVariants},
		{"variant", "check a file of your own variants (variants.ini syntax)", runVariant},
		{"perft", "count the leaf nodes of the legal-move tree", runPerft},
		{"moves", "list the legal moves of a position", plain(runMoves)},
		{"status", "show games, mail, the outbox and the last server contacts", runStatus},
		{"dkim-keygen", "make a DKIM key for outgoing mail and print its DNS record", runDKIMKeygen},
		{"health", "ask a running serve whether it is alive (/healthz) or ready (/readyz)", runHealth},
		{"version", "print the referee's version", runVersion},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	// "referee --db games.db show 2" is "referee show 2 --db games.db".
	global, name, rest, err := splitCommand(args)
	if errors.Is(err, errHelp) || (err == nil && name == "help") {
		usage(stdout, cmds)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "referee: %v\n", err)
		return exitUsage
	}
	for _, c := range cmds {
		if c.name == name {
			return c.run(ctx, append(global[:len(global):len(global)], rest...), stdout, stderr)
		}
	}
	names := make([]string, 0, len(cmds))
	for _, c := range cmds {
		names = append(names, c.name)
	}
	sort.Strings(names)
	fmt.Fprintf(stderr, "referee: unknown command %q. Commands: %s. Run \"referee help\" for a summary.\n",
		name, strings.Join(names, ", "))
	return exitUsage
}

func usage(w io.Writer, cmds []command) {
	fmt.Fprintln(w, "referee: a play-by-email referee for chess variants.")
	fmt.Fprintln(w, "\nUsage: referee [--db PATH] [--address ADDR] COMMAND [arguments and flags, in any order]\n       (referee COMMAND --help for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
}
