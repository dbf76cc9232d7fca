package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSystemdUnitVerifies runs systemd-analyze verify on the shipped unit,
// with ExecStart pointed at an executable that exists here. Any complaint
// (an unknown or misspelt option is only a warning) fails the test.
func TestSystemdUnitVerifies(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("systemd-analyze is not installed, but CI must verify the unit (.ci/run installs systemd)")
		}
		t.Skip("systemd-analyze is not installed")
	}
	unit, err := os.ReadFile(filepath.Join("..", "..", "contrib", "systemd", "referee.service"))
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DynamicUser=yes", "ProtectSystem=strict", "StateDirectory=referee", "NoNewPrivileges=yes",
		"Type=notify", "WatchdogSec=", "RestartPreventExitStatus=2"} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("the unit lacks %s", want)
		}
	}
	dropIn, err := os.ReadFile(filepath.Join("..", "..", "contrib", "systemd", "referee.service.d", "oauth.conf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ExecStart=\n", "--imap-token-cmd", "StateDirectory=referee/oauth", "REFEREE_OAUTH_STATE="} {
		if !strings.Contains(string(dropIn), want) {
			t.Errorf("the OAuth drop-in lacks %q", want)
		}
	}
	// The unit alone, then with the OAuth drop-in beside it (found through
	// SYSTEMD_UNIT_PATH, as in /etc/systemd/system/referee.service.d/).
	dir := t.TempDir()
	path := filepath.Join(dir, "referee.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(unit), "/usr/local/bin/referee", self)), 0o644); err != nil {
		t.Fatal(err)
	}
	verify := func(what string) {
		cmd := exec.Command("systemd-analyze", "verify", path)
		cmd.Env = append(os.Environ(), "SYSTEMD_UNIT_PATH="+dir+":")
		out, err := cmd.CombinedOutput()
		if err != nil || len(strings.TrimSpace(string(out))) > 0 {
			t.Errorf("systemd-analyze verify (%s): %v\n%s", what, err, out)
		}
	}
	verify("the unit")
	if err := os.Mkdir(filepath.Join(dir, "referee.service.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "referee.service.d", "oauth.conf"),
		[]byte(strings.ReplaceAll(string(dropIn), "/usr/local/bin/referee serve", self+" serve")), 0o644); err != nil {
		t.Fatal(err)
	}
	verify("the unit with the OAuth drop-in")
}

// ignoreMatches reports whether path (slash-separated, relative to the
// build context) is excluded by the patterns of a .containerignore, with
// the engines' rules: patterns are anchored at the context's root, "*"
// and "?" stay within one path element, "**" spans any number, a pattern
// that matches a directory excludes everything in it, and "!" re-includes.
func ignoreMatches(patterns []string, path string) bool {
	excluded := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(strings.TrimPrefix(p, "!"), "/")
		p = strings.TrimSuffix(p, "/")
		var re strings.Builder
		re.WriteString("^")
		for i := 0; i < len(p); i++ {
			switch c := p[i]; {
			case c == '*' && i+1 < len(p) && p[i+1] == '*':
				re.WriteString(".*")
				i++
				if i+1 < len(p) && p[i+1] == '/' {
					re.WriteString("/?")
					i++
				}
			case c == '*':
				re.WriteString("[^/]*")
			case c == '?':
				re.WriteString("[^/]")
			default:
				re.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
		re.WriteString("(/.*)?$")
		if regexp.MustCompile(re.String()).MatchString(path) {
			excluded = !neg
		}
	}
	return excluded
}

// TestContainerBuildLeavesSecretsOut: a local database (the players'
// secrets, the signing key), its lock and embedded mailboxes, and .git
// never enter the image's build context, for podman (.containerignore)
// and docker (.dockerignore) alike; the sources still do.
func TestContainerBuildLeavesSecretsOut(t *testing.T) {
	ci, err := os.ReadFile(filepath.Join("..", "..", ".containerignore"))
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.ReadFile(filepath.Join("..", "..", ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	if string(ci) != string(di) {
		t.Error(".dockerignore differs from .containerignore; docker reads the one, podman the other")
	}
	var patterns []string
	for l := range strings.Lines(string(ci)) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	for _, p := range []string{"referee.db", "referee.db-wal", "referee.db-shm", "referee.db.lock", "referee.db.mail/INBOX/1",
		"games/club.db", "games/club.db-wal", "games/club.db.lock", "games/club.db.mail/x", ".git/config", "dkim.pem", "referee"} {
		if !ignoreMatches(patterns, p) {
			t.Errorf("%s would enter the build context", p)
		}
	}
	for _, p := range []string{"go.mod", "go.sum", "cmd/referee/main.go", "scripts/build-static.sh", "schema.sql", "internal/store/schema_3_outbox.sql"} {
		if ignoreMatches(patterns, p) {
			t.Errorf("%s is left out of the build context, but the build needs it", p)
		}
	}
	cf, err := os.ReadFile(filepath.Join("..", "..", "contrib", "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	// /data must exist in the image owned by the user that runs, and USER
	// must come before the volume is used; HEALTHCHECK uses the binary.
	for _, want := range []string{"install -d -m 0700 -o 65532 -g 65532 /out/rootfs/data", "--chown=65532:65532 /out/rootfs/ /", "scripts/check-toolchain.sh", "USER 65532:65532", "HEALTHCHECK", `"health"`, "org.opencontainers.image.licenses"} {
		if !strings.Contains(string(cf), want) {
			t.Errorf("contrib/Containerfile lacks %q", want)
		}
	}
}
