package store

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestOpenUsesThePathAsGiven: --db is a file path, never a URI. Characters
// that mean something in a file: URI (?, #, %, spaces) or lie outside ASCII
// must name exactly that file on disk, and opening it again must find the
// same data.
func TestOpenUsesThePathAsGiven(t *testing.T) {
	names := []string{
		"plain.db",
		"with space.db",
		"what?mode=memory.db",
		"hash#frag.db",
		"percent%41.db",       // %41 is "A" when decoded: must stay literal
		"percent%zz.db",       // not even a valid escape
		"amp&x=1;y.db",        // query-like characters
		"plus+sign.db",        // '+' is a space in query encoding
		"ünïcødé 棋.db",        // non-ASCII
		"dir with?# odd/x.db", // awkward directory too
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("Open(%q): %v", path, err)
			}
			if err := s.Update(ctx, func(tx *Tx) error { return tx.SetSetting("marker", []byte(name)) }); err != nil {
				t.Fatal(err)
			}
			s.Close()
			if _, err := os.Stat(path); err != nil {
				t.Errorf("the database %q is not on disk: %v; files: %v", path, err, files(t, dir))
			}
			for _, f := range files(t, dir) {
				base := strings.TrimSuffix(strings.TrimSuffix(f, "-wal"), "-shm")
				if base != filepath.ToSlash(name) && !strings.HasPrefix(filepath.ToSlash(name), f+"/") {
					t.Errorf("opening %q created %q, which is not the named file", name, f)
				}
			}
			s2, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			if v, err := s2.Setting(ctx, "marker"); err != nil || string(v) != name {
				t.Errorf("reopening %q: marker = %q, %v; want %q", name, v, err, name)
			}
		})
	}
}

// TestOpenRelativePath: a relative path is relative to the working
// directory, whatever characters it holds.
func TestOpenRelativePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	s, err := Open(context.Background(), "rel ?#%.db")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, "rel ?#%.db")); err != nil {
		t.Errorf("relative database not where named: %v; files: %v", err, files(t, dir))
	}
}

// files lists every file under dir, relative to it, with slashes.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
