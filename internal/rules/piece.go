package rules

// Mode says whether a movement may go to an empty square, capture, or both.
type Mode uint8

// Movement modes.
const (
	MoveOnly    Mode = 1
	CaptureOnly Mode = 2
	Both        Mode = MoveOnly | CaptureOnly
)

// PrimKind is a shared movement primitive.
type PrimKind uint8

// The movement primitives every piece is built from.
const (
	// Leap goes by one of Vecs, over whatever stands between (a step is a
	// leap of one square).
	Leap PrimKind = iota
	// Ride slides along Vecs, any number of squares (or at most Max) until
	// blocked; it never continues onto or past its starting square.
	Ride
	// Hop moves nowhere by itself; it captures by sliding along Vecs over
	// exactly one piece of either colour (the screen) onto the first piece
	// beyond it, which must be an enemy (the Vao, a cannon on diagonals).
	Hop
	// LineJump jumps along Vecs over an unbroken run of one or more of its
	// own pieces beginning on the adjacent square, landing on the first
	// square beyond, empty or enemy (the Frog).
	LineJump
	// JumpOver leaps by 2×Vec onto an empty square when the square at Vec
	// holds any piece (Toe-to-Toe's pawn leap). Never captures.
	JumpOver
	// LameLeap leaps by one of Vecs when every square of its path (Paths,
	// the offsets passed on the way, in order) is empty: the Xiangqi horse
	// and elephant (Betza n).
	LameLeap
)

// Prim is one movement primitive of a piece.
type Prim struct {
	Kind PrimKind
	Vecs []Vec
	Max  int // Ride: at most this many squares; 0 = unlimited
	Mode Mode
	// Forward marks Vecs as written for a piece moving toward higher ranks;
	// they are turned for a piece moving down.
	Forward bool
	// Paths[i] are the squares LameLeap's Vecs[i] passes, as offsets
	// from the start (unused by the other kinds).
	Paths [][]Vec
}

// PieceType is a piece of a variant: a letter, a name, and its movements.
type PieceType struct {
	Letter byte
	Name   string
	Royal  bool // its capture or attack decides the game (check)
	Moves  []Prim
}

// Movement builders, so that a piece table reads like its rule page.

// Steps is a one-square move along vecs.
func Steps(mode Mode, vecs ...Vec) Prim { return Prim{Kind: Leap, Vecs: vecs, Mode: mode} }

// Leaps is a leap by any of vecs, moving or capturing.
func Leaps(vecs ...Vec) Prim { return Prim{Kind: Leap, Vecs: vecs, Mode: Both} }

// Rides is a slide along vecs, at most max squares (0: unlimited).
func Rides(max int, vecs ...Vec) Prim { return Prim{Kind: Ride, Vecs: vecs, Max: max, Mode: Both} }

// ForwardSteps is a one-square move along vecs written for an upward piece.
func ForwardSteps(mode Mode, vecs ...Vec) Prim {
	return Prim{Kind: Leap, Vecs: vecs, Mode: mode, Forward: true}
}

// Join concatenates direction sets.
func Join(sets ...[]Vec) []Vec {
	var out []Vec
	for _, s := range sets {
		out = append(out, s...)
	}
	return out
}

// Scale multiplies every vector by k.
func Scale(k int8, vecs []Vec) []Vec {
	out := make([]Vec, len(vecs))
	for i, v := range vecs {
		out[i] = Vec{v.DX * k, v.DY * k}
	}
	return out
}

