package rules

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Toto40 is the game on a 40-square staircase split by a fighting line
// (RULES.md §6, seed 000). No piece enters the enemy section, there is no
// check (the king is captured), a side that has left the line loses, and a
// superko forbids repeating any earlier arrangement.
type toto40 struct {
	board   *Board
	pieces  [128]*PieceType
	letters []byte
}

// Toto40 returns the variant.
func Toto40() Variant { return toto40Variant() }

var toto40Variant = sync.OnceValue(func() Variant {
	v := &toto40{board: Staircase()}
	all := Join(orthogonal, diagonal)
	v.pieces, v.letters = pieceTable(
		&PieceType{Letter: 'K', Name: "king", Royal: true, Moves: []Prim{Steps(Both, all...)}},
		&PieceType{Letter: 'R', Name: "rook", Moves: []Prim{Rides(0, orthogonal...)}},
		&PieceType{Letter: 'N', Name: "knight", Moves: []Prim{Leaps(knightVecs...)}},
		&PieceType{Letter: 'H', Name: "hawk", Moves: []Prim{Leaps(Scale(2, all)...)}}, // over whatever stands between
		&PieceType{Letter: 'P', Name: "pawn", Moves: []Prim{
			ForwardSteps(MoveOnly, Vec{0, 1}),
			ForwardSteps(CaptureOnly, Vec{-1, 1}, Vec{1, 1}),
		}},
	)
	return v
})

// lineSteps are the steps along the fighting line (c8 <-> b9, c8 <-> d7).
var lineSteps = []Vec{{1, -1}, {-1, 1}}

func (v *toto40) Name() string  { return "toto40" }
func (v *toto40) Title() string { return "Toto40" }
func (v *toto40) Summary() string {
	return "40-square staircase split by a fighting line; no check, capture the king; superko"
}
func (v *toto40) Board() *Board { return v.board }

// RulesText states the rules in one paragraph, for players.
func (v *toto40) RulesText() string {
	return "A 40-square staircase board split by a fighting line (the diagonal a10-h3, marked *). " +
		"No piece may enter the enemy section, so captures happen only on the line. King: one step; Rook: " +
		"slides; Knight: as in chess; Hawk: leaps two squares straight or diagonally. Pawns step forward or " +
		"capture diagonally forward; on the line any piece may also step along the line, and a pawn on " +
		"the line only does that. There is no check: capturing the king wins. Once the line has been " +
		"entered, ending your turn with no piece on it loses; having no legal move loses. A move that " +
		"repeats an earlier arrangement of the pieces is illegal."
}

// perftLimit: about 7e5 leaves/s measured, so some four hours.
func (v *toto40) perftLimit() float64 { return 1e10 }

func (v *toto40) HasCheck() bool          { return false }
func (v *toto40) PieceLetters() []byte    { return slices.Clone(v.letters) }
func (v *toto40) PieceName(c byte) string { return pieceNameOf(v.pieces, c) }

// MarkedSquare marks the fighting line for diagrams.
func (v *toto40) MarkedSquare(sq Square) bool { return v.board.Exists(sq) && v.section(sq) == 0 }

// MarkLegend explains the mark.
func (v *toto40) MarkLegend() string {
	return "* marks the fighting line (a10 b9 c8 d7 e6 f5 g4 h3): White's section is below it, Black's above."
}

// section is -1 for White's section, 0 for the line, +1 for Black's.
func (v *toto40) section(sq Square) int {
	f, r := v.board.File(sq)+1, v.board.Rank(sq)+1
	switch {
	case r < 11-f:
		return -1
	case r == 11-f:
		return 0
	}
	return 1
}

// totoSetup is RULES.md §6's setup: White in the bottom section (the seed's
// diagram draws it in lower case; its text puts White at the bottom).
var totoSetup = map[string]string{
	"c6": "K", "d5": "R", "e4": "N", "f3": "H", "a8": "P", "b7": "P", "g2": "P", "h1": "P",
	"f7": "k", "e8": "r", "d9": "n", "c10": "h", "a12": "p", "b11": "p", "g6": "p", "h5": "p",
}

