package rules

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The perft suites live in testdata/<variant>.perft, one file per variant
// with perft (every variant but Chec Toe, whose moves depend on the die),
// and TestPerftSuites reads them all, as shakmaty does with its .perft
// files. The format, one statement a line; blank lines and lines starting
// with # are comments:
//
//	id <name>              starts a position; the name is free text
//	epd <position string>  the position (docs/rules/chess.md#position-string), read by the variant's ParsePosition
//	perft <depth> <count>  perft of the position at depth must be count (docs/rules/README.md#checking-an-implementation)
//
// A position read from its string starts its own history (repetition
// draws, Toto40's superko look no further back). The position named
// "start" must be the variant's start position. Counts above maxLeaves
// are skipped in short runs and under the race detector.

// perftCase is one position of a suite and its expected counts.
type perftCase struct {
	id     string
	epd    string
	line   int        // of the id, for messages
	counts [][2]int64 // depth, count; in file order
}

// readPerftSuite reads one .perft file.
func readPerftSuite(path string) ([]perftCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []perftCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		val = strings.TrimSpace(val)
		if key == "id" {
			out = append(out, perftCase{id: val, line: n})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s:%d: %q before the first id", path, n, key)
		}
		c := &out[len(out)-1]
		switch key {
		case "epd":
			c.epd = val
		case "perft":
			var depth, count int64
			if _, err := fmt.Sscanf(val, "%d %d", &depth, &count); err != nil {
				return nil, fmt.Errorf("%s:%d: perft wants a depth and a count: %w", path, n, err)
			}
			c.counts = append(c.counts, [2]int64{depth, count})
		default:
			return nil, fmt.Errorf("%s:%d: unknown statement %q (id, epd or perft)", path, n, key)
		}
	}
	return out, sc.Err()
}

// maxLeaves is the largest count a run checks: all of them normally, up
// to 1e5 leaves in short runs and under the race detector (which slows
// perft some tenfold), so the package's tests stay under a minute there.
func maxLeaves() int64 {
	if testing.Short() || raceEnabled {
		return 1e5
	}
	return 1 << 62
}

func TestPerftSuites(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.perft"))
	if err != nil {
		t.Fatal(err)
	}
	suites := map[string][]perftCase{}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".perft")
		cases, err := readPerftSuite(path)
		if err != nil {
			t.Fatal(err)
		}
		suites[name] = cases
	}
	for _, v := range Variants() {
		if _, ok := suites[v.Name()]; !ok && PerftLimit(v) > 0 {
			t.Errorf("%s has perft but no testdata/%s.perft", v.Name(), v.Name())
		}
	}
	for _, name := range slices.Sorted(maps.Keys(suites)) {
		cases := suites[name]
		v, err := Lookup(name)
		if err != nil {
			t.Errorf("testdata/%s.perft: %v", name, err)
			continue
		}
		if len(cases) == 0 {
			t.Errorf("testdata/%s.perft holds no position", name)
		}
		for _, c := range cases {
			t.Run(name+"/"+c.id, func(t *testing.T) {
				p, err := v.ParsePosition(c.epd)
				if err != nil {
					t.Fatalf("testdata/%s.perft:%d: %v", name, c.line, err)
				}
				if c.id == "start" && c.epd != v.Start().String() {
					t.Errorf("the start position is %q, not %q", v.Start(), c.epd)
				}
				if len(c.counts) == 0 {
					t.Errorf("testdata/%s.perft:%d: no perft line", name, c.line)
				}
				for _, dc := range c.counts {
					if dc[1] > maxLeaves() {
						t.Logf("perft(%d) = %d skipped (short run or race detector)", dc[0], dc[1])
						continue
					}
					if got := Perft(p, int(dc[0])); got != dc[1] {
						t.Errorf("perft(%d) = %d, want %d", dc[0], got, dc[1])
					}
				}
			})
		}
	}
}
