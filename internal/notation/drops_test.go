package notation

import (
	"strings"
	"testing"

	"referee/internal/rules"
	"referee/internal/variantfile"
)

// crazyhouse is the variants file's built-in crazyhouse, built as a
// chess-family variant with drops.
func crazyhouse(t *testing.T) rules.Variant {
	t.Helper()
	f := variantfile.Parse([]byte("[zh:crazyhouse]\n"))
	d, err := f.Lookup("zh")
	if err != nil {
		t.Fatal(err)
	}
	v, err := variantfile.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCrazyhouseDrops: a chess-family game with drops writes them "N@f6"
// (with + or #), reads them back in every form, and says why a drop is
// refused.
func TestCrazyhouseDrops(t *testing.T) {
	v := crazyhouse(t)
	p, err := v.ParsePosition("4k3/8/8/8/8/8/8/r3K3[NP] w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range p.Legal() {
		for _, form := range []string{SAN(p, m), StandardSAN(p, m), Coord(p, m)} {
			got, err := Parse(p, form)
			if err != nil || got != m {
				t.Errorf("%q read back as %+v, %v (want %+v)", form, got, err, m)
			}
		}
	}
	q, err := v.ParsePosition("4k3/8/8/8/8/8/8/4K3[QNPp] w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{"N@f6": "N@f6+", "n@f6": "N@f6+", "P@e4": "P@e4", "Q@e7": "Q@e7+"} {
		m, err := Parse(q, text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if got := StandardSAN(q, m); got != want {
			t.Errorf("%s is written %s, want %s", text, got, want)
		}
	}
	for text, want := range map[string]string{
		"N@e4": "you are in check, and a knight on e4 does not block it",
		"P@b1": "a pawn may not be dropped on your first rank",
		"B@d1": "you have no B in hand",
	} {
		if _, err := Parse(p, text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", text, err, want)
		}
	}
	mate, err := v.ParsePosition("7k/6pp/8/8/8/8/8/K7[Q] w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := Parse(mate, "Q@e8"); err != nil || StandardSAN(mate, m) != "Q@e8#" {
		t.Errorf("Q@e8: %v, %v", StandardSAN(mate, m), err)
	}
}
