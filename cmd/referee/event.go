package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"referee/internal/app"
	"referee/internal/referee"
	"referee/internal/timecontrol"
)

// eventCommand is "referee event VERB ...": the organiser's tournament
// commands, each verb with its own flags.
func eventCommand() verbCommand {
	return verbCommand{
		name:   "event",
		footer: "Every change is in the audit log. \"referee event VERB --help\" explains one verb.",
		verbs: []verb{
			{"new", "NAME --variant V --format " + referee.FormatNames() + " --time T [--players a,b,c | --open N] [--starts DATE] [--entry known|open|FILE] [--tiebreak wins,sb,direct] [--decider match|black|lot] [--division-size N] [--promote N] [--seasons N] [--team NAME=a,b,c ...] [--fixed-boards] [--seed-by-rating] [--reach N] [--games 1|2] [--max-games N] [--accept-days N] [--idle-weeks N] [--casual] [--min-rating N] [--max-rating N] [--min-reliability PERCENT]",
				"Creates an event. With --players and no --open, its players are fixed and \"event start\" starts it;\n" +
					"with --open N, players join by mail (\"join NAME\") and it starts when N are in, or at --starts.\n" +
					"Its games are rated unless --casual. --min-rating, --max-rating and --min-reliability limit who joins by mail\n" +
					"(rating and reliability in the event's variant; 1500 and 100% for a player without a rated game there);\n" +
					"the players of --players and substitutes (\"event replace\") are not limited.",
				1, eventNew},
			{"list", "", "Lists the events.", 0, eventList},
			{"show", "NAME", "Shows an event's crosstable (recomputed from its games) and its games.", 1, eventShow},
			{"start", "NAME", "Starts every game of a round robin at once, with the FIDE/Berger pairings.", 1, eventStart},
			{"withdraw", "NAME ADDRESS", "Withdraws a player (ICCF's rule: with half their games completed the unfinished ones are lost, otherwise all are annulled).", 2, eventWithdraw},
			{"replace", "NAME OLD NEW", "Hands a player's unfinished games to a substitute, who gets each board with their own reply address.", 3, eventReplace},
			{"close", "NAME", "Closes an event: an open one never starts; a running one has its unfinished games aborted.", 1, eventClose},
			{"approve", "NAME ADDRESS", "A team event: takes ADDRESS, who asked by mail (\"join NAME TEAM\"), into that team on its next board.", 2, eventApprove},
			{"decline", "NAME ADDRESS", "A team event: declines ADDRESS's request to join a team; they are told.", 2, eventDecline},
		},
	}
}

// runEvent is "referee event VERB ...".
func runEvent(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return eventCommand().run(ctx, args, stdout, stderr)
}

// eventApp defines --db and --address, which every event verb reads, and
// returns the function that opens the application with them: a database
// that must exist for a verb that only reads (list, show), else one made
// if missing.
func eventApp(fs *flag.FlagSet, existing bool) appOpener {
	db := dbFlag(fs)
	address := addressFlag(fs)
	name := strings.TrimPrefix(fs.Name(), "referee ")
	var variantFile *string
	if !existing {
		variantFile = variantsFlag(fs) // an event of a club's own variant
	}
	return func(ctx context.Context, stderr io.Writer) (*app.App, int) {
		if existing {
			return openExistingApp(ctx, name, *db, *address, stderr)
		}
		return openAppWithVariants(ctx, *db, *address, *variantFile, stderr)
	}
}

// appOpener opens the application for a verb; on failure the app is nil
// and the int is the exit status (the error already written).
type appOpener func(ctx context.Context, stderr io.Writer) (*app.App, int)

// run is a verb whose body needs the application: opened before the body,
// closed after it.
func (open appOpener) run(body func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int) verbRun {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		a, code := open(ctx, stderr)
		if a == nil {
			return code
		}
		defer a.Close()
		return body(ctx, a, args, stdout, stderr)
	}
}

