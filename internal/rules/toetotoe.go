package rules

import (
	"fmt"
	"referee/internal/lang"
	"slices"
	"sync"
)

// Toe-to-Toe Chess (docs/rules/toetotoe.md, seed 003): pawns face each other in the
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

type toeToToe struct{ gameInfo }

// ToeToToe returns the variant: one shared value, built on first use.
func ToeToToe() Variant { return toeToToeVariant() }

var toeToToeVariant = sync.OnceValue(func() Variant {
	all := Join(orthogonal, diagonal)
	return &toeToToe{gameInfo{
		name: "toetotoe", title: "Toe-to-Toe Chess", board: Rect("8x8", 8, 8),
		summary: "pawns toe to toe; deploy K+G, E+E, N+N, R+R, then three swaps each, then play; no stalemating",
		rulesText: "Toe-to-Toe Chess on 8x8. Only pawns stand at the start (ranks 4 and 5). Phase 1: each player " +
			"places, in turn, K+G, E+E, N+N, R+R in their first three ranks (e.g. \"K@e1,G@d1\"). Phase 2: three " +
			"swaps each of two of your own pieces (\"e1<>d1\"); swapping alike pieces passes. Phase 3: play. " +
			"General: one or two squares any way. Chariot: a rook of range four. Horse: knight. Elephant: one " +
			"step forward or diagonally. Pawn: one step forward, captures diagonally forward, may leap over a " +
			"piece straight ahead onto an empty square; on the last rank it becomes a captured piece of its own " +
			"side (\"e8=G\"). Checkmate wins; stalemating your opponent is illegal; no legal move while not in check draws.",
		pieceSet: newPieceSet(
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
		),
	}}
})

func (v *toeToToe) HasCheck() bool { return true }
func (v *toeToToe) HasHands() bool { return true }

// perftLimit: about 3.4e5 leaves/s measured, so some four hours.
func (v *toeToToe) perftLimit() float64 { return 5e9 }

func (v *toeToToe) Start() Position {
	p, err := v.ParsePosition("8/8/8/pppppppp/PPPPPPPP/8/8/8[KGRRNNEEkgrrnnee] w d1 0 1")
	if err != nil {
		panic("toetotoe start: " + err.Error())
	}
	return p
}

type ttPos struct {
	v *toeToToe
	cells
	hand  [2][5]uint8 // counts in ttHandOrder: to place (deploying), or captured and available for promotion
	phase int         // 0..7 deploy, 8..13 swap, 14 play
	half  int
	// zkey is the Zobrist key of the board, side, phase and hands
	// (zobrist.go), kept by play.
	zkey  uint64
	prev  *ttPos
	cache legalCache
}

func handIndex(c byte) int { return slices.Index(ttHandOrder, c) }

func (p *ttPos) down(pc Piece) bool { return pc.Color() == Black }

func (p *ttPos) attacked(sq []Piece, target Square, by Color) bool {
	return squareAttacked(p.v.board, &p.v.table, sq, target, by, p.down)
}

func (p *ttPos) kingAttacked(sq []Piece, c Color) bool {
	for _, s := range p.v.board.squares {
		if pc := sq[s]; pc != NoPiece && pc.Color() == c && pc.Letter() == 'K' {
			return p.attacked(sq, s, c.Other())
		}
	}
	return false
}

func (p *ttPos) Variant() Variant { return p.v }

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
func (p *ttPos) Prompt() string { return p.PromptText().In(nil) }

// PromptText is Prompt in the reader's language.
func (p *ttPos) PromptText() lang.Text {
	switch {
	case p.phase < ttDeployTurns:
		d := ttDeploy[p.phase]
		example := fmt.Sprintf("%c@%s,%c@%s", d[0], p.exampleSq(0), d[1], p.exampleSq(1))
		if p.turn == Black {
			return lang.M("Deployment %d of 8: place your %s and %s on empty squares of ranks 6-8, both in one reply, e.g. %q.",
				p.phase+1, PieceWord(p.v.PieceName(d[0])), PieceWord(p.v.PieceName(d[1])), example)
		}
		return lang.M("Deployment %d of 8: place your %s and %s on empty squares of ranks 1-3, both in one reply, e.g. %q.",
			p.phase+1, PieceWord(p.v.PieceName(d[0])), PieceWord(p.v.PieceName(d[1])), example)
	case p.phase < ttPlay:
		left := (ttPlay - p.phase + 1) / 2
		return lang.M("Swap turn %d of 6: exchange the squares of two of your pieces (pawns included), e.g. %q; to pass, swap two alike pieces, e.g. %q. You have %d swap(s) left, this one included. Afterwards neither king may be attacked.",
			p.phase-ttDeployTurns+1, p.swapExample(false), p.swapExample(true), left)
	}
	return lang.M("Your move.")
}

