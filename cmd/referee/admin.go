package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"referee/internal/app"
	"referee/internal/dice"
	"referee/internal/game"
	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
	"referee/internal/timecontrol"
)

// newFlags returns a flag set that reports errors instead of exiting, with a
// usage text naming the command.
func newFlags(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("referee "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: referee %s %s\n\n%s\n", name, synopsis, about)
		var has bool
		fs.VisitAll(func(*flag.Flag) { has = true })
		if has {
			fmt.Fprintln(stderr, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args, whose flags may come before, between or after
// the command's arguments ("referee abort 17 --reason x" as well as
// "referee abort --reason x 17"); "--" ends the flags, and everything
// after it is an argument. Afterwards fs.Args() holds the arguments in
// order. Whether a flag takes the next word as its value is the flag's
// own answer (package flag asks its Value's IsBoolFlag), so a new boolean
// flag needs no list kept in step. It returns an exit code and false when
// the caller should stop (help asked, or bad flags).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK, false
			}
			return exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...) // after "--", all arguments
			break
		}
		// Parse stopped at an argument: keep it and read on.
		pos, args = append(pos, rest[0]), rest[1:]
	}
	// Leave the arguments where fs.Args() finds them.
	if err := fs.Parse(append([]string{"--"}, pos...)); err != nil {
		return exitUsage, false
	}
	return exitOK, true
}

// parseFlagsOnly is parseFlags for a command that takes flags and no
// arguments: a stray word is refused rather than ignored.
func parseFlagsOnly(fs *flag.FlagSet, args []string) (int, bool) {
	if code, ok := parseFlags(fs, args); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: read the argument %q, but this command takes flags only (each value goes with its flag); see \"%s --help\".\n",
			fs.Name(), fs.Arg(0), fs.Name())
		return exitUsage, false
	}
	return exitOK, true
}

func dbFlag(fs *flag.FlagSet) *string {
	def := os.Getenv("REFEREE_DB")
	if def == "" {
		def = "referee.db"
	}
	return fs.String("db", def, "SQLite database `path` (env REFEREE_DB)")
}

func addressFlag(fs *flag.FlagSet) *string {
	def := os.Getenv("REFEREE_ADDRESS")
	if def == "" {
		def = "referee@example.test"
	}
	return fs.String("address", def, "the referee's own mail `address`; players reply to plus-addresses of it (env REFEREE_ADDRESS)")
}

// noDatabase says that db does not exist, for the commands that read or
// act on an existing database: they refuse (exit 2: a --db naming no
// database is a bad argument, and nothing changed) rather than create an
// empty one there and report "no games".
func noDatabase(name, db string, stderr io.Writer) bool {
	_, err := os.Stat(db)
	if err == nil {
		return false
	}
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "referee %s: there is no database at %s (nothing was created there); give --db the path \"referee serve\" uses (or set REFEREE_DB), or create one with \"referee init --db %s\"\n", name, db, db)
	} else {
		fmt.Fprintf(stderr, "referee %s: cannot read the database %s: %v\n", name, db, err)
	}
	return true
}

// openStore opens an existing database for the commands that read or
// mend the store directly (status, outbox, backup): a missing database is
// refused (exit 2), never silently created.
func openStore(ctx context.Context, name, db string, stderr io.Writer) (*store.Store, int) {
	if noDatabase(name, db, stderr) {
		return nil, exitUsage
	}
	s, err := store.Open(ctx, db)
	if err != nil {
		fmt.Fprintf(stderr, "referee %s: %v\n", name, err)
		return nil, exitFail
	}
	return s, exitOK
}

// openExistingApp is openApp for the commands that read or act on an
// existing database (list, show, export, key, ...): a missing database is
// refused (exit 2), never silently created.
func openExistingApp(ctx context.Context, name, db, address string, stderr io.Writer) (*app.App, int) {
	if noDatabase(name, db, stderr) {
		return nil, exitUsage
	}
	return openApp(ctx, db, address, stderr)
}

func openApp(ctx context.Context, db, address string, stderr io.Writer) (*app.App, int) {
	return openAppWithVariants(ctx, db, address, "", stderr)
}

// openAppWithVariants is openApp that also reads the organiser's variant
// file (when given): the database keeps its variants from then on.
func openAppWithVariants(ctx context.Context, db, address, variantFile string, stderr io.Writer) (*app.App, int) {
	a, err := app.Open(ctx, app.Options{DB: db, Address: address, VariantsFile: variantFile})
	if err != nil {
		fmt.Fprintf(stderr, "referee: %v\n", err)
		return nil, exitFail
	}
	return a, exitOK
}

