package rules

import "sync"

// Direction sets of the ordinary square board.
var (
	orthogonal = []Vec{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	diagonal   = []Vec{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
	knightVecs = Symmetric(1, 2)
)

// The chess pieces (FIDE), shared by the variants of docs/rules/chess.md, docs/rules/wrapped.md.
var (
	chessKing   = &PieceType{Letter: 'K', Name: "king", Royal: true, Moves: []Prim{Steps(Both, Join(orthogonal, diagonal)...)}}
	chessQueen  = &PieceType{Letter: 'Q', Name: "queen", Moves: []Prim{Rides(0, Join(orthogonal, diagonal)...)}}
	chessRook   = &PieceType{Letter: 'R', Name: "rook", Moves: []Prim{Rides(0, orthogonal...)}}
	chessBishop = &PieceType{Letter: 'B', Name: "bishop", Moves: []Prim{Rides(0, diagonal...)}}
	chessKnight = &PieceType{Letter: 'N', Name: "knight", Moves: []Prim{Leaps(knightVecs...)}}
	chessPawn   = &PieceType{Letter: 'P', Name: "pawn", Moves: []Prim{
		ForwardSteps(MoveOnly, Vec{0, 1}),
		ForwardSteps(CaptureOnly, Vec{-1, 1}, Vec{1, 1}),
	}}
)

// standardCastles are O-O and O-O-O of the FIDE laws, on an 8-file board
// whose back ranks are white and black (0-based).
func standardCastles(b *Board, white, black int) []castleRule {
	var out []castleRule
	for _, side := range []struct {
		c    Color
		rank int
		k, q byte
	}{{White, white, 'K', 'Q'}, {Black, black, 'k', 'q'}} {
		sq := func(f int) Square { return b.Sq(f, side.rank) }
		out = append(out,
			castleRule{color: side.c, letter: side.k, kingFrom: sq(4), kingTo: sq(6), rookFrom: sq(7), rookTo: sq(5),
				empty: []Square{sq(5), sq(6)}, safe: []Square{sq(4), sq(5), sq(6)}},
			castleRule{color: side.c, letter: side.q, kingFrom: sq(4), kingTo: sq(2), rookFrom: sq(0), rookTo: sq(3),
				empty: []Square{sq(1), sq(2), sq(3)}, safe: []Square{sq(4), sq(3), sq(2)}, long: true})
	}
	return out
}

func queenPromotion(b *Board, whiteRank, blackRank int) func(p Piece, from, to Square) ([]byte, bool) {
	return func(p Piece, from, to Square) ([]byte, bool) {
		if p.Letter() != 'P' {
			return nil, false
		}
		r := b.Rank(to)
		if (p.Color() == White && r == whiteRank) || (p.Color() == Black && r == blackRank) {
			return []byte{'Q', 'R', 'B', 'N'}, false
		}
		return nil, false
	}
}

// Chess is orthodox chess (docs/rules/chess.md). It returns the one shared value,
// built on first use.
func Chess() Variant { return chess() }

var chess = sync.OnceValue(func() Variant {
	b := Rect("8x8", 8, 8)
	r := &stdRules{gameInfo: gameInfo{
		name: Orthodox, title: "Chess", board: b,
		summary: "orthodox chess, FIDE laws: castling, en passant, promotion, 50/75-move and repetition draws",
		rulesText: "Orthodox chess under the FIDE laws: castling, en passant, promotion to Q, R, B or N. " +
			"Checkmate wins; stalemate is a draw. Draws: agreement, threefold repetition or 50 moves " +
			"without capture or pawn move (claimed with \"draw\"), and automatically fivefold repetition, " +
			"75 moves, or too little material to mate.",
		pieceSet: newPieceSet(chessKing, chessQueen, chessRook, chessBishop, chessKnight, chessPawn),
	},
		start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		pawn:  'P', enPassant: true, claimPlies: 100, autoPlies: 150, resetOnPawn: true, repetition: true,
		perftLeaves: 1e11, // about 7e6 leaves/s measured: some four hours
	}
	r.doubleStep = func(p Piece, from Square) bool {
		return (p.Color() == White && b.Rank(from) == 1) || (p.Color() == Black && b.Rank(from) == 6)
	}
	r.promotion = queenPromotion(b, 7, 0)
	r.castles = standardCastles(b, 0, 7)
	r.insufficient = chessInsufficient
	return r
})

// chessInsufficient is exactly docs/rules/chess.md's four cases: K v K, K+B v K,
// K+N v K, K+B v K+B with bishops on squares of one colour.
func chessInsufficient(p *stdPos) bool {
	w, bl, ok := p.fewPieces(2)
	if !ok || len(w) > 1 || len(bl) > 1 {
		return false
	}
	minor := func(s Square) bool { l := p.sq[s].Letter(); return l == 'B' || l == 'N' }
	switch {
	case len(w) == 0 && len(bl) == 0:
		return true // K v K
	case len(w)+len(bl) == 1:
		return minor(append(w, bl...)[0]) // K+B v K, K+N v K
	}
	b := p.r.board
	ws, bs := w[0], bl[0] // K+B v K+B, bishops on squares of one colour
	return p.sq[ws].Letter() == 'B' && p.sq[bs].Letter() == 'B' &&
		(b.File(ws)+b.Rank(ws))%2 == (b.File(bs)+b.Rank(bs))%2
}
