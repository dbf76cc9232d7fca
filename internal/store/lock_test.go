//go:build unix

package store

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOneDaemonPerDatabase: while one holder has the lock of a database, a
// second attempt fails at once with a message naming the holder's pid and
// what to do; once the holder releases it, the next attempt succeeds.
// flock is per open file description, so two locks in one process conflict
// as two processes would.
func TestOneDaemonPerDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "odd ?#% name.db")
	first, err := LockDB(db)
	if err != nil {
		t.Fatalf("first lock: %v", err)
	}
	_, err = LockDB(db)
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second lock while the first is held: %v; want a *LockedError", err)
	}
	if le.PID != os.Getpid() {
		t.Errorf("LockedError.PID = %d, want the holder's pid %d", le.PID, os.Getpid())
	}
	for _, want := range []string{fmt.Sprintf("pid %d", os.Getpid()), db, "kill", "--db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not say %q", err, want)
		}
	}
	// The same database through a symlink is the same lock.
	os.WriteFile(db, nil, 0o644)
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	if _, err := LockDB(link); !errors.As(err, &le) {
		t.Errorf("lock through a symlink while the first is held: %v; want a *LockedError", err)
	}
	// A lock on another database is independent.
	other, err := LockDB(db + "2")
	if err != nil {
		t.Errorf("lock on another database: %v", err)
	}
	other.Release()

	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	second, err := LockDB(db)
	if err != nil {
		t.Fatalf("lock after the holder released it: %v", err)
	}
	defer second.Release()
	if _, err := LockDB(db); !errors.As(err, &le) {
		t.Errorf("the new holder's lock is not exclusive: %v", err)
	}
}

// TestLockEveryPathToTheDatabase: the lock is on the database file, not on
// a name beside it, so a second serve reaching the same file through a hard
// link or a symlink (issue 28: two daemons through a hard link both ran, a
// move was lost) is refused, naming the holder.
func TestLockEveryPathToTheDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		link func(old, new string) error
	}{
		{"hard link", os.Link},
		{"symlink", os.Symlink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "referee.db")
			other := filepath.Join(t.TempDir(), "elsewhere.db")
			if err := os.WriteFile(db, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.link(db, other); err != nil {
				t.Fatal(err)
			}
			held, err := LockDB(other)
			if err != nil {
				t.Fatalf("lock through the %s: %v", tc.name, err)
			}
			defer held.Release()
			var le *LockedError
			if _, err := LockDB(db); !errors.As(err, &le) {
				t.Fatalf("lock on %s while %s (a %s to it) is locked: %v; want a *LockedError", db, other, tc.name, err)
			}
			if le.PID != os.Getpid() {
				t.Errorf("LockedError.PID = %d, want the holder's pid %d", le.PID, os.Getpid())
			}
		})
	}
}

// TestLockReleasedWhenHolderIsKilled: a daemon killed with SIGKILL cleans
// nothing up, yet its lock goes with it, so a restart is never blocked by a
// stale lock file.
func TestLockReleasedWhenHolderIsKilled(t *testing.T) {
	if db := os.Getenv("REFEREE_LOCK_HOLDER"); db != "" {
		// The child: take the lock, say so, and wait to be killed.
		if _, err := LockDB(db); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		select {}
	}
	db := filepath.Join(t.TempDir(), "r.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockReleasedWhenHolderIsKilled$")
	cmd.Env = append(os.Environ(), "REFEREE_LOCK_HOLDER="+db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("the child says %q, %v; want \"locked\"", line, err)
	}
	var le *LockedError
	if _, err := LockDB(db); !errors.As(err, &le) || le.PID != cmd.Process.Pid {
		t.Fatalf("lock while the child holds it: %v; want a *LockedError naming pid %d", err, cmd.Process.Pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	l, err := LockDB(db)
	if err != nil {
		t.Fatalf("lock after the holder was killed: %v", err)
	}
	l.Release()
}
