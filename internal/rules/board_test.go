package rules

import (
	"slices"
	"testing"
)

// name writes a square of b, or "-" for none, for messages.
func name(b *Board, sq Square, ok bool) string {
	if !ok {
		return "-"
	}
	return b.SquareName(sq)
}

func TestStepOnSyntheticBoards(t *testing.T) {
	// docs/rules/wrapped.md–§6 need missing squares, wrapped edges and a twisted
	// seam; each is checked here on a board small enough to draw by hand.
	holed := NewBoard(BoardSpec{Name: "3x3 without b2", Width: 3, Height: 3,
		Exists: func(f, r int) bool { return f != 1 || r != 1 }})
	klein := KleinBoard(4, 4, 2) // seam between ranks 2 and 3
	tests := []struct {
		rule    string
		b       *Board
		from    string
		v       Vec
		want    string // "-" when the step leaves the board
		wantVec Vec
	}{
		{"a hole stops a step", holed, "b1", Vec{0, 1}, "-", Vec{0, 1}},
		{"a hole is leapt over", holed, "b1", Vec{0, 2}, "b3", Vec{0, 2}},
		{"the rectangle's edge", Rect("3x3", 3, 3), "a1", Vec{-1, 0}, "-", Vec{-1, 0}},
		{"torus: files wrap", Torus(3, 3), "a1", Vec{-1, 0}, "c1", Vec{-1, 0}},
		{"torus: ranks wrap", Torus(3, 3), "a1", Vec{0, -1}, "a3", Vec{0, -1}},
		{"torus: a corner wraps both ways", Torus(3, 3), "c3", Vec{1, 1}, "a1", Vec{1, 1}},
		{"cylinder: files do not wrap", Cylinder(3, 3), "a1", Vec{-1, 0}, "-", Vec{-1, 0}},
		{"cylinder: ranks wrap", Cylinder(3, 3), "b3", Vec{0, 1}, "b1", Vec{0, 1}},
		{"klein: crossing the seam mirrors the file", klein, "a2", Vec{0, 1}, "d3", Vec{0, 1}},
		{"klein: ... and negates the sideways component", klein, "a2", Vec{1, 1}, "c3", Vec{-1, 1}},
		{"klein: the seam works downward too", klein, "b3", Vec{1, -1}, "b2", Vec{-1, -1}},
		{"klein: the 4|1 edge is an ordinary wrap", klein, "a4", Vec{1, 1}, "b1", Vec{1, 1}},
		{"klein: files wrap without a twist", klein, "a1", Vec{-1, 0}, "d1", Vec{-1, 0}},
		{"light squares: the orthogonal step is two squares", LightSquares(9, 9), "e4", Vec{0, 2}, "e6", Vec{0, 2}},
		{"light squares: the diagonal step is one", LightSquares(9, 9), "b1", Vec{1, 1}, "c2", Vec{1, 1}},
		{"light squares: a dark square does not exist", LightSquares(9, 9), "b1", Vec{1, 0}, "-", Vec{1, 0}},
		{"staircase: a8 is file a's lowest square", Staircase(), "a8", Vec{0, -1}, "-", Vec{0, -1}},
		{"staircase: h5 is file h's highest square", Staircase(), "h5", Vec{0, 1}, "-", Vec{0, 1}},
	}
	for _, tt := range tests {
		from, ok := tt.b.ParseSquare(tt.from)
		if !ok {
			t.Fatalf("%s: %s is not a square of %s", tt.rule, tt.from, tt.b.Name())
		}
		to, v, ok := tt.b.Step(from, tt.v)
		if got := name(tt.b, to, ok); got != tt.want || (ok && v != tt.wantVec) {
			t.Errorf("%s: step %v from %s = %s %v, want %s %v", tt.rule, tt.v, tt.from, got, v, tt.want, tt.wantVec)
		}
	}
}

