package rules

import "testing"

func TestFrogJumpsOverOwnLine(t *testing.T) {
	// docs/rules/cuarenta.md: the Frog on d1 at the start reaches a4, d5 and g4,
	// nothing else: its plain steps are blocked by its own pieces, and it
	// jumps c2+b3 to a4, d3 to d5, e2+f3 to g4 (right: f1, h1, then off
	// the board; left: b1, then off the board).
	p := Cuarenta().Start()
	if got, want := movesFrom(p, "d1"), []string{"d1a4", "d1d5", "d1g4"}; !same(got, want) {
		t.Errorf("frog d1: %v, want %v", got, want)
	}
}

func TestVaoScreenCapture(t *testing.T) {
	// The Vao on b1 captures along the diagonal over exactly one screen at
	// any distance (c2 empty, d3 screen, e4 empty, f5 enemy) and moves
	// without capturing like a bishop (to c2 only: d3 blocks).
	p := setup(t, Cuarenta(), map[string]string{"b1": "V", "d3": "p", "f5": "g", "e8": "k", "i2": "K"}, "w - - 0 1")
	if got, want := movesFrom(p, "b1"), []string{"b1a2", "b1c2", "b1f5"}; !same(got, want) {
		t.Errorf("vao b1: %v, want %v", got, want)
	}
	// With two screens (d3 and e4) there is no capture of f5.
	q := setup(t, Cuarenta(), map[string]string{"b1": "V", "d3": "p", "e4": "P", "f5": "g", "e8": "k", "i2": "K"}, "w - - 0 1")
	if hasMove(q, "b1", "f5") {
		t.Error("the vao captured over two screens")
	}
	// The first piece beyond the screen must be an enemy: f5 is White's own.
	r := setup(t, Cuarenta(), map[string]string{"b1": "V", "d3": "p", "f5": "G", "e8": "k", "i2": "K"}, "w - - 0 1")
	if hasMove(r, "b1", "f5") || hasMove(r, "b1", "g6") {
		t.Error("the vao jumped onto or past its own piece")
	}
}

func TestPawnNeverTakesPawn(t *testing.T) {
	// A White pawn on d3 may take the guard on e4 but not the pawn on c4;
	// it also moves sideways to b3 and f3.
	p := setup(t, Cuarenta(), map[string]string{"d3": "P", "c4": "p", "e4": "g", "e8": "k", "h1": "K"}, "w - - 0 1")
	if got, want := movesFrom(p, "d3"), []string{"d3b3", "d3e4", "d3f3"}; !same(got, want) {
		t.Errorf("pawn d3: %v, want %v", got, want)
	}
}

func TestCuarentaPromotionChoices(t *testing.T) {
	// Into the last three ranks a pawn may become a Camel or stay a pawn
	// (c6-d7: 2 choices); on the last rank any of B V G C F or none (c8-d9:
	// 6 choices), sideways on the last rank too (d9-b9).
	p := setup(t, Cuarenta(), map[string]string{"c6": "P", "e4": "K", "a8": "k"}, "w - - 0 1")
	if got, want := movesFrom(p, "c6"), []string{"c6a6", "c6b7", "c6b7c", "c6d7", "c6d7c", "c6e6"}; !same(got, want) {
		t.Errorf("pawn c6: %v, want %v", got, want)
	}
	q := setup(t, Cuarenta(), map[string]string{"d9": "P", "e4": "K", "a2": "k"}, "w - - 0 1")
	if got, want := movesFrom(q, "d9"), []string{"d9b9", "d9b9b", "d9b9c", "d9b9f", "d9b9g", "d9b9v", "d9f9", "d9f9b", "d9f9c", "d9f9f", "d9f9g", "d9f9v"}; !same(got, want) {
		t.Errorf("pawn d9 on the last rank: %v, want %v", got, want)
	}
	// A Black pawn promotes in ranks 3..1.
	r := setup(t, Cuarenta(), map[string]string{"d3": "p", "e6": "K", "a8": "k"}, "b - - 0 1")
	if !hasMove(r, "d3", "c2c") || !hasMove(r, "d3", "c2") {
		t.Errorf("black pawn d3: %v", movesFrom(r, "d3"))
	}
}

func TestCuarentaCastling(t *testing.T) {
	// O-O trades the King e2 and the Camel h1 once.
	p := setup(t, Cuarenta(), map[string]string{"e2": "K", "h1": "C", "e8": "k"}, "w Kk - 0 1")
	if !hasMove(p, "e2", "h1") {
		t.Fatal("castling e2h1 refused with king and camel unmoved")
	}
	n := play(t, p, "e2", "h1")
	h1, _ := n.Variant().Board().ParseSquare("h1")
	e2, _ := n.Variant().Board().ParseSquare("e2")
	if n.At(h1).Letter() != 'K' || n.At(e2).Letter() != 'C' {
		t.Errorf("after castling: h1 %c, e2 %c", n.At(h1).Letter(), n.At(e2).Letter())
	}
	// Refused when h1 is attacked (the black guard on f3 attacks h1 by its
	// two-square diagonal leap)...
	q := setup(t, Cuarenta(), map[string]string{"e2": "K", "h1": "C", "e8": "k", "f3": "g"}, "w Kk - 0 1")
	if hasMove(q, "e2", "h1") {
		t.Error("castling onto an attacked h1")
	}
	// ...and once the right is gone.
	r := setup(t, Cuarenta(), map[string]string{"e2": "K", "h1": "C", "e8": "k"}, "w k - 0 1")
	if hasMove(r, "e2", "h1") {
		t.Error("castling without the right")
	}
}

func TestCuarentaDraws(t *testing.T) {
	// 80 plies without capture or promotion draw automatically; bare kings draw.
	p := setup(t, Cuarenta(), map[string]string{"e2": "K", "h1": "C", "e8": "k"}, "w - - 80 41")
	if res := p.Result(); !res.Over || !res.Draw {
		t.Errorf("after 80 quiet plies: %v", res)
	}
	q := setup(t, Cuarenta(), map[string]string{"e2": "K", "e8": "k"}, "w - - 0 1")
	if res := q.Result(); !res.Over || !res.Draw || res.Reason != "insufficient material" {
		t.Errorf("bare kings: %v", res)
	}
}
