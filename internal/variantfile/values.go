package variantfile

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Value is a game result for the side it happens to, as variants.ini
// writes it: win, loss, draw, or none (the rule does not apply).
type Value int8

// The results a rule can give.
const (
	ValueNone Value = iota
	ValueWin
	ValueLoss
	ValueDraw
)

func (v Value) String() string {
	switch v {
	case ValueWin:
		return "win"
	case ValueLoss:
		return "loss"
	case ValueDraw:
		return "draw"
	}
	return "none"
}

// Region is a set of squares of a board of at most 16×16: bit file+16*rank.
type Region [4]uint64

// Add puts the square (0-based file and rank) in the region.
func (r *Region) Add(file, rank int) { i := file + 16*rank; r[i/64] |= 1 << (i % 64) }

// Has reports whether the square (0-based) is in the region.
func (r Region) Has(file, rank int) bool {
	if file < 0 || file >= 16 || rank < 0 || rank >= 16 {
		return false
	}
	i := file + 16*rank
	return r[i/64]&(1<<(i%64)) != 0
}

// Len is the number of squares in the region.
func (r Region) Len() int {
	n := 0
	for _, w := range r {
		n += bits.OnesCount64(w)
	}
	return n
}

// Ranks returns the region of whole ranks from..to (0-based, inclusive)
// of a board w files wide.
func Ranks(w, from, to int) Region {
	var r Region
	for rank := max(from, 0); rank <= to && rank < 16; rank++ {
		for f := range w {
			r.Add(f, rank)
		}
	}
	return r
}

// Describe writes the region for a w×h board: whole ranks as "rank 8",
// whole files as "file a", other squares by name.
func (r Region) Describe(w, h int) string {
	if r.Len() == 0 {
		return "no square"
	}
	var parts []string
	left := r
	for rank := range h {
		whole := true
		for f := range w {
			whole = whole && r.Has(f, rank)
		}
		if whole {
			parts = append(parts, fmt.Sprintf("rank %d", rank+1))
			for f := range w {
				i := f + 16*rank
				left[i/64] &^= 1 << (i % 64)
			}
		}
	}
	for rank := range h {
		for f := range w {
			if left.Has(f, rank) {
				parts = append(parts, squareName(f, rank))
			}
		}
	}
	return strings.Join(parts, ", ")
}

func squareName(file, rank int) string { return string(rune('a'+file)) + strconv.Itoa(rank+1) }

// parseBool reads true or false.
func parseBool(v string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false; write true or false", clip(v))
}

// parseInt reads a whole number from 0 to max.
func parseInt(v string, max int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > max || v[0] == '+' {
		return 0, fmt.Errorf("%q is not a whole number from 0 to %d; write e.g. 50", clip(v), max)
	}
	return n, nil
}

// parseRank reads a rank number 1..16 and returns it 0-based.
func parseRank(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxBoardSide || v[0] == '+' {
		return 0, fmt.Errorf("%q is not a rank; write a number from 1 to %d", clip(v), MaxBoardSide)
	}
	return n - 1, nil
}

// parseFile reads a file as a number 1..16 or a letter a..p and returns
// it 0-based.
func parseFile(v string) (int, error) {
	if len(v) == 1 && v[0] >= 'a' && v[0] < 'a'+MaxBoardSide {
		return int(v[0] - 'a'), nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxBoardSide || v[0] == '+' {
		return 0, fmt.Errorf("%q is not a file; write a letter from a to p or a number from 1 to %d", clip(v), MaxBoardSide)
	}
	return n - 1, nil
}

// parseValue reads win, loss, draw or none.
func parseValue(v string) (Value, error) {
	switch v {
	case "win":
		return ValueWin, nil
	case "loss":
		return ValueLoss, nil
	case "draw":
		return ValueDraw, nil
	case "none":
		return ValueNone, nil
	}
	return 0, fmt.Errorf("%q is not a result; write win, loss, draw or none", clip(v))
}

// parseRegion reads squares in Fairy-Stockfish's Bitboard syntax: names
// (e4), whole files (a*), whole ranks (*1), separated by spaces; a - ends
// the list (and alone means no square). Every square must lie on the w×h
// board.
func parseRegion(v string, w, h int) (Region, error) {
	var r Region
	for _, tok := range strings.Fields(v) {
		if tok == "-" {
			break
		}
		bad := func(why string) (Region, error) {
			return Region{}, fmt.Errorf("%q in %q: %s; write squares (e4), whole files (a*) or whole ranks (*1), separated by spaces", clip(tok), clip(v), why)
		}
		switch {
		case strings.HasPrefix(tok, "*"):
			rank, err := strconv.Atoi(tok[1:])
			if err != nil || rank < 1 || rank > h || tok[1] == '+' {
				return bad(fmt.Sprintf("the board has ranks 1 to %d", h))
			}
			for f := range w {
				r.Add(f, rank-1)
			}
		case len(tok) == 2 && tok[1] == '*':
			f := int(tok[0]) - 'a'
			if f < 0 || f >= w {
				return bad(fmt.Sprintf("the board has files a to %c", 'a'+w-1))
			}
			for rank := range h {
				r.Add(f, rank)
			}
		default:
			f := int(tok[0]) - 'a'
			rank, err := strconv.Atoi(tok[1:])
			if f < 0 || f >= w || err != nil || rank < 1 || rank > h || tok[1] == '+' {
				return bad(fmt.Sprintf("it is not a square of this %dx%d board", w, h))
			}
			r.Add(f, rank-1)
		}
	}
	return r, nil
}
