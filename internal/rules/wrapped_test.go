package rules

import "testing"

func TestWrappedStartRoundTrip(t *testing.T) {
	for _, v := range Variants() {
		s := v.Start().String()
		p, err := v.ParsePosition(s)
		if err != nil || p.String() != s {
			t.Errorf("%s: %q does not round-trip (%v, %q)", v.Name(), s, err, p)
		}
	}
	if got := Toroidal().Start().String(); got[:16] != "P'P'P'P'P'P'P'P'" {
		t.Errorf("rank 14 of the toroidal start is written %q, want P'P'P'P'P'P'P'P'", got[:16])
	}
}

func TestBishopOnEmptyTorus(t *testing.T) {
	// On the 8×14 torus both diagonal cycles of d4 run through all 56
	// squares of its colour (8 and 14 are even, lcm 56), so the bishop
	// reaches the 55 others, each once, though most by two paths. The kings
	// stand on the other colour.
	p := setup(t, Toroidal(), map[string]string{"d4": "B", "b1": "K", "g8": "k"}, "w - - 0 1")
	if got := len(movesFrom(p, "d4")); got != 55 {
		t.Errorf("bishop d4 on the empty torus has %d moves, want 55", got)
	}
	// On the cylinder the files stop the rays, but a ray may cross the rank
	// seam first: a1-c3 (3), e5-h8 (4), a7-c5 (3), and e3, f2, g1, then
	// across 1|14 to h14 (4): 14 moves.
	c := setup(t, Cylindrical(), map[string]string{"d4": "B", "b1": "K", "g8": "k"}, "w - - 0 1")
	if got := len(movesFrom(c, "d4")); got != 14 {
		t.Errorf("bishop d4 on the empty cylinder has %d moves, want 14: %v", got, movesFrom(c, "d4"))
	}
}

func TestRookRayStopsBeforeItself(t *testing.T) {
	// docs/rules/wrapped.md: a rook on an empty rank reaches the other 7 squares of it
	// (the ray wraps round and stops before its own square), and on its
	// file the other 13: 20 moves, none of them to a1 itself.
	p := setup(t, Toroidal(), map[string]string{"a1": "R", "c3": "K", "f9": "k"}, "w - - 0 1")
	got := movesFrom(p, "a1")
	if len(got) != 20 {
		t.Errorf("rook a1 has %d moves, want 20: %v", len(got), got)
	}
}

func TestKnightAcrossSeams(t *testing.T) {
	// A knight in the a1 corner: on the torus all 8 leaps land (across the
	// a/h seam and the 14/1 seam); on the cylinder only the 4 that keep to
	// files a-h: b3, c2, and across the rank seam b13, c14.
	tor := setup(t, Toroidal(), map[string]string{"a1": "N", "e5": "K", "e10": "k"}, "w - - 0 1")
	if got := movesFrom(tor, "a1"); len(got) != 8 {
		t.Errorf("torus: knight a1 has %v, want 8 moves", got)
	}
	cyl := setup(t, Cylindrical(), map[string]string{"a1": "N", "e5": "K", "e10": "k"}, "w - - 0 1")
	if got, want := movesFrom(cyl, "a1"), []string{"a1b13", "a1b3", "a1c14", "a1c2"}; !same(got, want) {
		t.Errorf("cylinder: knight a1 has %v, want %v", got, want)
	}
}

