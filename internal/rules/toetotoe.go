package rules

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Toe-to-Toe Chess (RULES.md §7, seed 003): pawns face each other in the
// middle; the other pieces are deployed in eight turns, rearranged by six
// swap turns, then played.

// The phases, in the order of the position string: d1..d8, s1..s6, p.
const (
	ttDeployTurns = 8
	ttSwapTurns   = 6
	ttPlay        = ttDeployTurns + ttSwapTurns
)

// ttHandOrder is the order of hand letters (K G R N E) in position strings.
var ttHandOrder = []byte{'K', 'G', 'R', 'N', 'E'}

// ttDeploy names the pieces each deployment turn places (W, B, W, B, ...).
var ttDeploy = [ttDeployTurns][2]byte{{'K', 'G'}, {'K', 'G'}, {'E', 'E'}, {'E', 'E'}, {'N', 'N'}, {'N', 'N'}, {'R', 'R'}, {'R', 'R'}}

type toeToToe struct {
	board   *Board
	pieces  [128]*PieceType
	letters []byte
}

// ToeToToe returns the variant.
func ToeToToe() Variant { return toeToToeVariant() }

var toeToToeVariant = sync.OnceValue(func() Variant {
	all := Join(orthogonal, diagonal)
	v := &toeToToe{board: Rect("8x8", 8, 8)}
	v.pieces, v.letters = pieceTable(
		&PieceType{Letter: 'K', Name: "king", Royal: true, Moves: []Prim{Steps(Both, all...)}},
		&PieceType{Letter: 'G', Name: "general", Moves: []Prim{Rides(2, all...)}},
		&PieceType{Letter: 'R', Name: "chariot", Moves: []Prim{Rides(4, orthogonal...)}},
		&PieceType{Letter: 'N', Name: "horse", Moves: []Prim{Leaps(knightVecs...)}},
		&PieceType{Letter: 'E', Name: "elephant", Moves: []Prim{ForwardSteps(Both, Vec{0, 1}), Steps(Both, diagonal...)}},
		&PieceType{Letter: 'P', Name: "pawn", Moves: []Prim{
			ForwardSteps(MoveOnly, Vec{0, 1}),
			ForwardSteps(CaptureOnly, Vec{-1, 1}, Vec{1, 1}),
			{Kind: JumpOver, Vecs: []Vec{{0, 1}}, Mode: MoveOnly, Forward: true}, // over the piece ahead onto an empty square
		}},
	)
	return v
})

func (v *toeToToe) Name() string  { return "toetotoe" }
func (v *toeToToe) Title() string { return "Toe-to-Toe Chess" }
func (v *toeToToe) Summary() string {
	return "pawns toe to toe; deploy K+G, E+E, N+N, R+R, then three swaps each, then play; no stalemating"
}
func (v *toeToToe) Board() *Board { return v.board }

// RulesText states the rules in one paragraph, for players.
func (v *toeToToe) RulesText() string {
	return "Toe-to-Toe Chess on 8x8. Only pawns stand at the start (ranks 4 and 5). Phase 1: each player " +
		"places, in turn, K+G, E+E, N+N, R+R in their first three ranks (e.g. \"K@e1 G@d1\"). Phase 2: three " +
		"swaps each of two of your own pieces (\"e1<>d1\"); swapping alike pieces passes. Phase 3: play. " +
		"General: one or two squares any way. Chariot: a rook of range four. Horse: knight. Elephant: one " +
		"step forward or diagonally. Pawn: one step forward, captures diagonally forward, may leap over a " +
		"piece straight ahead onto an empty square; on the last rank it becomes a captured piece of its own " +
		"side (\"e8=G\"). Checkmate wins; stalemating your opponent is illegal; no legal move while not in check draws."
}

// perftLimit: about 3.4e5 leaves/s measured, so some four hours.
func (v *toeToToe) perftLimit() float64 { return 5e9 }

func (v *toeToToe) HasCheck() bool          { return true }
func (v *toeToToe) HasHands() bool          { return true }
func (v *toeToToe) PieceLetters() []byte    { return slices.Clone(v.letters) }
func (v *toeToToe) PieceName(c byte) string { return pieceNameOf(v.pieces, c) }

func (v *toeToToe) Start() Position {
	p, err := v.ParsePosition("8/8/8/pppppppp/PPPPPPPP/8/8/8[KGRRNNEEkgrrnnee] w d1 0 1")
	if err != nil {
		panic("toetotoe start: " + err.Error())
	}
	return p
}