func (v *toto40) Start() Position {
	sq := make([]Piece, v.board.Size())
	for name, l := range totoSetup {
		s, ok := v.board.ParseSquare(name)
		if !ok {
			panic("toto40 setup: no square " + name)
		}
		c := White
		if l[0] >= 'a' {
			c = Black
		}
		sq[s] = MakePiece(l[0]&^0x20, c)
	}
	fen := writeBoard(v.board, sq, func(pc Piece) string { return string(pc.FENLetter()) }) + " w - 1"
	p, err := v.ParsePosition(fen)
	if err != nil {
		panic("toto40 start: " + err.Error())
	}
	return p
}

func pieceNameOf(table [128]*PieceType, c byte) string {
	if pt := table[c&127]; pt != nil {
		return pt.Name
	}
	return ""
}

type totoPos struct {
	v     *toto40
	sq    []Piece
	turn  Color
	line  bool // a piece has stood on the line
	full  int
	prev  *totoPos
	hash  uint64
	ended Result // set by the move that made the position: king captured, line left
	// moves and result are computed on first use, once (sync.Once, so
	// concurrent readers are safe): lazily, because perft makes many
	// positions whose moves nobody asks for.
	once   sync.Once
	moves  []Move // legal moves (superko applied); nil when the game is over
	result Result
}

func boardHash(sq []Piece) uint64 {
	h := fnv.New64a()
	var b [2]byte
	for _, pc := range sq {
		b[0], b[1] = byte(pc), byte(pc>>8)
		h.Write(b[:])
	}
	return h.Sum64()
}

func (v *toto40) ParsePosition(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return nil, fmt.Errorf("a toto40 position string has 4 fields (board, side, line flag, move number); %q has %d", s, len(f))
	}
	sq, err := parseBoard(v.board, f[0], func(c byte) bool { return v.pieces[c&127] != nil }, false)
	if err != nil {
		return nil, err
	}
	p := &totoPos{v: v, sq: sq}
	switch f[1] {
	case "w":
	case "b":
		p.turn = Black
	default:
		return nil, fmt.Errorf("the side to move is %q; write w or b", f[1])
	}
	switch f[2] {
	case "L":
		p.line = true
	case "-":
	default:
		return nil, fmt.Errorf("the line flag is %q; write L (the line has been entered) or -", f[2])
	}
	if p.full, err = strconv.Atoi(f[3]); err != nil || p.full < 1 {
		return nil, fmt.Errorf("the move number %q is not a number from 1", f[3])
	}
	for _, s := range v.board.squares {
		pc := sq[s]
		if pc == NoPiece {
			continue
		}
		sec := v.section(s)
		if (pc.Color() == White && sec > 0) || (pc.Color() == Black && sec < 0) {
			return nil, fmt.Errorf("%s's %s on %s stands in the enemy section, where no piece can ever go", pc.Color(), v.PieceName(pc.Letter()), v.board.SquareName(s))
		}
	}
	p.hash = boardHash(sq)
	return p, nil
}

func (p *totoPos) Variant() Variant   { return p.v }
func (p *totoPos) Turn() Color        { return p.turn }
func (p *totoPos) MoveNumber() int    { return p.full }
func (p *totoPos) Hand(Color) []byte  { return nil }
func (p *totoPos) InCheck() bool      { return false }
func (p *totoPos) Claimable() string  { return "" }
func (p *totoPos) At(sq Square) Piece { return atOf(p.sq, sq) }

func atOf(sq []Piece, s Square) Piece {
	if s < 0 || int(s) >= len(sq) {
		return NoPiece
	}
	return sq[s]
}

func (p *totoPos) IsCapture(m Move) bool { return m.Kind == Normal && p.sq[m.To] != NoPiece }

func (p *totoPos) String() string {
	flag := "-"
	if p.line {
		flag = "L"
	}
	side := "w"
	if p.turn == Black {
		side = "b"
	}
	return fmt.Sprintf("%s %s %s %d", writeBoard(p.v.board, p.sq, func(pc Piece) string { return string(pc.FENLetter()) }), side, flag, p.full)
}

