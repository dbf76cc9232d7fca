//go:build unix

package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNewDatabaseIsPrivate: the database holds the players' secrets and the
// signing key, so a new one (and its -wal) is readable by its owner alone,
// whatever the umask.
func TestNewDatabaseIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Update(context.Background(), func(tx *Tx) error { return tx.SetSetting("k", []byte("v")) }); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"r.db", "r.db-wal", "r.db-shm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %o, want 600", name, mode)
		}
	}
	l, err := LockDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if fi, err := os.Stat(path + ".lock"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v, %v; want mode 600", fi.Mode(), err)
	}
}

// TestUnwritableDirectoryIsNamed: a database in a directory the user cannot
// write (a root-owned container volume) fails with the directory and the
// user named, not SQLite's "unable to open database file". As root the
// permission bits mean nothing, so the test runs itself again as nobody.
func TestUnwritableDirectoryIsNamed(t *testing.T) {
	if dir := os.Getenv("REFEREE_TEST_RO_DIR"); dir != "" {
		path := filepath.Join(dir, "referee.db")
		_, err := Open(context.Background(), path)
		if err == nil {
			t.Fatalf("Open(%s) in a read-only directory succeeded", path)
		}
		_, lerr := LockDB(path)
		for _, e := range []error{err, lerr} {
			if e == nil {
				t.Fatalf("LockDB(%s) in a read-only directory succeeded", path)
			}
			msg := e.Error()
			if !strings.Contains(msg, "directory "+dir+" is not writable by ") || !strings.Contains(msg, "uid ") {
				t.Errorf("error does not name the directory and user: %s", msg)
			}
		}
		return
	}
	dir, err := os.MkdirTemp("", "referee-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		t.Setenv("REFEREE_TEST_RO_DIR", dir)
		TestUnwritableDirectoryIsNamed(t)
		return
	}
	// As root: copy the test binary where nobody may run it, and run this
	// test as nobody against a directory owned by root, mode 755.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "store.test")
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestUnwritableDirectoryIsNamed$", "-test.v")
	cmd.Env = append(os.Environ(), "REFEREE_TEST_RO_DIR="+dir)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Errorf("as nobody: %v\n%s", err, out)
	}
}
