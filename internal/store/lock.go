//go:build unix

package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Lock is an exclusive lock on a database, held by one process at a time:
// the daemon holds it for as long as it runs, so that two daemons never
// serve (and send the replies of) one database. It is an flock(2) on the
// file "<db>.lock", which holds the holder's process id; the kernel
// releases it when the process ends, however it ends (even kill -9), so a
// stale lock file never blocks a restart.
type Lock struct {
	f    *os.File
	path string
}

// LockedError says that another process holds the lock.
type LockedError struct {
	DB   string // the database path
	Path string // the lock file
	PID  int    // the holder's process id, 0 if it could not be read
}

func (e *LockedError) Error() string {
	who := "another referee"
	stop := "stop it first"
	if e.PID > 0 {
		who = fmt.Sprintf("another referee (pid %d)", e.PID)
		stop = fmt.Sprintf("stop it first (kill %d)", e.PID)
	}
	return fmt.Sprintf("%s is already serving the database %s (it holds the lock %s); "+
		"two daemons on one database would send every reply twice. Use the running one, %s, "+
		"or give this one another --db", who, e.DB, e.Path, stop)
}

// LockDB takes the exclusive lock of the database at db, without waiting.
// When another process holds it, the error is a *LockedError naming that
// process.
func LockDB(db string) (*Lock, error) {
	// One lock per database file, however it is named: through a symlink
	// or another relative path, the lock is the same.
	real := db
	if r, err := filepath.EvalSymlinks(db); err == nil {
		real = r
	} else if d, err := filepath.EvalSymlinks(filepath.Dir(db)); err == nil {
		real = filepath.Join(d, filepath.Base(db)) // not created yet
	}
	path := real + ".lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, os.ErrPermission) {
		return nil, notWritable(db, filepath.Dir(path), err)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the lock file %s of database %s: %w (the lock file sits beside the database, so its directory must be writable)", path, db, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		pid := readPID(f)
		f.Close()
		return nil, &LockedError{DB: db, Path: path, PID: pid}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// Ours now: record who holds it, for the message the next one gets.
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing the lock file %s: %w", path, err)
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing the lock file %s: %w", path, err)
	}
	return &Lock{f: f, path: path}, nil
}

// readPID reads the holder's pid from the lock file; 0 if there is none
// (the holder may not have written it yet).
func readPID(f *os.File) int {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 32))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Release releases the lock. The file stays: removing it would let a
// third process lock a new file while a second still waits on the old one.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	if err != nil {
		return fmt.Errorf("releasing the lock %s: %w", l.path, err)
	}
	return nil
}
