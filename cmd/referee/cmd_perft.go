package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"referee/internal/game"
	"referee/internal/notation"
	"referee/internal/rules"
)

// position sets up --variant, --fen, --moves and --rolls for perft and moves.
func position(name, file, fen, moves, rolls string, stderr io.Writer, cmd string) (rules.Position, bool) {
	v, err := lookupVariant(name, file)
	if err != nil {
		fmt.Fprintf(stderr, "referee %s: --variant: %v\n", cmd, err)
		return nil, false
	}
	start := v.Start()
	if fen != "" {
		if start, err = v.ParsePosition(fen); err != nil {
			fmt.Fprintf(stderr, "referee %s: --fen %q: %v\n", cmd, fen, err)
			return nil, false
		}
	}
	var vals []int
	for i, f := range strings.FieldsFunc(rolls, func(r rune) bool { return r == ' ' || r == ',' }) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > 6 {
			fmt.Fprintf(stderr, "referee %s: --rolls: roll %d is %q, but a die shows 1 to 6\n", cmd, i+1, f)
			return nil, false
		}
		vals = append(vals, n)
	}
	rep, err := game.Play(start, strings.Fields(moves), vals, true)
	if err != nil {
		var me *game.MoveError
		if errors.As(err, &me) {
			fmt.Fprintf(stderr, "referee %s: --moves: move %d %q: %v\n", cmd, me.Index, me.Input, me.Err)
		} else {
			fmt.Fprintf(stderr, "referee %s: --rolls: %v\n", cmd, err)
		}
		return nil, false
	}
	if r, ok := rep.Final.(rules.Roller); ok && r.NeedsRoll() && rolls != "" {
		fmt.Fprintf(stderr, "referee %s: --rolls: the position still waits for a roll; give one more\n", cmd)
		return nil, false
	}
	return rep.Final, true
}

