package rules

import (
	"fmt"
	"strconv"
)

// Vec is a displacement in files (DX) and ranks (DY) on the board's grid.
type Vec struct{ DX, DY int8 }

// maxReach bounds every displacement a piece may make in one step or leap
// (the Camel's 3), so that step tables can be precomputed.
const maxReach = 3

const vecSpan = 2*maxReach + 1

func vecIndex(v Vec) int { return (int(v.DY)+maxReach)*vecSpan + int(v.DX) + maxReach }

func vecAt(i int) Vec { return Vec{int8(i%vecSpan - maxReach), int8(i/vecSpan - maxReach)} }

// stepResult is one precomputed step.
type stepResult struct {
	to  Square
	vec uint8 // the displacement's index after the step (Klein negates DX)
	ok  bool
}

// Board is a topology: which squares of a rectangular grid exist, and where
// a step or a leap from a square arrives, across holes, wrapped edges and
// twisted seams. Boards are immutable after construction.
type Board struct {
	name       string
	w, h       int
	exists     []bool
	wrapFiles  bool
	wrapRanks  bool
	seam       int // Klein: a step between rank index seam-1 and seam mirrors the file; 0 = none
	orthogonal []Vec
	diagonal   []Vec
	table      [][vecSpan * vecSpan]stepResult // table[sq][vecIndex]
	squares    []Square                        // existing squares, a1 first
	// rays[sq*vecSpan*vecSpan+vi]: the squares a slider from sq along the
	// displacement vi passes, in order, up to the board's end or up to
	// (not including) its own square; for |DX|,|DY| <= 2.
	rays [][]Square
}

// BoardSpec describes a board for NewBoard.
type BoardSpec struct {
	Name      string
	Width     int
	Height    int
	Exists    func(file, rank int) bool // 0-based; nil means every square
	WrapFiles bool
	WrapRanks bool
	// KleinSeam, when > 0, is the 1-based rank below which a step up
	// crosses the twisted seam (11 for Klein chess: between 11 and 12).
	KleinSeam int
	// Orthogonal and Diagonal are the board's unit steps; nil means the
	// usual (±1,0),(0,±1) and (±1,±1).
	Orthogonal []Vec
	Diagonal   []Vec
}

