package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"referee/internal/app"
	"referee/internal/referee"
)

// eventVerbs are the subcommands of "referee event", in the order of the
// usage text.
var eventVerbs = []struct{ name, synopsis string }{
	{"new", "NAME --variant V --format rr|drr|ko --time T [--players a,b,c | --open N] [--starts DATE] [--entry known|open|FILE] [--tiebreak wins,sb,direct] [--decider match|black|lot] [--casual] [--min-rating N] [--max-rating N] [--min-reliability PERCENT]"},
	{"list", ""},
	{"show", "NAME"},
	{"start", "NAME"},
	{"withdraw", "NAME ADDRESS"},
	{"replace", "NAME OLD NEW"},
	{"close", "NAME"},
}

func eventUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: referee event VERB ...")
	for _, v := range eventVerbs {
		fmt.Fprintf(w, "  referee event %s %s\n", v.name, v.synopsis)
	}
	fmt.Fprintln(w, "\nEvery change is in the audit log. \"referee event VERB --help\" explains one verb.")
}

// runEvent is "referee event VERB ...": the organiser's tournament commands.
func runEvent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			eventUsage(stderr) // as every command's --help
			return exitOK
		}
		eventUsage(stderr)
		return exitUsage
	}
	verb, rest := args[0], args[1:]
	var synopsis string
	for _, v := range eventVerbs {
		if v.name == verb {
			synopsis = v.synopsis
		}
	}
	if synopsis == "" && verb != "list" {
		fmt.Fprintf(stderr, "referee event: %q is not a verb of \"referee event\"; use one of new, list, show, start, withdraw, replace, close.\n", verb)
		return exitUsage
	}
	fs := newFlags("event "+verb, synopsis, eventHelp[verb], stderr)
	db := dbFlag(fs)
	address := addressFlag(fs)
	variant := fs.String("variant", "", "the game: "+variantNames())
	format := fs.String("format", "rr", "rr (round robin), drr (double round robin) or ko (knockout)")
	timeControl := fs.String("time", "", "time control of every game: \"3d\" days per move, or Fischer \"10d+1d\"")
	players := fs.String("players", "", "the players, comma-separated, seeded in this order")
	open := fs.Int("open", 0, "take entries by mail until N players are in, then start")
	starts := fs.String("starts", "", "start on this date (2026-12-01 or RFC 3339), at the first tick after it")
	entry := fs.String("entry", "known", "who may join by mail: known (played here or added), open (anyone), or a FILE of addresses")
	tiebreak := fs.String("tiebreak", "wins,sb,direct", "the tie-break chain: wins, sb (Sonneborn-Berger), direct (direct encounter)")
	decider := fs.String("decider", "match", "knockouts: a tied match goes to another match, to the player with more Black wins (black), or to a lot")
	casual := fs.Bool("casual", false, "the event's games are casual (an event is rated unless created --casual)")
	minRating := fs.Float64("min-rating", 0, "who joins by mail needs at least this rating in the event's variant (1500 when unrated; 0: no limit)")
	maxRating := fs.Float64("max-rating", 0, "who joins by mail may have at most this rating in the event's variant (0: no limit)")
	minReliability := fs.Float64("min-reliability", 0, "who joins by mail needs at least this reliability in the variant, in percent (0: no limit)")
	if code, ok := parseFlags(fs, rest); !ok {
		return code
	}
	want := map[string]int{"new": 1, "list": 0, "show": 1, "start": 1, "withdraw": 2, "replace": 3, "close": 1}[verb]
	if fs.NArg() != want {
		fmt.Fprintf(stderr, "referee event %s: read %d argument(s) %q; write \"referee event %s %s\".\n", verb, fs.NArg(),
			strings.Join(fs.Args(), " "), verb, synopsis)
		return exitUsage
	}
	open_ := openApp
	if verb == "list" || verb == "show" {
		open_ = func(ctx context.Context, db, address string, stderr io.Writer) (*app.App, int) {
			return openExistingApp(ctx, "event "+verb, db, address, stderr)
		}
	}
	spec := app.EventSpec{Name: fs.Arg(0), Variant: *variant, Format: *format, TimeControl: *timeControl, Open: *open,
		Entry: *entry, TieBreak: *tiebreak, Decider: *decider, Casual: *casual,
		Limits: referee.RatingLimits{MinRating: *minRating, MaxRating: *maxRating, MinReliability: *minReliability / 100}}
	if verb == "new" {
		if strings.EqualFold(spec.TimeControl, "none") {
			spec.TimeControl = ""
		}
		for _, p := range strings.Split(*players, ",") {
			if p = strings.TrimSpace(p); p != "" {
				spec.Players = append(spec.Players, p)
			}
		}
		if *starts != "" {
			t, err := parseDate(*starts)
			if err != nil {
				fmt.Fprintf(stderr, "referee event new: --starts %q: write a date as 2026-12-01 or 2026-12-01T18:00:00Z\n", *starts)
				return exitUsage
			}
			spec.Starts = &t
		}
		switch spec.Entry {
		case referee.PlayersKnown, referee.PlayersOpen:
		default:
			raw, err := os.ReadFile(spec.Entry)
			if err != nil {
				fmt.Fprintf(stderr, "referee event new: --entry %q is neither known nor open, and no file of addresses could be read: %v\n", spec.Entry, err)
				return exitUsage
			}
			list, err := app.ReadPlayerList(string(raw), spec.Entry)
			if err != nil {
				return failed(stderr, "event new", err)
			}
			spec.Entry, spec.EntryList = referee.PlayersList, list
		}
	}
	a, code := open_(ctx, *db, *address, stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	name := "event " + verb
	switch verb {
	case "new":
		e, err := a.CreateEvent(ctx, spec)
		if err != nil {
			return failed(stderr, name, err)
		}
		fmt.Fprintf(stdout, "event %s created: %s\n", e.Name, e.Summary())
		if e.Places == 0 {
			fmt.Fprintf(stdout, "%d players; \"referee event start %s\" starts its games\n", len(e.Players), e.Name)
		}
	case "list":
		es, err := a.Events(ctx)
		if err != nil {
			return failed(stderr, name, err)
		}
		if len(es) == 0 {
			fmt.Fprintln(stdout, "no events")
		}
		for _, e := range es {
			fmt.Fprintf(stdout, "%-9s %2d players  %s\n", e.Status, len(e.Players), e.Summary())
		}
	case "show":
		e, err := a.Event(ctx, fs.Arg(0))
		if err != nil {
			return failed(stderr, name, err)
		}
		fmt.Fprint(stdout, e.StandingsText())
		if e.Limits.Any() {
			fmt.Fprintf(stdout, "\nJoining by mail needs %s in its variant (the organiser's players and substitutes are not limited).\n", e.Limits.Text())
		}
		if len(e.Games) > 0 {
			fmt.Fprintln(stdout, "\nGames:")
			for _, g := range e.Games {
				res := g.Result
				if res == "" {
					res = string(g.Status)
				}
				fmt.Fprintf(stdout, "  round %d board %d: #%d  %d-%d  %s\n", g.Round, g.Board, g.GameID, g.White, g.Black, res)
			}
		}
	case "start":
		e, err := a.StartEvent(ctx, fs.Arg(0))
		if err != nil {
			return failed(stderr, name, err)
		}
		fmt.Fprintf(stdout, "event %s started: %d games for %d players; their mails are queued\n", e.Name, len(e.Games), len(e.Players))
	case "withdraw":
		kind, err := a.WithdrawFromEvent(ctx, fs.Arg(0), fs.Arg(1))
		if err != nil {
			return failed(stderr, name, err)
		}
		if kind == referee.WithdrawnLost {
			fmt.Fprintf(stdout, "%s withdrawn from %s after at least half their games: their unfinished games are lost\n", fs.Arg(1), fs.Arg(0))
		} else {
			fmt.Fprintf(stdout, "%s withdrawn from %s before half their games: all their games are annulled\n", fs.Arg(1), fs.Arg(0))
		}
	case "replace":
		n, err := a.ReplaceInEvent(ctx, fs.Arg(0), fs.Arg(1), fs.Arg(2))
		if err != nil {
			return failed(stderr, name, err)
		}
		fmt.Fprintf(stdout, "%s takes over %d game(s) of %s in %s; both sides are told\n", fs.Arg(2), n, fs.Arg(1), fs.Arg(0))
	case "close":
		if err := a.CloseEvent(ctx, fs.Arg(0)); err != nil {
			return failed(stderr, name, err)
		}
		fmt.Fprintf(stdout, "event %s closed\n", fs.Arg(0))
	}
	return exitOK
}

