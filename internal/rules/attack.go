package rules

// attackIndex answers "does side X attack square s?" by looking back from
// s, instead of generating every enemy move. It is built once per variant
// from the piece table and the board, so it stays generic across
// topologies: for every target square it holds the rays that lead back to
// it along every capturing ride direction (through wraps and twisted seams)
// and the squares from which each capturing leap lands on it. Pieces that
// capture by hopping or by line jumps (the Vao, the Frog) are checked by
// forward generation.
type attackIndex struct {
	// rideRange[letter][v]: how far the piece rides along v to capture
	// (0: not at all, 255: unlimited).
	rideRange [128][vecSpan * vecSpan]uint8
	rays      [][][]rayStep  // rays[target]: one ray per ride direction
	leapsTo   [][]leapOrigin // leapsTo[target]
	onRay     [][]uint64     // onRay[target]: bitset of the squares of rays[target]
	slow      []byte         // letters whose captures need forward generation
	table     *[128]*PieceType
}

// rayStep is one square of a ray walked back from a target: a piece on sq
// reaches the target by riding along vecAt(back), n squares.
type rayStep struct {
	sq   Square
	back uint8
}

// leapOrigin is a square from which a piece leaps onto the target.
type leapOrigin struct {
	from    Square
	letter  byte
	forward bool // the leap is a forward one (a pawn's capture) ...
	down    bool // ... made by a piece moving down when down is set
}

func newAttackIndex(b *Board, table *[128]*PieceType, letters []byte) *attackIndex {
	ix := &attackIndex{table: table}
	var rideVecs []Vec
	seen := map[Vec]bool{}
	type leap struct {
		letter  byte
		vec     Vec
		forward bool
	}
	var leaps []leap
	for _, l := range letters {
		for _, p := range table[l].Moves {
			switch {
			case p.Kind == Hop || p.Kind == LineJump:
				ix.slow = append(ix.slow, l)
			case p.Mode&CaptureOnly == 0:
			case p.Kind == Ride && !p.Forward:
				rng := uint8(255)
				if p.Max > 0 && p.Max < 255 {
					rng = uint8(p.Max)
				}
				for _, v := range p.Vecs {
					if cur := &ix.rideRange[l][vecIndex(v)]; rng > *cur {
						*cur = rng
					}
					if !seen[v] {
						seen[v] = true
						rideVecs = append(rideVecs, v)
					}
				}
			case p.Kind == Leap:
				for _, v := range p.Vecs {
					leaps = append(leaps, leap{l, v, p.Forward})
				}
			default:
				ix.slow = append(ix.slow, l)
			}
		}
	}
	n := b.Size()
	words := (n + 63) / 64
	ix.rays = make([][][]rayStep, n)
	ix.leapsTo = make([][]leapOrigin, n)
	ix.onRay = make([][]uint64, n)
	for _, t := range b.squares {
		ix.onRay[t] = make([]uint64, words)
		for _, u := range rideVecs {
			var ray []rayStep
			vi := uint8(vecIndex(Vec{-u.DX, -u.DY}))
			for at := t; ; {
				r := b.stepIdx(at, vi)
				if !r.ok || r.to == t {
					break
				}
				at, vi = r.to, r.vec
				w := vecAt(int(vi))
				ray = append(ray, rayStep{sq: at, back: uint8(vecIndex(Vec{-w.DX, -w.DY}))})
				ix.onRay[t][at/64] |= 1 << (at % 64)
			}
			if len(ray) > 0 {
				ix.rays[t] = append(ix.rays[t], ray)
			}
		}
	}
	for _, from := range b.squares {
		for _, la := range leaps {
			for _, dn := range [2]bool{false, true} {
				if dn && !la.forward {
					continue
				}
				v := la.vec
				if la.forward {
					v = turn(v, dn)
				}
				if to, ok := b.Leap(from, v); ok && to != from {
					ix.leapsTo[to] = append(ix.leapsTo[to], leapOrigin{from: from, letter: la.letter, forward: la.forward, down: dn})
				}
			}
		}
	}
	return ix
}

// mayPin reports whether a piece on from can stand between target and an
// enemy rider, i.e. whether from lies on one of target's rays.
func (ix *attackIndex) mayPin(target, from Square) bool {
	return ix.onRay[target][from/64]&(1<<(from%64)) != 0
}

// attacked reports whether side by attacks target: whether one of its
// pieces could capture a piece standing there.
func (ix *attackIndex) attacked(b *Board, sq []Piece, target Square, by Color, down func(Piece) bool) bool {
	for _, ray := range ix.rays[target] {
		for n, st := range ray {
			pc := sq[st.sq]
			if pc == NoPiece {
				continue
			}
			if pc.Color() == by {
				if rng := ix.rideRange[pc.Letter()&127][st.back]; rng != 0 && n < int(rng) {
					return true
				}
			}
			break
		}
	}
	for _, lo := range ix.leapsTo[target] {
		pc := sq[lo.from]
		if pc != NoPiece && pc.Letter() == lo.letter && pc.Color() == by && (!lo.forward || down(pc) == lo.down) {
			return true
		}
	}
	if len(ix.slow) == 0 {
		return false
	}
	if sq[target] == NoPiece {
		// The slow primitives capture only onto an enemy piece: test
		// with a stand-in on a copy, never writing to the caller's board.
		cp := make([]Piece, len(sq))
		copy(cp, sq)
		cp[target] = MakePiece('K', by.Other())
		sq = cp
	}
	o := occupancy{b: b, sq: sq}
	for _, from := range b.squares {
		pc := sq[from]
		if pc == NoPiece || pc.Color() != by || from == target {
			continue
		}
		for _, l := range ix.slow {
			if pc.Letter() == l && o.attacks(from, pc, ix.table[l], down(pc), target) {
				return true
			}
		}
	}
	return false
}
