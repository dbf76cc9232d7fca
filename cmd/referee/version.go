package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// versionText describes the binary from its build information: the module
// version (a tag for `go install ...@v1.2.3`, "(devel)" for a build from a
// checkout), the VCS revision and time when the build recorded them, and
// the Go version.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "referee (no build information)\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "referee %s", info.Main.Version)
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		fmt.Fprintf(&b, ", commit %s", rev)
		if settings["vcs.modified"] == "true" {
			b.WriteString(" (modified)")
		}
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " of %s", t)
		}
	}
	fmt.Fprintf(&b, ", built with %s", info.GoVersion)
	if settings["CGO_ENABLED"] == "0" {
		b.WriteString(" (without cgo: the database cannot open)")
	}
	b.WriteString("\n")
	return b.String()
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "", "Prints the referee's version: module version, commit and Go version, from the build information.", stderr)
	if code, ok := parseFlagsOnly(fs, args); !ok {
		return code
	}
	fmt.Fprint(stdout, versionText(debug.ReadBuildInfo()))
	return exitOK
}