// NewBoard builds a topology and its step tables.
func NewBoard(s BoardSpec) *Board {
	b := &Board{name: s.Name, w: s.Width, h: s.Height, wrapFiles: s.WrapFiles, wrapRanks: s.WrapRanks, seam: s.KleinSeam,
		orthogonal: s.Orthogonal, diagonal: s.Diagonal}
	if b.orthogonal == nil {
		b.orthogonal = []Vec{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	}
	if b.diagonal == nil {
		b.diagonal = []Vec{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
	}
	n := s.Width * s.Height
	b.exists = make([]bool, n)
	for sq := range n {
		f, r := sq%s.Width, sq/s.Width
		b.exists[sq] = s.Exists == nil || s.Exists(f, r)
		if b.exists[sq] {
			b.squares = append(b.squares, Square(sq))
		}
	}
	b.table = make([][vecSpan * vecSpan]stepResult, n)
	for sq := range n {
		if !b.exists[sq] {
			continue
		}
		for i := range vecSpan * vecSpan {
			v := vecAt(i)
			if v == (Vec{}) {
				continue
			}
			to, nv, ok := b.compute(Square(sq), v)
			b.table[sq][i] = stepResult{to: to, vec: uint8(vecIndex(nv)), ok: ok}
		}
	}
	b.rays = make([][]Square, n*vecSpan*vecSpan)
	for sq := range n {
		if !b.exists[sq] {
			continue
		}
		for i := range vecSpan * vecSpan {
			if v := vecAt(i); v == (Vec{}) || v.DX > 2 || v.DX < -2 || v.DY > 2 || v.DY < -2 {
				continue
			}
			var ray []Square
			vi := uint8(i)
			for at := Square(sq); len(ray) < n; {
				r := b.table[at][vi]
				if !r.ok || r.to == Square(sq) {
					break
				}
				at, vi = r.to, r.vec
				ray = append(ray, at)
			}
			b.rays[sq*vecSpan*vecSpan+i] = ray
		}
	}
	return b
}

// ray returns the squares a slider from sq along v passes on an empty
// board, in order (|DX|,|DY| <= 2).
func (b *Board) ray(sq Square, v Vec) []Square {
	return b.rays[int(sq)*vecSpan*vecSpan+vecIndex(v)]
}

// compute moves from sq by v: ranks first (wrapping if the board does),
// counting crossings of the Klein seam, then files; an odd number of
// crossings mirrors the arriving file and negates the sideways component.
func (b *Board) compute(sq Square, v Vec) (Square, Vec, bool) {
	f, r := int(sq)%b.w, int(sq)/b.w
	crossings := 0
	step := 1
	if v.DY < 0 {
		step = -1
	}
	for k := 0; k != int(v.DY); k += step {
		nr := r + step
		if b.wrapRanks {
			nr = (nr + b.h) % b.h
		} else if nr < 0 || nr >= b.h {
			return NoSquare, v, false
		}
		if b.seam > 0 && ((r == b.seam-1 && nr == b.seam) || (r == b.seam && nr == b.seam-1)) {
			crossings++
		}
		r = nr
	}
	f += int(v.DX)
	if b.wrapFiles {
		f = ((f % b.w) + b.w) % b.w
	} else if f < 0 || f >= b.w {
		return NoSquare, v, false
	}
	if crossings%2 == 1 {
		f = b.w - 1 - f
		v.DX = -v.DX
	}
	to := Square(f + r*b.w)
	if !b.exists[to] {
		return NoSquare, v, false
	}
	return to, v, true
}

// Step moves from sq by v (|DX|,|DY| ≤ 3) and returns the arrival square and
// the displacement to continue with (changed only by a twisted seam).
func (b *Board) Step(sq Square, v Vec) (Square, Vec, bool) {
	r := b.table[sq][vecIndex(v)]
	return r.to, vecAt(int(r.vec)), r.ok
}

// Leap returns where a leap by v from sq lands: as on the torus or cylinder,
// mirrored when it crossed a Klein seam; ok is false off the board or on a
// missing square.
func (b *Board) Leap(sq Square, v Vec) (Square, bool) {
	r := b.table[sq][vecIndex(v)]
	return r.to, r.ok
}

// stepIdx is Step on displacement indexes, for the hot loops.
func (b *Board) stepIdx(sq Square, vi uint8) stepResult { return b.table[sq][vi] }

// Name is the board's name.
func (b *Board) Name() string { return b.name }

// Width is the number of files.
func (b *Board) Width() int { return b.w }

// Height is the number of ranks.
func (b *Board) Height() int { return b.h }

// Size is Width × Height: squares are 0 .. Size-1.
func (b *Board) Size() int { return b.w * b.h }

// Exists reports whether sq is part of the board.
func (b *Board) Exists(sq Square) bool { return sq >= 0 && int(sq) < len(b.exists) && b.exists[sq] }

// Squares lists the existing squares, a1 first, rank by rank.
func (b *Board) Squares() []Square { return b.squares }

// WrapsFiles reports whether the last file is adjacent to the first.
func (b *Board) WrapsFiles() bool { return b.wrapFiles }

// WrapsRanks reports whether the last rank is adjacent to the first.
func (b *Board) WrapsRanks() bool { return b.wrapRanks }

// KleinSeam is the 1-based rank whose upper edge is the twisted seam, or 0.
func (b *Board) KleinSeam() int { return b.seam }

// Orthogonal returns the board's orthogonal unit steps.
func (b *Board) Orthogonal() []Vec { return b.orthogonal }

// Diagonal returns the board's diagonal unit steps.
func (b *Board) Diagonal() []Vec { return b.diagonal }

// Sq returns the square at 0-based file and rank, or NoSquare.
func (b *Board) Sq(file, rank int) Square {
	if file < 0 || file >= b.w || rank < 0 || rank >= b.h {
		return NoSquare
	}
	return Square(file + rank*b.w)
}

// File returns sq's 0-based file.
func (b *Board) File(sq Square) int { return int(sq) % b.w }

// Rank returns sq's 0-based rank.
func (b *Board) Rank(sq Square) int { return int(sq) / b.w }

// SquareName writes sq as "a1", "h14".
func (b *Board) SquareName(sq Square) string {
	if sq < 0 || int(sq) >= b.w*b.h {
		return "-"
	}
	return string(rune('a'+b.File(sq))) + strconv.Itoa(b.Rank(sq)+1)
}

// ParseSquare reads "a1".."h14"; the square must exist.
func (b *Board) ParseSquare(s string) (Square, bool) {
	if len(s) < 2 || s[0] < 'a' || s[0] >= byte('a'+b.w) {
		return NoSquare, false
	}
	r, err := strconv.Atoi(s[1:])
	if err != nil || r < 1 || r > b.h || s[1] == '0' || s[1] == '+' {
		return NoSquare, false
	}
	sq := b.Sq(int(s[0]-'a'), r-1)
	if !b.Exists(sq) {
		return NoSquare, false
	}
	return sq, true
}

// describe is used in errors about squares.
func (b *Board) describe(s string) string {
	return fmt.Sprintf("%q is not a square of this board (files a-%c, ranks 1-%d)", s, 'a'+b.w-1, b.h)
}

// Rect is an ordinary w×h board.
func Rect(name string, w, h int) *Board { return NewBoard(BoardSpec{Name: name, Width: w, Height: h}) }

// Torus is a w×h board whose files and ranks both wrap.
func Torus(w, h int) *Board {
	return NewBoard(BoardSpec{Name: "torus", Width: w, Height: h, WrapFiles: true, WrapRanks: true})
}

// Cylinder is a w×h board whose ranks wrap (rank h is next to rank 1) and
// whose files do not.
func Cylinder(w, h int) *Board {
	return NewBoard(BoardSpec{Name: "cylinder", Width: w, Height: h, WrapRanks: true})
}

// KleinBoard is the torus with a twisted seam above rank seam (docs/rules/wrapped.md).
func KleinBoard(w, h, seam int) *Board {
	return NewBoard(BoardSpec{Name: "klein", Width: w, Height: h, WrapFiles: true, WrapRanks: true, KleinSeam: seam})
}

// LightSquares is Cuarenta's board: the squares of a w×h grid whose file
// number + rank number (a = 1, rank 1 = 1) is odd; its orthogonal step goes
// to the next existing square, two grid steps away.
func LightSquares(w, h int) *Board {
	return NewBoard(BoardSpec{Name: "light squares", Width: w, Height: h,
		Exists:     func(f, r int) bool { return (f+1+r+1)%2 == 1 },
		Orthogonal: []Vec{{0, 2}, {2, 0}, {0, -2}, {-2, 0}}})
}

// Staircase is Toto40's board: file f (a = 1 … h = 8) has ranks 9−f … 13−f.
func Staircase() *Board {
	return NewBoard(BoardSpec{Name: "staircase", Width: 8, Height: 12,
		Exists: func(f, r int) bool { fn, rn := f+1, r+1; return rn >= 9-fn && rn <= 13-fn }})
}