// Symmetric returns (±a, ±b) and (±b, ±a), each once.
func Symmetric(a, b int8) []Vec {
	seen := map[Vec]bool{}
	var out []Vec
	for _, v := range []Vec{{a, b}, {b, a}} {
		for _, sx := range []int8{1, -1} {
			for _, sy := range []int8{1, -1} {
				w := Vec{v.DX * sx, v.DY * sy}
				if !seen[w] {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// turn returns v for a piece moving down when forward is true.
func turn(v Vec, down bool) Vec {
	if down {
		return Vec{v.DX, -v.DY}
	}
	return v
}

// occupancy is what movement generation needs to know of a position.
type occupancy struct {
	b  *Board
	sq []Piece
}

func (o occupancy) canLand(to Square, me Color, mode Mode) bool {
	t := o.sq[to]
	if t == NoPiece {
		return mode&MoveOnly != 0
	}
	return t.Color() != me && mode&CaptureOnly != 0
}

// targets calls emit for every square the piece p on from can go to by
// prim (possibly the same square twice on wrapped boards: callers dedupe).
// down turns Forward vectors.
func (o occupancy) targets(from Square, p Piece, prim *Prim, down bool, emit func(Square)) {
	me := p.Color()
	for i, v0 := range prim.Vecs {
		v := v0
		if prim.Forward {
			v = turn(v, down)
		}
		switch prim.Kind {
		case Leap:
			if to, ok := o.b.Leap(from, v); ok && to != from && o.canLand(to, me, prim.Mode) {
				emit(to)
			}
		case Ride:
			ray := o.b.ray(from, v)
			if prim.Max > 0 && len(ray) > prim.Max {
				ray = ray[:prim.Max]
			}
			for _, at := range ray {
				if o.sq[at] != NoPiece {
					if o.canLand(at, me, prim.Mode) {
						emit(at)
					}
					break
				}
				if prim.Mode&MoveOnly != 0 {
					emit(at)
				}
			}
		case Hop:
			// Over exactly one piece (the screen): without capturing to
			// any empty square beyond it (MoveOnly), capturing the first
			// piece beyond it when an enemy (CaptureOnly).
			vi := uint8(vecIndex(v))
			at, screen := from, false
			for {
				r := o.b.stepIdx(at, vi)
				if !r.ok || r.to == from {
					break
				}
				at, vi = r.to, r.vec
				if o.sq[at] == NoPiece {
					if screen && prim.Mode&MoveOnly != 0 {
						emit(at)
					}
					continue
				}
				if !screen {
					screen = true
					continue
				}
				if o.sq[at].Color() != me && prim.Mode&CaptureOnly != 0 {
					emit(at)
				}
				break
			}
		case LameLeap:
			to, ok := o.b.Leap(from, v)
			if !ok || to == from || !o.canLand(to, me, prim.Mode) {
				continue
			}
			free := true
			for _, pv := range prim.Paths[i] {
				if prim.Forward {
					pv = turn(pv, down)
				}
				if at, ok := o.b.Leap(from, pv); !ok || o.sq[at] != NoPiece {
					free = false
					break
				}
			}
			if free {
				emit(to)
			}
		case LineJump:
			vi := uint8(vecIndex(v))
			at, run := from, 0
			for {
				r := o.b.stepIdx(at, vi)
				if !r.ok || r.to == from {
					break
				}
				at, vi = r.to, r.vec
				if t := o.sq[at]; t != NoPiece && t.Color() == me {
					run++
					continue
				}
				if run > 0 && o.canLand(at, me, Both) {
					emit(at)
				}
				break
			}
		case JumpOver:
			mid, ok := o.b.Leap(from, v)
			if !ok || o.sq[mid] == NoPiece {
				continue
			}
			if to, ok := o.b.Leap(from, Vec{2 * v.DX, 2 * v.DY}); ok && to != from && o.sq[to] == NoPiece {
				emit(to)
			}
		}
	}
}

// attacks reports whether the piece p on from attacks target (could capture
// a piece standing there).
func (o occupancy) attacks(from Square, p Piece, pt *PieceType, down bool, target Square) bool {
	hit := false
	for i := range pt.Moves {
		prim := &pt.Moves[i]
		if prim.Mode&CaptureOnly == 0 && prim.Kind != Hop && prim.Kind != LineJump {
			continue
		}
		o.targets(from, p, prim, down, func(to Square) {
			if to == target {
				hit = true
			}
		})
		if hit {
			return true
		}
	}
	return false
}

// squareAttacked reports whether side by attacks target: whether one of its
// pieces could capture a piece standing there. An empty target gets a
// stand-in piece of the other side for the test.
func squareAttacked(b *Board, table *[128]*PieceType, sq []Piece, target Square, by Color, down func(Piece) bool) bool {
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
		if o.attacks(from, pc, table[pc.Letter()&127], down(pc), target) {
			return true
		}
	}
	return false
}
