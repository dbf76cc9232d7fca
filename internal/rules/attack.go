package rules

// attackIndex answers "does side X attack square s?" by looking back from
// s along the variant's ride directions and leap vectors, instead of
// generating every enemy move. It is built once per variant from the piece
// table, so it stays generic: pieces with hop or line-jump captures (the
// Vao, the Frog) are checked by forward generation.
type attackIndex struct {
	rideVecs []Vec             // every capturing ride direction of any piece
	rides    [128][]rideAttack // by letter
	leaps    []leapAttack      // every capturing leap
	slow     []byte            // letters whose captures need forward generation
	table    *[128]*PieceType
}

type rideAttack struct {
	vecs [vecSpan * vecSpan]bool // by vecIndex
	max  int
}

type leapAttack struct {
	letter  byte
	vec     Vec
	forward bool
}

func newAttackIndex(table *[128]*PieceType, letters []byte) *attackIndex {
	ix := &attackIndex{table: table}
	seen := map[Vec]bool{}
	for _, l := range letters {
		pt := table[l]
		for _, p := range pt.Moves {
			switch {
			case p.Kind == Hop || p.Kind == LineJump:
				ix.slow = append(ix.slow, l)
			case p.Mode&CaptureOnly == 0:
			case p.Kind == Ride && !p.Forward:
				ra := rideAttack{max: p.Max}
				for _, v := range p.Vecs {
					ra.vecs[vecIndex(v)] = true
					if !seen[v] {
						seen[v] = true
						ix.rideVecs = append(ix.rideVecs, v)
					}
				}
				ix.rides[l] = append(ix.rides[l], ra)
			case p.Kind == Leap:
				for _, v := range p.Vecs {
					ix.leaps = append(ix.leaps, leapAttack{letter: l, vec: v, forward: p.Forward})
				}
			default:
				ix.slow = append(ix.slow, l)
			}
		}
	}
	return ix
}

// attacked reports whether side by attacks target.
func (ix *attackIndex) attacked(b *Board, sq []Piece, target Square, by Color, down func(Piece) bool) bool {
	// Rides: walk back from the target; the first piece met attacks it if
	// it rides the opposite way (within its range).
	for _, u := range ix.rideVecs {
		vi := uint8(vecIndex(Vec{-u.DX, -u.DY}))
		at := target
		for n := 1; ; n++ {
			r := b.stepIdx(at, vi)
			if !r.ok || r.to == target {
				break
			}
			at, vi = r.to, r.vec
			pc := sq[at]
			if pc == NoPiece {
				continue
			}
			if pc.Color() == by {
				w := vecAt(int(vi))
				back := vecIndex(Vec{-w.DX, -w.DY})
				for i := range ix.rides[pc.Letter()&127] {
					if ra := &ix.rides[pc.Letter()&127][i]; ra.vecs[back] && (ra.max == 0 || n <= ra.max) {
						return true
					}
				}
			}
			break
		}
	}
	// Leaps: every square from which a leap lands on the target (two
	// candidates where a twisted seam mirrors the leap), confirmed forwards.
	for _, la := range ix.leaps {
		for _, dn := range [2]bool{false, true} {
			v := la.vec
			if la.forward {
				v = turn(v, dn)
			} else if dn {
				continue
			}
			for _, back := range [2]Vec{{-v.DX, -v.DY}, {v.DX, -v.DY}} {
				from, ok := b.Leap(target, back)
				if !ok {
					continue
				}
				pc := sq[from]
				if pc == NoPiece || pc.Color() != by || pc.Letter() != la.letter || (la.forward && down(pc) != dn) {
					continue
				}
				if to, ok := b.Leap(from, v); ok && to == target {
					return true
				}
			}
		}
	}
	if len(ix.slow) == 0 {
		return false
	}
	o := occupancy{b: b, sq: sq}
	saved := sq[target]
	if saved == NoPiece {
		sq[target] = MakePiece('K', by.Other())
	}
	defer func() { sq[target] = saved }()
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
