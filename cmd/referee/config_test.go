package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFileMeansWhatItSays: the config file is TOML; a comment after a
// value is a comment, quotes delimit text, and an unknown key or a value of
// the wrong type is refused with its line number.
func TestConfigFileMeansWhatItSays(t *testing.T) {
	for _, c := range []struct {
		name, file string
		check      func(s *serveFlags) bool
		wantErr    []string
	}{
		{"comment after a value", "address = \"referee@example.org\" # our referee\nimap = 'imap.example.org:993'\n",
			func(s *serveFlags) bool {
				return s.address == "referee@example.org" && s.imapAddr == "imap.example.org:993"
			}, nil},
		{"every type", "once = true\nmax-games = 3\npoll = \"90s\"\nsmtp-user = \"x@example.org\"\n",
			func(s *serveFlags) bool {
				return s.once && s.maxGames == 3 && s.poll.Seconds() == 90 && s.smtpUser == "x@example.org"
			}, nil},
		{"unknown key", "address = \"a@example.org\"\n\nimap-usr = \"x\"\n", nil, []string{"line 3", `"imap-usr" is not a setting`}},
		{"number in quotes", "# c\nmax-games = \"10\"\n", nil, []string{"line 2", "max-games", "not a whole number"}},
		{"switch in quotes", "once = \"yes\"\n", nil, []string{"line 1", "once", "true or false"}},
		{"bad duration", "\npoll = \"5 minutes\"\n", nil, []string{"line 2", "not a duration"}},
		{"duration as a number", "poll = 60\n", nil, []string{"line 1", "write it in quotes with its unit"}},
		{"text as a number", "smtp = 587\n", nil, []string{"line 1", "smtp", "not text"}},
		{"a table", "[imap]\nuser = \"x\"\n", nil, []string{"line 1", "imap: a table is not text"}},
		{"malformed", "address = \"unterminated\n", nil, []string{"line 1", "TOML"}},
		{"the old format", "# settings\naddress = referee@example.org # our referee\npoll = 7s\nonce = true\nimap-pass = hunter2\n", nil,
			[]string{"line 2", "old \"name = value\" format", `address = "referee@example.org # our referee"`, `poll = "7s"`, "once = true", "imap-pass = \"...\""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("REFEREE_ADDRESS", "")
			os.Unsetenv("REFEREE_ADDRESS")
			conf := filepath.Join(t.TempDir(), "referee.toml")
			os.WriteFile(conf, []byte(c.file), 0o600)
			var s serveFlags
			fs := newFlags("serve", "", "", os.Stderr)
			s.register(fs)
			err := applyEnvAndFile(fs, conf)
			if c.wantErr == nil {
				if err != nil || !c.check(&s) {
					t.Errorf("%v; settings %+v", err, s)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; settings %+v", s)
			}
			for _, w := range c.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error repeats a password:\n%v", err)
			}
		})
	}
}
