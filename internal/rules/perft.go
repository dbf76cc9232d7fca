package rules

import (
	"context"
	"fmt"
	"math"
	"sort"
)

// Perft counts the leaf nodes of the legal-move tree of depth depth
// (docs/rules/README.md#checking-an-implementation): a finished game has no children. It is PerftContext
// without a way to stop; see CheckPerftDepth before counting deep.
func Perft(p Position, depth int) int64 {
	n, _ := PerftContext(context.Background(), p, depth)
	return n
}

// PerftContext is Perft that stops soon after ctx is done: it then returns
// the leaves counted so far (less than the whole count) and ctx's error.
// The context is looked at once per node with two or more plies below it,
// so stopping costs nothing measurable and takes a few milliseconds.
func PerftContext(ctx context.Context, p Position, depth int) (int64, error) {
	if depth == 0 {
		return 1, nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s := &stopper{done: ctx.Done()}
	var n int64
	if sp, ok := p.(*stdPos); ok {
		frames := make([]stdPos, depth)
		for i := range frames {
			frames[i].sq = make([]Piece, len(sp.sq))
		}
		n = sp.perft(depth, &stdPerft{stop: s, bufs: make([][]Move, depth+1), scratch: make([]Piece, len(sp.sq)), frames: frames})
	} else {
		n = perftAny(p, depth, s)
	}
	if s.stopped {
		return n, ctx.Err()
	}
	return n, nil
}

// stopper says whether the count must stop. done is nil when it never has
// to (a nil channel is never ready).
type stopper struct {
	done    <-chan struct{}
	stopped bool
}

func (s *stopper) stop() bool {
	if s.stopped {
		return true
	}
	select {
	case <-s.done:
		s.stopped = true
	default:
	}
	return s.stopped
}

// perftAny is perft through the Position interface (Toto40, Toe-to-Toe).
func perftAny(p Position, depth int, s *stopper) int64 {
	if depth >= 2 && s.stop() {
		return 0
	}
	if p.Result().Over {
		return 0
	}
	legal := p.Legal()
	if depth == 1 {
		return int64(len(legal))
	}
	var n int64
	for _, m := range legal {
		c, err := p.Play(m)
		if err != nil {
			panic("rules: a legal move was refused: " + err.Error())
		}
		n += perftAny(c, depth-1, s)
		if s.stopped {
			break
		}
	}
	return n
}

// finished is Result().Over without the cost of the mate test: the caller
// learns "no legal move" from the move list itself.
func (p *stdPos) finished() bool {
	r := p.r
	if r.autoPlies > 0 && p.half >= r.autoPlies {
		return true
	}
	if r.insufficient != nil && r.insufficient(p) {
		return true
	}
	if r.extinction != nil && p.extinct().Over {
		return true
	}
	if r.nFold > 0 && p.nFolded().Over {
		return true
	}
	return r.repetition && p.since >= 16 && p.repetitions() >= 5
}

// stdPerft is what perft reuses at every node: bufs[d] holds the moves at
// depth d, scratch the board for the legality test, and frames[d] the
// child position at depth d (its prev link is the live parent frame).
type stdPerft struct {
	stop    *stopper
	bufs    [][]Move
	scratch []Piece
	frames  []stdPos
}

// perft is Perft without allocation in the steady state.
func (p *stdPos) perft(depth int, w *stdPerft) int64 {
	if depth >= 2 && w.stop.stop() {
		return 0
	}
	if p.finished() {
		return 0
	}
	moves := p.legalMoves(w.bufs[depth], w.scratch)
	w.bufs[depth] = moves
	if depth == 1 {
		return int64(len(moves))
	}
	var n int64
	child := &w.frames[depth-1]
	for _, m := range moves {
		p.playInto(m, child)
		n += child.perft(depth-1, w)
		if w.stop.stopped {
			break
		}
	}
	return n
}

// DivideEntry is one root move with its subtree count.
type DivideEntry struct {
	Move  Move
	Count int64
	// Partial marks the root move whose count was cut short when the
	// context was done: Count is what was counted by then.
	Partial bool
}

// Divide returns perft(depth-1) under every legal move, sorted by move.
func Divide(p Position, depth int) []DivideEntry {
	out, _ := DivideContext(context.Background(), p, depth, nil)
	return out
}

// DivideContext is Divide that calls report (unless nil) after each root
// move is counted, in the order they are counted, with how many are done
// and how many there are. When ctx is done it stops and returns the
// entries counted so far, sorted, then the interrupted one (Partial), and
// ctx's error.
func DivideContext(ctx context.Context, p Position, depth int, report func(done, total int, e DivideEntry)) ([]DivideEntry, error) {
	if depth < 1 || p.Result().Over {
		return nil, nil
	}
	legal := p.Legal()
	out := make([]DivideEntry, 0, len(legal))
	for i, m := range legal {
		c, err := p.Play(m)
		if err != nil {
			panic("rules: a legal move was refused: " + err.Error())
		}
		n, err := PerftContext(ctx, c, depth-1)
		if err != nil {
			sortEntries(out)
			return append(out, DivideEntry{Move: m, Count: n, Partial: true}), err
		}
		e := DivideEntry{Move: m, Count: n}
		out = append(out, e)
		if report != nil {
			report(i+1, len(legal), e)
		}
	}
	sortEntries(out)
	return out, nil
}

func sortEntries(es []DivideEntry) {
	sort.Slice(es, func(i, j int) bool { return lessMove(es[i].Move, es[j].Move) })
}

// MaxPerftDepth is the deepest perft CheckPerftDepth accepts, whatever
// the estimate: no variant here has a count deeper than about 10 plies
// that could finish, and 64 leaves room for forced lines.
const MaxPerftDepth = 64

// PerftLimit is the largest estimated leaf count CheckPerftDepth accepts
// for v: what perft counts in a few hours at the speed measured for the
// variant on a 2-core machine (chess 1e11 at about 7e6 leaves/s; the
// wrapped boards 5e10; Cuarenta and Toto40 1e10; Toe-to-Toe 5e9). It is 0
// for games without perft (Chec Toe: its moves depend on the die).
func PerftLimit(v Variant) float64 {
	if l, ok := v.(perftLimiter); ok {
		return l.perftLimit()
	}
	return 0
}

// PerftTooDeepError is CheckPerftDepth's refusal.
type PerftTooDeepError struct {
	Variant  string
	Depth    int     // the depth asked for
	Deepest  int     // the deepest depth that would be accepted
	N1, N2   int64   // the exact counts at depths 1 and 2
	Estimate float64 // the estimated count at Depth (0 when Depth > MaxPerftDepth)
	Limit    float64 // PerftLimit of the variant
}

func (e *PerftTooDeepError) Error() string {
	if e.Depth > MaxPerftDepth {
		return fmt.Sprintf("depth %d is deeper than perft goes (at most %d, and this position's counts allow depth %d); use depth %d or less",
			e.Depth, MaxPerftDepth, e.Deepest, e.Deepest)
	}
	return fmt.Sprintf("a %s perft to depth %d would count about %.1e leaf nodes (estimated from the %d at depth 1 and %d at depth 2), "+
		"more than the %.0e a %s count may reach in a few hours here; use depth %d or less, or count the subtrees of the root moves one at a time",
		e.Variant, e.Depth, e.Estimate, e.N1, e.N2, e.Limit, e.Variant, e.Deepest)
}

// CheckPerftDepth refuses a perft that cannot finish in reasonable time:
// deeper than MaxPerftDepth, or with an estimated leaf count above
// PerftLimit. The estimate is n2·(n2/n1)^(depth−2) from the exact counts
// n1 and n2 at depths 1 and 2 (counted here, quickly): rough, as the
// branching factor changes with depth (from the chess start it is 3 times
// low at depth 8), but it tells minutes from days. A finished position,
// and depths up to 2, are always accepted (within MaxPerftDepth).
func CheckPerftDepth(p Position, depth int) error {
	v := p.Variant()
	e := &PerftTooDeepError{Variant: v.Name(), Depth: depth, Deepest: MaxPerftDepth, Limit: PerftLimit(v)}
	if depth > 2 {
		e.N1 = int64(len(p.Legal()))
	}
	if e.N1 > 0 {
		e.N2 = Perft(p, 2)
		b := float64(e.N2) / float64(e.N1)
		estimate := func(d int) float64 { return float64(e.N2) * math.Pow(b, float64(d-2)) }
		for d := 3; d <= MaxPerftDepth; d++ {
			if estimate(d) > e.Limit {
				e.Deepest = d - 1
				break
			}
		}
		if depth <= MaxPerftDepth {
			e.Estimate = estimate(depth)
		}
	}
	if depth > e.Deepest {
		return e
	}
	return nil
}

func lessMove(a, b Move) bool {
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.From != b.From {
		return a.From < b.From
	}
	if a.To != b.To {
		return a.To < b.To
	}
	if a.Promo != b.Promo {
		return a.Promo < b.Promo
	}
	return a.Piece < b.Piece
}
