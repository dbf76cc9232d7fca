package rules

import "sort"

// Perft counts the leaf nodes of the legal-move tree of depth depth
// (RULES.md §10): a finished game has no children.
func Perft(p Position, depth int) int64 {
	if depth == 0 {
		return 1
	}
	if sp, ok := p.(*stdPos); ok {
		frames := make([]stdPos, depth)
		for i := range frames {
			frames[i].sq = make([]Piece, len(sp.sq))
		}
		return sp.perft(depth, make([][]Move, depth+1), make([]Piece, len(sp.sq)), frames)
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
		n += Perft(c, depth-1)
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
	return r.repetition && p.half >= 16 && p.repetitions() >= 5
}

// perft is Perft without allocation in the steady state: bufs[d] holds the
// moves at depth d, scratch the board for the legality test, and frames[d]
// the child position at depth d (its prev link is the live parent frame).
func (p *stdPos) perft(depth int, bufs [][]Move, scratch []Piece, frames []stdPos) int64 {
	if p.finished() {
		return 0
	}
	moves := p.legalMoves(bufs[depth], scratch)
	bufs[depth] = moves
	if depth == 1 {
		return int64(len(moves))
	}
	var n int64
	child := &frames[depth-1]
	for _, m := range moves {
		p.playInto(m, child)
		n += child.perft(depth-1, bufs, scratch, frames)
	}
	return n
}

// DivideEntry is one root move with its subtree count.
type DivideEntry struct {
	Move  Move
	Count int64
}

// Divide returns perft(depth-1) under every legal move, sorted by move.
func Divide(p Position, depth int) []DivideEntry {
	var out []DivideEntry
	if depth < 1 || p.Result().Over {
		return out
	}
	for _, m := range p.Legal() {
		c, _ := p.Play(m)
		out = append(out, DivideEntry{Move: m, Count: Perft(c, depth-1)})
	}
	sort.Slice(out, func(i, j int) bool { return lessMove(out[i].Move, out[j].Move) })
	return out
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
