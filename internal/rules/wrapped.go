package rules

import "sync"

// The 8×14 wrapped boards of RULES.md §4 (seed 004): the same armies and
// rules on three topologies.

// wrappedStart: White's up-pawns on rank 2 and down-pawns (P') on rank 14,
// Black's down-pawns (p') on rank 7 and up-pawns on rank 9.
const wrappedStart = "P'P'P'P'P'P'P'P'/8/8/8/8/pppppppp/rnbqkbnr/p'p'p'p'p'p'p'p'/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func wrapped(name, title, summary string, b *Board) Variant {
	r := &stdRules{
		name: name, title: title, summary: summary, board: b, start: wrappedStart,
		explicitDir: true, pawn: 'P', enPassant: true,
		claimPlies: 100, autoPlies: 150, resetOnPawn: true, repetition: true,
		insufficient: bareKings, // RULES.md §4: only K v K
		perftLeaves:  5e10,      // about 5e6 leaves/s measured: some three hours
	}
	r.pieces, r.letters = pieceTable(chessKing, chessQueen, chessRook, chessBishop, chessKnight, chessPawn)
	// Each group steps two from its own starting rank.
	r.doubleStep = func(p Piece, from Square) bool {
		rank := b.Rank(from) + 1
		switch {
		case p.Color() == White && !p.Down():
			return rank == 2
		case p.Color() == White && p.Down():
			return rank == 14
		case p.Color() == Black && p.Down():
			return rank == 7
		default:
			return rank == 9
		}
	}
	// Decided in RULES.md §4: both groups promote on the enemy home rank,
	// White on 8 and Black on 1, from either direction.
	r.promotion = queenPromotion(b, 7, 0)
	// Castling along the back rank without crossing the a/h seam: the
	// squares of standardCastles; attacks count across every seam.
	r.castles = standardCastles(b, 0, 7)
	return r
}

// Toroidal is chess on the 8×14 torus: ranks and files wrap.
func Toroidal() Variant { return toroidal() }

var toroidal = sync.OnceValue(func() Variant {
	return wrapped("toroidal", "Toroidal chess", "8x14 board, ranks and files wrap (a torus); two pawn groups a side", Torus(8, 14))
})

// Cylindrical is chess on the 8×14 cylinder: ranks wrap, files do not.
func Cylindrical() Variant { return cylindrical() }

var cylindrical = sync.OnceValue(func() Variant {
	return wrapped("cylindrical", "Cylindrical chess", "8x14 board, ranks wrap, files a and h are edges; two pawn groups a side", Cylinder(8, 14))
})

// KleinChess is chess on the 8×14 Klein bottle: as the torus, but a step between
// ranks 11 and 12 mirrors the file.
func KleinChess() Variant { return klein() }

var klein = sync.OnceValue(func() Variant {
	return wrapped("klein", "Klein chess", "8x14 Klein bottle: files wrap, crossing between ranks 11 and 12 mirrors the file", KleinBoard(8, 14, 11))
})
