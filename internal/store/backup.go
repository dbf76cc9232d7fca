package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
)

// ErrExists is wrapped by Backup when the destination exists already.
var ErrExists = errors.New("the file exists already")

// Backup writes a consistent copy of the database to the new file dest: a
// snapshot of one moment, taken while other connections (a running daemon)
// go on writing. It never overwrites: when dest exists, the error wraps
// ErrExists. The copy is checked (PRAGMA quick_check) before Backup
// returns; on any failure no file is left at dest.
func (s *Store) Backup(ctx context.Context, dest string) (err error) {
	// Creating the file exclusively first closes the race between a check
	// and the copy; VACUUM INTO accepts an empty file.
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("backup to %s: %w; choose a new file name (a backup never overwrites)", dest, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	f.Close()
	defer func() {
		if err != nil {
			os.Remove(dest)
		}
	}()
	// ATTACH, which VACUUM INTO uses, reads the name as a URI here.
	uri, err := fileURI(dest, url.Values{})
	if err != nil {
		return err
	}
	// VACUUM INTO reads the database in one read transaction: the copy
	// is one moment's state, whatever is written meanwhile.
	if _, err := s.db.ExecContext(ctx, `VACUUM INTO ?`, uri); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	c, err := Open(ctx, dest)
	if err != nil {
		return fmt.Errorf("backup to %s: the copy does not open: %w", dest, err)
	}
	defer c.Close()
	var verdict string
	if err := c.db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&verdict); err != nil {
		return fmt.Errorf("backup to %s: checking the copy: %w", dest, err)
	}
	if verdict != "ok" {
		return fmt.Errorf("backup to %s: the copy fails its check (%s); the database itself may be damaged: run \"sqlite3 DB 'PRAGMA integrity_check'\"", dest, verdict)
	}
	return nil
}
