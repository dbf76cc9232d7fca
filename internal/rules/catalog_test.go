package rules

import (
	"strings"
	"testing"
)

func TestCatalog(t *testing.T) {
	var none *Catalog
	if v, err := none.Lookup("Klein"); err != nil || v.Name() != "klein" {
		t.Fatalf("nil catalog: %v %v", v, err)
	}
	mini, err := NewChessFamily(ChessFamilySpec{
		Name: "mini", Title: "Mini", Board: NewBoard(BoardSpec{Name: "4x4", Width: 4, Height: 4}),
		Pieces: []*PieceType{{Letter: 'K', Name: "king", Royal: true, Moves: []Prim{{Kind: Leap, Vecs: []Vec{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}, Mode: Both}}}},
		Start:  "k3/4/4/3K w - - 0 1",
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(mini)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := c.Lookup("MINI"); err != nil || v != mini {
		t.Errorf("lookup of the extra variant: %v %v", v, err)
	}
	if v, err := c.Lookup("chess"); err != nil || v.Name() != "chess" {
		t.Errorf("lookup of the referee's own: %v %v", v, err)
	}
	if _, err := c.Lookup("capa"); err == nil || !strings.Contains(err.Error(), "mini") {
		t.Errorf("unknown name: %v", err)
	}
	if n := len(c.Variants()); n != len(Variants())+1 {
		t.Errorf("%d variants", n)
	}
	if _, err := NewCatalog(mini, mini); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("a name twice: %v", err)
	}
}
