package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"referee/internal/app"
	"referee/internal/referee"
	"referee/internal/rules"
)

func runPlayer(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("player", "add|remove ADDRESS | list",
		"Manages the known players: who may challenge by mail. \"add\" lets an address challenge whatever\n"+
			"serve's --players says; \"remove\" refuses it, even if it played here before; \"list\" shows both,\n"+
			"and the addresses that answered \"stop\" to an invitation (they get none until they send \"start\").", stderr)
	db := dbFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	verb := fs.Arg(0)
	switch {
	case verb == "list" && fs.NArg() == 1:
	case (verb == "add" || verb == "remove") && fs.NArg() == 2:
	default:
		fmt.Fprintf(stderr, "referee player: read %q; write \"referee player add ADDRESS\", \"referee player remove ADDRESS\" or \"referee player list\".\n",
			strings.Join(fs.Args(), " "))
		return exitUsage
	}
	open := openApp // "add" and "remove" set up a new database, as "new" does
	if verb == "list" {
		open = func(ctx context.Context, db, address string, stderr io.Writer) (*app.App, int) {
			return openExistingApp(ctx, "player list", db, address, stderr)
		}
	}
	a, code := open(ctx, *db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	if verb == "list" {
		ps, err := a.KnownPlayers(ctx)
		if err != nil {
			return failed(stderr, "player", err)
		}
		stopped, err := a.StoppedList(ctx)
		if err != nil {
			return failed(stderr, "player", err)
		}
		if len(ps) == 0 {
			fmt.Fprintln(stdout, "no players added or removed; under --players known, everyone who played a game here may challenge")
		}
		for _, p := range ps {
			state := "added"
			if !p.Allowed {
				state = "removed"
			}
			fmt.Fprintf(stdout, "%-8s %s  %s\n", state, p.Changed.Format("2006-01-02"), p.Address)
		}
		// The stop list: addresses that answered "stop" to an invitation.
		for _, st := range stopped {
			fmt.Fprintf(stdout, "%-8s %s  %s (answered \"stop\" to invitation %d: gets no invitations until it sends \"start\")\n",
				"stopped", st.Since.Format("2006-01-02"), st.Address, st.ChallengeID)
		}
		return exitOK
	}
	mb, err := a.SetPlayer(ctx, fs.Arg(1), verb == "add")
	if err != nil {
		return failed(stderr, "player", err)
	}
	if verb == "add" {
		fmt.Fprintf(stdout, "%s may challenge by mail\n", mb)
	} else {
		fmt.Fprintf(stdout, "%s may no longer challenge by mail, nor take open challenges (its games go on)\n", mb)
	}
	return exitOK
}

// lobbyOptions reads serve's lobby flags: the --players policy (and its
// file), --max-games, --default-time, --variants, --rated and the rating
// limits.
func (s *serveFlags) lobbyOptions() (referee.LobbyConfig, []string, error) {
	lc := referee.LobbyConfig{MaxGames: s.maxGames, DefaultTime: strings.TrimSpace(s.defaultTime), Rated: s.rated,
		MinRating: s.minRating, MaxRating: s.maxRating, MinReliability: s.minReliability / 100}
	var list []string
	switch s.players {
	case "open":
		lc.Players = referee.PlayersOpen
	case "known", "":
		lc.Players = referee.PlayersKnown
	default:
		b, err := os.ReadFile(s.players)
		if err != nil {
			return lc, nil, fmt.Errorf("--players %q is neither open, known nor a readable file of addresses: %w", s.players, err)
		}
		if list, err = app.ReadPlayerList(string(b), s.players); err != nil {
			return lc, nil, fmt.Errorf("--players: %w", err)
		}
		lc.Players = referee.PlayersList
	}
	switch s.observers {
	case referee.ObserversOpen, referee.ObserversKnown, referee.ObserversNone:
		lc.Observers = s.observers
	case "":
		lc.Observers = referee.ObserversKnown
	default:
		return lc, nil, fmt.Errorf("--observers %q is not a policy: give open (anyone may observe by mail), known (players who played here) or none", s.observers)
	}
	if s.maxGames < 1 {
		return lc, nil, fmt.Errorf("--max-games %d: give at least 1 (active games per player)", s.maxGames)
	}
	switch {
	case s.minRating < 0 || s.maxRating < 0:
		return lc, nil, fmt.Errorf("--min-rating %g, --max-rating %g: a rating limit is a positive number (0: none), e.g. --min-rating 1600", s.minRating, s.maxRating)
	case s.maxRating > 0 && s.minRating > s.maxRating:
		return lc, nil, fmt.Errorf("--min-rating %g is above --max-rating %g: no one could play; give a range like --min-rating 1400 --max-rating 1800", s.minRating, s.maxRating)
	case s.minReliability < 0 || s.minReliability > 100:
		return lc, nil, fmt.Errorf("--min-reliability %g: give a percentage from 0 to 100, e.g. --min-reliability 90", s.minReliability)
	}
	if lc.DefaultTime != "" {
		c, err := referee.ParseTimeControl(lc.DefaultTime)
		if err != nil {
			return lc, nil, fmt.Errorf("--default-time: %w", err)
		}
		lc.DefaultTime = c.Control
	}
	if v := strings.TrimSpace(s.variants); v != "" && v != "all" {
		for _, name := range strings.Split(v, ",") {
			rv, err := rules.Lookup(name)
			if err != nil {
				return lc, nil, fmt.Errorf("--variants: %w", err)
			}
			lc.Variants = append(lc.Variants, rv.Name())
		}
	}
	return lc, list, nil
}
