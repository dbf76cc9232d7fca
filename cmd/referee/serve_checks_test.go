package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckAddress(t *testing.T) {
	for _, c := range []struct {
		in      string
		wantErr string
	}{
		{"referee@example.org", ""},
		{"Referee@Example.ORG", ""},
		{"referee@example.org # our referee", "not a mail address"},
		{"referee", "not a mail address"},
		{"Referee <referee@example.org>", "bare address (referee@example.org)"},
		{"referee+chess@example.org", "+detail"},
		{"referee@example", "has no dot"},
		{" referee@example.org", "bare address"},
	} {
		err := checkAddress(c.in)
		if (err == nil) != (c.wantErr == "") || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("checkAddress(%q) = %v, want %q", c.in, err, c.wantErr)
		}
	}
}

func TestExampleAddressWarning(t *testing.T) {
	for _, c := range []struct {
		address, imap string
		warn          bool
	}{
		{"referee@example.test", "imap.gmail.com:993", true}, // the default address with a real server
		{"referee@example.org", "mail.club.net:993", true},
		{"referee@club.net", "mail.club.net:993", false},
		{"referee@example.test", "", false},               // embedded
		{"referee@example.test", "127.0.0.1:1143", false}, // a test server
		{"referee@example.test", "imap.example.test:143", false},
	} {
		if got := exampleAddressWarning(c.address, c.imap); (got != "") != c.warn {
			t.Errorf("(%s, %s): %q, want a warning: %v", c.address, c.imap, got, c.warn)
		}
	}
}

func TestPasswordSource(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "p")
	os.WriteFile(file, []byte("from-file\n"), 0o600)
	for _, c := range []struct {
		name                  string
		auth, pass, file, cmd string
		want, wantErr         string
	}{
		{"none", "password", "", "", "", "", ""},
		{"given", "password", "pw", "", "", "pw", ""},
		{"file", "password", "", file, "", "from-file", ""},
		{"command", "password", "", "", "echo from-cmd", "from-cmd", ""},
		{"two ways", "password", "pw", "", "echo x", "", "--imap-pass and --imap-pass-cmd are all set"},
		{"missing file", "password", "", file + ".nope", "", "", "--imap-pass-file " + file + ".nope"},
		{"failing command", "password", "", "", "exit 4", "", "exit status 4"},
		{"oauth with a password", "xoauth2", "", "", "echo x", "", "logs in with a token"},
	} {
		src, err := passwordSource(ctx, "imap", c.auth, c.pass, c.file, c.cmd)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.want == "" {
			if src != nil {
				t.Errorf("%s: a source where none was given", c.name)
			}
			continue
		}
		if p, err := src.Password(ctx); p != c.want || err != nil {
			t.Errorf("%s: %q, %v; want %q", c.name, p, err, c.want)
		}
	}
}

// TestServeRefusesABadAddressAndWarnsOfAnExample: serve stops with a usage
// error on a --address that is not one, and warns when a real --imap is
// used with the example address.
func TestServeRefusesABadAddressAndWarnsOfAnExample(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	code, _, errs := cli(t, "serve", "--once", "--db", db, "--address", "referee@example.org # ours")
	if code != exitUsage || !strings.Contains(errs, "not a mail address") {
		t.Errorf("bad --address: %d %q", code, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the warning comes before any connection
	var out, errb strings.Builder
	run(ctx, []string{"serve", "--once", "--db", db, "--imap", "imap.club.net:993", "--smtp", "smtp.club.net:587", "--imap-pass", "x"}, &out, &errb)
	if !strings.Contains(errb.String(), "is an example address, but --imap imap.club.net:993 is a real server") {
		t.Errorf("no warning for the example address:\n%s", errb.String())
	}
}
