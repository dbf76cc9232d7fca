package variantfile

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// builtins are the variants a section may inherit from without defining
// them, written as variants.ini sections with Fairy-Stockfish's values.
const builtins = `
[chess]
pawn = p
knight = n
bishop = b
rook = r
queen = q
king = k
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[nocastle:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
castling = false

[crazyhouse:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1
pieceDrops = true
capturesToHand = true

[kingofthehill:chess]
flagPiece = k
flagRegion = d4 e4 d5 e5
flagMove = false

[shatranj:chess]
bishop = -
queen = -
alfil = b
fers = q
startFen = rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1
promotionPieceTypes = q
doubleStep = false
castling = false
extinctionValue = loss
extinctionClaim = true
extinctionPieceTypes = *
extinctionPieceCount = 1
extinctionOpponentPieceCount = 2
stalemateValue = loss
nMoveRule = 70
`

// Builtins names the built-in variants a section may inherit from.
func Builtins() []string {
	secs, _ := splitSections([]byte(builtins))
	var out []string
	for _, s := range secs {
		out = append(out, s.name)
	}
	return out
}

// File is a read variants file.
type File struct {
	Sections []*Section // in file order
	// Errors are problems outside any section: text before the first
	// section, a header that cannot be read, a file too large.
	Errors []error
	raw    map[string]*section // the sections read, by name (the first of a name)
}

// Source returns the text that defines the variant name alone: its section
// and the sections of the file it inherits from, parents first, as
// `key = value` lines. A game of a file variant keeps it, so that the game
// can be rebuilt without the file; Parse(Source(name)) defines name as the
// file does.
func (f *File) Source(name string) (string, error) {
	if _, err := f.Lookup(name); err != nil {
		return "", err
	}
	var chain []*section
	for s := f.raw[name]; s != nil && len(chain) <= MaxInheritDepth; s = f.raw[s.parent] {
		chain = append(chain, s)
	}
	var b strings.Builder
	for i := len(chain) - 1; i >= 0; i-- {
		s := chain[i]
		if s.parent != "" {
			fmt.Fprintf(&b, "[%s:%s]\n", s.name, s.parent)
		} else {
			fmt.Fprintf(&b, "[%s]\n", s.name)
		}
		for _, e := range s.entries {
			fmt.Fprintf(&b, "%s = %s\n", e.key, e.value)
		}
	}
	return b.String(), nil
}

// Section is one variant of the file: its definition, or why it is
// refused (Err joins every problem found, each with its line).
type Section struct {
	Name, Parent string
	Line         int
	Def          *Definition // nil when refused
	Err          error
}

