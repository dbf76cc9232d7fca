package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
)

// prepareFile makes sure the database at path can be opened for writing
// before SQLite tries: its directory exists and is writable by this
// process (SQLite creates the -wal and -shm files beside the database),
// and a new database file is created readable by its owner alone (0600:
// it holds the players' secrets and the referee's signing key; SQLite
// gives the -wal and -shm files the database file's mode). The errors
// name the directory and the user, which SQLite's own "unable to open
// database file" does not.
func prepareFile(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("database path %q: %w", path, err)
	}
	dir := filepath.Dir(abs)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the database %s cannot be created: its directory %s does not exist; create it (mkdir -p %s, owned by %s) or give --db a path in an existing directory", path, dir, dir, currentUser())
	case err != nil:
		return fmt.Errorf("the database %s: reading its directory: %w", path, err)
	case !st.IsDir():
		return fmt.Errorf("the database %s cannot be created: %s is not a directory; give --db a path in a directory", path, dir)
	}
	probe, err := os.CreateTemp(dir, ".referee-write-check-*")
	if err != nil {
		return notWritable(path, dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("the database %s is not writable by %s: %w; make it so (chown or chmod) or give --db another path", path, currentUser(), err)
		}
		return fmt.Errorf("opening the database %s: %w", path, err)
	}
	return f.Close()
}

func notWritable(path, dir string, err error) error {
	return fmt.Errorf("the database %s cannot be written: its directory %s is not writable by %s (%w); "+
		"SQLite needs to create the database and its -wal and -shm files there. Make the directory writable by that user "+
		"(chown; in a container, a volume mounted on /data must belong to the image's user), or give --db a path in a writable directory",
		path, dir, currentUser(), err)
}

// currentUser names the process's user for error messages: "name (uid N)",
// or "uid N" when the name is unknown (as in a container with no passwd
// entry).
func currentUser() string {
	uid := os.Geteuid()
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		return fmt.Sprintf("user %s (uid %d)", u.Username, uid)
	}
	return fmt.Sprintf("uid %d", uid)
}