// pseudo lists the moves by the pieces' movements and the section rule.
func (p *totoPos) pseudo() []Move {
	v := p.v
	o := occupancy{b: v.board, sq: p.sq}
	var out []Move
	own := -1
	if p.turn == Black {
		own = 1
	}
	lineStep := Prim{Kind: Leap, Vecs: lineSteps, Mode: Both}
	for _, from := range v.board.squares {
		pc := p.sq[from]
		if pc == NoPiece || pc.Color() != p.turn {
			continue
		}
		seen := map[Square]bool{}
		add := func(to Square) {
			if sec := v.section(to); sec != 0 && sec != own {
				return // never into the enemy section (a slider may stop on the line, not pass it)
			}
			if !seen[to] {
				seen[to] = true
				out = append(out, Move{Kind: Normal, From: from, To: to})
			}
		}
		onLine := v.section(from) == 0
		if !(onLine && pc.Letter() == 'P') { // a pawn on the line only steps along it
			pt := v.pieces[pc.Letter()]
			for i := range pt.Moves {
				o.targets(from, pc, &pt.Moves[i], pc.Color() == Black, add)
			}
		}
		if onLine {
			o.targets(from, pc, &lineStep, false, func(to Square) {
				if v.section(to) == 0 {
					add(to)
				}
			})
		}
	}
	return out
}

func (p *totoPos) play(m Move) *totoPos {
	n := &totoPos{v: p.v, sq: slices.Clone(p.sq), turn: p.turn.Other(), line: p.line, full: p.full, prev: p}
	if p.turn == Black {
		n.full++
	}
	victim := n.sq[m.To]
	n.sq[m.To], n.sq[m.From] = n.sq[m.From], NoPiece
	n.hash = boardHash(n.sq)
	mover := p.turn
	moverOnLine := false
	for _, s := range p.v.board.squares {
		if pc := n.sq[s]; pc != NoPiece && p.v.section(s) == 0 {
			n.line = true
			if pc.Color() == mover {
				moverOnLine = true
			}
		}
	}
	switch {
	case victim != NoPiece && victim.Letter() == 'K':
		n.ended = Result{Over: true, Winner: mover, Reason: "king captured"}
	case n.line && !moverOnLine:
		n.ended = Result{Over: true, Winner: mover.Other(), Reason: fmt.Sprintf("%s left the fighting line", mover)}
	}
	return n
}

// repeats reports whether n's arrangement occurred before (superko).
func (n *totoPos) repeats() bool {
	for q := n.prev; q != nil; q = q.prev {
		if q.hash == n.hash && slices.Equal(q.sq, n.sq) {
			return true
		}
	}
	return false
}

// compute fills moves and result, once: the ending the last move made,
// else the legal moves, and with none of them a loss (RULES.md §6).
func (p *totoPos) compute() {
	p.once.Do(func() {
		if p.ended.Over {
			p.result = p.ended
			return
		}
		for _, m := range p.pseudo() {
			if !p.play(m).repeats() {
				p.moves = append(p.moves, m)
			}
		}
		if len(p.moves) == 0 {
			p.result = Result{Over: true, Winner: p.turn.Other(), Reason: fmt.Sprintf("%s has no legal move", p.turn)}
		}
	})
}

// Legal returns the legal moves, none once the game is over; each call
// returns a fresh copy the caller may change.
func (p *totoPos) Legal() []Move {
	p.compute()
	return slices.Clone(p.moves)
}

func (p *totoPos) Play(m Move) (Position, error) {
	p.compute()
	if p.result.Over {
		return nil, gameOver(p.result)
	}
	if slices.Contains(p.moves, m) {
		return p.play(m), nil
	}
	if m.Kind == Normal && p.v.board.Exists(m.From) && p.v.board.Exists(m.To) {
		for _, x := range p.pseudo() {
			if x == m {
				return nil, fmt.Errorf("%w: it would repeat an earlier arrangement of the pieces (superko)", ErrIllegal)
			}
		}
	}
	return nil, fmt.Errorf("%w: %s%s is not a legal move here", ErrIllegal, p.v.board.SquareName(m.From), p.v.board.SquareName(m.To))
}

// Result: king captured, the line left, or no legal move (RULES.md §6).
func (p *totoPos) Result() Result {
	p.compute()
	return p.result
}

// WhyIllegal explains a refused move.
func (p *totoPos) WhyIllegal(from, to Square) string {
	if p.v.board.Exists(to) {
		own := -1
		if p.turn == Black {
			own = 1
		}
		if sec := p.v.section(to); sec != 0 && sec != own {
			return "no piece may enter the enemy section (captures happen only on the fighting line)"
		}
	}
	for _, x := range p.pseudo() {
		if x.From == from && x.To == to {
			return "it would repeat an earlier arrangement of the pieces (superko)"
		}
	}
	if pc := p.At(from); pc.Letter() == 'P' && p.v.section(from) == 0 {
		return "a pawn on the fighting line only steps along the line"
	}
	return ""
}
