package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"referee/internal/app"
	"referee/internal/referee"
)

// playerCommand is "referee player VERB ...": the known players, who may
// challenge by mail.
func playerCommand() verbCommand {
	return verbCommand{
		name: "player",
		footer: "Manages the known players: who may challenge by mail. \"add\" lets an address challenge whatever\n" +
			"serve's --players says; \"remove\" refuses it, even if it played here before; \"list\" shows both,\n" +
			"and the addresses that answered \"stop\" to an invitation (they get none until they send \"start\").",
		verbs: []verb{
			{"add", "ADDRESS", "Lets ADDRESS challenge by mail, whatever serve's --players says (a new database is made if missing, as \"new\" does).", 1, playerAdd},
			{"remove", "ADDRESS", "Refuses ADDRESS's challenges by mail, even if it played here before; its games go on.", 1, playerRemove},
			{"list", "", "Lists the players added and removed, and the addresses that answered \"stop\" to an invitation.", 0, playerList},
		},
	}
}

func runPlayer(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return playerCommand().run(ctx, args, stdout, stderr)
}

// playerAdd is "referee player add ADDRESS".
func playerAdd(fs *flag.FlagSet) verbRun {
	db := dbFlag(fs)
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return setPlayer(ctx, *db, args[0], true, stdout, stderr)
	}
}

// playerRemove is "referee player remove ADDRESS".
func playerRemove(fs *flag.FlagSet) verbRun {
	db := dbFlag(fs)
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		return setPlayer(ctx, *db, args[0], false, stdout, stderr)
	}
}

// setPlayer lets address challenge by mail (allow) or refuses it. Like
// "new", it sets up a new database if db names none.
func setPlayer(ctx context.Context, db, address string, allow bool, stdout, stderr io.Writer) int {
	a, code := openApp(ctx, db, "", stderr)
	if a == nil {
		return code
	}
	defer a.Close()
	mb, err := a.SetPlayer(ctx, address, allow)
	if err != nil {
		return failed(stderr, "player", err)
	}
	if allow {
		fmt.Fprintf(stdout, "%s may challenge by mail\n", mb)
	} else {
		fmt.Fprintf(stdout, "%s may no longer challenge by mail, nor take open challenges (its games go on)\n", mb)
	}
	return exitOK
}

// playerList is "referee player list".
func playerList(fs *flag.FlagSet) verbRun {
	db := dbFlag(fs)
	return func(ctx context.Context, _ []string, stdout, stderr io.Writer) int {
		a, code := openExistingApp(ctx, "player list", *db, "", stderr)
		if a == nil {
			return code
		}
		defer a.Close()
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
		cat, err := catalogFromFile(s.variantFile)
		if err != nil {
			return lc, nil, fmt.Errorf("--variant-file: %w", err)
		}
		for _, name := range strings.Split(v, ",") {
			rv, err := cat.Lookup(name)
			if err != nil {
				return lc, nil, fmt.Errorf("--variants: %w", err)
			}
			lc.Variants = append(lc.Variants, rv.Name())
		}
	}
	return lc, list, nil
}
