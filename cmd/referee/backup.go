package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"referee/internal/store"
)

func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("backup", "[--db PATH] FILE",
		`Writes a consistent copy of the database to FILE, a new file (it never overwrites one).
It is safe while "referee serve" runs: the copy is the state of one moment, and the
daemon goes on meanwhile. The copy is checked before the command returns.

To restore a backup:
  1. stop "referee serve" (a second one refuses to start while it runs);
  2. move the database aside with its companions: DB, DB-wal and DB-shm
     (keep them until the restored referee works);
  3. copy FILE to the database path: cp FILE DB;
  4. start "referee serve" again.
What happened after the backup is not in it: moves the referee read after it are lost
(their mails were marked done and are not read again; the players must resend them),
and replies it sent after it may be sent again. Back up often, e.g. hourly from cron.`, stderr)
	db := dbFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "referee backup: give exactly one FILE to write the copy to, e.g. referee backup referee-2026-01-31.db")
		return exitUsage
	}
	dest := fs.Arg(0)
	s, code := openStore(ctx, "backup", *db, stderr)
	if s == nil {
		return code
	}
	defer s.Close()
	if err := s.Backup(ctx, dest); err != nil {
		fmt.Fprintf(stderr, "referee backup: %v\n", err)
		if errors.Is(err, store.ErrExists) {
			return exitUsage
		}
		return exitFail
	}
	fmt.Fprintf(stdout, "database %s copied to %s\n", *db, dest)
	return exitOK
}
