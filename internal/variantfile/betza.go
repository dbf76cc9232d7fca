package variantfile

import (
	"fmt"
	"slices"
	"strings"

	"referee/internal/rules"
)

// Kind is how one move of a Betza string goes.
type Kind uint8

// The kinds of Betza moves the reader knows.
const (
	// KindLeap goes by one of the vectors, over whatever stands between.
	KindLeap Kind = iota
	// KindRide repeats a step along one vector until blocked (at most
	// Range steps when Range > 0): doubled atoms (NN), R, B, Q, ranges (W4).
	KindRide
	// KindHop (p) slides along the vector over exactly one piece of either
	// side, the screen, and goes on beyond it: to an empty square (moving)
	// or onto the first piece beyond (capturing), as a Xiangqi cannon.
	KindHop
	// KindGrasshop (g) is a hop that lands on the square just beyond the
	// screen.
	KindGrasshop
	// KindLame (n) is a leap that a piece standing on its path blocks
	// (the Xiangqi horse, nN; the elephant, nA).
	KindLame
	// KindJump (j) is a leap that must pass over a piece of either side on
	// the square halfway (jD, jA). Fairy-Stockfish ignores j: see Notes.
	KindJump
)

// Move is one atom of a Betza string with its modifiers, resolved to the
// vectors it goes by.
type Move struct {
	Text  string // the fragment as written, e.g. "fmW"
	Pos   int    // 1-based position of the fragment's first letter
	Atom  byte   // W F D N A H C Z G K R B Q (L and J are read as C and Z)
	Kind  Kind
	Range int // KindRide: at most this many steps; 0 = unlimited
	Mode  rules.Mode
	// Initial (i) allows the move only as the piece's first move.
	Initial bool
	// Vecs are the displacements as White plays them: DX files to the
	// right, DY ranks forward. Black plays them turned by 180 degrees
	// (Fairy-Stockfish negates both).
	Vecs []rules.Vec
}

// Betza is a piece's movement read from Betza notation.
type Betza struct {
	Text  string
	Moves []Move
	// EnPassant is set by an e anywhere in the string: the piece may
	// capture en passant (Fairy-Stockfish's reading).
	EnPassant bool
	// Notes say where Fairy-Stockfish reads the string differently.
	Notes []string
}

// BetzaError is a Betza string refused at a position.
type BetzaError struct {
	Betza string
	Pos   int // 1-based; the letter at fault
	Msg   string
	Err   error // ErrUnsupported for what Fairy-Stockfish reads but the referee does not
}

func (e *BetzaError) Error() string {
	if e.Pos > 0 && e.Pos <= len(e.Betza) {
		return fmt.Sprintf("Betza %q, letter %d (%q): %s", e.Betza, e.Pos, e.Betza[e.Pos-1], e.Msg)
	}
	return fmt.Sprintf("Betza %q: %s", e.Betza, e.Msg)
}

func (e *BetzaError) Unwrap() error { return e.Err }

// atom is a Betza atom: its one or two basic displacements (long, short)
// and whether it rides by itself.
type atom struct {
	legs  [][2]int8 // (a, b): a ranks and b files, before directions
	rider bool
}

func atomOf(c byte) (atom, bool) {
	switch c {
	case 'W':
		return atom{legs: [][2]int8{{1, 0}}}, true
	case 'F':
		return atom{legs: [][2]int8{{1, 1}}}, true
	case 'D':
		return atom{legs: [][2]int8{{2, 0}}}, true
	case 'N':
		return atom{legs: [][2]int8{{2, 1}}}, true
	case 'A':
		return atom{legs: [][2]int8{{2, 2}}}, true
	case 'H':
		return atom{legs: [][2]int8{{3, 0}}}, true
	case 'C', 'L':
		return atom{legs: [][2]int8{{3, 1}}}, true
	case 'Z', 'J':
		return atom{legs: [][2]int8{{3, 2}}}, true
	case 'G':
		return atom{legs: [][2]int8{{3, 3}}}, true
	case 'K':
		return atom{legs: [][2]int8{{1, 0}, {1, 1}}}, true
	case 'R':
		return atom{legs: [][2]int8{{1, 0}}, rider: true}, true
	case 'B':
		return atom{legs: [][2]int8{{1, 1}}, rider: true}, true
	case 'Q':
		return atom{legs: [][2]int8{{1, 0}, {1, 1}}, rider: true}, true
	}
	return atom{}, false
}

