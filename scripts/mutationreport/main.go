// Command mutationreport reads the JSON reports of gremlins (one per
// package, as scripts/mutation.sh writes them) and prints, per package, the
// test efficacy and every surviving mutant, marking those listed as
// equivalent in the equivalents file with the reason given there.
//
// It exits 1 when a mutant survives that the file does not list, when the
// efficacy of a package is under -min (counting listed equivalent mutants
// as what they are: not a gap in the tests), or when the file lists a
// mutant that no report shows any longer (a stale line: the code moved).
//
// The equivalents file has one mutant a line:
//
//	internal/rating/glicko2.go:113:20 CONDITIONALS_BOUNDARY  why it cannot change behaviour
//
// Blank lines and lines starting with # are ignored.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// report is the part of a gremlins JSON report that is read.
type report struct {
	GoModule string `json:"go_module"`
	Files    []struct {
		Filename  string `json:"file_name"`
		Mutations []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"mutations"`
	} `json:"files"`
}

// mutant is one mutant as the equivalents file names it.
type mutant struct {
	Pos  string // file:line:column, the file relative to the module root
	Type string
}

func (m mutant) String() string { return m.Pos + " " + m.Type }

// tally is one package's outcome.
type tally struct {
	Killed, Lived, Equivalent, TimedOut, NotCovered int
	Survivors                                       []mutant
}

// Efficacy is killed over killed and lived, as gremlins counts it.
func (t tally) Efficacy() float64 { return pct(t.Killed, t.Killed+t.Lived) }

// EfficacyLessEquivalent leaves out the mutants listed as equivalent.
func (t tally) EfficacyLessEquivalent() float64 {
	return pct(t.Killed, t.Killed+t.Lived-t.Equivalent)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func main() {
	eqPath := flag.String("equivalent", "scripts/mutation-equivalent.txt", "the file of mutants known to be equivalent")
	minEff := flag.Float64("min", 0, "fail when a package's efficacy, less its equivalent mutants, is under this percentage")
	flag.Parse()
	eq, err := readEquivalents(*eqPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutationreport:", err)
		os.Exit(2)
	}
	ok, err := run(os.Stdout, flag.Args(), eq, *minEff)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutationreport:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// run prints the report of each JSON file and says whether all is well.
func run(w io.Writer, files []string, eq map[mutant]string, minEff float64) (bool, error) {
	ok := true
	seen := map[mutant]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return false, fmt.Errorf("reading a gremlins report: %w", err)
		}
		var r report
		if err := json.Unmarshal(b, &r); err != nil {
			return false, fmt.Errorf("%s is not a gremlins JSON report: %w", f, err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t := count(r, packageDir(name), eq, seen)
		fmt.Fprintf(w, "%s: efficacy %.1f%% (%d killed, %d lived, %d of them listed as equivalent: %.1f%% less those); %d timed out, %d not covered\n",
			name, t.Efficacy(), t.Killed, t.Lived, t.Equivalent, t.EfficacyLessEquivalent(), t.TimedOut, t.NotCovered)
		for _, m := range t.Survivors {
			if why, listed := eq[m]; listed {
				fmt.Fprintf(w, "  equivalent  %s  (%s)\n", m, why)
			} else {
				fmt.Fprintf(w, "  SURVIVED    %s\n", m)
				ok = false
			}
		}
		if minEff > 0 && t.EfficacyLessEquivalent() < minEff {
			fmt.Fprintf(w, "  under the minimum of %.0f%%\n", minEff)
			ok = false
		}
	}
	var stale []string
	for m := range eq {
		if !seen[m] && reported(files, m) {
			stale = append(stale, m.String())
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		fmt.Fprintf(w, "STALE: %s is listed as equivalent but no longer survives there (the code moved or a test kills it): update the list\n", s)
		ok = false
	}
	return ok, nil
}

// reported says whether m's file belongs to a package among the reports
// read, so that a run on one package does not call the others' lines stale.
func reported(files []string, m mutant) bool {
	dir := filepath.Dir(strings.SplitN(m.Pos, ":", 2)[0])
	for _, f := range files {
		if packageDir(strings.TrimSuffix(filepath.Base(f), ".json")) == dir {
			return true
		}
	}
	return false
}

// packageDir is the package folder a report is named after:
// "internal_mail_reader" for internal/mail/reader (scripts/mutation.sh
// names them so; no folder of the module has an underscore).
func packageDir(report string) string { return strings.ReplaceAll(report, "_", "/") }

// count tallies one package's report; gremlins names each file relative
// to the package's folder dir, or to the module.
func count(r report, dir string, eq map[mutant]string, seen map[mutant]bool) tally {
	var t tally
	for _, f := range r.Files {
		file := strings.TrimPrefix(strings.TrimPrefix(f.Filename, r.GoModule), "/")
		if !strings.Contains(file, "/") {
			file = dir + "/" + file
		}
		for _, mu := range f.Mutations {
			m := mutant{Pos: fmt.Sprintf("%s:%d:%d", file, mu.Line, mu.Column), Type: mu.Type}
			switch mu.Status {
			case "KILLED":
				t.Killed++
			case "LIVED":
				t.Lived++
				if _, ok := eq[m]; ok {
					t.Equivalent++
					seen[m] = true
				}
				t.Survivors = append(t.Survivors, m)
			case "TIMED OUT":
				t.TimedOut++
			case "NOT COVERED":
				t.NotCovered++
			}
		}
	}
	sort.Slice(t.Survivors, func(i, j int) bool { return t.Survivors[i].Pos < t.Survivors[j].Pos })
	return t
}

// readEquivalents reads the equivalents file.
func readEquivalents(path string) (map[mutant]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the equivalent mutants: %w", err)
	}
	defer f.Close()
	eq := map[mutant]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 || strings.Count(fields[0], ":") != 2 {
			return nil, fmt.Errorf("%s:%d: %q is not \"FILE:LINE:COLUMN TYPE why\"", path, n, line)
		}
		eq[mutant{Pos: fields[0], Type: fields[1]}] = strings.Join(fields[2:], " ")
	}
	return eq, sc.Err()
}