func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("init", "[--db PATH]", "Creates the database (or upgrades its schema) and the referee's Ed25519 signing key.", stderr)
	db := dbFlag(fs)
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	a, code := openApp(ctx, *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	fmt.Fprintf(stdout, "database %s is ready; referee key %s\n", *db, a.PublicKeyHex())
	return exitOK
}

func runKey(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("key", "[--db PATH]", "Prints the referee's public Ed25519 key (hex), which signs every die roll.", stderr)
	db := dbFlag(fs)
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	a, code := openExistingApp(ctx, "key", *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	fmt.Fprintln(stdout, a.PublicKeyHex())
	return exitOK
}

func runVariants(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("variants", "[--variant-file FILE]", "Lists the games the referee hosts: name and one line each (with --variant-file, the file's playable variants after them).", stderr)
	variantFile := variantsFlag(fs)
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	cat, err := catalogFromFile(*variantFile)
	if err != nil {
		fmt.Fprintf(stderr, "referee variants: --variant-file: %v\n", err)
		return exitUsage
	}
	for _, v := range cat.Variants() {
		fmt.Fprintf(stdout, "%-12s %s\n", v.Name(), v.Summary())
	}
	return exitOK
}

func runNew(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("new", "--variant NAME [--variant-file FILE] --white ADDR --black ADDR [--time TIME] [--days-off DAYS] [--rated|--casual] [--private] [--watch-delay N] [--seed HEX]",
		"Starts a game, prints its id, and queues the opening mail to both players.", stderr)
	db := dbFlag(fs)
	address := addressFlag(fs)
	variant := fs.String("variant", "", "the game: "+variantNames()+", or one of --variant-file")
	variantFile := variantsFlag(fs)
	white := fs.String("white", "", "White's mail `address`")
	black := fs.String("black", "", "Black's mail `address`")
	seedHex := fs.String("seed", "", "fix the die seed (64 hex digits) — for tests and demos only")
	watchDelay := fs.Int("watch-delay", 0, fmt.Sprintf("spectators (by mail and on the web) see the game this many moves late, 0-%d", referee.MaxWatchDelay))
	private := fs.Bool("private", false, "no one may observe the game, by mail or on the web")
	timeControl := fs.String("time", os.Getenv("REFEREE_DEFAULT_TIME"), "time control: "+timecontrol.Syntax+"; \"none\" for none (default: env REFEREE_DEFAULT_TIME, as serve's --default-time)")
	daysOff := fs.String("days-off", "", "weekdays on which the clocks do not run, e.g. sat,sun (each player's days in their own time zone; at most 3)")
	rated := fs.Bool("rated", false, "the result counts for both players' ratings (docs/ratings.md)")
	casual := fs.Bool("casual", false, "the result counts for no rating (the default)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *rated && *casual {
		fmt.Fprintln(stderr, "referee new: --rated and --casual both given; a game is one or the other: give one of them.")
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "referee new: unexpected argument %q; every value goes with a flag (--variant, --white, --black).\n", fs.Arg(0))
		return exitUsage
	}
	var seed *dice.Seed
	if *seedHex != "" {
		s, err := dice.ParseSeed(*seedHex)
		if err != nil {
			fmt.Fprintf(stderr, "referee new: --seed %q: %v\n", *seedHex, err)
			return exitUsage
		}
		seed = &s
	}
	a, code := openAppWithVariants(ctx, *db, *address, *variantFile, stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	if strings.EqualFold(strings.TrimSpace(*timeControl), "none") {
		*timeControl = ""
	}
	if *daysOff != "" {
		if *timeControl == "" {
			fmt.Fprintf(stderr, "referee new: --days-off %s needs a clock; give --time too, e.g. --time 3d --days-off %s\n", *daysOff, *daysOff)
			return exitUsage
		}
		*timeControl += " off " + *daysOff // the clock's control, e.g. "3d off sat,sun"
	}
	g, err := a.NewGameWith(ctx, *variant, *white, *black, seed, *timeControl, app.GameOptions{Rated: *rated, WatchDelay: *watchDelay, Private: *private})
	if err != nil {
		return failed(stderr, "new", err)
	}
	fmt.Fprintln(stdout, g.ID)
	return exitOK
}

func runList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", "[--status active|finished|aborted] [--limit N]", "Lists games, newest first.", stderr)
	db := dbFlag(fs)
	status := fs.String("status", "", "only games with this status: active, finished or aborted")
	limit := fs.Int("limit", 100, "list at most this many games (0: all)")
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	switch *status {
	case "", "active", "finished", "aborted":
	default:
		fmt.Fprintf(stderr, "referee list: --status %q is not a status; use active, finished or aborted.\n", *status)
		return exitUsage
	}
	a, code := openExistingApp(ctx, "list", *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	games, total, err := a.GameList(ctx, *status, *limit)
	if err != nil {
		fmt.Fprintf(stderr, "referee list: %v\n", err)
		return exitFail
	}
	if len(games) == 0 {
		fmt.Fprintln(stdout, "no games")
		return exitOK
	}
	fmt.Fprintf(stdout, "%-6s %-11s %-9s %-8s %-5s %s\n", "ID", "VARIANT", "STATUS", "RESULT", "PLY", "PLAYERS")
	for _, g := range games {
		res := g.Result
		if res == "" {
			res = "-"
		}
		fmt.Fprintf(stdout, "%-6d %-11s %-9s %-8s %-5d %s - %s\n", g.ID, g.Variant, g.Status, res, g.Ply,
			g.Players[0], g.Players[1])
	}
	if more := total - len(games); more > 0 {
		fmt.Fprintf(stderr, "referee list: %d older games not listed; --limit 0 lists all\n", more)
	}
	return exitOK
}

// gameArg reads the one GAME argument (with or without '#').
func gameArg(fs *flag.FlagSet, stderr io.Writer) (int64, bool) {
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "%s: give exactly one game id (as printed by \"referee new\" or \"referee list\"), e.g. %s 17\n", fs.Name(), fs.Name())
		return 0, false
	}
	raw := strings.TrimPrefix(fs.Arg(0), "#")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "%s: %q is not a game id; game ids are positive numbers like 17 (see \"referee list\").\n", fs.Name(), fs.Arg(0))
		return 0, false
	}
	return id, true
}

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("show", "GAME", "Shows one game: players, state, the board, the move list and whose turn it is.", stderr)
	db := dbFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	id, ok := gameArg(fs, stderr)
	if !ok {
		return exitUsage
	}
	a, code := openExistingApp(ctx, "show", *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	text, err := a.Show(ctx, id)
	if err != nil {
		return failed(stderr, "show", err)
	}
	fmt.Fprint(stdout, text)
	return exitOK
}

