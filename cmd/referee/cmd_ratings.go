package main

import (
	"context"
	"fmt"
	"io"
)

func runRatings(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("ratings", "[VARIANT] [--rebuild]",
		"Lists the players' ratings (all variants, or one), best first; \"?\" marks a provisional rating. "+
			"--rebuild recomputes every rating from the game records (docs/ratings.md).", stderr)
	db := dbFlag(fs)
	rebuild := fs.Bool("rebuild", false, "recompute every rating from the game records and report what differed")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 || (*rebuild && fs.NArg() > 0) {
		fmt.Fprintln(stderr, "referee ratings: give at most one VARIANT, and none with --rebuild (it recomputes every variant), e.g. referee ratings chess")
		return exitUsage
	}
	a, code := openExistingApp(ctx, "ratings", *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	if *rebuild {
		rep, err := a.RebuildRatings(ctx)
		if err != nil {
			return failed(stderr, "ratings", err)
		}
		fmt.Fprintf(stdout, "recomputed %d ratings from %d rated games\n", rep.Players, rep.Games)
		for _, d := range rep.Differ {
			fmt.Fprintf(stdout, "differed: %s\n", d)
		}
		if len(rep.Differ) > 0 {
			fmt.Fprintf(stderr, "referee ratings: %d stored ratings were not the record's; the recomputed values are now stored\n", len(rep.Differ))
			return exitFail
		}
		fmt.Fprintf(stdout, "every stored rating matched the record: nothing changed\n")
		return exitOK
	}
	rs, err := a.Ratings(ctx, fs.Arg(0))
	if err != nil {
		return failed(stderr, "ratings", err)
	}
	if len(rs) == 0 {
		fmt.Fprintln(stdout, "no rated games yet")
		return exitOK
	}
	fmt.Fprintf(stdout, "%-11s %-7s %4s %5s %-10s %6s  %s\n", "VARIANT", "RATING", "RD", "GAMES", "W/D/L", "RELIAB", "PLAYER")
	for _, p := range rs {
		fmt.Fprintf(stdout, "%-11s %-7s %4.0f %5d %-10s %5.0f%%  %s\n", p.Variant, p.Rating.String(), p.RD, p.Games,
			fmt.Sprintf("%d/%d/%d", p.Wins, p.Draws, p.Losses), 100*p.Reliability(), p.Address)
	}
	return exitOK
}
