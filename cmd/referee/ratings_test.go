package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRatingsCommand: the admin's ratings listing, its rebuild, and the
// refusals of bad arguments (new's --rated with --casual included).
func TestRatingsCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	if code, _, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "b@example.org", "--rated"); code != 0 {
		t.Fatalf("new --rated: %d %q", code, errs)
	}
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"ratings", "--db", db}, 0, "no rated games yet", ""},
		{[]string{"ratings", "--db", db, "chess"}, 0, "no rated games yet", ""},
		{[]string{"ratings", "--db", db, "--rebuild"}, 0, "recomputed 0 ratings from 0 rated games\nevery stored rating matched the record: nothing changed\n", ""},
		{[]string{"ratings", "--db", db, "checkers"}, 2, "", "\"checkers\" is not a variant"},
		{[]string{"ratings", "--db", db, "chess", "toto40"}, 2, "", "at most one VARIANT"},
		{[]string{"new", "--db", db, "--variant", "chess", "--white", "a@example.org", "--black", "c@example.org", "--rated", "--casual"}, 2, "", "one or the other"},
	} {
		code, out, errs := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.err) {
			t.Errorf("%q: %d %q %q; want %d, %q, %q", tc.args, code, out, errs, tc.code, tc.out, tc.err)
		}
	}
}
