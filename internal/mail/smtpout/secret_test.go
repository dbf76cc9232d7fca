package smtpout

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"referee/internal/mail/secret"
)

// TestRotatedPasswordFileNeedsNoRestart: the password was read from its
// file before the organiser rotated it; the server refuses the old one,
// the file is read again and the mail goes out with the new one.
func TestRotatedPasswordFileNeedsNoRestart(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{user: "referee", password: "new"}
	addr := serve(t, rec, "none")
	file := filepath.Join(t.TempDir(), "smtp.pass")
	os.WriteFile(file, []byte("old\n"), 0o600)
	src := secret.File("--smtp-pass-file", file)
	if p, err := src.Password(ctx); err != nil || p != "old" {
		t.Fatalf("first read: %q, %v", p, err)
	}
	os.WriteFile(file, []byte("new\n"), 0o600)
	if err := New(Config{Addr: addr, TLS: "none", User: "referee", Secret: src}).Send(ctx, "r@x.test", []string{"a@x.test"}, raw); err != nil {
		t.Errorf("send after the rotation: %v", err)
	}
	// A password still wrong after reading it again stays a refusal.
	os.WriteFile(file, []byte("wrong\n"), 0o600)
	src = secret.File("--smtp-pass-file", file)
	if err := New(Config{Addr: addr, TLS: "none", User: "referee", Secret: src}).Send(ctx, "r@x.test", []string{"a@x.test"}, raw); err == nil {
		t.Error("a wrong password was accepted")
	}
}