func runAbort(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("abort", "GAME --reason TEXT", "Ends a game without a result and queues a notice to both players.", stderr)
	db := dbFlag(fs)
	address := addressFlag(fs)
	reason := fs.String("reason", "", "why the game is aborted (told to both players)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	id, ok := gameArg(fs, stderr)
	if !ok {
		return exitUsage
	}
	if strings.TrimSpace(*reason) == "" {
		fmt.Fprintln(stderr, "referee abort: say why with --reason \"...\"; both players are told.")
		return exitUsage
	}
	a, code := openExistingApp(ctx, "abort", *db, *address, stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	if err := a.Abort(ctx, id, *reason); err != nil {
		return failed(stderr, "abort", err)
	}
	fmt.Fprintf(stdout, "game #%d aborted; both players will be told\n", id)
	return exitOK
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", "GAME | --event NAME", "Prints the game's record: PGN-style tags, the moves in canonical notation, die rolls as comments, the result.\n"+
		"With --event, every game of the event, one after the other, tagged with Event, Round and Board.", stderr)
	db := dbFlag(fs)
	eventName := fs.String("event", "", "export every game of this event as one PGN file")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *eventName != "" {
		return exportEvent(ctx, *db, *eventName, fs.Args(), stdout, stderr)
	}
	id, ok := gameArg(fs, stderr)
	if !ok {
		return exitUsage
	}
	a, code := openExistingApp(ctx, "export", *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	rec, err := a.Export(ctx, id)
	if err != nil {
		return failed(stderr, "export", err)
	}
	if _, err := rec.WriteTo(stdout); err != nil {
		fmt.Fprintf(stderr, "referee export: %v\n", err)
		return exitFail
	}
	return exitOK
}

func readRecord(path string) (*game.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the record: %w", err)
	}
	defer f.Close()
	return game.ParseRecord(f)
}

func runReplay(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", "FILE [--variant-file FILE]", "Re-validates a game record (as written by \"referee export\") move by move and reports the first illegal move, if any.", stderr)
	variants := variantsFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "referee replay: give the record file, e.g. referee replay game17.pgn (\"-\" reads standard input)")
		return exitUsage
	}
	var rec *game.Record
	var err error
	if fs.Arg(0) == "-" {
		rec, err = game.ParseRecord(os.Stdin)
	} else {
		rec, err = readRecord(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "referee replay: %v\n", err)
		return exitUsage
	}
	cat, err := catalogFromFile(*variants)
	if err != nil {
		fmt.Fprintf(stderr, "referee replay: --variants: %v\n", err)
		return exitUsage
	}
	rep, err := app.ReplayRecord(rec, cat)
	if err != nil {
		fmt.Fprintf(stderr, "referee replay: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "%d actions replayed, all legal; final position %s\n", len(rep.Plies), rep.Final.String())
	if res := rep.Final.Result(); res.Over {
		fmt.Fprintf(stdout, "result: %s %s\n", res.Score(), res)
		if want := rec.Result; want != "" && want != "*" && want != res.Score() {
			fmt.Fprintf(stdout, "note: the record says %s\n", want)
		}
	}
	return exitOK
}

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("verify", "GAME | --record FILE", "Recomputes every die roll of a game from its revealed seed, checks the seed against the commitment mailed at the start, and checks the referee's signature on every roll; once a game is over, also checks every revealed conditional-move tree against its commitment (docs/conditional.md).", stderr)
	db := dbFlag(fs)
	record := fs.Bool("record", false, "read an exported record FILE instead of the database (no database needed)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	var rep dice.Report
	if *record {
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, "referee verify --record: give the record file, e.g. referee verify --record game17.pgn")
			return exitUsage
		}
		rec, err := readRecord(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "referee verify: %v\n", err)
			return exitUsage
		}
		r, err := app.VerifyRecord(rec)
		if err != nil {
			fmt.Fprintf(stderr, "referee verify: %v\n", err)
			return exitUsage
		}
		rep = r
	} else {
		id, ok := gameArg(fs, stderr)
		if !ok {
			return exitUsage
		}
		a, code := openExistingApp(ctx, "verify", *db, "", stderr)
		if a == nil {
			return code
		}
		defer a.Close()
		r, err := a.Verify(ctx, id)
		if err != nil {
			fmt.Fprintf(stderr, "referee verify: %v\n", err)
			if errors.Is(err, app.ErrInput) {
				return exitUsage
			}
			return exitFail
		}
		rep = r
	}
	fmt.Fprint(stdout, rep.String())
	if !strings.HasSuffix(rep.String(), "\n") {
		fmt.Fprintln(stdout)
	}
	if !rep.OK() {
		return exitFail
	}
	return exitOK
}

