package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"referee/internal/lang"
	"referee/internal/rules"
)

// TestLegendFitsInEveryLanguage: no line of a diagram's legend is wider
// than legendWidth in any language of the catalog, for any built-in
// variant (a translation runs longer than the English: the Italian note
// on Toroidal chess's wrapping was 99 wide before it was folded).
func TestLegendFitsInEveryLanguage(t *testing.T) {
	c, err := lang.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rules.Variants() {
		for _, code := range c.Codes() {
			for _, l := range legend(c.Printer(code), v.Start()) {
				if n := utf8.RuneCountInString(l); n > legendWidth || strings.Contains(l, "\n") {
					t.Errorf("%s, %s: a legend line of %d characters (at most %d): %q", v.Name(), code, n, legendWidth, l)
				}
			}
		}
	}
}
