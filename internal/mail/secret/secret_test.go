package secret

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSources(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "pass")
	os.WriteFile(file, []byte("s3cret\n"), 0o600)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	for _, c := range []struct {
		name    string
		src     *Source
		want    string
		wantErr string
	}{
		{"fixed", Fixed("pw"), "pw", ""},
		{"file", File("--imap-pass-file", file), "s3cret", ""},
		{"missing file", File("--imap-pass-file", filepath.Join(dir, "nope")), "", "--imap-pass-file " + dir},
		{"empty file", File("--smtp-pass-file", empty), "", "the file is empty"},
		// msmtp's passwordeval: the first line of the output.
		{"command", Command("--smtp-pass-cmd", "printf 'from cmd\\nsecond line\\n'"), "from cmd", ""},
		{"command fails", Command("--smtp-pass-cmd", "echo 'vault sealed' >&2; echo $((6*7))pw; exit 3"), "", "exit status 3 (vault sealed)"},
		{"command prints nothing", Command("--imap-pass-cmd", "true"), "", "printed no password"},
	} {
		got, err := c.src.Password(ctx)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: %q, %v; want an error with %q", c.name, got, err, c.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "42pw") {
				t.Errorf("%s: the error holds the command's output: %v", c.name, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestRotatedFileIsReadAfterARefusal: the file is read once, not at every
// login; after the server refuses the password it is read again, and the
// new password is reported as worth trying.
func TestRotatedFileIsReadAfterARefusal(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "pass")
	os.WriteFile(file, []byte("old"), 0o600)
	s := File("--imap-pass-file", file)
	p, _ := s.Password(ctx)
	os.WriteFile(file, []byte("new"), 0o600)
	if again, _ := s.Password(ctx); again != "old" {
		t.Errorf("before a refusal: %q, want the cached old", again)
	}
	if p2, changed, err := s.Refused(ctx, p); err != nil || !changed || p2 != "new" {
		t.Errorf("after a refusal: %q, changed %v, %v; want new, true", p2, changed, err)
	}
	if p3, _ := s.Password(ctx); p3 != "new" {
		t.Errorf("after a refusal, Password = %q, want new", p3)
	}
	if _, changed, _ := s.Refused(ctx, "new"); changed {
		t.Error("the same password refused again is reported as changed")
	}
}