func variantNames() string {
	var names []string
	for _, v := range rules.Variants() {
		names = append(names, v.Name())
	}
	return strings.Join(names, ", ")
}

func runWatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return watch(ctx, "watch", false, args, stdout, stderr)
}

func runUnwatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return watch(ctx, "unwatch", true, args, stdout, stderr)
}

func watch(ctx context.Context, name string, stop bool, args []string, stdout, stderr io.Writer) int {
	about := "Adds a spectator: ADDR receives the board mails of GAME, with no address that could act."
	if stop {
		about = "Removes a spectator of GAME."
	}
	fs := newFlags(name, "GAME ADDR", about, stderr)
	db := dbFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(stderr, "referee %s: give the game and the spectator's address, e.g. referee %s 17 carol@example.org\n", name, name)
		return exitUsage
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(fs.Arg(0), "#"), 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "referee %s: %q is not a game id; game ids are positive numbers like 17\n", name, fs.Arg(0))
		return exitUsage
	}
	a, code := openExistingApp(ctx, name, *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	if err := a.Watch(ctx, id, fs.Arg(1), stop); err != nil {
		return failed(stderr, name, err)
	}
	fmt.Fprintf(stdout, "%s: %s, game #%d\n", name, fs.Arg(1), id)
	return exitOK
}

func runWatchDelay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("watch-delay", "GAME N", fmt.Sprintf("Spectators of GAME (by mail and on the web) see it N moves late (0-%d; 0: at once), as ICCF does.", referee.MaxWatchDelay), stderr)
	db := dbFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "referee watch-delay: give the game and the delay in moves, e.g. referee watch-delay 17 3")
		return exitUsage
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(fs.Arg(0), "#"), 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "referee watch-delay: %q is not a game id; game ids are positive numbers like 17\n", fs.Arg(0))
		return exitUsage
	}
	n, err := strconv.Atoi(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "referee watch-delay: %q is not a number of moves; give 0 to %d\n", fs.Arg(1), referee.MaxWatchDelay)
		return exitUsage
	}
	a, code := openExistingApp(ctx, "watch-delay", *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	if err := a.SetWatchDelay(ctx, id, n); err != nil {
		return failed(stderr, "watch-delay", err)
	}
	fmt.Fprintf(stdout, "watch-delay: game #%d is shown %d moves late\n", id, n)
	return exitOK
}

func runTick(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("tick", "[--db PATH]", "Applies what is due on the clocks: reminders before the limit, losses on time.\nIdempotent; referee serve does this every minute.", stderr)
	db := dbFlag(fs)
	address := addressFlag(fs)
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	a, code := openExistingApp(ctx, "tick", *db, *address, stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	n, err := a.Tick(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "referee tick: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "%d game(s) changed\n", n)
	return exitOK
}

// failed reports err from command name and returns its exit status: 2 when
// the user's input caused it (nothing was changed), 1 otherwise.
func failed(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "referee %s: %v\n", name, err)
	if errors.Is(err, app.ErrInput) {
		return exitUsage
	}
	return exitFail
}