// swapExample is a legal swap as a player writes it ("a4<>b4"): of two
// alike pieces (a pass) when alike is true, else of two different ones.
func (p *ttPos) swapExample(alike bool) string {
	b := p.v.board
	for _, m := range p.Legal() {
		if m.Kind == Swap && (p.sq[m.From] == p.sq[m.To]) == alike {
			x, y := m.From, m.To
			if b.File(y) < b.File(x) || (b.File(y) == b.File(x) && b.Rank(y) < b.Rank(x)) {
				x, y = y, x
			}
			return b.SquareName(x) + "<>" + b.SquareName(y)
		}
	}
	return "e1<>d1"
}

// WhyNot explains an action that is not legal now (ActionExplain): there
// is no pass command; a swap turn is passed by swapping alike pieces.
func (p *ttPos) WhyNot(m Move) string { return English(p.WhyNotText(m)) }

// WhyNotText is WhyNot in the reader's language; nil where WhyNot is "".
func (p *ttPos) WhyNotText(m Move) lang.Text {
	if p.Result().Over {
		return nil
	}
	if m.Kind == Drop && p.phase < ttDeployTurns {
		// One piece placed where a deployment turn places two: the turn
		// is one action (docs/rules/toetotoe.md), written with a comma.
		d := ttDeploy[p.phase]
		ex := fmt.Sprintf("\"%c@%s,%c@%s\"", d[0], p.exampleSq(0), d[1], p.exampleSq(1))
		pieces := lang.M("your %s and your %s", PieceWord(p.v.PieceName(d[0])), PieceWord(p.v.PieceName(d[1])))
		if d[0] == d[1] {
			pieces = ttBoth(d[0])
		}
		if m.Piece == d[0] || m.Piece == d[1] {
			// The example keeps the player's square when it can take the piece.
			if m.To != NoSquare && p.sq[m.To] == NoPiece && slices.Contains(p.zone(p.turn), m.To) {
				other := d[0]
				if m.Piece == d[0] {
					other = d[1]
				}
				for _, s := range p.zone(p.turn) {
					if s != m.To && p.sq[s] == NoPiece {
						ex = fmt.Sprintf("\"%c@%s,%c@%s\"", m.Piece, p.v.board.SquareName(m.To), other, p.v.board.SquareName(s))
						break
					}
				}
			}
			return lang.M("a deployment turn places both pieces in one reply: this turn %s, "+
				"the two placements joined by a comma, e.g. %s", pieces, ex)
		}
		return lang.M("deployment %d of 8 places %s, not a %s: send both placements in one reply, e.g. %s",
			p.phase+1, pieces, PieceWord(p.v.PieceName(m.Piece)), ex)
	}
	if m.Kind != Pass {
		return nil
	}
	switch {
	case p.phase < ttDeployTurns:
		return lang.M("there is no passing during the deployment. %s", p.PromptText())
	case p.phase < ttPlay:
		return lang.M("there is no \"pass\" command: to pass a swap turn, swap two alike pieces, e.g. \"%s\" (it changes nothing)", p.swapExample(true))
	}
	return lang.M("there is no passing in Toe-to-Toe Chess: make a move")
}

