package rules

import "testing"

// TestChessFamilySpecOrthodox: orthodox chess written as a spec plays as
// the built-in chess: perft 20, 400, 8902 (docs/rules/README.md#perft).
func TestChessFamilySpecOrthodox(t *testing.T) {
	b := Rect("8x8", 8, 8)
	sq := func(s string) Square { x, _ := b.ParseSquare(s); return x }
	rank := func(r int) []Square {
		var out []Square
		for f := range 8 {
			out = append(out, b.Sq(f, r))
		}
		return out
	}
	v, err := NewChessFamily(ChessFamilySpec{
		Name: "speced", Title: "Chess by spec", Board: b,
		Pieces: []*PieceType{chessKing, chessQueen, chessRook, chessBishop, chessKnight, chessPawn},
		Start:  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Pawn:   'P', DoubleStep: [2][]Square{rank(1), rank(6)}, EnPassant: true,
		Promotion: [2][]Square{rank(7), rank(0)}, PromotionChoices: []byte("QRBN"),
		Castles: []CastleSpec{
			{Color: White, Letter: 'K', KingFrom: sq("e1"), KingTo: sq("g1"), RookFrom: sq("h1"), RookTo: sq("f1")},
			{Color: White, Letter: 'Q', KingFrom: sq("e1"), KingTo: sq("c1"), RookFrom: sq("a1"), RookTo: sq("d1"), Long: true},
			{Color: Black, Letter: 'k', KingFrom: sq("e8"), KingTo: sq("g8"), RookFrom: sq("h8"), RookTo: sq("f8")},
			{Color: Black, Letter: 'q', KingFrom: sq("e8"), KingTo: sq("c8"), RookFrom: sq("a8"), RookTo: sq("d8"), Long: true},
		},
		AutoDrawPlies: 100, Repetition: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for depth, want := range []int64{1, 20, 400, 8902} {
		if got := Perft(v.Start(), depth); got != want {
			t.Errorf("perft %d = %d, want %d", depth, got, want)
		}
	}
	// Kiwipete (castling both ways, en passant, promotions near): the
	// spec's castling squares equal standardCastles'.
	p, err := v.ParsePosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := Perft(p, 2); got != 2039 {
		t.Errorf("kiwipete perft 2 = %d, want 2039", got)
	}
}

// TestChessFamilySpecRefused: a spec without a king lettered K, or with
// castling squares on two ranks, is refused.
func TestChessFamilySpecRefused(t *testing.T) {
	b := Rect("8x8", 8, 8)
	if _, err := NewChessFamily(ChessFamilySpec{Board: b, Pieces: []*PieceType{chessQueen}, Start: "8/8/8/8/8/8/8/8 w - - 0 1"}); err == nil {
		t.Error("a spec without a royal piece was built")
	}
	_, err := NewChessFamily(ChessFamilySpec{Board: b, Pieces: []*PieceType{chessKing, chessRook}, Start: "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
		Castles: []CastleSpec{{Color: White, Letter: 'Q', KingFrom: b.Sq(4, 0), KingTo: b.Sq(2, 1), RookFrom: b.Sq(0, 0), RookTo: b.Sq(3, 0)}}})
	if err == nil {
		t.Error("castling across two ranks was built")
	}
}