// eventNew is "referee event new NAME ...": the only verb with the
// event's settings as flags.
func eventNew(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, false)
	variant := fs.String("variant", "", "the game: "+variantNames())
	format := fs.String("format", referee.FormatRR, referee.FormatList())
	timeControl := fs.String("time", "", "time control of every game: "+timecontrol.Syntax+"; "+timecontrol.DaysOffSyntax+`; "none" or nothing for none`)
	players := fs.String("players", "", "the players, comma-separated, seeded in this order")
	openN := fs.Int("open", 0, "take entries by mail until N players are in, then start")
	starts := fs.String("starts", "", "start on this date (2026-12-01 or RFC 3339), at the first tick after it")
	entry := fs.String("entry", "known", "who may join by mail: known (played here or added), open (anyone), or a FILE of addresses")
	tiebreak := fs.String("tiebreak", "wins,sb,direct", "the tie-break chain: wins, sb (Sonneborn-Berger), direct (direct encounter)")
	decider := fs.String("decider", "match", "knockouts: a tied match goes to another match, to the player with more Black wins (black), or to a lot")
	casual := fs.Bool("casual", false, "the event's games are casual (an event is rated unless created --casual)")
	minRating := fs.Float64("min-rating", 0, "who joins by mail needs at least this rating in the event's variant (1500 when unrated; 0: no limit)")
	maxRating := fs.Float64("max-rating", 0, "who joins by mail may have at most this rating in the event's variant (0: no limit)")
	minReliability := fs.Float64("min-reliability", 0, "who joins by mail needs at least this reliability in the variant, in percent (0: no limit)")
	divisionSize := fs.Int("division-size", 0, fmt.Sprintf("a league: at most this many players a division, 3 to 16 (0: %d)", referee.DefaultDivisionSize))
	promote := fs.Int("promote", 0, fmt.Sprintf("a league: how many move up and down between divisions each season (0: %d)", referee.DefaultPromote))
	seasons := fs.Int("seasons", 0, "a league: its number of seasons (0: until \"event close\")")
	var teams teamFlag
	fs.Var(&teams, "team", "a team event: NAME=a,b,c, the team's players (the captain first); once per team")
	reach := fs.Int("reach", 0, fmt.Sprintf("a ladder: a player challenges at most this many places up (0: %d)", referee.DefaultReach))
	ladderGames := fs.Int("games", 0, "a ladder: a challenge's games, 1 or 2 with colours swapped (0: 1)")
	maxGames := fs.Int("max-games", 0, fmt.Sprintf("a ladder: challenges pending or in play per player (0: %d)", referee.DefaultMaxGames))
	acceptDays := fs.Int("accept-days", 0, fmt.Sprintf("a ladder: days to accept a challenge, or lose it (0: %d)", referee.DefaultAcceptDays))
	idleWeeks := fs.Int("idle-weeks", 0, "a ladder: weeks without a game before a drop to the bottom (0: never)")
	seedByRating := fs.Bool("seed-by-rating", false, "order --players by rating in the variant, best first (a knockout's seeds, a league's divisions, a ladder's order)")
	fixedBoards := fs.Bool("fixed-boards", false, "a team event: boards in the order --team lists the players (default: by rating in the variant)")
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		spec := app.EventSpec{Name: args[0], Variant: *variant, Format: *format, TimeControl: *timeControl, Open: *openN,
			Entry: *entry, TieBreak: *tiebreak, Decider: *decider, Casual: *casual,
			DivisionSize: *divisionSize, Promote: *promote, Seasons: *seasons, Teams: teams, FixedBoards: *fixedBoards, SeedByRating: *seedByRating,
			Ladder: referee.LadderSettings{Reach: *reach, Games: *ladderGames, MaxGames: *maxGames, AcceptDays: *acceptDays, IdleWeeks: *idleWeeks},
			Limits: referee.RatingLimits{MinRating: *minRating, MaxRating: *maxRating, MinReliability: *minReliability / 100}}
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
		switch referee.Players(spec.Entry) {
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
			spec.Entry, spec.EntryList = string(referee.PlayersList), list
		}
		a, code := open(ctx, stderr)
		if a == nil {
			return code
		}
		defer a.Close()
		e, err := a.CreateEvent(ctx, spec)
		if err != nil {
			return failed(stderr, "event new", err)
		}
		fmt.Fprintf(stdout, "event %s created: %s\n", e.Name, e.Summary())
		if e.Places == 0 {
			fmt.Fprintf(stdout, "%d players; \"referee event start %s\" starts its games\n", len(e.Players), e.Name)
		}
		return exitOK
	}
}

// eventList is "referee event list".
func eventList(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, true)
	return open.run(func(ctx context.Context, a *app.App, _ []string, stdout, stderr io.Writer) int {
		es, err := a.Events(ctx)
		if err != nil {
			return failed(stderr, "event list", err)
		}
		if len(es) == 0 {
			fmt.Fprintln(stdout, "no events")
		}
		for _, e := range es {
			fmt.Fprintf(stdout, "%-9s %2d players  %s\n", e.Status, len(e.Players), e.Summary())
		}
		return exitOK
	})
}

