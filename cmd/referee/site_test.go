package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSiteAndSpectatorCommands: "new --watch-delay/--private",
// "watch-delay" and "site --out" from the command line; bad values are
// refused with exit status 2 and change nothing.
func TestSiteAndSpectatorCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	if code, out, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", "Alice <alice@example.org>", "--black", "bob@example.org", "--watch-delay", "2"); code != 0 || strings.TrimSpace(out) != "1" {
		t.Fatalf("new --watch-delay 2: %d %q %q", code, out, errs)
	}
	if code, _, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", "carol@example.org", "--black", "dan@example.org", "--private"); code != 0 {
		t.Fatalf("new --private: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "watch", "--db", db, "2", "eve@example.org"); code != 2 || !strings.Contains(errs, "private") {
		t.Errorf("watch on a private game: %d %q", code, errs)
	}
	if code, out, errs := cli(t, "watch-delay", "--db", db, "1", "3"); code != 0 || !strings.Contains(out, "3 moves late") {
		t.Errorf("watch-delay 1 3: %d %q %q", code, out, errs)
	}
	if code, _, errs := cli(t, "watch-delay", "--db", db, "1", "8"); code != 2 || !strings.Contains(errs, "between 0 and 7") {
		t.Errorf("watch-delay 1 8: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "site", "--db", db, "--out", filepath.Join(dir, "x"), "--public", "some"); code != 2 || !strings.Contains(errs, "all") {
		t.Errorf("site --public some: %d %q", code, errs)
	}
	out := filepath.Join(dir, "site")
	if code, stdout, errs := cli(t, "site", "--db", db, "--out", out, "--public", "all", "--site-title", "Our club"); code != 0 || !strings.Contains(stdout, "files written") {
		t.Fatalf("site: %d %q %q", code, stdout, errs)
	}
	page, err := os.ReadFile(filepath.Join(out, "game-1.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "al…@example.org") || strings.Contains(string(page), "alice@") || !strings.Contains(string(page), "Our club") {
		t.Errorf("game-1.html:\n%s", page)
	}
	if _, err := os.Stat(filepath.Join(out, "game-2.html")); err == nil {
		t.Error("the private game has a page")
	}
}
