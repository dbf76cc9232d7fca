//go:build unix

package store

import (
	"bufio"
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
// database file itself, so every path to that file (a symlink, a hard
// link, another relative path, a bind mount) meets the same lock; the
// kernel releases it when the process ends, however it ends (even kill
// -9), so nothing stale ever blocks a restart. The file "<db>.lock" beside
// the path it was taken through records the holder's process id, for the
// message the next one gets; it is information only.
//
// SQLite locks the same file with fcntl(2) byte-range locks, which Linux
// keeps apart from flock(2) locks. Closing any descriptor of a file drops
// the process's fcntl locks on it, so Release must come after the database
// is closed (serve defers it first, so it runs last).
type Lock struct {
	f    *os.File
	path string
}

// LockedError says that another process holds the lock.
type LockedError struct {
	DB   string // the database path
	Path string // the file locked: the database itself, through DB
	PID  int    // the holder's process id, 0 if it could not be found
}

func (e *LockedError) Error() string {
	who := "another referee"
	stop := "stop it first"
	if e.PID > 0 {
		who = fmt.Sprintf("another referee (pid %d)", e.PID)
		stop = fmt.Sprintf("stop it first (kill %d)", e.PID)
	}
	return fmt.Sprintf("%s is already serving the database %s (it holds the lock on that file, "+
		"whichever path or link it was opened by); two daemons on one database would send every reply twice. "+
		"Use the running one, %s, or give this one another --db", who, e.DB, stop)
}

// LockDB takes the exclusive lock of the database at db, without waiting,
// creating an empty database file if there is none (SQLite reads an empty
// file as an empty database). When another process holds it, the error is
// a *LockedError naming that process.
func LockDB(db string) (*Lock, error) {
	f, err := os.OpenFile(db, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, os.ErrPermission) {
		return nil, notWritable(db, filepath.Dir(db), err)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the database %s to lock it: %w (serve needs to read and write it)", db, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	pidFile := pidPath(db)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		pid := holderPID(f)
		if pid == 0 {
			pid = readPID(pidFile)
		}
		f.Close()
		return nil, &LockedError{DB: db, Path: db, PID: pid}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking the database %s: %w", db, err)
	}
	// Ours now: record who holds it, for the message the next one gets
	// when /proc/locks cannot say. Best effort: the lock is the flock.
	_ = os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600)
	return &Lock{f: f, path: db}, nil
}

// pidPath is the file beside db (its symlinks resolved) that records the
// holder's pid.
func pidPath(db string) string {
	real := db
	if r, err := filepath.EvalSymlinks(db); err == nil {
		real = r
	}
	return real + ".lock"
}

// holderPID finds the process holding an flock on f's file in /proc/locks
// (Linux), by device and inode, so that it is found whichever path the
// holder used; 0 when it cannot be read.
func holderPID(f *os.File) int {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer locks.Close()
	// "1: FLOCK  ADVISORY  WRITE 21319 fe:00:9980472 0 EOF"
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" {
			continue
		}
		id := strings.Split(fields[5], ":")
		if len(id) != 3 {
			continue
		}
		maj, err1 := strconv.ParseUint(id[0], 16, 32)
		min, err2 := strconv.ParseUint(id[1], 16, 32)
		ino, err3 := strconv.ParseUint(id[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || ino != uint64(st.Ino) || !sameDev(uint64(st.Dev), maj, min) {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}

// sameDev compares a stat device number with /proc/locks' major and minor
// (Linux's encoding of dev_t).
func sameDev(dev, maj, min uint64) bool {
	gotMaj := (dev>>8)&0xfff | (dev>>32)&^0xfff
	gotMin := dev&0xff | (dev>>12)&^0xff
	return gotMaj == maj && gotMin == min
}

// readPID reads a holder's pid from a pid file; 0 if there is none.
func readPID(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 32))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Release releases the lock; call it after the database is closed (see
// Lock). The pid file stays: it is information only.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	if err != nil {
		return fmt.Errorf("releasing the lock on %s: %w", l.path, err)
	}
	return nil
}
