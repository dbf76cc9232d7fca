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
	for _, want := range []string{"DynamicUser=yes", "ProtectSystem=strict", "StateDirectory=referee", "NoNewPrivileges=yes"} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("the unit lacks %s", want)
		}
	}
	path := filepath.Join(t.TempDir(), "referee.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(unit), "/usr/local/bin/referee", self)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("systemd-analyze", "verify", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
