package rules

import "sync"

// Cuarenta, J. Mark Thompson's game on the 40 light squares of a 9×9 board
// (docs/rules/cuarenta.md, seed 002). Its orthogonal step is two grid squares (e4-e6):
// the board's Orthogonal set says so, so the pieces read as the rule page.
// It returns the one shared value, built on first use.
func Cuarenta() Variant { return cuarenta() }

var cuarenta = sync.OnceValue(func() Variant {
	b := LightSquares(9, 9)
	orth, diag := b.Orthogonal(), b.Diagonal()
	king := &PieceType{Letter: 'K', Name: "king", Royal: true, Moves: []Prim{
		Steps(Both, diag...),
		Steps(MoveOnly, Vec{0, 2}, Vec{0, -2}), // straight forward or back, never capturing (so never checking)
	}}
	bishop := &PieceType{Letter: 'B', Name: "bishop", Moves: []Prim{Rides(0, diag...)}}
	vao := &PieceType{Letter: 'V', Name: "vao", Moves: []Prim{
		{Kind: Ride, Vecs: diag, Mode: MoveOnly}, // moves like a bishop without capturing
		{Kind: Hop, Vecs: diag, Mode: CaptureOnly},
	}}
	guard := &PieceType{Letter: 'G', Name: "guard", Moves: []Prim{Leaps(Join(diag, Scale(2, diag))...)}}
	camel := &PieceType{Letter: 'C', Name: "camel", Moves: []Prim{Leaps(Symmetric(3, 1)...)}}
	frog := &PieceType{Letter: 'F', Name: "frog", Moves: []Prim{
		Steps(Both, orth...),
		{Kind: LineJump, Vecs: Join(orth, diag), Mode: Both}, // over a run of its own pieces
	}}
	pawn := &PieceType{Letter: 'P', Name: "pawn", Moves: []Prim{
		ForwardSteps(Both, Vec{-1, 1}, Vec{1, 1}),
		Steps(Both, Vec{2, 0}, Vec{-2, 0}), // sideways
	}}
	r := &stdRules{gameInfo: gameInfo{
		name: "cuarenta", title: "Cuarenta", board: b,
		summary: "40 light squares of a 9x9 board; Vao, Guard, Camel, Frog; king-camel castling",
		rulesText: "Played on the 40 light squares of a 9x9 board. Diagonal steps go to the touching light " +
			"squares; orthogonal steps go two squares (e4-e6). King: one diagonal step, or one orthogonal step " +
			"forward or back without capturing. Bishop: slides diagonally. Vao: moves like a bishop, captures " +
			"only by jumping one piece (the screen) along a diagonal onto an enemy beyond. Guard: one or two " +
			"squares diagonally, leaping. Camel: (3,1) leaps. Frog: one orthogonal step, or jumps over a run of " +
			"its own pieces in any of 8 directions. Pawn: forward diagonal or sideways, never takes a pawn; " +
			"may promote to Camel in the last three ranks, or to any piece on the last rank. Castling O-O: king " +
			"and its camel trade places once. Checkmate wins; 80 plies without capture or promotion draw.",
		pieceSet: newPieceSet(king, bishop, vao, guard, camel, frog, pawn),
	},
		start: "cffb/vgkgv/pppp/5/4/5/PPPP/VGKGV/BFFC w Kk - 0 1",
		pawn:  'P', autoPlies: 80, insufficient: bareKings,
		perftLeaves: 1e10, // about 1.2e6 leaves/s measured: some two hours
	}
	// A pawn may never capture a pawn.
	r.captureOK = func(mover, victim Piece) bool { return !(mover.Letter() == 'P' && victim.Letter() == 'P') }
	// Promotion is optional (the seed: "can"): to a Camel anywhere in the
	// last three ranks, or to any of B V G C F on the last rank.
	r.promotion = func(p Piece, from, to Square) ([]byte, bool) {
		if p.Letter() != 'P' {
			return nil, false
		}
		depth := b.Rank(to) // ranks into the zone, counted from the mover's side
		if p.Color() == Black {
			depth = 8 - b.Rank(to)
		}
		switch {
		case depth == 8:
			return []byte{'B', 'V', 'G', 'C', 'F'}, true
		case depth >= 6:
			return []byte{'C'}, true
		}
		return nil, false
	}
	// Castling (decided in docs/rules/cuarenta.md): king and its original camel trade
	// places once, neither having moved, the king not in check and not
	// landing on an attacked square.
	sq := func(s string) Square { x, _ := b.ParseSquare(s); return x }
	r.castles = []castleRule{
		{color: White, letter: 'K', kingFrom: sq("e2"), kingTo: sq("h1"), rookFrom: sq("h1"), rookTo: sq("e2"), safe: []Square{sq("e2"), sq("h1")}, swap: true},
		{color: Black, letter: 'k', kingFrom: sq("e8"), kingTo: sq("b9"), rookFrom: sq("b9"), rookTo: sq("e8"), safe: []Square{sq("e8"), sq("b9")}, swap: true},
	}
	return r
})
