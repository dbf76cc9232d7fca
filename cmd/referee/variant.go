package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"referee/internal/rules"
	"referee/internal/variantfile"
)

// variantsFlag is --variant-file: a file of the club's own variants.
func variantsFlag(fs *flag.FlagSet) *string {
	return fs.String("variant-file", os.Getenv("REFEREE_VARIANT_FILE"), "a `file` of your own variants in variants.ini syntax, whose names --variant may give (env REFEREE_VARIANT_FILE)")
}

// lookupVariant finds name among the variants of file (when given), then
// among the referee's own; a variant of the file that cannot be played
// says why.
func lookupVariant(name, file string) (rules.Variant, error) {
	if file == "" {
		return rules.Lookup(name)
	}
	f, err := readVariantFile(file)
	if err != nil {
		return nil, err
	}
	for _, s := range f.Sections {
		if !strings.EqualFold(s.Name, strings.TrimSpace(name)) { // as rules.Catalog looks names up
			continue
		}
		d, err := f.Lookup(s.Name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		v, err := variantfile.Build(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return v, nil
	}
	v, err := rules.Lookup(name)
	if err != nil {
		var names []string
		for _, s := range f.Sections {
			names = append(names, s.Name)
		}
		return nil, fmt.Errorf("%w; %s defines %s", err, file, strings.Join(names, ", "))
	}
	return v, nil
}

// catalogFromFile is the referee's own variants and the playable ones of
// the variants file at path ("": none).
func catalogFromFile(path string) (*rules.Catalog, error) {
	if path == "" {
		return nil, nil
	}
	f, err := readVariantFile(path)
	if err != nil {
		return nil, err
	}
	vs, _ := f.Variants() // a variant that cannot be played is left out: "referee variant check" says why
	return rules.NewCatalog(vs...)
}

// readVariantFile reads and parses a variants.ini file; an error outside
// any section (a file too large, text before the first section) refuses
// the whole file.
func readVariantFile(path string) (*variantfile.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the variants file: %w", err)
	}
	f := variantfile.Parse(src)
	if len(f.Errors) > 0 {
		return nil, fmt.Errorf("%s: %w", path, errors.Join(f.Errors...))
	}
	return f, nil
}

// runVariant is `referee variant check FILE`: what the referee understood
// of each variant of a variants.ini file, and its perft.
func runVariant(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("variant", "check FILE [--depth N] [--name NAME]",
		"Reads a file of variants in Fairy-Stockfish's variants.ini syntax (README, \"Your own variant\") and says,\n"+
			"for each variant (section), what the referee understood: the board, each piece's moves in words,\n"+
			"the pawns, castling and the rules that end a game, and its perft from the start to --depth;\n"+
			"or why it is refused, with the line. Exits 1 when a variant is refused or cannot be played yet.", stderr)
	depth := fs.Int("depth", 3, "count perft from the start to this depth (0: none)")
	only := fs.String("name", "", "check only this variant of the file")
	limit := fs.Duration("perft-time", time.Minute, "stop a variant's perft after this long")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 || fs.Arg(0) != "check" {
		fmt.Fprintf(stderr, "referee variant: read %q; write: referee variant check FILE (see \"referee variant --help\")\n", strings.Join(fs.Args(), " "))
		return exitUsage
	}
	if *depth < 0 || *depth > 6 {
		fmt.Fprintf(stderr, "referee variant: --depth %d: give 0 to 6\n", *depth)
		return exitUsage
	}
	path := fs.Arg(1)
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "referee variant: %v\n", err)
		return exitUsage
	}
	f := variantfile.Parse(src)
	bad := false
	for _, e := range f.Errors {
		fmt.Fprintf(stdout, "%s: %v\n", path, e)
		bad = true
	}
	seen := 0
	for _, s := range f.Sections {
		if *only != "" && s.Name != *only {
			continue
		}
		seen++
		if !checkSection(ctx, stdout, f, s, *depth, *limit) {
			bad = true
		}
	}
	if *only != "" && seen == 0 {
		fmt.Fprintf(stderr, "referee variant: --name %s: %s has no such variant\n", *only, path)
		return exitUsage
	}
	if seen == 0 && len(f.Errors) == 0 {
		fmt.Fprintf(stdout, "%s: no variant: a variant starts with a line [name] or [name:parent]\n", path)
		bad = true
	}
	if bad {
		return exitFail
	}
	return exitOK
}

// checkSection prints one variant's check and reports whether it can be
// played.
func checkSection(ctx context.Context, w io.Writer, f *variantfile.File, s *variantfile.Section, depth int, limit time.Duration) bool {
	from := ""
	if s.Parent != "" {
		from = ", from " + s.Parent
	}
	d, err := f.Lookup(s.Name)
	if err != nil {
		fmt.Fprintf(w, "[%s] (line %d%s): refused\n", s.Name, s.Line, from)
		for _, l := range strings.Split(unwrapRefusal(err), "\n") {
			fmt.Fprintf(w, "  %s\n", strings.TrimSpace(l))
		}
		fmt.Fprintln(w)
		return false
	}
	v, buildErr := variantfile.Build(d)
	state := "accepted"
	if buildErr != nil {
		state = "understood, but not playable yet"
	}
	fmt.Fprintf(w, "[%s] (line %d%s): %s\n", s.Name, s.Line, from, state)
	for _, l := range d.Describe() {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if buildErr != nil {
		fmt.Fprintln(w, "  Not playable yet:")
		for _, l := range strings.Split(unwrapRefusal(buildErr), "\n") {
			fmt.Fprintf(w, "    %s\n", strings.TrimSpace(l))
		}
		fmt.Fprintln(w)
		return false
	}
	if depth > 0 {
		ctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		var counts []string
		for i := 1; i <= depth; i++ {
			n, err := rules.PerftContext(ctx, v.Start(), i)
			if err != nil {
				counts = append(counts, fmt.Sprintf("depth %d stopped after %s (%d counted)", i, limit, n))
				break
			}
			counts = append(counts, fmt.Sprint(n))
		}
		fmt.Fprintf(w, "  Perft from the start: %s\n", strings.Join(counts, ", "))
	}
	fmt.Fprintln(w)
	return true
}

// unwrapRefusal is an error's text without the "variant X is refused: "
// prefix the section's own header already says.
func unwrapRefusal(err error) string {
	s := err.Error()
	if _, rest, ok := strings.Cut(s, " is refused: "); ok {
		return rest
	}
	if _, rest, ok := strings.Cut(s, " cannot be played yet: "); ok {
		return rest
	}
	return s
}
