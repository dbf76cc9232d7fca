package main

import (
	"os"
	"os/exec"
	"path/filepath"
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