// orientations lists, for a displacement of a ranks and b files, its eight
// turned forms (as DX, DY) and the direction tokens that select each, as
// Fairy-Stockfish reads them. A token is a modifier letter doubled (ff,
// ss) or a pair of a vertical and a horizontal one (fr, rf, fh ...).
func orientations(a, b int8) [8]struct {
	v   rules.Vec
	sel string
} {
	return [8]struct {
		v   rules.Vec
		sel string
	}{
		{rules.Vec{DX: b, DY: a}, "ff vv rf rv fh rh hr"},
		{rules.Vec{DX: -b, DY: -a}, "bb vv lb lv bh lh hr"},
		{rules.Vec{DX: a, DY: -b}, "rr ss br bs bh rh hr"},
		{rules.Vec{DX: -a, DY: b}, "ll ss fl fs fh lh hr"},
		{rules.Vec{DX: a, DY: b}, "rr ss fr fs fh rh hl"},
		{rules.Vec{DX: -a, DY: -b}, "ll ss bl bs bh lh hl"},
		{rules.Vec{DX: b, DY: -a}, "bb vv rb rv bh rh hl"},
		{rules.Vec{DX: -b, DY: a}, "ff vv lf lv fh lh hl"},
	}
}

const (
	verticals   = "fbvh"
	horizontals = "rlsh"
)

// ParseBetza reads a piece's moves in the Betza notation Fairy-Stockfish
// reads: the atoms W F D N A H C (L) Z (J) G K and the riders R B Q; an
// atom doubled (NN) or followed by a digit (W4, 0 = unlimited) rides; the
// modifiers m (move only), c (capture only), p (hop over a screen), g
// (grasshopper), n (lame leaper), i (first move only), e (en passant), the
// directions f b l r v s h and their pairs (fr, fs ...); and j (must jump
// over a piece), which Fairy-Stockfish ignores. Anything else is refused
// with the position of the letter at fault, never skipped.
func ParseBetza(s string) (*Betza, error) {
	if len(s) > MaxBetzaBytes {
		return nil, &BetzaError{Betza: clip(s), Msg: fmt.Sprintf("a piece's Betza string has at most %d letters", MaxBetzaBytes)}
	}
	out := &Betza{Text: s}
	fail := func(pos int, unsupported bool, format string, args ...any) error {
		e := &BetzaError{Betza: s, Pos: pos + 1, Msg: fmt.Sprintf(format, args...)}
		if unsupported {
			e.Err = ErrUnsupported
		}
		return e
	}
	var (
		start         = -1 // position of the first modifier of the pending move
		mode          rules.Mode
		hop           byte // 'p' or 'g'
		hopPos        int
		lame, jump    bool
		lamePos       int
		jumpPos       int
		initial       bool
		dirs          []string
		dirPos        int
		seenEnPassant bool
	)
	mark := func(i int) {
		if start < 0 {
			start = i
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 'm':
			mark(i)
			mode |= rules.MoveOnly
		case c == 'c':
			mark(i)
			mode |= rules.CaptureOnly
		case c == 'p' || c == 'g':
			mark(i)
			if hop != 0 {
				return nil, fail(i, false, "a move has one hopper modifier (p or g), this one has two")
			}
			hop, hopPos = c, i
		case c == 'n':
			mark(i)
			lame, lamePos = true, i
		case c == 'j':
			mark(i)
			jump, jumpPos = true, i
		case c == 'i':
			mark(i)
			initial = true
		case c == 'e':
			// Fairy-Stockfish: an e anywhere makes the piece capture en passant.
			seenEnPassant = true
		case strings.IndexByte(verticals, c) >= 0 || strings.IndexByte(horizontals, c) >= 0:
			mark(i)
			if len(dirs) == 0 {
				dirPos = i
			}
			if i+1 < len(s) {
				c2 := s[i+1]
				if c2 == c || strings.IndexByte(verticals, c) >= 0 && strings.IndexByte(horizontals, c2) >= 0 ||
					strings.IndexByte(horizontals, c) >= 0 && strings.IndexByte(verticals, c2) >= 0 {
					dirs = append(dirs, string([]byte{c, c2}))
					i++
					continue
				}
			}
			dirs = append(dirs, string([]byte{c, c}))
		case c >= 'A' && c <= 'Z':
			at, ok := atomOf(c)
			if !ok {
				return nil, fail(i, false, "%c is not an atom Fairy-Stockfish reads; the atoms are W F D N A H C (or L) Z (or J) G K, and the riders R B Q", c)
			}
			if start < 0 {
				start = i
			}
			m := Move{Pos: start + 1, Atom: normAtom(c), Mode: mode, Initial: initial}
			if m.Mode == 0 {
				m.Mode = rules.Both
			}
			rider, rng := at.rider, 0
			end := i + 1
			if i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == c) {
				if at.rider && s[i+1] == c {
					return nil, fail(i+1, false, "%c already rides; write %c alone", c, c)
				}
				rider = true
				if s[i+1] != c {
					rng = int(s[i+1] - '0')
				}
				end = i + 2
				if end < len(s) && s[end] >= '0' && s[end] <= '9' {
					return nil, fail(end, true, "Fairy-Stockfish reads a range of one digit (1-9, or 0 for no limit); write %c%c for no limit", c, c)
				}
			}
			m.Text = s[start:end]
			switch {
			case hop != 0:
				if rng != 0 {
					return nil, fail(i+1, true, "a range after a hopper is not read; write %c%c without the digit", hop, c)
				}
				for _, l := range at.legs {
					if l[1] != 0 && l[1] != l[0] || l[0] != 1 {
						return nil, fail(i, true, "Fairy-Stockfish hops only along rook and bishop lines (pR, pB, pQ, gR, gB ...), not along %c", c)
					}
				}
				if lame || jump {
					return nil, fail(hopPos, false, "a hopper cannot also be lame (n) or jumping (j)")
				}
				m.Kind = KindHop
				if hop == 'g' {
					m.Kind = KindGrasshop
				}
			case lame:
				if rider {
					return nil, fail(lamePos, true, "n (lame) applies to leapers, not to riders; Fairy-Stockfish ignores it on %s", m.Text)
				}
				if c == 'W' || c == 'F' || c == 'K' {
					return nil, fail(lamePos, false, "a one-square step cannot be blocked on its way; remove the n")
				}
				if jump {
					return nil, fail(jumpPos, false, "a move cannot be both lame (n) and jumping (j)")
				}
				m.Kind = KindLame
			case jump:
				if rider {
					return nil, fail(jumpPos, true, "j on a rider (skip the first square) is not read; only jD and jA (leap over the square halfway) are")
				}
				if c != 'D' && c != 'A' {
					return nil, fail(jumpPos, true, "j needs a leap with one square halfway (D or A); %c has none or several", c)
				}
				m.Kind = KindJump
				out.Notes = append(out.Notes, fmt.Sprintf("Fairy-Stockfish ignores the j of %q and reads it as %q (a leap that needs no piece to jump over)", m.Text, strings.Replace(m.Text, "j", "", 1)))
			case rider:
				m.Kind, m.Range = KindRide, rng
			default:
				m.Kind = KindLeap
			}
			if m.Initial {
				if m.Mode&rules.MoveOnly == 0 {
					return nil, fail(start, true, "a first-move-only (i) capture is not read by Fairy-Stockfish; write im%c for a move without capture", c)
				}
				m.Mode = rules.MoveOnly
			}
			vecs, err := orient(at, dirs)
			if err != nil {
				return nil, fail(dirPos, false, "%v in %q", err, m.Text)
			}
			m.Vecs = vecs
			out.Moves = append(out.Moves, m)
			i = end - 1
			start, mode, hop, lame, jump, initial, dirs = -1, 0, 0, false, false, false, nil
		case c >= '0' && c <= '9':
			return nil, fail(i, false, "a range digit must follow an atom, as in W4 or R2")
		default:
			return nil, fail(i, c >= 'a' && c <= 'z', "%s", unknownModifier(c))
		}
	}
	if start >= 0 {
		return nil, fail(start, false, "the modifiers %q are not followed by an atom; end the move with one, e.g. %sW", s[start:], s[start:])
	}
	out.EnPassant = seenEnPassant
	return out, nil
}

