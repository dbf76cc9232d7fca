package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionText(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "referee", Version: "v1.2.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-23T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"}}}
	want := "referee v1.2.0, commit 0123456789ab (modified) of 2026-11-23T10:00:00Z, built with go1.26.8\n"
	if got := versionText(info, true); got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
	if got := versionText(nil, false); !strings.Contains(got, "no build information") {
		t.Errorf("without build info: %q", got)
	}
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, _ := cli(t, args...)
		if code != 0 || !strings.HasPrefix(out, "referee ") || !strings.Contains(out, "built with go") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
}
