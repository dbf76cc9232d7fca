package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestToolchainPinned (issue 38): the binary built with Go 1.26.8 carried
// 13 known vulnerabilities of the standard library; go.mod pins a patched
// toolchain, and scripts/check-toolchain.sh (run by scripts/release.sh and
// the Containerfile) refuses an older Go and accepts the pinned one or a
// newer one.
func TestToolchainPinned(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^toolchain go(1\.(\d+)\.(\d+))$`).FindStringSubmatch(string(mod))
	if m == nil {
		t.Fatal("go.mod has no toolchain line")
	}
	minor, _ := strconv.Atoi(m[2])
	patch, _ := strconv.Atoi(m[3])
	if minor < 26 || minor == 26 && patch < 10 {
		t.Errorf("go.mod pins go%s; the security fixes of issue 38 came in go1.26.10", m[1])
	}
	pinned := "go" + m[1]
	for _, c := range []struct {
		have string
		ok   bool
	}{
		{"go1.26.8", false}, // the release that shipped the vulnerabilities
		{"go1.26.9", false},
		{"go1.25.12", false},
		{pinned, true},
		{"go1.26.11", true},
		{"go1.27.0", true},
	} {
		// A go command that answers only "go env GOVERSION".
		bin := t.TempDir()
		fake := "#!/bin/sh\n[ \"$1 $2\" = \"env GOVERSION\" ] && echo " + c.have + " && exit 0\nexit 2\n"
		if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "check-toolchain.sh"))
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if c.ok != (err == nil) {
			t.Errorf("check-toolchain with %s: %v\n%s; want ok=%v", c.have, err, out, c.ok)
		}
		if !c.ok && !strings.Contains(string(out), "GOTOOLCHAIN="+pinned) {
			t.Errorf("check-toolchain with %s does not say how to get %s:\n%s", c.have, pinned, out)
		}
	}
	release, err := os.ReadFile(filepath.Join("..", "..", "scripts", "release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^scripts/check-toolchain\.sh$`).Match(release) {
		t.Error("scripts/release.sh does not run scripts/check-toolchain.sh")
	}
}
