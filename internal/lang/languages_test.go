package lang_test

import (
	"slices"
	"sort"
	"testing"

	"referee/internal/lang"
	"referee/internal/notation"
)

// TestLanguagesAreTheReadersLanguages: a language the "language" command
// takes has a catalog, and a catalog is of a language the command takes
// (adding one is a file here and a line in notation.Languages).
func TestLanguagesAreTheReadersLanguages(t *testing.T) {
	var want []string
	for _, l := range notation.Languages() {
		want = append(want, l.Code)
	}
	sort.Strings(want)
	got := lang.Codes()
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("catalog files for %v, but notation.Languages has %v", got, want)
	}
}
