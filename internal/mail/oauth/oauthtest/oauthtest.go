// Package oauthtest helps test code that logs in with OAuth 2 tokens from
// a command: a command that prints a new, recognisable token on each run.
package oauthtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TokenPrefix starts every token a Command prints.
const TokenPrefix = "ya29.s3cr3t"

// Issued matches a token a Command printed (the command holds the prefix,
// never a number after it), so that errors and logs can be searched for a
// leaked token.
var Issued = regexp.MustCompile(regexp.QuoteMeta(TokenPrefix) + `-[0-9]`)

// Command returns a shell command that prints TokenPrefix-<n> on its n-th
// run, and a function that says how often it ran.
func Command(t testing.TB) (string, func() int) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "runs")
	cmd := fmt.Sprintf(`echo run >> '%s'; printf '%%s\n' "%s-$(wc -l < '%s' | tr -d ' ')"`, f, TokenPrefix, f)
	return cmd, func() int {
		b, _ := os.ReadFile(f)
		return bytes.Count(b, []byte("\n"))
	}
}