func normAtom(c byte) byte {
	switch c {
	case 'L':
		return 'C'
	case 'J':
		return 'Z'
	}
	return c
}

// unknownModifier explains a lower-case letter Fairy-Stockfish does not read.
func unknownModifier(c byte) string {
	switch c {
	case 'a':
		return "multi-leg moves (a) are not read by Fairy-Stockfish's variants.ini"
	case 'o':
		return "o (moving off one edge onto the other) is not read; use referee_wrapFiles for a cylinder board"
	case 'x', 'y', 'u', 't', 'd', 'z', 'q', 'k', 'w':
		return fmt.Sprintf("%c is an XBetza modifier Fairy-Stockfish does not read", c)
	}
	return fmt.Sprintf("%q is not a Betza letter; the modifiers are m c p g n j i e and the directions f b l r v s h", c)
}

// orient turns the atom's legs into the vectors the direction tokens
// select (all eight orientations when there are none).
func orient(at atom, dirs []string) ([]rules.Vec, error) {
	var out []rules.Vec
	for _, leg := range at.legs {
		toks := dirs
		// A lone orthogonal atom splits mixed pairs: fsW is fW + sW
		// (Fairy-Stockfish's soldier).
		if len(at.legs) == 1 && leg[1] == 0 {
			toks = nil
			for _, d := range dirs {
				if d[0] != d[1] {
					toks = append(toks, string([]byte{d[0], d[0]}), string([]byte{d[1], d[1]}))
				} else {
					toks = append(toks, d)
				}
			}
		}
		for _, o := range orientations(leg[0], leg[1]) {
			if len(toks) > 0 && !slices.ContainsFunc(toks, func(t string) bool { return slices.Contains(strings.Fields(o.sel), t) }) {
				continue
			}
			if !slices.Contains(out, o.v) {
				out = append(out, o.v)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the directions %s select no move", strings.Join(dirs, " "))
	}
	return out, nil
}

// Prims turns the moves into the engine's movement primitives. What the
// engine cannot express is left out and said in gaps, one sentence each
// (ENGINE.md lists what the engine must gain).
func (b *Betza) Prims() (prims []rules.Prim, gaps []string) {
	for _, m := range b.Moves {
		forward := !symmetric(m.Vecs, func(v rules.Vec) rules.Vec { return rules.Vec{DX: v.DX, DY: -v.DY} })
		if !symmetric(m.Vecs, func(v rules.Vec) rules.Vec { return rules.Vec{DX: -v.DX, DY: v.DY} }) {
			gaps = append(gaps, fmt.Sprintf("%s: a move to one side only is turned for Black by half a turn (Black's left is White's right); the engine only mirrors the ranks", m.Text))
			continue
		}
		if m.Initial {
			gaps = append(gaps, fmt.Sprintf("%s: a move allowed only as a piece's first move (i) has no engine primitive", m.Text))
			continue
		}
		vecs := slices.Clone(m.Vecs)
		switch m.Kind {
		case KindLeap:
			prims = append(prims, rules.Prim{Kind: rules.Leap, Vecs: vecs, Mode: m.Mode, Forward: forward})
		case KindRide:
			if longest(m.Vecs) > 2 {
				gaps = append(gaps, fmt.Sprintf("%s: riding by steps longer than two squares has no precomputed rays in the engine", m.Text))
				continue
			}
			prims = append(prims, rules.Prim{Kind: rules.Ride, Vecs: vecs, Max: m.Range, Mode: m.Mode, Forward: forward})
		case KindHop:
			prims = append(prims, rules.Prim{Kind: rules.Hop, Vecs: vecs, Mode: m.Mode, Forward: forward})
		case KindGrasshop:
			gaps = append(gaps, fmt.Sprintf("%s: the grasshopper (land just beyond the screen) has no engine primitive", m.Text))
		case KindLame:
			paths := make([][]rules.Vec, len(vecs))
			for i, v := range vecs {
				paths[i] = LamePath(v)
			}
			prims = append(prims, rules.Prim{Kind: rules.LameLeap, Vecs: vecs, Paths: paths, Mode: m.Mode, Forward: forward})
		case KindJump:
			if m.Mode&rules.MoveOnly != 0 {
				half := make([]rules.Vec, len(vecs))
				for i, v := range vecs {
					half[i] = rules.Vec{DX: v.DX / 2, DY: v.DY / 2}
				}
				prims = append(prims, rules.Prim{Kind: rules.JumpOver, Vecs: half, Mode: rules.MoveOnly, Forward: forward})
			}
			if m.Mode&rules.CaptureOnly != 0 {
				gaps = append(gaps, fmt.Sprintf("%s: capturing by a leap that must jump a piece has no engine primitive (the engine's JumpOver never captures)", m.Text))
			}
		}
	}
	return prims, gaps
}

// symmetric reports whether the vector set maps onto itself by f.
func symmetric(vecs []rules.Vec, f func(rules.Vec) rules.Vec) bool {
	for _, v := range vecs {
		if !slices.Contains(vecs, f(v)) {
			return false
		}
	}
	return true
}

// longest is the largest file or rank component of the vectors.
func longest(vecs []rules.Vec) int {
	n := 0
	for _, v := range vecs {
		n = max(n, abs(int(v.DX)), abs(int(v.DY)))
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// LamePath returns the squares a lame leap by v passes, in order, as
// Fairy-Stockfish walks them: a step along the longer component while it
// is longer, then diagonal steps (nN passes the orthogonally adjacent
// square, nZ an orthogonal and then a diagonal one).
func LamePath(v rules.Vec) []rules.Vec {
	var out []rules.Vec
	x, y := 0, 0
	sx, sy := sign(int(v.DX)), sign(int(v.DY))
	for x != int(v.DX) || y != int(v.DY) {
		rx, ry := abs(int(v.DX)-x), abs(int(v.DY)-y)
		switch {
		case rx > ry:
			x += sx
		case rx < ry:
			y += sy
		default:
			x, y = x+sx, y+sy
		}
		if x != int(v.DX) || y != int(v.DY) {
			out = append(out, rules.Vec{DX: int8(x), DY: int8(y)})
		}
	}
	return out
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
