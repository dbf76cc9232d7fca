package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"referee/internal/status"
)

// Set by the build scripts (scripts/build-static.sh, scripts/release.sh)
// with -ldflags "-X main.stampVersion=v1.2.3 -X main.stampCommit=...
// -X main.stampDate=...", for builds that carry no VCS information: from a
// source archive, or in a container build whose context leaves .git out.
// Never changed at run time.
var (
	stampVersion string
	stampCommit  string
	stampDate    string
)

// stamp is what the build scripts set with -ldflags -X.
type stamp struct{ version, commit, date string }

// versionText describes the binary from its build information: the module
// version (a tag for `go install ...@v1.2.3`, "(devel)" for a build from a
// checkout), the VCS revision and time when the build recorded them, and
// the Go version. What the build scripts stamped fills in what the build
// information lacks: the version in place of "(devel)", the commit and
// date when no VCS revision was recorded.
func versionText(info *debug.BuildInfo, ok bool, st stamp) string {
	if !ok || info == nil {
		if st.version != "" {
			return fmt.Sprintf("referee %s (no build information)\n", st.version)
		}
		return "referee (no build information)\n"
	}
	var b strings.Builder
	v := info.Main.Version
	if (v == "" || v == "(devel)") && st.version != "" {
		v = st.version
	}
	fmt.Fprintf(&b, "referee %s", v)
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if settings["vcs.revision"] == "" && st.commit != "" {
		settings["vcs.revision"], settings["vcs.time"] = st.commit, st.date
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
	info, ok := debug.ReadBuildInfo()
	fmt.Fprint(stdout, versionText(info, ok, stamp{stampVersion, stampCommit, stampDate}))
	return exitOK
}

// buildLabels are the labels of referee_build_info: the version, commit
// and Go version that `referee version` prints.
func buildLabels() status.Build {
	b := status.Build{Version: stampVersion, Revision: stampCommit}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.GoVersion = info.GoVersion
	if v := info.Main.Version; v != "" && v != "(devel)" {
		b.Version = v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && s.Value != "" {
			b.Revision = s.Value
		}
	}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	return b
}
