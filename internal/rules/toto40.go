package rules

import (
	"fmt"
	"referee/internal/lang"
	"slices"
	"sync"
)

// Toto40 is the game on a 40-square staircase split by a fighting line
// (docs/rules/toto40.md, seed 000). No piece enters the enemy section, there is no
// check (the king is captured), a side that has left the line loses, and a
// superko forbids repeating any earlier arrangement.
type toto40 struct{ gameInfo }

// Toto40 returns the variant: one shared value, built on first use.
func Toto40() Variant { return toto40Variant() }

var toto40Variant = sync.OnceValue(func() Variant {
	all := Join(orthogonal, diagonal)
	return &toto40{gameInfo{
		name: "toto40", title: "Toto40", board: Staircase(),
		summary: "40-square staircase split by a fighting line; no check, capture the king; superko",
		rulesText: "A 40-square staircase board split by a fighting line (the diagonal a10-h3, marked *). " +
			"No piece may enter the enemy section, so captures happen only on the line. King: one step; Rook: " +
			"slides; Knight: as in chess; Hawk: leaps two squares straight or diagonally. Pawns step forward or " +
			"capture diagonally forward; on the line any piece may also step along the line, and a pawn on " +
			"the line only does that. There is no check: capturing the king wins. Once the line has been " +
			"entered, ending your turn with no piece on it loses; having no legal move loses. A move that " +
			"repeats an earlier arrangement of the pieces is illegal.",
		pieceSet: newPieceSet(
			&PieceType{Letter: 'K', Name: "king", Royal: true, Moves: []Prim{Steps(Both, all...)}},
			&PieceType{Letter: 'R', Name: "rook", Moves: []Prim{Rides(0, orthogonal...)}},
			&PieceType{Letter: 'N', Name: "knight", Moves: []Prim{Leaps(knightVecs...)}},
			&PieceType{Letter: 'H', Name: "hawk", Moves: []Prim{Leaps(Scale(2, all)...)}}, // over whatever stands between
			&PieceType{Letter: 'P', Name: "pawn", Moves: []Prim{
				ForwardSteps(MoveOnly, Vec{0, 1}),
				ForwardSteps(CaptureOnly, Vec{-1, 1}, Vec{1, 1}),
			}},
		),
	}}
})

// lineSteps are the steps along the fighting line (c8 <-> b9, c8 <-> d7).
var lineSteps = []Vec{{1, -1}, {-1, 1}}

func (v *toto40) HasCheck() bool { return false }

// perftLimit: about 7e5 leaves/s measured, so some four hours.
func (v *toto40) perftLimit() float64 { return 1e10 }

// MarkedSquare marks the fighting line for diagrams.
func (v *toto40) MarkedSquare(sq Square) bool { return v.board.Exists(sq) && v.section(sq) == 0 }

// MarkLegend explains the mark.
func (v *toto40) MarkLegend() string { return v.MarkLegendText().In(nil) }

// MarkLegendText is MarkLegend in the reader's language.
func (v *toto40) MarkLegendText() lang.Text {
	return lang.M("* marks the fighting line (%s): White's section is below it, Black's above.", "a10 b9 c8 d7 e6 f5 g4 h3")
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

// totoSetup is docs/rules/toto40.md's setup: White in the bottom section (the seed's
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
	p, err := v.ParsePosition(plainBoard(v.board, sq) + " w - 1")
	if err != nil {
		panic("toto40 start: " + err.Error())
	}
	return p
}

type totoPos struct {
	v *toto40
	cells
	line  bool // a piece has stood on the line
	prev  *totoPos
	hash  uint64 // Zobrist key of the arrangement (zobrist.go), kept by play
	ended Result // set by the move that made the position: king captured, line left
	cache legalCache
}