// eventShow is "referee event show NAME".
func eventShow(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, true)
	return open.run(func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int {
		e, err := a.Event(ctx, args[0])
		if err != nil {
			return failed(stderr, "event show", err)
		}
		fmt.Fprint(stdout, e.StandingsText())
		if e.Limits.Any() {
			fmt.Fprintf(stdout, "\nJoining by mail needs %s in its variant (the organiser's players and substitutes are not limited).\n", e.Limits.Text())
		}
		if reqs, err := a.JoinRequests(ctx, args[0]); err == nil && len(reqs) > 0 {
			fmt.Fprintln(stdout, "\nRequests to join a team (\"referee event approve|decline NAME ADDRESS\"):")
			for _, r := range reqs {
				fmt.Fprintf(stdout, "  %s for team %s, %s\n", r.Address, r.Team, r.At.UTC().Format("2006-01-02 15:04"))
			}
		}
		if len(e.Games) > 0 {
			fmt.Fprintln(stdout, "\nGames:")
			for _, g := range e.Games {
				res := g.Result
				if res == "" {
					res = string(g.Status)
				}
				fmt.Fprintf(stdout, "  %s: #%d  %d-%d  %s\n", e.Rules().Where(nil, g), g.GameID, g.White, g.Black, res)
			}
		}
		return exitOK
	})
}

// eventStart is "referee event start NAME".
func eventStart(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, false)
	return open.run(func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int {
		e, err := a.StartEvent(ctx, args[0])
		if err != nil {
			return failed(stderr, "event start", err)
		}
		fmt.Fprintf(stdout, "event %s started: %d games for %d players; their mails are queued\n", e.Name, len(e.Games), len(e.Players))
		return exitOK
	})
}

// eventWithdraw is "referee event withdraw NAME ADDRESS".
func eventWithdraw(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, false)
	return open.run(func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int {
		kind, err := a.WithdrawFromEvent(ctx, args[0], args[1])
		if err != nil {
			return failed(stderr, "event withdraw", err)
		}
		if kind == referee.WithdrawnLost {
			fmt.Fprintf(stdout, "%s withdrawn from %s after at least half their games: their unfinished games are lost\n", args[1], args[0])
		} else {
			fmt.Fprintf(stdout, "%s withdrawn from %s before half their games: all their games are annulled\n", args[1], args[0])
		}
		return exitOK
	})
}

// eventReplace is "referee event replace NAME OLD NEW".
func eventReplace(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, false)
	return open.run(func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int {
		n, err := a.ReplaceInEvent(ctx, args[0], args[1], args[2])
		if err != nil {
			return failed(stderr, "event replace", err)
		}
		fmt.Fprintf(stdout, "%s takes over %d game(s) of %s in %s; both sides are told\n", args[2], n, args[1], args[0])
		return exitOK
	})
}

// eventClose is "referee event close NAME".
func eventClose(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, false)
	return open.run(func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int {
		if err := a.CloseEvent(ctx, args[0]); err != nil {
			return failed(stderr, "event close", err)
		}
		fmt.Fprintf(stdout, "event %s closed\n", args[0])
		return exitOK
	})
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

// teamFlag is --team NAME=a,b,c, given once per team.
type teamFlag []app.Team

func (f *teamFlag) String() string {
	var out []string
	for _, t := range *f {
		out = append(out, t.Name+"="+strings.Join(t.Players, ","))
	}
	return strings.Join(out, " ")
}

func (f *teamFlag) Set(v string) error {
	name, list, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("%q: write a team as NAME=a,b,c: its name, =, then its players' addresses", v)
	}
	t := app.Team{Name: strings.TrimSpace(name)}
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p != "" {
			t.Players = append(t.Players, p)
		}
	}
	if len(t.Players) == 0 {
		return fmt.Errorf("%q: team %s has no players: NAME=a,b,c", v, t.Name)
	}
	*f = append(*f, t)
	return nil
}

func eventApprove(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, false)
	return open.run(func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int {
		if err := a.DecideJoin(ctx, args[0], args[1], true); err != nil {
			return failed(stderr, "event approve", err)
		}
		fmt.Fprintf(stdout, "event %s: %s approved\n", args[0], args[1])
		return exitOK
	})
}

func eventDecline(fs *flag.FlagSet) verbRun {
	open := eventApp(fs, false)
	return open.run(func(ctx context.Context, a *app.App, args []string, stdout, stderr io.Writer) int {
		if err := a.DecideJoin(ctx, args[0], args[1], false); err != nil {
			return failed(stderr, "event decline", err)
		}
		fmt.Fprintf(stdout, "event %s: %s declined\n", args[0], args[1])
		return exitOK
	})
}