// ttBoth names a deployment turn's two alike pieces ("both your
// elephants"): a message each, since the plural is the language's own.
func ttBoth(piece byte) lang.Text {
	switch piece {
	case 'E':
		return lang.M("both your elephants")
	case 'N':
		return lang.M("both your horses")
	}
	return lang.M("both your chariots")
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
			pt := p.v.table[pc.Letter()]
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
	n := &ttPos{v: p.v, cells: p.next(), hand: p.hand, phase: p.phase, half: p.half + 1, prev: p}
	if p.phase < ttPlay {
		n.phase++
		n.half = 0
	}
	var buf [4]Square
	touched := buf[:0] // the squares the action changed
	switch m.Kind {
	case Deploy:
		for _, pl := range m.Place[:m.NPlace] {
			n.sq[pl.To] = MakePiece(pl.Piece, p.turn)
			n.hand[p.turn][handIndex(pl.Piece)]--
			touched = append(touched, pl.To)
		}
	case Swap:
		n.sq[m.From], n.sq[m.To] = n.sq[m.To], n.sq[m.From]
		touched = append(touched, m.From, m.To)
	case PromoteInPlace:
		n.sq[m.From] = MakePiece(m.Promo, p.turn)
		n.hand[p.turn][handIndex(m.Promo)]--
		n.half = 0
		touched = append(touched, m.From)
	case Normal:
		touched = append(touched, m.From, m.To)
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
	n.zkey = p.zkey ^ zBlack ^ zPhase(p.phase) ^ zPhase(n.phase)
	for c := range 2 {
		for i := range ttHandOrder {
			if p.hand[c][i] != n.hand[c][i] {
				n.zkey ^= zHand(Color(c), i, p.hand[c][i]) ^ zHand(Color(c), i, n.hand[c][i])
			}
		}
	}
	for i, sq := range touched {
		if !slices.Contains(touched[:i], sq) {
			n.zkey ^= zSquare(sq, p.sq[sq], n.sq[sq])
		}
	}
	return n
}

// fullKey recomputes zkey from the whole position: the check of the
// incremental key (zobrist.go).
func (p *ttPos) fullKey() uint64 {
	k := zBoard(p.sq) ^ zSide(p.turn) ^ zPhase(p.phase)
	for c := range 2 {
		for i := range ttHandOrder {
			k ^= zHand(Color(c), i, p.hand[c][i])
		}
	}
	return k
}

// safeFor reports whether side c's king is safe on sq (or absent).
func (p *ttPos) safeFor(sq []Piece, c Color) bool { return !p.kingAttacked(sq, c) }

// hasSafeMove reports whether the side to act in n has any action that
// leaves its own king safe (docs/rules/toetotoe.md: the stalemate test looks one
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

// compute lists the legal actions and the result: bare kings, or no
// legal action, which loses in check and draws otherwise (docs/rules/toetotoe.md).
func (p *ttPos) compute() ([]Move, Result) {
	if r := p.autoResult(); r.Over {
		return nil, r
	}
	moves := p.legalMoves()
	switch {
	case len(moves) > 0:
		return moves, Result{}
	case p.InCheck():
		return nil, Result{Over: true, Winner: p.turn.Other(), Reason: "checkmate"}
	}
	return nil, Result{Over: true, Draw: true, Reason: "no legal move"}
}

// Legal returns the legal actions, none once the game is over; each call
// returns a fresh copy the caller may change.
func (p *ttPos) Legal() []Move {
	moves, _ := p.cache.get(p.compute)
	return slices.Clone(moves)
}

// Result: bare kings, or no legal action (docs/rules/toetotoe.md).
func (p *ttPos) Result() Result {
	_, r := p.cache.get(p.compute)
	return r
}

func (p *ttPos) Play(m Move) (Position, error) {
	moves, r := p.cache.get(p.compute)
	return playLegal(moves, r, m, p.play, func(Move) error {
		return fmt.Errorf("%w: that action is not legal here", ErrIllegal)
	})
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

func (p *ttPos) Claimable() string {
	if p.phase != ttPlay || p.Result().Over {
		return ""
	}
	// The pieces, side, phase and hands, by the incremental key.
	k, n := p.zkey, 1
	for q := p.prev; q != nil && q.phase == ttPlay; q = q.prev {
		if q.zkey == k {
			n++
		}
	}
	if n >= 3 {
		return "threefold repetition"
	}
	return ""
}

// WhyIllegal explains a refused move of the play phase.
func (p *ttPos) WhyIllegal(from, to Square) string { return English(p.WhyIllegalText(from, to)) }

// WhyIllegalText is WhyIllegal in the reader's language; nil where
// WhyIllegal is "".
func (p *ttPos) WhyIllegalText(from, to Square) lang.Text {
	for _, m := range p.pseudo() {
		if m.Kind == Normal && m.From == from && m.To == to {
			n := p.play(m)
			if !p.safeFor(n.sq, p.turn) {
				return lang.M("it would leave your king in check")
			}
			return lang.M("it would leave your opponent without a legal move while not in check (stalemating is illegal)")
		}
	}
	return nil
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
	return fmt.Sprintf("%s%s %s %s %d %d", plainBoard(p.v.board, p.sq), handsField(p.Hand(White), p.Hand(Black)),
		sideField(p.turn), p.phaseName(), p.half, p.full)
}

func (v *toeToToe) ParsePosition(s string) (Position, error) {
	f, err := positionFields(v.name, s, "board[hands]", "side", "phase", "halfmove clock", "move number")
	if err != nil {
		return nil, err
	}
	boardField, hands, err := cutHands(f[0], "[KGRRNNEEkgrrnnee] or []")
	if err != nil {
		return nil, err
	}
	sq, err := parseBoard(v.board, boardField, v.known, false, false)
	if err != nil {
		return nil, err
	}
	p := &ttPos{v: v, cells: cells{sq: sq}}
	for _, c := range []byte(hands) {
		i := handIndex(c &^ 0x20)
		if i < 0 {
			return nil, fmt.Errorf("hand %q: %q is not a piece that can be in hand (K G R N E)", hands+"]", c)
		}
		color := White
		if c >= 'a' {
			color = Black
		}
		p.hand[color][i]++
	}
	if p.turn, err = parseSide(f[1], "move"); err != nil {
		return nil, err
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
	if p.half, err = parseClock(f[3]); err != nil {
		return nil, err
	}
	if p.full, err = parseMoveNumber(f[4]); err != nil {
		return nil, err
	}
	p.zkey = p.fullKey()
	return p, nil
}
