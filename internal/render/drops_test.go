package render

import (
	"strings"
	"testing"

	"referee/internal/rules"
	"referee/internal/variantfile"
)

// TestCrazyhouseHands: a chess-family game with drops shows both hands
// under the text diagram (empty ones too) and draws them in its picture.
func TestCrazyhouseHands(t *testing.T) {
	f := variantfile.Parse([]byte("[zh:crazyhouse]\n"))
	d, err := f.Lookup("zh")
	if err != nil {
		t.Fatal(err)
	}
	v, err := variantfile.Build(d)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition("r1Q~1k3/8/8/8/8/8/8/4K3[QNPPn] b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	text := Text(p, rules.White)
	for _, want := range []string{"White's hand: Q N P P", "Black's hand: N"} {
		if !strings.Contains(text, want) {
			t.Errorf("the diagram does not say %q:\n%s", want, text)
		}
	}
	if !strings.Contains(Text(v.Start(), rules.White), "White's hand: (empty)") {
		t.Errorf("the start's diagram shows no empty hand:\n%s", Text(v.Start(), rules.White))
	}
	if _, err := PNG(p, rules.Black); err != nil {
		t.Fatal(err)
	}
	w, h := PNGSize(p)
	cw, ch := PNGSize(rules.Chess().Start())
	if w < cw || h <= ch {
		t.Errorf("the picture with hands is %dx%d, chess's %dx%d: no room for the hands", w, h, cw, ch)
	}
}