func TestKleinSeam(t *testing.T) {
	b := KleinBoard(8, 14, 11)
	a11, _ := b.ParseSquare("a11")
	h12, _ := b.ParseSquare("h12")
	d11, _ := b.ParseSquare("d11")
	d12, _ := b.ParseSquare("d12")
	// docs/rules/wrapped.md: a11 straight up lands on h12.
	if to, v, ok := b.Step(a11, Vec{0, 1}); !ok || to != h12 || v != (Vec{0, 1}) {
		t.Errorf("a11 up: %s %v %v, want h12", b.SquareName(to), v, ok)
	}
	// A diagonal step across the seam mirrors the file and turns the
	// sideways direction: d11 up-right arrives on e12 mirrored = d12, and
	// goes on up-left.
	if to, v, ok := b.Step(d11, Vec{1, 1}); !ok || to != d12 || v != (Vec{-1, 1}) {
		t.Errorf("d11 up-right: %s %v, want d12 moving (-1,1)", b.SquareName(to), v)
	}
	// A pawn on a11 moving up steps to h12 and attacks a12 and g12 (not the
	// inventor's h12 aside).
	p := setup(t, KleinChess(), map[string]string{"a11": "P", "a12": "n", "g12": "r", "e1": "K", "e7": "k"}, "w - - 0 1")
	if got, want := movesFrom(p, "a11"), []string{"a11a12", "a11g12", "a11h12"}; !same(got, want) {
		t.Errorf("klein pawn a11: %v, want %v", got, want)
	}
	// The bishop: from c10 up-right it passes d11 and arrives on d12, then
	// c13 and b14 (a capture that stops the ray). Bishops change colour at
	// the seam, so the black king stands where no ray of c10 reaches (h3).
	q := setup(t, KleinChess(), map[string]string{"c10": "B", "b14": "p", "e1": "K", "h3": "k"}, "w - - 0 1")
	for _, to := range []string{"d11", "d12", "c13", "b14"} {
		if !hasMove(q, "c10", to) {
			t.Errorf("klein bishop c10 cannot reach %s: %v", to, movesFrom(q, "c10"))
		}
	}
	if hasMove(q, "c10", "a1") {
		t.Errorf("klein bishop c10 passed the black pawn on b14")
	}
}

func TestEnPassantBeyondTheRankSeam(t *testing.T) {
	// White's down-pawn a14 steps two to a12, passing a13; Black's up-pawn
	// on b12 takes it en passant on a13 (capturing diagonally forward, up).
	p := setup(t, Toroidal(), map[string]string{"a14": "P'", "b12": "p", "e1": "K", "e8": "k"}, "w - - 0 1")
	p = play(t, p, "a14", "a12")
	if got := p.String(); !contains(got, " a13 ") {
		t.Fatalf("after a14-a12 the en passant square is not a13: %s", got)
	}
	if !hasMove(p, "b12", "a13") {
		t.Fatalf("b12xa13 e.p. is not offered: %v", movesFrom(p, "b12"))
	}
	p = play(t, p, "b12", "a13")
	a12, _ := p.Variant().Board().ParseSquare("a12")
	if p.At(a12) != NoPiece {
		t.Error("the pawn taken en passant is still on a12")
	}
}

func TestCastlingRefusedAcrossTheFileSeam(t *testing.T) {
	// The bishop on a4 attacks f1 across the a/h seam (a4, h3, g2, f1): on
	// the torus O-O is refused; on the cylinder, where files end, it is legal.
	pieces := map[string]string{"e1": "K", "h1": "R", "a4": "b", "e10": "k"}
	tor := setup(t, Toroidal(), pieces, "w K - 0 1")
	if hasMove(tor, "e1", "g1") {
		t.Error("torus: O-O allowed through f1, attacked across the a/h seam")
	}
	cyl := setup(t, Cylindrical(), pieces, "w K - 0 1")
	if !hasMove(cyl, "e1", "g1") {
		t.Error("cylinder: O-O refused, but nothing attacks e1, f1 or g1")
	}
}

func TestDownPawnPromotesOnRank8(t *testing.T) {
	// White's downward pawn reaching rank 8 must promote (docs/rules/wrapped.md).
	p := setup(t, Toroidal(), map[string]string{"c9": "P'", "e1": "K", "e12": "k"}, "w - - 0 1")
	if got, want := movesFrom(p, "c9"), []string{"c9c8b", "c9c8n", "c9c8q", "c9c8r"}; !same(got, want) {
		t.Errorf("down-pawn c9: %v, want %v", got, want)
	}
}

func play(t *testing.T, p Position, from, to string) Position {
	t.Helper()
	b := p.Variant().Board()
	f, _ := b.ParseSquare(from)
	s, _ := b.ParseSquare(to)
	for _, m := range p.Legal() {
		if m.From == f && m.To == s && m.Promo == 0 {
			n, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("%s%s is not legal in %s", from, to, p)
	return nil
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
