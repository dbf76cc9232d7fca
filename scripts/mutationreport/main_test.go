package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `{"go_module":"referee","files":[{"file_name":"glicko2.go","mutations":[
{"type":"ARITHMETIC_BASE","status":"KILLED","line":56,"column":23},
{"type":"ARITHMETIC_BASE","status":"KILLED","line":57,"column":9},
{"type":"ARITHMETIC_BASE","status":"KILLED","line":58,"column":9},
{"type":"CONDITIONALS_BOUNDARY","status":"LIVED","line":113,"column":20},
{"type":"INVERT_NEGATIVES","status":"LIVED","line":120,"column":24},
{"type":"ARITHMETIC_BASE","status":"TIMED OUT","line":119,"column":16},
{"type":"ARITHMETIC_BASE","status":"NOT COVERED","line":31,"column":62}]}]}`

// TestReport: efficacy as gremlins counts it (killed over killed and
// lived), the survivors each marked listed or not, and the exit status.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "internal_rating.json")
	if err := os.WriteFile(f, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		eq     map[mutant]string
		min    float64
		ok     bool
		output []string
	}{
		{"one survivor not listed", map[mutant]string{
			{"internal/rating/glicko2.go:113:20", "CONDITIONALS_BOUNDARY"}: "the loop never runs for τ ≤ 2",
		}, 0, false, []string{
			"internal_rating: efficacy 60.0% (3 killed, 2 lived, 1 of them listed as equivalent: 75.0% less those); 1 timed out, 1 not covered",
			"  equivalent  internal/rating/glicko2.go:113:20 CONDITIONALS_BOUNDARY  (the loop never runs for τ ≤ 2)",
			"  SURVIVED    internal/rating/glicko2.go:120:24 INVERT_NEGATIVES",
		}},
		{"both listed, over the minimum", map[mutant]string{
			{"internal/rating/glicko2.go:113:20", "CONDITIONALS_BOUNDARY"}: "a",
			{"internal/rating/glicko2.go:120:24", "INVERT_NEGATIVES"}:      "b",
		}, 90, true, []string{"(3 killed, 2 lived, 2 of them listed as equivalent: 100.0% less those)"}},
		{"under the minimum", map[mutant]string{
			{"internal/rating/glicko2.go:113:20", "CONDITIONALS_BOUNDARY"}: "a",
			{"internal/rating/glicko2.go:120:24", "INVERT_NEGATIVES"}:      "b",
		}, 100.5, false, []string{"under the minimum of 100%"}},
		{"a stale line", map[mutant]string{
			{"internal/rating/glicko2.go:113:20", "CONDITIONALS_BOUNDARY"}: "a",
			{"internal/rating/glicko2.go:120:24", "INVERT_NEGATIVES"}:      "b",
			{"internal/rating/glicko2.go:57:9", "ARITHMETIC_BASE"}:         "killed now",
			{"internal/event/berger.go:1:1", "ARITHMETIC_BASE"}:            "another package: not judged",
		}, 0, false, []string{"STALE: internal/rating/glicko2.go:57:9 ARITHMETIC_BASE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			ok, err := run(&b, []string{f}, tt.eq, tt.min)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v\n%s", ok, tt.ok, b.String())
			}
			for _, want := range tt.output {
				if !strings.Contains(b.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, b.String())
				}
			}
			if strings.Contains(b.String(), "berger") {
				t.Errorf("a line of a package not run was judged:\n%s", b.String())
			}
		})
	}
}

// TestReadEquivalents: comments and blank lines are skipped, a malformed
// line is refused with its number.
func TestReadEquivalents(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("# comment\n\ninternal/x/a.go:3:4 ARITHMETIC_BASE  why not\n"), 0o644)
	eq, err := readEquivalents(good)
	if err != nil || eq[mutant{"internal/x/a.go:3:4", "ARITHMETIC_BASE"}] != "why not" || len(eq) != 1 {
		t.Fatalf("readEquivalents = %v, %v", eq, err)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("internal/x/a.go:3 ARITHMETIC_BASE why\n"), 0o644)
	if _, err := readEquivalents(bad); err == nil || !strings.Contains(err.Error(), "bad.txt:1") {
		t.Fatalf("a malformed line gave %v", err)
	}
}