type ttPos struct {
	v     *toeToToe
	sq    []Piece
	hand  [2][5]uint8 // counts in ttHandOrder: to place (deploying), or captured and available for promotion
	turn  Color
	phase int // 0..7 deploy, 8..13 swap, 14 play
	half  int
	full  int
	prev  *ttPos
	// moves and result are computed on first use, once (sync.Once, so
	// concurrent readers are safe): lazily, because perft makes many
	// positions whose moves nobody asks for.
	once   sync.Once
	moves  []Move // legal actions; nil when the game is over
	result Result
}

func handIndex(c byte) int { return slices.Index(ttHandOrder, c) }

func (p *ttPos) down(pc Piece) bool { return pc.Color() == Black }

func (p *ttPos) attacked(sq []Piece, target Square, by Color) bool {
	return squareAttacked(p.v.board, &p.v.pieces, sq, target, by, p.down)
}

func (p *ttPos) kingAttacked(sq []Piece, c Color) bool {
	for _, s := range p.v.board.squares {
		if pc := sq[s]; pc != NoPiece && pc.Color() == c && pc.Letter() == 'K' {
			return p.attacked(sq, s, c.Other())
		}
	}
	return false
}

func (p *ttPos) Variant() Variant   { return p.v }
func (p *ttPos) Turn() Color        { return p.turn }
func (p *ttPos) MoveNumber() int    { return p.full }
func (p *ttPos) At(sq Square) Piece { return atOf(p.sq, sq) }

func (p *ttPos) Hand(c Color) []byte {
	var out []byte
	for i, l := range ttHandOrder {
		for range p.hand[c][i] {
			out = append(out, l)
		}
	}
	return out
}

func (p *ttPos) InCheck() bool { return p.phase == ttPlay && p.kingAttacked(p.sq, p.turn) }

func (p *ttPos) IsCapture(m Move) bool { return m.Kind == Normal && p.sq[m.To] != NoPiece }

// Prompt says what is expected in the deployment and swap phases.
func (p *ttPos) Prompt() string {
	switch {
	case p.phase < ttDeployTurns:
		d := ttDeploy[p.phase]
		zone := "ranks 1-3"
		if p.turn == Black {
			zone = "ranks 6-8"
		}
		return fmt.Sprintf("Deployment %d of 8: place your %s and %s on empty squares of %s, both in one reply, e.g. \"%c@%s %c@%s\".",
			p.phase+1, p.v.PieceName(d[0]), p.v.PieceName(d[1]), zone, d[0], p.exampleSq(0), d[1], p.exampleSq(1))
	case p.phase < ttPlay:
		left := (ttPlay - p.phase + 1) / 2
		return fmt.Sprintf("Swap turn %d of 6: exchange the squares of two of your pieces (pawns included), e.g. \"e1<>d1\"; swapping two alike pieces passes. You have %d swap(s) left, this one included. Afterwards neither king may be attacked.",
			p.phase-ttDeployTurns+1, left)
	}
	return "Your move."
}

func (p *ttPos) exampleSq(i int) string {
	n := 0
	for _, s := range p.zone(p.turn) {
		if p.sq[s] == NoPiece {
			if n == i {
				return p.v.board.SquareName(s)
			}
			n++
		}
	}
	return "?"
}

func (p *ttPos) zone(c Color) []Square {
	var out []Square
	for _, s := range p.v.board.squares {
		r := p.v.board.Rank(s)
		if (c == White && r <= 2) || (c == Black && r >= 5) {
			out = append(out, s)
		}
	}
	return out
}

// pseudo lists the actions by how pieces move, before the king-safety and
// stalemate tests.
func (p *ttPos) pseudo() []Move {
	b := p.v.board
	var out []Move
	switch {
	case p.phase < ttDeployTurns:
		d := ttDeploy[p.phase]
		var empty []Square
		for _, s := range p.zone(p.turn) {
			if p.sq[s] == NoPiece {
				empty = append(empty, s)
			}
		}
		for i, a := range empty {
			for j, c := range empty {
				if i == j || (d[0] == d[1] && j < i) {
					continue // alike pieces: each unordered pair once, lower file then lower rank first
				}
				m := Move{Kind: Deploy, From: NoSquare, To: NoSquare, NPlace: 2}
				m.Place[0], m.Place[1] = Placement{d[0], a}, Placement{d[1], c}
				if d[0] == d[1] {
					x, y := orderedPairSq(b, a, c)
					m.Place[0].To, m.Place[1].To = x, y
				}
				out = append(out, m)
			}
		}
	case p.phase < ttPlay:
		var mine []Square
		for _, s := range b.squares {
			if pc := p.sq[s]; pc != NoPiece && pc.Color() == p.turn {
				mine = append(mine, s)
			}
		}
		for i := range mine {
			for j := i + 1; j < len(mine); j++ {
				x, y := orderedPairSq(b, mine[i], mine[j])
				out = append(out, Move{Kind: Swap, From: x, To: y})
			}
		}
	default:
		o := occupancy{b: b, sq: p.sq}
		last := 7
		if p.turn == Black {
			last = 0
		}
		for _, from := range b.squares {
			pc := p.sq[from]
			if pc == NoPiece || pc.Color() != p.turn {
				continue
			}
			if pc.Letter() == 'P' && b.Rank(from) == last {
				// Promotion is a whole turn, to a captured piece of its own side.
				for i, l := range ttHandOrder {
					if p.hand[p.turn][i] > 0 && l != 'K' {
						out = append(out, Move{Kind: PromoteInPlace, From: from, To: from, Promo: l})
					}
				}
				continue
			}
			seen := map[Square]bool{}
			pt := p.v.pieces[pc.Letter()]
			for i := range pt.Moves {
				o.targets(from, pc, &pt.Moves[i], p.down(pc), func(to Square) {
					if !seen[to] {
						seen[to] = true
						out = append(out, Move{Kind: Normal, From: from, To: to})
					}
				})
			}
		}
	}
	return out
}

