package imapin_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"referee/internal/mail/imapin"
	"referee/internal/mail/secret"
)

// TestRotatedPasswordFileNeedsNoRestart: the IMAP password was read from
// its file before the organiser rotated it; the server refuses the old
// one, the file is read again and the login succeeds.
func TestRotatedPasswordFileNeedsNoRestart(t *testing.T) {
	ctx := context.Background()
	ts := newServer(t, capsFull)
	ts.appendMsgs(t, "INBOX", 1)
	file := filepath.Join(t.TempDir(), "imap.pass")
	os.WriteFile(file, []byte("old-password\n"), 0o600)
	src := secret.File("--imap-pass-file", file)
	if _, err := src.Password(ctx); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte(password+"\n"), 0o600)
	cfg := ts.cfg()
	cfg.Password, cfg.Secret = "", src
	var n int
	if err := imapin.Once(ctx, cfg, func(context.Context, imapin.Message) error { n++; return nil }); err != nil || n != 1 {
		t.Errorf("after the rotation: %d messages, %v", n, err)
	}
}
