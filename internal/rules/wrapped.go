package rules

import "sync"

// The 8×14 wrapped boards of docs/rules/wrapped.md (seed 004): the same armies and
// rules on three topologies.

// wrappedStart: White's up-pawns on rank 2 and down-pawns (P') on rank 14,
// Black's down-pawns (p') on rank 7 and up-pawns on rank 9.
const wrappedStart = "P'P'P'P'P'P'P'P'/8/8/8/8/pppppppp/rnbqkbnr/p'p'p'p'p'p'p'p'/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// wrappedRules states the rules for players; edges says how the board's
// edges join.
func wrappedRules(edges string) string {
	return "Chess on an 8x14 board whose ranks wrap (rank 14 is next to rank 1)" + edges +
		" Each side has two pawn groups: White's move up from rank 2 and down from rank 14 " +
		"(written P'), Black's down from rank 7 (p') and up from rank 9. Pawns keep their direction, " +
		"may step two from their starting rank, capture diagonally forward, take en passant, and " +
		"promote on the enemy home rank (White on 8, Black on 1). Castling as in chess along the back rank. " +
		"Pieces move across the seams; check, mate and draws as in chess."
}

func wrapped(name, title, summary, edges string, b *Board) Variant {
	r := &stdRules{gameInfo: gameInfo{
		name: name, title: title, summary: summary, rulesText: wrappedRules(edges), board: b,
		pieceSet: newPieceSet(chessKing, chessQueen, chessRook, chessBishop, chessKnight, chessPawn),
	},
		start:       wrappedStart,
		explicitDir: true, pawn: 'P', enPassant: true,
		claimPlies: 100, autoPlies: 150, resetOnPawn: true, repetition: true,
		insufficient: bareKings, // docs/rules/wrapped.md: only K v K
		perftLeaves:  5e10,      // about 5e6 leaves/s measured: some three hours
	}
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
	// Decided in docs/rules/wrapped.md: both groups promote on the enemy home rank,
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
	return wrapped("toroidal", "Toroidal chess", "8x14 board, ranks and files wrap (a torus); two pawn groups a side",
		" and whose files wrap (h is next to a).", Torus(8, 14))
})

// Cylindrical is chess on the 8×14 cylinder: ranks wrap, files do not.
func Cylindrical() Variant { return cylindrical() }

var cylindrical = sync.OnceValue(func() Variant {
	return wrapped("cylindrical", "Cylindrical chess", "8x14 board, ranks wrap, files a and h are edges; two pawn groups a side",
		"; files a and h are edges.", Cylinder(8, 14))
})

// KleinChess is chess on the 8×14 Klein bottle: as the torus, but a step between
// ranks 11 and 12 mirrors the file.
func KleinChess() Variant { return klein() }

var klein = sync.OnceValue(func() Variant {
	return wrapped("klein", "Klein chess", "8x14 Klein bottle: files wrap, crossing between ranks 11 and 12 mirrors the file",
		" and files wrap; stepping between ranks 11 and 12 mirrors the file (a<->h, b<->g, c<->f, d<->e).", KleinBoard(8, 14, 11))
})