func orderedPairSq(b *Board, x, y Square) (Square, Square) {
	if b.File(y) < b.File(x) || (b.File(y) == b.File(x) && b.Rank(y) < b.Rank(x)) {
		return y, x
	}
	return x, y
}

func (p *ttPos) play(m Move) *ttPos {
	n := &ttPos{v: p.v, sq: slices.Clone(p.sq), hand: p.hand, turn: p.turn.Other(), phase: p.phase, half: p.half + 1, full: p.full, prev: p}
	if p.turn == Black {
		n.full++
	}
	if p.phase < ttPlay {
		n.phase++
		n.half = 0
	}
	switch m.Kind {
	case Deploy:
		for _, pl := range m.Place[:m.NPlace] {
			n.sq[pl.To] = MakePiece(pl.Piece, p.turn)
			n.hand[p.turn][handIndex(pl.Piece)]--
		}
	case Swap:
		n.sq[m.From], n.sq[m.To] = n.sq[m.To], n.sq[m.From]
	case PromoteInPlace:
		n.sq[m.From] = MakePiece(m.Promo, p.turn)
		n.hand[p.turn][handIndex(m.Promo)]--
		n.half = 0
	case Normal:
		pc, victim := n.sq[m.From], n.sq[m.To]
		if victim != NoPiece {
			n.half = 0
			if i := handIndex(victim.Letter()); i > 0 { // captured pieces (not pawns, never kings) return to their side's pool
				n.hand[victim.Color()][i]++
			}
		}
		if pc.Letter() == 'P' {
			n.half = 0
		}
		n.sq[m.To], n.sq[m.From] = pc, NoPiece
	}
	return n
}

// safeFor reports whether side c's king is safe on sq (or absent).
func (p *ttPos) safeFor(sq []Piece, c Color) bool { return !p.kingAttacked(sq, c) }

// hasSafeMove reports whether the side to act in n has any action that
// leaves its own king safe (RULES.md §7: the stalemate test looks one
// level deep).
func (n *ttPos) hasSafeMove() bool {
	for _, m := range n.pseudo() {
		if n.safeFor(n.play(m).sq, n.turn) {
			return true
		}
	}
	return false
}