var eventHelp = map[string]string{
	"new": "Creates an event. With --players and no --open, its players are fixed and \"event start\" starts it;\n" +
		"with --open N, players join by mail (\"join NAME\") and it starts when N are in, or at --starts.\n" +
		"Its games are rated unless --casual. --min-rating, --max-rating and --min-reliability limit who joins by mail\n" +
		"(rating and reliability in the event's variant; 1500 and 100% for a player without a rated game there);\n" +
		"the players of --players and substitutes (\"event replace\") are not limited.",
	"list":     "Lists the events.",
	"show":     "Shows an event's crosstable (recomputed from its games) and its games.",
	"start":    "Starts every game of a round robin at once, with the FIDE/Berger pairings.",
	"withdraw": "Withdraws a player (ICCF's rule: with half their games completed the unfinished ones are lost, otherwise all are annulled).",
	"replace":  "Hands a player's unfinished games to a substitute, who gets each board with their own reply address.",
	"close":    "Closes an event: an open one never starts; a running one has its unfinished games aborted.",
}

// parseDate reads a --starts date: a day (midnight UTC) or RFC 3339.
func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

// exportEvent writes every game of an event as one PGN file.
func exportEvent(ctx context.Context, db, name string, rest []string, stdout, stderr io.Writer) int {
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "referee export: --event %s exports every game of the event; drop the argument %q\n", name, rest[0])
		return exitUsage
	}
	a, code := openExistingApp(ctx, "export", db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	recs, err := a.ExportEvent(ctx, name)
	if err != nil {
		return failed(stderr, "export", err)
	}
	for i, rec := range recs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if _, err := rec.WriteTo(stdout); err != nil {
			fmt.Fprintf(stderr, "referee export: %v\n", err)
			return exitFail
		}
	}
	return exitOK
}