// Lookup returns the definition of the variant name, or why there is none.
func (f *File) Lookup(name string) (*Definition, error) {
	var names []string
	for _, s := range f.Sections {
		if s.Name == name {
			if s.Err != nil {
				return nil, fmt.Errorf("variant %s is refused: %w", name, s.Err)
			}
			return s.Def, nil
		}
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("the file has no variant %q; it has %s", name, strings.Join(names, ", "))
}

// Parse reads a variants file. It never fails as a whole: each section
// carries its definition or its error, and File.Errors holds what belongs
// to no section.
func Parse(src []byte) *File {
	secs, errs := splitSections(src)
	f := &File{Errors: errs, raw: map[string]*section{}}
	bsecs, berrs := splitSections([]byte(builtins))
	if len(berrs) > 0 {
		panic(fmt.Sprintf("variantfile: the built-in variants do not read: %v", berrs))
	}
	r := &resolver{
		file:    map[string]*section{},
		builtin: map[string]*section{},
		done:    map[*section]result{},
		cycle:   map[*section]bool{},
	}
	for _, s := range bsecs {
		r.builtin[s.name] = s
	}
	first := map[string]int{}
	for _, s := range secs {
		out := &Section{Name: s.name, Parent: s.parent, Line: s.line}
		f.Sections = append(f.Sections, out)
		switch {
		case first[s.name] > 0:
			out.Err = &Error{Line: s.line, Section: s.name, Msg: fmt.Sprintf("the variant %s is defined twice (first on line %d); rename one", s.name, first[s.name])}
			continue
		case r.builtin[s.name] != nil:
			out.Err = &Error{Line: s.line, Section: s.name, Msg: fmt.Sprintf("%s is a built-in variant; choose another name, e.g. [my%s:%s]", s.name, s.name, s.name)}
			continue
		}
		first[s.name] = s.line
		r.file[s.name] = s
		f.raw[s.name] = s
	}
	order := map[string]int{}
	for i, s := range secs {
		if _, ok := order[s.name]; !ok {
			order[s.name] = i
		}
	}
	for i, s := range secs {
		out := f.Sections[i]
		if out.Err != nil {
			continue
		}
		res := r.resolve(s, nil)
		if res.err != nil {
			out.Err = res.err
			continue
		}
		def, ferrs := res.b.finish(s.name, s.parent, s.line)
		if p, ok := order[s.parent]; ok && p > i {
			def.Notes = append(def.Notes, fmt.Sprintf("Fairy-Stockfish needs [%s] above [%s] in the file; it would not load this variant", s.parent, s.name))
		}
		if len(ferrs) > 0 {
			out.Err = errors.Join(ferrs...)
			continue
		}
		out.Def = def
	}
	return f
}

type result struct {
	b     *builder
	err   error
	depth int // sections above it, built-ins included
}

// resolver builds sections with their inheritance, once each.
type resolver struct {
	file, builtin map[string]*section
	done          map[*section]result
	cycle         map[*section]bool // the sections of an inheritance circle
}

// resolve returns the builder of s (its parents applied first); chain is
// the sections being resolved, to find cycles.
func (r *resolver) resolve(s *section, chain []*section) result {
	if res, ok := r.done[s]; ok {
		return res
	}
	if i := slices.Index(chain, s); i >= 0 {
		var parts []string
		for _, c := range chain[i:] {
			r.cycle[c] = true
			parts = append(parts, fmt.Sprintf("[%s:%s] on line %d", c.name, c.parent, c.line))
		}
		return result{err: &Error{Line: s.line, Section: s.name, Msg: "inheritance goes round in a circle: " + strings.Join(parts, ", ") + "; one of them must inherit from a built-in variant or from none"}}
	}
	chain = append(chain, s)
	var b *builder
	depth := 0
	switch {
	case s.parent == "":
		b = fairyDefault()
	default:
		var p *section
		if r.builtin[s.name] != s {
			p = r.file[s.parent]
		}
		if p == nil {
			p = r.builtin[s.parent]
		}
		if p == nil {
			return result{err: &Error{Line: s.line, Section: s.name, Msg: fmt.Sprintf("the parent %s is neither a section of this file nor a built-in variant (%s)", s.parent, strings.Join(Builtins(), ", "))}}
		}
		pr := r.resolve(p, chain)
		if pr.err != nil {
			err := pr.err
			if !r.cycle[s] {
				err = fmt.Errorf("line %d: [%s] inherits from [%s], which is refused: %w", s.line, s.name, s.parent, err)
			}
			r.done[s] = result{err: err}
			return r.done[s]
		}
		if pr.depth >= MaxInheritDepth {
			r.done[s] = result{err: &Error{Line: s.line, Section: s.name, Msg: fmt.Sprintf("inheritance is deeper than %d sections; inherit from fewer levels", MaxInheritDepth)}}
			return r.done[s]
		}
		b, depth = pr.b.clone(), pr.depth+1
	}
	var errs []error
	errs = append(errs, s.errs...)
	errs = append(errs, b.apply(s)...)
	res := result{b: b, depth: depth}
	if len(errs) > 0 {
		res = result{err: errors.Join(errs...)}
	}
	r.done[s] = res
	return res
}

// checkFEN checks the start position against the board and the pieces:
// the ranks, the letters, the hands, the side, the castling field, the en
// passant square, the counters.
func checkFEN(d *Definition) error {
	f := strings.Fields(d.StartFEN)
	if len(f) < 2 {
		return fmt.Errorf("a start position has at least the board and the side to move, e.g. 8/8/8/8/8/8/8/8 w")
	}
	board, hands, hasHands := strings.Cut(f[0], "[")
	if hasHands {
		if !strings.HasSuffix(hands, "]") {
			return fmt.Errorf("the hands %q have no closing ]; write e.g. [] or [Nn]", "["+clip(hands))
		}
		hands = strings.TrimSuffix(hands, "]")
		if len(hands) > MaxHandPieces {
			return fmt.Errorf("the hands hold %d pieces; at most %d", len(hands), MaxHandPieces)
		}
		for _, c := range []byte(hands) {
			if c == '-' {
				continue
			}
			if d.Piece(c) == nil {
				return fmt.Errorf("%q in the hands is not a piece of this variant", c)
			}
		}
	}
	ranks := strings.Split(board, "/")
	if len(ranks) != d.Height {
		return fmt.Errorf("the board has %d ranks separated by /, but this variant has %d (maxRank)", len(ranks), d.Height)
	}
	for i, row := range ranks {
		rank := d.Height - 1 - i
		want := 0
		for file := range d.Width {
			if !d.Holes.Has(file, rank) {
				want++
			}
		}
		n := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				k := j
				for k < len(row) && row[k] >= '0' && row[k] <= '9' {
					k++
				}
				v, err := strconv.Atoi(row[j:k])
				if err != nil || v == 0 || v > MaxBoardSide {
					return fmt.Errorf("rank %d: %q is not a count of empty squares", rank+1, row[j:k])
				}
				n += v
				j = k - 1
			case c == '~':
				if j == 0 || !isLetter(row[j-1]) {
					return fmt.Errorf("rank %d: a ~ (promoted) must follow a piece letter", rank+1)
				}
			default:
				if !isLetter(c) {
					return fmt.Errorf("rank %d: %q is not a piece letter or a digit", rank+1, c)
				}
				if d.Piece(c) == nil {
					return fmt.Errorf("rank %d: %q is not a piece of this variant", rank+1, c)
				}
				n++
			}
			if n > want {
				break
			}
		}
		if n != want {
			return fmt.Errorf("rank %d describes %d squares, but it has %d", rank+1, n, want)
		}
	}
	if f[1] != "w" && f[1] != "b" {
		return fmt.Errorf("the side to move is %q; write w or b", clip(f[1]))
	}
	rest := f[2:]
	if len(rest) > 0 {
		if c := rest[0]; c != "-" {
			for _, r := range []byte(c) {
				up := r &^ 0x20
				if !(up == 'K' || up == 'Q' || up >= 'A' && up < 'A'+byte(d.Width)) {
					return fmt.Errorf("the castling field %q: %q is not K, Q, k, q or a file letter", clip(c), r)
				}
			}
		}
		rest = rest[1:]
	}
	if len(rest) > 0 {
		if ep := rest[0]; ep != "-" {
			if _, err := parseRegion(ep, d.Width, d.Height); err != nil || strings.ContainsAny(ep, "* ") {
				return fmt.Errorf("the en passant field %q is not - or a square of the board", clip(ep))
			}
		}
		rest = rest[1:]
	}
	if d.Results.CheckCounting && len(rest) > 0 && strings.Contains(rest[0], "+") {
		rest = rest[1:] // the checks still to give, as 3+3
	}
	if len(rest) > 2 {
		return fmt.Errorf("%q after the counters is not read; remove it", clip(strings.Join(rest[2:], " ")))
	}
	for _, c := range rest {
		if _, err := parseInt(c, 100000); err != nil {
			return fmt.Errorf("the counter %q is not a number", clip(c))
		}
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
