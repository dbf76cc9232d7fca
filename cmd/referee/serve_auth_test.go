package main

import (
	"io"
	"strings"
	"testing"
)

// TestRequireAuthModes: --require-auth takes header, dkim or either, alone
// it still means header (its old boolean meaning), and the flags after a
// mode written with a space are not lost (issue 28).
func TestRequireAuthModes(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		env      string // REFEREE_REQUIRE_AUTH
		mode     string
		db, dns  string
		checkErr string // "" when the settings go together
	}{
		{args: nil, mode: ""},
		{args: []string{"--require-auth", "--trusted-authserv", "mx.example.org"}, mode: "header"},
		{args: []string{"--require-auth=true", "--trusted-authserv", "mx.example.org"}, mode: "header"},
		{args: []string{"--require-auth", "dkim", "--db", "x.db"}, mode: "dkim", db: "x.db"},
		{args: []string{"--require-auth=either", "--trusted-authserv", "mx", "--dns", "127.0.0.1:5353"}, mode: "either", dns: "127.0.0.1:5353"},
		{args: []string{"--require-auth", "header"}, mode: "header", checkErr: "needs --trusted-authserv"},
		{args: []string{"--dns", "127.0.0.1"}, mode: "", dns: "127.0.0.1", checkErr: "used only by --require-auth dkim"},
		{args: []string{"--require-auth", "dkim", "--dns", "dns.example.org"}, mode: "dkim", dns: "dns.example.org", checkErr: "not an IP address"},
		{env: "true", args: []string{"--trusted-authserv", "mx"}, mode: "header"},
		{env: "dkim", mode: "dkim"},
	} {
		t.Run(strings.Join(tc.args, " ")+" env="+tc.env, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("REFEREE_REQUIRE_AUTH", tc.env)
			}
			var s serveFlags
			fs := newFlags("serve", "", "", io.Discard)
			s.register(fs)
			if err := fs.Parse(joinAuthMode(tc.args)); err != nil {
				t.Fatal(err)
			}
			if err := applyEnvAndFile(fs, ""); err != nil {
				t.Fatal(err)
			}
			if string(s.auth.mode) != tc.mode || s.auth.dns != tc.dns || (tc.db != "" && s.db != tc.db) || fs.NArg() != 0 {
				t.Errorf("mode %q, dns %q, db %q, args %q; want %q, %q, %q, none", s.auth.mode, s.auth.dns, s.db, fs.Args(), tc.mode, tc.dns, tc.db)
			}
			err := s.auth.check(s.trustedAuthServ)
			if tc.checkErr == "" && err != nil || tc.checkErr != "" && (err == nil || !strings.Contains(err.Error(), tc.checkErr)) {
				t.Errorf("check: %v; want %q", err, tc.checkErr)
			}
		})
	}
	var m authMode
	if err := m.Set("spf"); err == nil || !strings.Contains(err.Error(), "header, dkim or either") {
		t.Errorf("--require-auth spf: %v; want an error naming the modes", err)
	}
}
