package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupCommand: the copy is a database the other commands read; an
// existing file is refused and left alone; the help explains restoring.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	if code, _, errs := cli(t, "new", "--db", db, "--variant", "chess", "--white", "alice@example.org", "--black", "bob@example.org"); code != 0 {
		t.Fatalf("new: %d %s", code, errs)
	}
	dest := filepath.Join(dir, "copy #1?.db")
	if code, out, errs := cli(t, "backup", "--db", db, dest); code != 0 || !strings.Contains(out, dest) {
		t.Fatalf("backup: %d %q %q", code, out, errs)
	}
	if code, out, errs := cli(t, "list", "--db", dest); code != 0 || !strings.Contains(out, "alice@example.org") {
		t.Errorf("list of the copy: %d %q %q; want the game", code, out, errs)
	}
	before, _ := os.ReadFile(dest)
	if code, _, errs := cli(t, "backup", dest, "--db", db); code != exitUsage || !strings.Contains(errs, "exists already") {
		t.Errorf("backup onto an existing file: exit %d, %q; want 2 and a refusal", code, errs)
	}
	if after, _ := os.ReadFile(dest); string(after) != string(before) {
		t.Errorf("the refused backup changed the existing file")
	}
	if code, _, errs := cli(t, "backup", "--db", filepath.Join(dir, "typo.db"), filepath.Join(dir, "x.db")); code != exitUsage || !strings.Contains(errs, "--db") {
		t.Errorf("backup of a missing database: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); err == nil {
		t.Errorf("backing up a missing database created it")
	}
	if code, _, errs := cli(t, "backup", "--help"); code != 0 || !strings.Contains(errs, "To restore") {
		t.Errorf("backup --help: %d %q; want the restore steps", code, errs)
	}
}
