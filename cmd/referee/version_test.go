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
	if got := versionText(info, true, stamp{}); got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
	if got := versionText(nil, false, stamp{}); !strings.Contains(got, "no build information") {
		t.Errorf("without build info: %q", got)
	}
	// A build from a source archive or a container context without .git:
	// no VCS settings, version "(devel)"; the -ldflags -X stamp says what
	// it is. A VCS revision, when recorded, wins over the stamp's commit.
	devel := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "referee", Version: "(devel)"}}
	st := stamp{version: "v1.3.0", commit: "fedcba987654", date: "2026-11-25T12:00:00Z"}
	for _, c := range []struct {
		info *debug.BuildInfo
		st   stamp
		want string
	}{
		{devel, st, "referee v1.3.0, commit fedcba987654 of 2026-11-25T12:00:00Z, built with go1.26.8\n"},
		{devel, stamp{}, "referee (devel), built with go1.26.8\n"},
		{info, st, want},
	} {
		if got := versionText(c.info, true, c.st); got != c.want {
			t.Errorf("versionText(%s, %+v) = %q, want %q", c.info.Main.Version, c.st, got, c.want)
		}
	}
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, _ := cli(t, args...)
		if code != 0 || !strings.HasPrefix(out, "referee ") || !strings.Contains(out, "built with go") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
}