func TestSquaresThatExist(t *testing.T) {
	tests := []struct {
		rule    string
		b       *Board
		count   int
		present []string
		absent  []string
	}{
		{"chess: 64 squares", Rect("8x8", 8, 8), 64, []string{"a1", "h8"}, []string{"i1", "a9", "a0", "a", "1a", "a01", "a+1"}},
		{"docs/rules/wrapped.md: 8 files × 14 ranks", Torus(8, 14), 112, []string{"h14", "a10"}, []string{"h15", "i1"}},
		{"docs/rules/cuarenta.md: the 40 light squares, a1 dark", LightSquares(9, 9), 40, []string{"b1", "a2", "i2", "e8"}, []string{"a1", "c1", "e4x"}},
		{"docs/rules/toto40.md: file f has ranks 9−f … 13−f", Staircase(), 40, []string{"a8", "a12", "c6", "h1", "h5"}, []string{"a7", "a13", "h6", "c5"}},
	}
	for _, tt := range tests {
		if got := len(tt.b.Squares()); got != tt.count {
			t.Errorf("%s: %d squares, want %d", tt.rule, got, tt.count)
		}
		for _, s := range tt.present {
			if sq, ok := tt.b.ParseSquare(s); !ok || tt.b.SquareName(sq) != s {
				t.Errorf("%s: %s should exist and be named so", tt.rule, s)
			}
		}
		for _, s := range tt.absent {
			if _, ok := tt.b.ParseSquare(s); ok {
				t.Errorf("%s: %q should not be read as a square", tt.rule, s)
			}
		}
	}
}

func TestLeapAcrossTheKleinSeam(t *testing.T) {
	// docs/rules/wrapped.md: a leap is computed as on the torus, then mirrored if it
	// crossed the seam. On a 4×4 Klein board with the seam above rank 2, a
	// knight's (1,2) from a1 lands on the torus square b3, mirrored to c3;
	// its (1,-2) lands on b3 too, across the 4|1 wrap only: no mirror.
	b := KleinBoard(4, 4, 2)
	a1, _ := b.ParseSquare("a1")
	for _, tt := range []struct {
		v    Vec
		want string
	}{{Vec{1, 2}, "c3"}, {Vec{1, -2}, "b3"}, {Vec{2, 1}, "c2"}, {Vec{-1, -1}, "d4"}} {
		to, ok := b.Leap(a1, tt.v)
		if got := name(b, to, ok); got != tt.want {
			t.Errorf("leap %v from a1 = %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestRayStopsAtItsOwnStart(t *testing.T) {
	// docs/rules/wrapped.md: a ray never continues onto or past its own square. On the
	// 3×3 torus each diagonal of a1 is a cycle of 3 squares, so a bishop
	// reaches b2 and c3 one way and c3, b2 the other (each move once after
	// deduplication), and b3, c2 likewise: 4 squares, and never a1.
	b := Torus(3, 3)
	bishop := &PieceType{Letter: 'B', Name: "bishop", Moves: []Prim{Rides(0, b.Diagonal()...)}}
	sq := make([]Piece, b.Size())
	a1, _ := b.ParseSquare("a1")
	sq[a1] = MakePiece('B', White)
	o := occupancy{b: b, sq: sq}
	var got []string
	o.targets(a1, sq[a1], &bishop.Moves[0], false, func(to Square) { got = append(got, b.SquareName(to)) })
	if len(got) != 8 {
		t.Errorf("4 diagonal rays of 2 squares each should emit 8 arrivals, got %v", got)
	}
	slices.Sort(got)
	got = slices.Compact(got)
	if want := []string{"b2", "b3", "c2", "c3"}; !slices.Equal(got, want) {
		t.Errorf("bishop a1 on the empty 3×3 torus reaches %v, want %v", got, want)
	}
	// A ride with a maximum range stops there (Toe-to-Toe's General: 2).
	general := Rides(2, Join(b.Orthogonal(), b.Diagonal())...)
	big := Rect("8x8", 8, 8)
	sq = make([]Piece, big.Size())
	d4, _ := big.ParseSquare("d4")
	sq[d4] = MakePiece('G', White)
	n := 0
	occupancy{b: big, sq: sq}.targets(d4, sq[d4], &general, false, func(Square) { n++ })
	if n != 16 {
		t.Errorf("a range-2 rider in the open reaches %d squares, want 16", n)
	}
}