func (p *ttPos) legalMoves() []Move {
	var out []Move
	for _, m := range p.pseudo() {
		n := p.play(m)
		if !p.safeFor(n.sq, p.turn) {
			continue
		}
		switch {
		case p.phase < ttDeployTurns:
		case p.phase < ttPlay:
			if !p.safeFor(n.sq, p.turn.Other()) {
				continue // a swap may not leave either king attacked
			}
		default:
			// Stalemating the opponent is illegal.
			if n.phase == ttPlay && !n.kingAttacked(n.sq, n.turn) && !n.hasSafeMove() {
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// compute fills moves and result, once.
func (p *ttPos) compute() {
	p.once.Do(func() {
		if p.result = p.autoResult(); p.result.Over {
			return
		}
		p.moves = p.legalMoves()
		if len(p.moves) == 0 {
			// RULES.md §7: no legal action loses in check, draws otherwise.
			if p.InCheck() {
				p.result = Result{Over: true, Winner: p.turn.Other(), Reason: "checkmate"}
			} else {
				p.result = Result{Over: true, Draw: true, Reason: "no legal move"}
			}
		}
	})
}

// Legal returns the legal actions, none once the game is over; each call
// returns a fresh copy the caller may change.
func (p *ttPos) Legal() []Move {
	p.compute()
	return slices.Clone(p.moves)
}

func (p *ttPos) Play(m Move) (Position, error) {
	p.compute()
	if p.result.Over {
		return nil, gameOver(p.result)
	}
	if slices.Contains(p.moves, m) {
		return p.play(m), nil
	}
	return nil, fmt.Errorf("%w: that action is not legal here", ErrIllegal)
}

func (p *ttPos) autoResult() Result {
	if p.phase == ttPlay {
		w, b := 0, 0
		for _, s := range p.v.board.squares {
			if pc := p.sq[s]; pc != NoPiece {
				if pc.Color() == White {
					w++
				} else {
					b++
				}
			}
		}
		if w == 1 && b == 1 {
			return Result{Over: true, Draw: true, Reason: "bare kings"}
		}
	}
	return Result{}
}

// Result: bare kings, or no legal action (RULES.md §7).
func (p *ttPos) Result() Result {
	p.compute()
	return p.result
}

func (p *ttPos) key() uint64 {
	h := fnv.New64a()
	for _, pc := range p.sq {
		h.Write([]byte{byte(pc), byte(pc >> 8)})
	}
	fmt.Fprintf(h, "|%d|%d|%v", p.turn, p.phase, p.hand)
	return h.Sum64()
}

func (p *ttPos) Claimable() string {
	if p.phase != ttPlay || p.Result().Over {
		return ""
	}
	k, n := p.key(), 1
	for q := p.prev; q != nil && q.phase == ttPlay; q = q.prev {
		if q.key() == k {
			n++
		}
	}
	if n >= 3 {
		return "threefold repetition"
	}
	return ""
}

// WhyIllegal explains a refused move of the play phase.
func (p *ttPos) WhyIllegal(from, to Square) string {
	for _, m := range p.pseudo() {
		if m.Kind == Normal && m.From == from && m.To == to {
			n := p.play(m)
			if !p.safeFor(n.sq, p.turn) {
				return "it would leave your king in check"
			}
			return "it would leave your opponent without a legal move while not in check (stalemating is illegal)"
		}
	}
	return ""
}

func (p *ttPos) phaseName() string {
	switch {
	case p.phase < ttDeployTurns:
		return fmt.Sprintf("d%d", p.phase+1)
	case p.phase < ttPlay:
		return fmt.Sprintf("s%d", p.phase-ttDeployTurns+1)
	}
	return "p"
}

func (p *ttPos) String() string {
	side := "w"
	if p.turn == Black {
		side = "b"
	}
	hand := string(p.Hand(White)) + strings.ToLower(string(p.Hand(Black)))
	return fmt.Sprintf("%s[%s] %s %s %d %d", writeBoard(p.v.board, p.sq, func(pc Piece) string { return string(pc.FENLetter()) }),
		hand, side, p.phaseName(), p.half, p.full)
}

func (v *toeToToe) ParsePosition(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) != 5 {
		return nil, fmt.Errorf("a toetotoe position string has 5 fields (board[hands], side, phase, halfmove clock, move number); %q has %d", s, len(f))
	}
	boardField, hands, ok := strings.Cut(f[0], "[")
	if !ok || !strings.HasSuffix(hands, "]") {
		return nil, fmt.Errorf("the board field %q has no hands in brackets, e.g. [KGRRNNEEkgrrnnee] or []", f[0])
	}
	sq, err := parseBoard(v.board, boardField, func(c byte) bool { return v.pieces[c&127] != nil }, false)
	if err != nil {
		return nil, err
	}
	p := &ttPos{v: v, sq: sq}
	for _, c := range []byte(strings.TrimSuffix(hands, "]")) {
		i := handIndex(c &^ 0x20)
		if i < 0 {
			return nil, fmt.Errorf("hand %q: %q is not a piece that can be in hand (K G R N E)", hands, c)
		}
		color := White
		if c >= 'a' {
			color = Black
		}
		p.hand[color][i]++
	}
	switch f[1] {
	case "w":
	case "b":
		p.turn = Black
	default:
		return nil, fmt.Errorf("the side to move is %q; write w or b", f[1])
	}
	switch ph := f[2]; {
	case ph == "p":
		p.phase = ttPlay
	case len(ph) == 2 && (ph[0] == 'd' || ph[0] == 's') && ph[1] >= '1' && ph[1] <= '8':
		n := int(ph[1] - '1')
		if ph[0] == 's' {
			if n >= ttSwapTurns {
				return nil, fmt.Errorf("phase %q: there are 6 swap turns, s1 to s6", ph)
			}
			n += ttDeployTurns
		}
		p.phase = n
	default:
		return nil, fmt.Errorf("the phase is %q; write d1..d8, s1..s6 or p", ph)
	}
	if p.half, err = strconv.Atoi(f[3]); err != nil || p.half < 0 {
		return nil, fmt.Errorf("the halfmove clock %q is not a number", f[3])
	}
	if p.full, err = strconv.Atoi(f[4]); err != nil || p.full < 1 {
		return nil, fmt.Errorf("the move number %q is not a number from 1", f[4])
	}
	return p, nil
}
