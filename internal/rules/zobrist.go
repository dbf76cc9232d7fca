package rules

// Zobrist keys for repetition and superko, kept incrementally as shakmaty
// keeps its Zobrist hashes: a position's key is the XOR of one
// pseudo-random value per (square, piece) on the board and one per other
// feature (the side to act, castling rights, the phase, what is in hand),
// so a move updates it by XORing out what it took away and in what it
// put, in time independent of the board's size and of the game's length.
// Each variant's Play does that; its fullKey recomputes the same key from
// the whole position, and the tests check that the two agree over many
// random games of every variant.
//
// The values come from a fixed mixing function (splitmix64's finalizer)
// rather than a table: pieces are 16-bit values (letter, colour, the
// direction mark, the promoted mark) on boards of up to 8×14 squares, and keys are only ever
// compared within one game, never stored.

// The domains of the values, so that no two features share one.
const (
	zDomainPiece  = 1 << 40
	zDomainSide   = 2 << 40
	zDomainCastle = 3 << 40
	zDomainEP     = 4 << 40
	zDomainPhase  = 5 << 40
	zDomainHand   = 6 << 40
)

// zMix is splitmix64's finalizer: a bijection of uint64 that spreads every
// input bit over the whole output.
func zMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// zPiece is the value of piece pc on square sq; an empty square adds
// nothing.
func zPiece(sq Square, pc Piece) uint64 {
	if pc == NoPiece {
		return 0
	}
	return zMix(zDomainPiece | uint64(uint16(sq))<<16 | uint64(pc))
}

// zSquare is what changing square sq from before to after does to a key.
func zSquare(sq Square, before, after Piece) uint64 {
	if before == after {
		return 0
	}
	return zPiece(sq, before) ^ zPiece(sq, after)
}

// zBlack is in the key of every position with Black to act.
var zBlack = zMix(zDomainSide)

// zSide is the side-to-act term of a key.
func zSide(c Color) uint64 {
	if c == Black {
		return zBlack
	}
	return 0
}

// zCastle is the value of a set of castling rights (bit i: right i).
func zCastle(rights uint16) uint64 {
	if rights == 0 {
		return 0
	}
	return zMix(zDomainCastle | uint64(rights))
}

// zEP is the value of an en passant square where a capture is legal.
func zEP(sq Square) uint64 { return zMix(zDomainEP | uint64(uint16(sq))) }

// zPhase is the value of a game phase (Toe-to-Toe's deployments and swaps).
func zPhase(phase int) uint64 {
	if phase == 0 {
		return 0
	}
	return zMix(zDomainPhase | uint64(uint32(phase)))
}

// zHand is the value of holding count pieces of kind i in c's hand.
func zHand(c Color, i int, count uint8) uint64 {
	if count == 0 {
		return 0
	}
	return zMix(zDomainHand | uint64(c)<<24 | uint64(uint8(i))<<8 | uint64(count))
}

// zBoard is the board part of a key, recomputed from every square.
func zBoard(sq []Piece) uint64 {
	var k uint64
	for s, pc := range sq {
		k ^= zPiece(Square(s), pc)
	}
	return k
}
