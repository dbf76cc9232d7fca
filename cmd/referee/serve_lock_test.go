package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/internal/store"
)

// TestSecondServeRefused: `serve` (and `serve --once` from cron) refuses to
// run next to a daemon that already serves the database, with exit status 1
// and a message naming the running one's pid, before touching the mailbox.
func TestSecondServeRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	held, err := store.LockDB(db)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	for _, args := range [][]string{
		{"serve", "--once", "--db", db, "--embedded-imap", "127.0.0.1:0", "--embedded-smtp", "127.0.0.1:0"},
		{"serve", "--db", db, "--embedded-imap", "127.0.0.1:0", "--embedded-smtp", "127.0.0.1:0"},
	} {
		// Should the lock not hold, the daemon would run: bound it.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		var outb, errb bytes.Buffer
		code := run(ctx, args, &outb, &errb)
		cancel()
		out, errs := outb.String(), errb.String()
		if code != exitFail {
			t.Errorf("%v: exit %d, want 1; stdout %q stderr %q", args, code, out, errs)
		}
		for _, want := range []string{fmt.Sprintf("pid %d", os.Getpid()), "already serving", db} {
			if !strings.Contains(errs, want) {
				t.Errorf("%v: stderr %q does not say %q", args, errs, want)
			}
		}
	}
}

// TestServeRefusedThroughALink: a second serve reaching the database
// through a hard link or a symlink is refused like one on the same path
// (issue 28: two daemons on one database through a hard link both ran, and
// a move was lost).
func TestServeRefusedThroughALink(t *testing.T) {
	for _, tc := range []struct {
		name string
		link func(old, new string) error
	}{{"hard link", os.Link}, {"symlink", os.Symlink}} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "r.db")
			if code, _, errs := cli(t, "init", "--db", db); code != 0 {
				t.Fatalf("init: %s", errs)
			}
			held, err := store.LockDB(db)
			if err != nil {
				t.Fatal(err)
			}
			defer held.Release()
			other := filepath.Join(t.TempDir(), "other.db")
			if err := tc.link(db, other); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			var outb, errb bytes.Buffer
			code := run(ctx, []string{"serve", "--once", "--db", other, "--embedded-imap", "127.0.0.1:0", "--embedded-smtp", "127.0.0.1:0"}, &outb, &errb)
			if code != exitFail || !strings.Contains(errb.String(), "already serving") || !strings.Contains(errb.String(), fmt.Sprintf("pid %d", os.Getpid())) {
				t.Errorf("serve --db %s (a %s to the locked %s): exit %d, stderr %q; want exit 1, already serving, the holder's pid",
					other, tc.name, db, code, errb.String())
			}
		})
	}
}