// runPerft counts the legal-move tree. ctx is cancelled on Ctrl-C or
// SIGTERM: the count then stops, says what it had counted, and exits 1.
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("perft", "--variant NAME [--variant-file FILE] --depth N [--moves \"m1 m2 ...\"] [--fen \"...\"] [--divide]",
		"Counts the leaf nodes of the legal-move tree (docs/rules/README.md#checking-an-implementation) and prints the count as the last line.\n"+
			"Depths whose estimated count cannot finish in a few hours are refused. Ctrl-C stops the count\n"+
			"and prints what was counted so far.", stderr)
	variant := fs.String("variant", "chess", "the game")
	variants := variantsFlag(fs)
	depth := fs.Int("depth", 1, "depth in plies")
	moves := fs.String("moves", "", "moves to play first, in any notation the referee reads")
	fen := fs.String("fen", "", "start from this position string instead of the start")
	divide := fs.Bool("divide", false, "print \"move count\" for every root move first")
	progress := fs.Bool("progress", false, "report each root move's count on stderr as it is counted")
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	if *depth < 0 {
		fmt.Fprintf(stderr, "referee perft: --depth %d: give a depth of 0 or more\n", *depth)
		return exitUsage
	}
	p, ok := position(*variant, *variants, *fen, *moves, "", stderr, "perft")
	if !ok {
		return exitUsage
	}
	if _, ok := p.(rules.Roller); ok {
		fmt.Fprintf(stderr, "referee perft: --variant %s: %s has no perft (docs/rules/README.md#checking-an-implementation: its moves depend on the die). "+
			"List the moves after given rolls with \"referee moves --variant %s --rolls ...\" instead.\n", *variant, p.Variant().Title(), p.Variant().Name())
		return exitUsage
	}
	if err := rules.CheckPerftDepth(p, *depth); err != nil {
		var deep *rules.PerftTooDeepError
		if !errors.As(err, &deep) {
			fmt.Fprintf(stderr, "referee perft: --depth %d: %v\n", *depth, err)
		} else if deep.Estimate == 0 {
			fmt.Fprintf(stderr, "referee perft: --depth %d is deeper than perft goes (at most %d). Use --depth %d or less.\n",
				*depth, rules.MaxPerftDepth, deep.Deepest)
		} else {
			fmt.Fprintf(stderr, "referee perft: --depth %d refused: the count would reach about %.1e leaf nodes (estimated from %d moves at depth 1 and %d at depth 2), "+
				"more than the %.0e a %s perft may count in a few hours here. Use --depth %d or less, or split the work: "+
				"list the root moves with --divide --depth 1, then count each with --moves \"MOVE\" --depth %d.\n",
				*depth, deep.Estimate, deep.N1, deep.N2, deep.Limit, deep.Variant, deep.Deepest, *depth-1)
		}
		return exitUsage
	}
	if res := p.Result(); res.Over && *depth > 0 {
		fmt.Fprintf(stderr, "referee perft: note: the game is over in this position (%s), so it has no moves to count.\n", res)
	}
	start := time.Now()
	interrupted := func(counted int64, what string) int {
		fmt.Fprintf(stderr, "referee perft: interrupted after %.1fs: %d leaf nodes counted so far at depth %d%s; this is not the perft count.\n",
			time.Since(start).Seconds(), counted, *depth, what)
		return exitFail
	}
	if *divide || *progress {
		report := func(done, total int, e rules.DivideEntry) {
			if *progress {
				fmt.Fprintf(stderr, "[%d/%d] %s %d (%.1fs)\n", done, total, notation.Coord(p, e.Move), e.Count, time.Since(start).Seconds())
			}
		}
		entries, err := rules.DivideContext(ctx, p, *depth, report)
		lines := make([]string, 0, len(entries))
		var total int64
		complete := 0
		for _, e := range entries {
			total += e.Count
			if !e.Partial {
				complete++
				lines = append(lines, fmt.Sprintf("%s %d", notation.Coord(p, e.Move), e.Count))
			}
		}
		if *depth == 0 {
			total = 1
		}
		if *divide {
			sort.Strings(lines)
			for _, l := range lines {
				fmt.Fprintln(stdout, l)
			}
		}
		if err != nil {
			return interrupted(total, fmt.Sprintf(" (%d of %d root moves complete)", complete, len(p.Legal())))
		}
		fmt.Fprintln(stdout, total)
		return exitOK
	}
	n, err := rules.PerftContext(ctx, p, *depth)
	if err != nil {
		return interrupted(n, "")
	}
	fmt.Fprintln(stdout, n)
	return exitOK
}

func runMoves(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("moves", "--variant NAME [--variant-file FILE] [--moves \"...\"] [--rolls \"...\"] [--fen \"...\"] [--format coord|san]",
		"Prints the legal moves of a position, one per line, sorted.", stderr)
	variant := fs.String("variant", "chess", "the game")
	variants := variantsFlag(fs)
	moves := fs.String("moves", "", "moves to play first")
	rolls := fs.String("rolls", "", "die rolls, in order (Chec Toe): each turn consumes one, a 6 one more, reroll and roll one each")
	fen := fs.String("fen", "", "start from this position string")
	format := fs.String("format", "coord", "coord or san")
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	if *format != "coord" && *format != "san" {
		fmt.Fprintf(stderr, "referee moves: --format %q: use coord or san\n", *format)
		return exitUsage
	}
	p, ok := position(*variant, *variants, *fen, *moves, *rolls, stderr, "moves")
	if !ok {
		return exitUsage
	}
	if res := p.Result(); res.Over {
		fmt.Fprintf(stderr, "referee moves: the game is over in this position (%s), so there are no legal moves: %s\n"+
			"Give fewer --moves (or another --fen) to list the moves of a position before the end.\n", res, p)
		return exitFail
	}
	if r, ok := p.(rules.Roller); ok && r.NeedsRoll() {
		fmt.Fprintln(stderr, "referee moves: the position waits for a die roll; give it with --rolls")
		return exitUsage
	}
	var out []string
	for _, m := range p.Legal() {
		if *format == "san" {
			out = append(out, notation.SAN(p, m))
		} else {
			out = append(out, notation.Coord(p, m))
		}
	}
	sort.Strings(out)
	for _, s := range out {
		fmt.Fprintln(stdout, s)
	}
	return exitOK
}
