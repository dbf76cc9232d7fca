// Package browsertest runs headless Chromium for the tests that look at web
// pages and HTML mail as people see them. It is imported by tests only.
package browsertest

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// Bin returns headless Chromium's path, or skips the test where it is not
// installed (outside CI) or with -short.
func Bin(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed, but CI must run this test (.ci/run installs it)")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	return bin
}

// Run runs headless Chromium with a fresh profile and no network chatter
// (TECH-NOTES.md: without the background-networking flags it keeps trying
// to reach the network), and returns what it printed on stdout.
func Run(t testing.TB, bin string, args ...string) []byte {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.Command(bin, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stdout.Bytes()
}