func (v *toto40) ParsePosition(s string) (Position, error) {
	f, err := positionFields(v.name, s, "board", "side", "line flag", "move number")
	if err != nil {
		return nil, err
	}
	sq, err := parseBoard(v.board, f[0], v.known, false, false)
	if err != nil {
		return nil, err
	}
	p := &totoPos{v: v, cells: cells{sq: sq}}
	if p.turn, err = parseSide(f[1], "move"); err != nil {
		return nil, err
	}
	switch f[2] {
	case "L":
		p.line = true
	case "-":
	default:
		return nil, fmt.Errorf("the line flag is %q; write L (the line has been entered) or -", f[2])
	}
	if p.full, err = parseMoveNumber(f[3]); err != nil {
		return nil, err
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
	p.hash = p.fullKey()
	// The endings a move can make (docs/rules/toto40.md, "End of the
	// game", in their order), read from the string as play() sets them:
	// the side to move has no king while the other side has one, so the
	// other side captured it (rule 1: a finished position, perft 0);
	// else the side that moved last left the line (rule 2). A string
	// with neither king is a composed position, never one a game
	// reaches: no king ending is read into it.
	if !v.hasKing(sq, p.turn) && v.hasKing(sq, p.turn.Other()) {
		p.ended = Result{Over: true, Winner: p.turn.Other(), Reason: fmt.Sprintf("%s captured %s's king", p.turn.Other(), p.turn)}
	} else {
		p.ended = v.leftLine(sq, p.line, p.turn.Other())
	}
	return p, nil
}

func (p *totoPos) Variant() Variant  { return p.v }
func (p *totoPos) Hand(Color) []byte { return nil }
func (p *totoPos) InCheck() bool     { return false }
func (p *totoPos) Claimable() string { return "" }

func (p *totoPos) IsCapture(m Move) bool { return m.Kind == Normal && p.sq[m.To] != NoPiece }

func (p *totoPos) String() string {
	flag := "-"
	if p.line {
		flag = "L"
	}
	return fmt.Sprintf("%s %s %s %d", plainBoard(p.v.board, p.sq), sideField(p.turn), flag, p.full)
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
			pt := v.table[pc.Letter()]
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
	n := &totoPos{v: p.v, cells: p.next(), line: p.line, prev: p}
	victim := n.sq[m.To]
	n.sq[m.To], n.sq[m.From] = n.sq[m.From], NoPiece
	n.hash = p.hash ^ zSquare(m.From, p.sq[m.From], NoPiece) ^ zSquare(m.To, victim, n.sq[m.To])
	for _, s := range p.v.board.squares {
		if n.sq[s] != NoPiece && p.v.section(s) == 0 {
			n.line = true
		}
	}
	// docs/rules/toto40.md's endings, checked after every move in this order: the
	// mover captured the enemy king; the mover left the line.
	if victim != NoPiece && victim.Letter() == 'K' {
		n.ended = Result{Over: true, Winner: p.turn, Reason: fmt.Sprintf("%s captured %s's king", p.turn, p.turn.Other())}
	} else {
		n.ended = p.v.leftLine(n.sq, n.line, p.turn)
	}
	return n
}

// hasKing reports whether side c has a king on the board.
func (v *toto40) hasKing(sq []Piece, c Color) bool {
	for _, s := range v.board.squares {
		if pc := sq[s]; pc != NoPiece && pc.Color() == c && pc.Letter() == 'K' {
			return true
		}
	}
	return false
}

// onLine counts side c's pieces on the fighting line.
func (v *toto40) onLine(sq []Piece, c Color) int {
	n := 0
	for _, s := range v.board.squares {
		if pc := sq[s]; pc != NoPiece && pc.Color() == c && v.section(s) == 0 {
			n++
		}
	}
	return n
}

// Prompt says what the side to move must do (Prompter): once the line
// has been entered, a player who ends the turn with no piece on it loses,
// so the mail says so whenever that can happen this turn.
func (p *totoPos) Prompt() string { return p.PromptText().In(nil) }

// PromptText is Prompt in the reader's language.
func (p *totoPos) PromptText() lang.Text {
	if !p.line || p.Result().Over {
		return lang.M("It is your move.")
	}
	b := p.v.board
	switch p.v.onLine(p.sq, p.turn) {
	case 0:
		return lang.M("It is your move. You have no piece on the fighting line (marked *): put one on it this turn, or you lose.")
	case 1:
		for _, s := range b.squares {
			if pc := p.sq[s]; pc != NoPiece && pc.Color() == p.turn && p.v.section(s) == 0 {
				return lang.M("It is your move. Your %s on %s is your only piece on the fighting line (marked *): if it leaves the line and no other piece of yours takes its place, you lose.",
					PieceWord(p.v.PieceName(pc.Letter())), b.SquareName(s))
			}
		}
	}
	return lang.M("It is your move.")
}

// leftLine is docs/rules/toto40.md's second ending: once the line has been entered,
// the mover, who ends the turn with no piece on the line, loses. The
// reason says just that: the mover may never have stood on the line (the
// opponent entered it), or may have lost its last piece there to a
// capture and not come back. The
// position string says it too (the line flag, and the side not to move
// with no piece on the line), so a position read from it knows.
func (v *toto40) leftLine(sq []Piece, line bool, mover Color) Result {
	if !line {
		return Result{}
	}
	for _, s := range v.board.squares {
		if pc := sq[s]; pc != NoPiece && pc.Color() == mover && v.section(s) == 0 {
			return Result{}
		}
	}
	return Result{Over: true, Winner: mover.Other(), Reason: fmt.Sprintf("%s ended a turn with no piece on the fighting line", mover)}
}

// fullKey recomputes hash from the whole arrangement: the check of the
// incremental key. Superko compares arrangements only, whoever is to
// move, so the side is not in it.
func (p *totoPos) fullKey() uint64 { return zBoard(p.sq) }

// repeats reports whether n's arrangement occurred before (superko).
func (n *totoPos) repeats() bool {
	for q := n.prev; q != nil; q = q.prev {
		if q.hash == n.hash && slices.Equal(q.sq, n.sq) {
			return true
		}
	}
	return false
}

// compute lists the legal moves and the result: the ending the last move
// made, else the legal moves, and with none of them a loss (docs/rules/toto40.md).
func (p *totoPos) compute() ([]Move, Result) {
	if p.ended.Over {
		return nil, p.ended
	}
	var moves []Move
	for _, m := range p.pseudo() {
		if !p.play(m).repeats() {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		return nil, Result{Over: true, Winner: p.turn.Other(), Reason: fmt.Sprintf("%s has no legal move", p.turn)}
	}
	return moves, Result{}
}

// Legal returns the legal moves, none once the game is over; each call
// returns a fresh copy the caller may change.
func (p *totoPos) Legal() []Move {
	moves, _ := p.cache.get(p.compute)
	return slices.Clone(moves)
}

// Result: king captured, the line left, or no legal move (docs/rules/toto40.md).
func (p *totoPos) Result() Result {
	_, r := p.cache.get(p.compute)
	return r
}

func (p *totoPos) Play(m Move) (Position, error) {
	moves, r := p.cache.get(p.compute)
	return playLegal(moves, r, m, p.play, p.refuse)
}

// refuse says why the move m, not among the legal moves, is refused.
func (p *totoPos) refuse(m Move) error {
	if m.Kind == Normal && p.v.board.Exists(m.From) && p.v.board.Exists(m.To) && slices.Contains(p.pseudo(), m) {
		return fmt.Errorf("%w: it would repeat an earlier arrangement of the pieces (superko)", ErrIllegal)
	}
	return fmt.Errorf("%w: %s%s is not a legal move here", ErrIllegal, p.v.board.SquareName(m.From), p.v.board.SquareName(m.To))
}

// WhyIllegal explains a refused move.
func (p *totoPos) WhyIllegal(from, to Square) string { return English(p.WhyIllegalText(from, to)) }

// WhyIllegalText is WhyIllegal in the reader's language; nil where
// WhyIllegal is "".
func (p *totoPos) WhyIllegalText(from, to Square) lang.Text {
	if p.v.board.Exists(to) {
		own := -1
		if p.turn == Black {
			own = 1
		}
		if sec := p.v.section(to); sec != 0 && sec != own {
			return lang.M("no piece may enter the enemy section (captures happen only on the fighting line)")
		}
	}
	for _, x := range p.pseudo() {
		if x.From == from && x.To == to {
			return lang.M("it would repeat an earlier arrangement of the pieces (superko)")
		}
	}
	if pc := p.At(from); pc.Letter() == 'P' && p.v.section(from) == 0 {
		return lang.M("a pawn on the fighting line only steps along the line")
	}
	return nil
}
