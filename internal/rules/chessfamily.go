package rules

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"referee/internal/lang"
)

// castleRule is one castling move: the king goes kingFrom -> kingTo and the
// partner rookFrom -> rookTo (or, with swap, the two trade places).
type castleRule struct {
	color    Color
	letter   byte // in the position string: K Q k q
	kingFrom Square
	kingTo   Square
	rookFrom Square
	rookTo   Square
	empty    []Square // must be empty (the king and partner excepted)
	safe     []Square // the king may not be attacked on any of these
	swap     bool
	long     bool // written O-O-O (else O-O)
}

// stdRules is the data of a chess-like variant: a board, a piece table, a
// setup, and its special rules as settings. Orthodox chess, the three
// wrapped boards and Cuarenta are values of it.
type stdRules struct {
	gameInfo
	start string
	// explicitDir: every pawn carries its direction (Down), written P'
	// when it moves down (docs/rules/wrapped.md); otherwise Black moves down.
	explicitDir bool
	pawn        byte
	// doubleStep reports whether the pawn p on from may step two squares.
	doubleStep func(p Piece, from Square) bool
	enPassant  bool
	// promotion returns the letters the pawn p may become by moving
	// from -> to, and whether staying unpromoted is also a choice.
	promotion func(p Piece, from, to Square) (choices []byte, optional bool)
	// captureOK forbids some captures (Cuarenta: a pawn never takes a pawn).
	captureOK func(mover, victim Piece) bool
	castles   []castleRule
	// Draw rules, in plies: claimPlies (0 = no claim) and autoPlies for the
	// halfmove clock; resetOnPawn: pawn moves reset the clock.
	claimPlies, autoPlies int
	resetOnPawn           bool
	repetition            bool // threefold claim, fivefold automatic
	insufficient          func(p *stdPos) bool
	attacks               *attackIndex // built on first use from the piece table
	attacksOnce           sync.Once
	// perftLeaves is the largest estimated count perft accepts (see
	// PerftLimit), from the speed measured for the variant.
	perftLeaves float64
	// checkmate and stalemate: the outcome for the side mated or
	// stalemated (OutcomeDefault: loss and draw); extinction: a rule on
	// material (variant files), or nil.
	checkmate, stalemate Outcome
	extinction           *Extinction
	// nFold > 0: the nFold-th occurrence of a position ends the game with
	// nFoldOutcome for the side to move (for White when nFoldAbsolute).
	nFold         int
	nFoldOutcome  Outcome
	nFoldAbsolute bool
	// Drops and pockets (ChessFamilySpec.Drops): each side holds pieces in
	// hand, written board[hands], and drops one on an empty square of
	// dropAt[side][letter-'A'] as its move; toHand: a captured piece goes
	// to the capturer's hand (a promoted one, marked ~, as the pawn);
	// noDropChecks: a drop may not give check. handOrder is the order
	// hands are written in: the piece table's, reversed (Fairy-Stockfish
	// writes its hands from the king down to the pawn).
	drops, toHand, noDropChecks bool
	dropAt                      [2][26][]Square
	dropRegion                  [2][]Square // where any piece but the pawn may go
	handOrder                   []byte
}

// nFolded is the result of the n-fold repetition rule, if it applies.
func (p *stdPos) nFolded() Result {
	r := p.r
	if r.nFold == 0 || p.since < 4*(r.nFold-1) || p.repetitions() < r.nFold {
		return Result{}
	}
	c := p.turn
	if r.nFoldAbsolute {
		c = White
	}
	return outcome(cmp.Or(r.nFoldOutcome, OutcomeDraw), c, fmt.Sprintf("%s repetition", nth(r.nFold)))
}

// nth names the n-th occurrence: "threefold", "fourfold", or "6-fold".
func nth(n int) string {
	if n >= 2 && n <= 5 {
		return []string{"twofold", "threefold", "fourfold", "fivefold"}[n-2]
	}
	return fmt.Sprintf("%d-fold", n)
}

// outcome is the result of a game that ends with o for side c.
func outcome(o Outcome, c Color, reason string) Result {
	switch o {
	case OutcomeWin:
		return Result{Over: true, Winner: c, Reason: reason}
	case OutcomeDraw:
		return Result{Over: true, Draw: true, Reason: reason}
	}
	return Result{Over: true, Winner: c.Other(), Reason: reason}
}

// extinct applies the extinction rule, if any.
func (p *stdPos) extinct() Result {
	e := p.r.extinction
	if e == nil {
		return Result{}
	}
	count := func(c Color, t byte) int {
		n := 0
		for _, s := range p.r.board.squares {
			if pc := p.sq[s]; pc != NoPiece && pc.Color() == c && (t == '*' || pc.Letter() == t) {
				n++
			}
		}
		for i, k := range p.hand[c] { // Fairy-Stockfish counts the pieces in hand too
			if t == '*' || int(t)-'A' == i {
				n += int(k)
			}
		}
		return n
	}
	for _, c := range []Color{p.turn.Other(), p.turn} {
		extra := 0
		if e.Claim && c == p.turn {
			extra = 1
		}
		for _, t := range e.Types {
			if count(c, t) <= e.Count && count(c.Other(), t) >= e.OpponentCount+extra {
				return outcome(e.Outcome, c, e.Reason)
			}
		}
	}
	return Result{}
}

func (r *stdRules) HasCheck() bool { return true }

// CastlingSAN writes the castling move m: "O-O", or "O-O-O" for the long
// castling of the FIDE laws.
func (r *stdRules) CastlingSAN(m Move) string {
	for _, c := range r.castles {
		if c.kingFrom == m.From && c.kingTo == m.To && c.long {
			return "O-O-O"
		}
	}
	return "O-O"
}

func (r *stdRules) perftLimit() float64 { return r.perftLeaves }

func (r *stdRules) Start() Position {
	p, err := r.ParsePosition(r.start)
	if err != nil {
		panic(fmt.Sprintf("%s: the built-in start position does not parse: %v", r.name, err))
	}
	return p
}

func (r *stdRules) piece(p Piece) *PieceType { return r.table[p.Letter()&127] }

// down reports whether p moves toward lower ranks.
func (r *stdRules) down(p Piece) bool {
	if r.explicitDir && p.Letter() == r.pawn {
		return p.Down()
	}
	return p.Color() == Black
}

// stdPos is a position of a stdRules variant.
type stdPos struct {
	r *stdRules
	cells
	castle   uint16 // bit i: castles[i] still allowed
	ep       Square // the square a pawn just passed over, or NoSquare
	epVictim Square // where that pawn stands
	half     int
	kings    [2]Square // each side's royal piece (exactly one: ParsePosition checks)
	// hand counts each side's pieces in hand by letter-'A' (variants
	// with drops; zero elsewhere).
	hand [2][26]uint8
	// zkey is the Zobrist key of the pieces, the side to act, the
	// castling rights and the hands (zobrist.go), kept by playInto; repKey
	// adds the en passant square when a capture there is legal.
	zkey uint64
	// prev is the position before the last move, back to the last
	// irreversible one (repetition looks no further): a capture, a pawn
	// move or a promotion cuts the link, except where captures go to
	// hand (a captured piece may come back: Fairy-Stockfish then looks
	// back over the whole game). since is the number of links.
	prev  *stdPos
	since int
	// The legal moves and the result are computed on first use (see
	// legalCache), not when the position is made: that keeps Play cheap
	// for positions nobody asks about (perft's leaves, a game record's
	// replay). perft never uses the cache: it works on recycled frames
	// through legalMoves and finished.
	cache legalCache
}

func (p *stdPos) Variant() Variant { return p.r }

// Hand returns the letters in c's hand, each as many times as it is held,
// in the order the position string writes them; nil in variants without
// drops.
func (p *stdPos) Hand(c Color) []byte {
	var out []byte
	for _, l := range p.r.handOrder {
		for range p.hand[c][l-'A'] {
			out = append(out, l)
		}
	}
	return out
}

// HasHands reports whether the players hold pieces in hand and drop them.
func (r *stdRules) HasHands() bool { return r.drops }

// index returns the variant's attack index, built on first use.
func (r *stdRules) index() *attackIndex {
	r.attacksOnce.Do(func() { r.attacks = newAttackIndex(r.board, &r.table, r.letters) })
	return r.attacks
}

// attacked reports whether side by attacks target on board sq.
func (r *stdRules) attacked(sq []Piece, target Square, by Color) bool {
	return r.index().attacked(r.board, sq, target, by, r.down)
}

// royalAttacked reports whether any royal piece of side c is attacked.
func (r *stdRules) royalAttacked(sq []Piece, c Color) bool {
	for _, s := range r.board.squares {
		pc := sq[s]
		if pc != NoPiece && pc.Letter() == 'K' && pc.Color() == c && r.piece(pc).Royal {
			if r.attacked(sq, s, c.Other()) {
				return true
			}
		}
	}
	return false
}

// pseudo appends every move of the side to act that obeys how pieces move,
// before the check test.
func (p *stdPos) pseudo(out []Move) []Move {
	r := p.r
	o := occupancy{b: r.board, sq: p.sq}
	var seenBuf [256]bool
	var seen []bool
	if len(p.sq) <= len(seenBuf) {
		seen = seenBuf[:len(p.sq)]
	} else {
		seen = make([]bool, len(p.sq))
	}
	for i, from := range r.board.squares {
		pc := p.sq[from]
		if pc == NoPiece || pc.Color() != p.turn {
			continue
		}
		pt := r.piece(pc)
		down := r.down(pc)
		if i > 0 {
			clear(seen)
		}
		add := func(to Square) {
			if seen[to] {
				return // a second path to the same square is the same move
			}
			seen[to] = true
			if v := p.sq[to]; v != NoPiece && r.captureOK != nil && !r.captureOK(pc, v) {
				return
			}
			out = p.addWithPromotion(out, pc, from, to)
		}
		for i := range pt.Moves {
			prim := &pt.Moves[i]
			switch prim.Kind {
			case Leap: // the common primitives, inlined for speed
				steps := &r.board.table[from]
				for _, v := range prim.Vecs {
					if prim.Forward && down {
						v.DY = -v.DY
					}
					st := steps[vecIndex(v)]
					if st.ok && st.to != from && o.canLand(st.to, p.turn, prim.Mode) {
						add(st.to)
					}
				}
			case Ride:
				for _, v := range prim.Vecs {
					if prim.Forward && down {
						v.DY = -v.DY
					}
					ray := r.board.ray(from, v)
					if prim.Max > 0 && len(ray) > prim.Max {
						ray = ray[:prim.Max]
					}
					for _, to := range ray {
						if t := p.sq[to]; t != NoPiece {
							if t.Color() != p.turn && prim.Mode&CaptureOnly != 0 {
								add(to)
							}
							break
						}
						if prim.Mode&MoveOnly != 0 {
							add(to)
						}
					}
				}
			default:
				o.targets(from, pc, prim, down, add)
			}
		}
		if pc.Letter() != r.pawn {
			continue
		}
		fwd := turn(Vec{0, 1}, down)
		if r.doubleStep != nil && r.doubleStep(pc, from) {
			if one, ok := r.board.Leap(from, fwd); ok && p.sq[one] == NoPiece {
				if two, ok := r.board.Leap(one, fwd); ok && p.sq[two] == NoPiece && !seen[two] {
					seen[two] = true
					out = p.addWithPromotion(out, pc, from, two)
				}
			}
		}
		if r.enPassant && p.ep != NoSquare && !seen[p.ep] && p.sq[p.ep] == NoPiece {
			for _, v := range []Vec{{-1, 1}, {1, 1}} {
				if to, ok := r.board.Leap(from, turn(v, down)); ok && to == p.ep {
					seen[to] = true
					out = p.addWithPromotion(out, pc, from, to)
					break
				}
			}
		}
	}
	if r.drops {
		out = p.dropMoves(out)
	}
	for i, c := range r.castles {
		if p.castle&(1<<i) == 0 || c.color != p.turn {
			continue
		}
		if p.castleOpen(c) {
			out = append(out, Move{Kind: Castle, From: c.kingFrom, To: c.kingTo})
		}
	}
	return out
}

// dropMoves appends a drop of every letter in the mover's hand on every
// empty square where it may be dropped (stdRules.dropAt), before the
// check test.
func (p *stdPos) dropMoves(out []Move) []Move {
	for _, l := range p.r.letters {
		if p.hand[p.turn][l-'A'] == 0 {
			continue
		}
		for _, s := range p.r.dropAt[p.turn][l-'A'] {
			if p.sq[s] == NoPiece {
				out = append(out, Move{Kind: Drop, From: NoSquare, To: s, Piece: l})
			}
		}
	}
	return out
}

func (p *stdPos) addWithPromotion(out []Move, pc Piece, from, to Square) []Move {
	if p.r.promotion == nil || pc.Letter() != p.r.pawn {
		return append(out, Move{Kind: Normal, From: from, To: to})
	}
	choices, optional := p.r.promotion(pc, from, to)
	if len(choices) == 0 || optional {
		out = append(out, Move{Kind: Normal, From: from, To: to})
	}
	for _, c := range choices {
		out = append(out, Move{Kind: Normal, From: from, To: to, Promo: c})
	}
	return out
}

func (p *stdPos) castleOpen(c castleRule) bool {
	k, rk := p.sq[c.kingFrom], p.sq[c.rookFrom]
	if k == NoPiece || rk == NoPiece || k.Color() != c.color || rk.Color() != c.color {
		return false
	}
	for _, s := range c.empty {
		if s != c.kingFrom && s != c.rookFrom && p.sq[s] != NoPiece {
			return false
		}
	}
	for _, s := range c.safe {
		if p.r.attacked(p.sq, s, c.color.Other()) {
			return false
		}
	}
	return true
}

// play applies m (assumed pseudo-legal) and returns the new position.
func (p *stdPos) play(m Move) *stdPos {
	n := &stdPos{cells: cells{sq: make([]Piece, len(p.sq))}}
	p.playInto(m, n)
	return n
}

// playInto writes the position after m (assumed pseudo-legal) into n,
// reusing n's board; perft recycles one n per depth. n must not be a
// position anyone has seen through the Position interface.
func (p *stdPos) playInto(m Move, n *stdPos) {
	r := p.r
	copy(n.sq, p.sq)
	n.r, n.turn, n.castle, n.kings = r, p.turn.Other(), p.castle, p.kings
	n.ep, n.epVictim, n.half, n.full, n.prev, n.since = NoSquare, NoSquare, p.half+1, p.full, p, p.since+1
	if p.turn == Black {
		n.full++
	}
	if r.drops {
		n.hand = p.hand
	}
	switch m.Kind {
	case Castle:
		c := r.castleFor(p.turn, m)
		k, rk := n.sq[c.kingFrom], n.sq[c.rookFrom]
		n.sq[c.kingFrom], n.sq[c.rookFrom] = NoPiece, NoPiece
		n.sq[c.kingTo], n.sq[c.rookTo] = k, rk
		if p.kings[p.turn] == c.kingFrom {
			n.kings[p.turn] = c.kingTo
		}
		for i, cr := range r.castles {
			if cr.color == p.turn {
				n.castle &^= 1 << i
			}
		}
		// The four squares may coincide (a king and rook that trade
		// places): each changed square counts once.
		n.zkey = p.zkey ^ zBlack ^ zCastle(p.castle) ^ zCastle(n.castle)
		touched := [4]Square{c.kingFrom, c.rookFrom, c.kingTo, c.rookTo}
		for i, sq := range touched {
			if !slices.Contains(touched[:i], sq) {
				n.zkey ^= zSquare(sq, p.sq[sq], n.sq[sq])
			}
		}
		return
	case Drop:
		pc, i := MakePiece(m.Piece, p.turn), int(m.Piece-'A')
		k := p.hand[p.turn][i]
		n.sq[m.To] = pc
		n.hand[p.turn][i] = k - 1
		n.zkey = p.zkey ^ zBlack ^ zPiece(m.To, pc) ^ zHand(p.turn, i, k) ^ zHand(p.turn, i, k-1)
		if m.Piece == r.pawn && r.resetOnPawn { // as Fairy-Stockfish: a pawn drop resets the clock
			n.half = 0
		}
		n.cut()
		return
	case Normal:
	default:
		panic(fmt.Sprintf("rules: %s cannot play a move of kind %d", r.name, m.Kind))
	}
	pc, victim := n.sq[m.From], n.sq[m.To]
	isPawn := pc.Letter() == r.pawn
	if isPawn && m.To == p.ep && victim == NoPiece && p.epVictim != NoSquare {
		n.sq[p.epVictim] = NoPiece
		victim = MakePiece(r.pawn, p.turn.Other())
	}
	n.sq[m.From] = NoPiece
	if m.From == p.kings[p.turn] {
		n.kings[p.turn] = m.To
	}
	if m.Promo != 0 {
		n.sq[m.To] = MakePiece(m.Promo, p.turn).withPromoted(r.toHand)
	} else {
		n.sq[m.To] = pc
	}
	if victim != NoPiece || m.Promo != 0 || (isPawn && r.resetOnPawn) {
		n.half = 0
	}
	if isPawn && r.doubleStep != nil {
		fwd := turn(Vec{0, 1}, r.down(pc))
		if one, ok := r.board.Leap(m.From, fwd); ok {
			if two, ok := r.board.Leap(one, fwd); ok && two == m.To {
				n.ep, n.epVictim = one, m.To
			}
		}
	}
	for i, c := range r.castles {
		if m.From == c.kingFrom || m.From == c.rookFrom || m.To == c.kingFrom || m.To == c.rookFrom {
			n.castle &^= 1 << i
		}
	}
	n.zkey = p.zkey ^ zBlack ^ zCastle(p.castle) ^ zCastle(n.castle) ^
		zSquare(m.From, p.sq[m.From], n.sq[m.From]) ^ zSquare(m.To, p.sq[m.To], n.sq[m.To])
	if v := p.epVictim; v != NoSquare && v != m.From && v != m.To { // taken en passant (or still there)
		n.zkey ^= zSquare(p.epVictim, p.sq[p.epVictim], n.sq[p.epVictim])
	}
	if victim != NoPiece && r.toHand {
		l := victim.Letter()
		if victim.Promoted() && r.pawn != 0 {
			l = r.pawn
		}
		i := int(l - 'A')
		k := n.hand[p.turn][i]
		n.hand[p.turn][i] = k + 1
		n.zkey ^= zHand(p.turn, i, k) ^ zHand(p.turn, i, k+1)
	}
	n.cut()
}

// cut ends the history repetition looks at after an irreversible move
// (the clock back at 0): nothing before it can repeat, except where
// captures go to hand.
func (n *stdPos) cut() {
	if n.half == 0 && !n.r.toHand {
		n.prev, n.since = nil, 0
	}
}

// Legal returns every legal move, none once the game is over. The moves
// are computed once per position (safe for concurrent readers); each call
// returns a fresh copy the caller may change.
func (p *stdPos) Legal() []Move {
	moves, _ := p.cache.get(p.compute)
	return slices.Clone(moves)
}

// compute lists the legal moves and the result.
func (p *stdPos) compute() ([]Move, Result) {
	moves := p.legalMoves(nil, nil)
	if r := p.autoResult(len(moves) == 0); r.Over {
		return nil, r
	}
	return moves, Result{}
}

// royalSquare returns the square of c's royal piece, or NoSquare when c
// has none or more than one.
func (p *stdPos) royalSquare(c Color) Square {
	found := NoSquare
	for _, s := range p.r.board.squares {
		pc := p.sq[s]
		if pc != NoPiece && pc.Color() == c && p.r.piece(pc).Royal {
			if found != NoSquare {
				return NoSquare
			}
			found = s
		}
	}
	return found
}

// legalMoves appends to buf[:0] the pseudo-legal moves that do not leave
// the mover's royal piece attacked. Each move is made and unmade in place on
// scratch (a copy of the board, reused when long enough), so the test
// allocates nothing; the attack test looks back from the king's square.
func (p *stdPos) legalMoves(buf []Move, scratch []Piece) []Move {
	ps := p.pseudo(buf[:0])
	r := p.r
	king := p.kings[p.turn]
	if king == NoSquare {
		out := ps[:0]
		for _, m := range ps {
			n := p.play(m)
			if !r.royalAttacked(n.sq, p.turn) && (m.Kind != Drop || !r.noDropChecks || !r.royalAttacked(n.sq, p.turn.Other())) {
				out = append(out, m)
			}
		}
		return out
	}
	if cap(scratch) < len(p.sq) {
		scratch = make([]Piece, len(p.sq))
	}
	sq := scratch[:len(p.sq)]
	copy(sq, p.sq)
	enemy := p.turn.Other()
	ix := r.index()
	// Out of check, a move of another piece than the king can expose the
	// king only by leaving a ride line through the king's square (leaps
	// ignore blockers), unless the variant has hop or line-jump captures
	// or the move takes en passant: those moves skip the attack test.
	quiet := len(ix.slow) == 0 && !r.attacked(sq, king, enemy)
	out := ps[:0]
	for _, m := range ps {
		if m.Kind == Drop {
			// Out of check a drop cannot expose the king (it adds a piece;
			// hop captures aside, which make quiet false); in check it must
			// block. Without dropChecks it may not attack the other king.
			if quiet && !r.noDropChecks {
				out = append(out, m)
				continue
			}
			sq[m.To] = MakePiece(m.Piece, p.turn)
			ok := (quiet || !r.attacked(sq, king, enemy)) && (!r.noDropChecks || !p.checks(sq))
			sq[m.To] = NoPiece
			if ok {
				out = append(out, m)
			}
			continue
		}
		if quiet && m.Kind == Normal && m.From != king && !ix.mayPin(king, m.From) &&
			(m.To != p.ep || p.epVictim == NoSquare || sq[m.From].Letter() != r.pawn) {
			out = append(out, m)
			continue
		}
		if m.Kind == Castle {
			c := r.castleFor(p.turn, m)
			k, rk, kt, rt := sq[c.kingFrom], sq[c.rookFrom], sq[c.kingTo], sq[c.rookTo]
			sq[c.kingFrom], sq[c.rookFrom] = NoPiece, NoPiece
			sq[c.kingTo], sq[c.rookTo] = k, rk
			ok := !r.attacked(sq, c.kingTo, enemy)
			sq[c.kingTo], sq[c.rookTo] = kt, rt
			sq[c.kingFrom], sq[c.rookFrom] = k, rk
			if ok {
				out = append(out, m)
			}
			continue
		}
		pc, victim := sq[m.From], sq[m.To]
		epSq, epPc := NoSquare, NoPiece
		if victim == NoPiece && m.To == p.ep && p.epVictim != NoSquare && pc.Letter() == r.pawn {
			epSq, epPc = p.epVictim, sq[p.epVictim]
			sq[epSq] = NoPiece
		}
		sq[m.From], sq[m.To] = NoPiece, pc
		target := king
		if m.From == king {
			target = m.To
		}
		ok := !r.attacked(sq, target, enemy)
		sq[m.From], sq[m.To] = pc, victim
		if epSq != NoSquare {
			sq[epSq] = epPc
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

// checks reports whether the side to move attacks the other side's royal
// piece on board sq.
func (p *stdPos) checks(sq []Piece) bool {
	them := p.turn.Other()
	if k := p.kings[them]; k != NoSquare {
		return p.r.attacked(sq, k, p.turn)
	}
	return p.r.royalAttacked(sq, them)
}

// castleFor returns the castling rule of side c that m plays.
func (r *stdRules) castleFor(c Color, m Move) castleRule {
	for _, cr := range r.castles {
		if cr.kingFrom == m.From && cr.kingTo == m.To && cr.color == c {
			return cr
		}
	}
	panic(fmt.Sprintf("rules: %s has no castling %v for %s", r.name, m, c))
}

func (p *stdPos) Play(m Move) (Position, error) {
	moves, r := p.cache.get(p.compute)
	return playLegal(moves, r, m, p.play, func(m Move) error {
		return fmt.Errorf("%w: %s is not a legal move here", ErrIllegal, p.r.coord(m))
	})
}

func (r *stdRules) coord(m Move) string {
	if m.Kind == Drop {
		return string(m.Piece) + "@" + r.board.SquareName(m.To)
	}
	s := r.board.SquareName(m.From) + r.board.SquareName(m.To)
	if m.Promo != 0 {
		s += strings.ToLower(string(m.Promo))
	}
	return s
}

func (p *stdPos) InCheck() bool { return p.r.royalAttacked(p.sq, p.turn) }

func (p *stdPos) IsCapture(m Move) bool {
	if m.Kind != Normal {
		return false
	}
	if p.sq[m.To] != NoPiece {
		return true
	}
	return p.sq[m.From].Letter() == p.r.pawn && m.To == p.ep && p.epVictim != NoSquare
}

// Result applies the automatic endings: mate, stalemate, the automatic move
// rule (a mate on the last ply still counts), fivefold repetition and
// insufficient material.
func (p *stdPos) Result() Result {
	_, r := p.cache.get(p.compute)
	return r
}

// autoResult is Result for a position whose side to act has no move by
// how pieces move (stuck) or has one.
func (p *stdPos) autoResult(stuck bool) Result {
	if r := p.extinct(); r.Over {
		return r
	}
	if stuck {
		if p.InCheck() {
			return outcome(cmp.Or(p.r.checkmate, OutcomeLoss), p.turn, "checkmate")
		}
		return outcome(cmp.Or(p.r.stalemate, OutcomeDraw), p.turn, "stalemate")
	}
	if p.r.autoPlies > 0 && p.half >= p.r.autoPlies {
		return Result{Over: true, Draw: true, Reason: fmt.Sprintf("%d-move rule", p.r.autoPlies/2)}
	}
	if p.r.repetition && p.since >= 8 && p.repetitions() >= 5 {
		return Result{Over: true, Draw: true, Reason: "fivefold repetition"}
	}
	if r := p.nFolded(); r.Over {
		return r
	}
	if p.r.insufficient != nil && p.r.insufficient(p) {
		return Result{Over: true, Draw: true, Reason: "insufficient material"}
	}
	return Result{}
}

func (p *stdPos) Claimable() string {
	if p.Result().Over {
		return ""
	}
	if p.r.repetition && p.since >= 4 && p.repetitions() >= 3 {
		return "threefold repetition"
	}
	if p.r.claimPlies > 0 && p.half >= p.r.claimPlies {
		return fmt.Sprintf("%d-move rule", p.r.claimPlies/2)
	}
	return ""
}

// repKey identifies a position for repetition: pieces, side, castling
// rights, and the en passant square only when a capture there is legal
// (FIDE). It is the incremental zkey, with the en passant term added.
func (p *stdPos) repKey() uint64 { return p.zkey ^ p.zEPTerm() }

// zEPTerm is the en passant part of repKey: zEP of the square when a
// capture there is legal, else 0.
func (p *stdPos) zEPTerm() uint64 {
	if p.ep == NoSquare {
		return 0
	}
	for _, m := range p.legalMoves(nil, nil) { // not Legal(): perft recycles positions
		if m.Kind == Normal && m.To == p.ep && p.sq[m.From].Letter() == p.r.pawn {
			return zEP(p.ep)
		}
	}
	return 0
}

// fullKey recomputes zkey from the whole position: the check of the
// incremental key (zobrist.go).
func (p *stdPos) fullKey() uint64 {
	k := zBoard(p.sq) ^ zSide(p.turn) ^ zCastle(p.castle)
	for c := range p.hand {
		for i, n := range p.hand[c] {
			k ^= zHand(Color(c), i, n)
		}
	}
	return k
}

// repetitions counts the occurrences of this position since the last
// irreversible move (where captures go to hand, since the game's start or
// the position it was read from), this one included. The positions an even number of
// plies back are compared by their incremental keys; the en passant term,
// which needs the legal moves, is computed only for those whose other
// features are equal.
func (p *stdPos) repetitions() int {
	n := 1
	var k uint64
	kDone := false
	q := p.prev
	for back := 1; q != nil; back++ {
		if back%2 == 0 && q.zkey == p.zkey {
			if !kDone {
				k, kDone = p.repKey(), true
			}
			if q.repKey() == k {
				n++
			}
		}
		q = q.prev
	}
	return n
}

// String writes the position string: board (with the hands in brackets
// in variants with drops, as Fairy-Stockfish writes them: White's, then
// Black's), side, castling, en passant, halfmove clock, move number.
func (p *stdPos) String() string {
	var b strings.Builder
	b.WriteString(p.r.boardString(p.sq))
	if p.r.drops {
		b.WriteString(handsField(p.Hand(White), p.Hand(Black)))
	}
	b.WriteString(" ")
	b.WriteString(sideField(p.turn))
	b.WriteString(" ")
	rights := ""
	for i, c := range p.r.castles {
		if p.castle&(1<<i) != 0 {
			rights += string(c.letter)
		}
	}
	if rights == "" {
		rights = "-"
	}
	b.WriteString(rights)
	b.WriteString(" ")
	if p.ep != NoSquare {
		b.WriteString(p.r.board.SquareName(p.ep))
	} else {
		b.WriteString("-")
	}
	fmt.Fprintf(&b, " %d %d", p.half, p.full)
	return b.String()
}

// boardString writes field 1 (docs/rules/chess.md#position-string): ranks high to low, existing
// squares only, digits for runs of empty squares, ' after a downward pawn,
// ~ after a promoted piece (where captures go to hand).
func (r *stdRules) boardString(sq []Piece) string {
	return writeBoard(r.board, sq, func(pc Piece) string {
		s := string(pc.FENLetter())
		if r.explicitDir && pc.Letter() == r.pawn && pc.Down() {
			s += "'"
		}
		if pc.Promoted() {
			s += "~"
		}
		return s
	})
}

func writeBoard(b *Board, sq []Piece, letter func(Piece) string) string {
	var sb strings.Builder
	for rank := b.h - 1; rank >= 0; rank-- {
		empty := 0
		for f := range b.w {
			s := b.Sq(f, rank)
			if !b.Exists(s) {
				continue
			}
			if sq[s] == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			sb.WriteString(letter(sq[s]))
		}
		if empty > 0 {
			sb.WriteString(strconv.Itoa(empty))
		}
		if rank > 0 {
			sb.WriteString("/")
		}
	}
	return sb.String()
}

// parseBoard reads field 1 into a board array. letters says which piece
// letters exist; downMark allows the ' of downward pawns, promotedMark
// the ~ of promoted pieces.
func parseBoard(b *Board, field string, known func(byte) bool, downMark, promotedMark bool) ([]Piece, error) {
	sq := make([]Piece, b.Size())
	ranks := strings.Split(field, "/")
	if len(ranks) != b.h {
		return nil, fmt.Errorf("the board field has %d ranks separated by '/', but this board has %d", len(ranks), b.h)
	}
	for i, row := range ranks {
		rank := b.h - 1 - i
		var cells []Square
		for f := range b.w {
			if s := b.Sq(f, rank); b.Exists(s) {
				cells = append(cells, s)
			}
		}
		k := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '1' && c <= '9':
				n := int(c - '0')
				for j+1 < len(row) && row[j+1] >= '0' && row[j+1] <= '9' {
					j++
					n = n*10 + int(row[j]-'0')
				}
				k += n
			case c == '\'' && downMark:
				if k == 0 || sq[cells[k-1]] == NoPiece {
					return nil, fmt.Errorf("rank %d: a ' must follow a pawn", rank+1)
				}
				sq[cells[k-1]] = sq[cells[k-1]].WithDown(true)
			case c == '~':
				if !promotedMark {
					return nil, fmt.Errorf("rank %d: ~ marks a promoted piece only in games whose captures go to hand", rank+1)
				}
				if l := row[max(j-1, 0)] &^ 0x20; j == 0 || l < 'A' || l > 'Z' {
					return nil, fmt.Errorf("rank %d: a ~ (promoted) must follow a piece letter, e.g. Q~", rank+1)
				}
				sq[cells[k-1]] = sq[cells[k-1]].withPromoted(true)
			default:
				up := c &^ 0x20
				if !known(up) {
					return nil, fmt.Errorf("rank %d: %q is not a piece of this game", rank+1, c)
				}
				if k >= len(cells) {
					return nil, fmt.Errorf("rank %d has more than its %d squares", rank+1, len(cells))
				}
				color := White
				if c >= 'a' {
					color = Black
				}
				sq[cells[k]] = MakePiece(up, color)
				k++
			}
		}
		if k != len(cells) {
			return nil, fmt.Errorf("rank %d describes %d squares, but it has %d", rank+1, k, len(cells))
		}
	}
	return sq, nil
}

// ParsePosition reads a position string.
func (r *stdRules) ParsePosition(s string) (Position, error) {
	f, err := positionFields(r.name, s, "board", "side", "castling", "en passant", "halfmove clock", "move number")
	if err != nil {
		return nil, err
	}
	field, hands := f[0], ""
	if r.drops {
		if field, hands, err = cutHands(f[0], "[] or [Nn]"); err != nil {
			return nil, err
		}
	}
	sq, err := parseBoard(r.board, field, r.known, r.explicitDir, r.toHand)
	if err != nil {
		return nil, err
	}
	if r.explicitDir {
		// Black pawns written without ' still move up; mark the board's
		// Down bits only from the string.
	} else {
		for i := range sq {
			if sq[i] != NoPiece && sq[i].Color() == Black {
				sq[i] = sq[i].WithDown(false)
			}
		}
	}
	p := &stdPos{r: r, cells: cells{sq: sq}, ep: NoSquare, epVictim: NoSquare}
	if r.drops {
		if err := p.readHands(hands); err != nil {
			return nil, err
		}
	}
	if p.turn, err = parseSide(f[1], "move"); err != nil {
		return nil, err
	}
	if f[2] != "-" {
		for _, c := range []byte(f[2]) {
			found := false
			for i, cr := range r.castles {
				if cr.letter == c {
					p.castle |= 1 << i
					found = true
				}
			}
			if !found {
				return nil, fmt.Errorf("castling rights %q: %q is not a right of %s", f[2], c, r.name)
			}
		}
	}
	if f[3] != "-" {
		ep, ok := r.board.ParseSquare(f[3])
		if !ok {
			return nil, fmt.Errorf("the en passant field: %s", r.board.describe(f[3]))
		}
		p.ep = ep
		// The pawn that passed over ep stands one step further in its
		// direction: find it among the opponent's pawns next to ep.
		for _, v := range []Vec{{0, 1}, {0, -1}} {
			if s, ok := r.board.Leap(ep, v); ok {
				pc := p.sq[s]
				if pc != NoPiece && pc.Letter() == r.pawn && pc.Color() != p.turn && turn(Vec{0, 1}, r.down(pc)) == v {
					p.epVictim = s
				}
			}
		}
	}
	if p.half, err = parseClock(f[4]); err != nil {
		return nil, err
	}
	if p.full, err = parseMoveNumber(f[5]); err != nil {
		return nil, err
	}
	for c := range 2 {
		royals := 0
		for _, s := range r.board.squares {
			if pc := p.sq[s]; pc != NoPiece && pc.Color() == Color(c) && r.piece(pc).Royal {
				royals++
			}
		}
		if royals != 1 {
			return nil, fmt.Errorf("%s has %d kings; a %s position needs exactly one each", Color(c), royals, r.name)
		}
	}
	p.kings = [2]Square{p.royalSquare(White), p.royalSquare(Black)}
	if r.royalAttacked(p.sq, p.turn.Other()) {
		return nil, errors.New("the side not to move is in check: such a position cannot arise")
	}
	p.zkey = p.fullKey()
	return p, nil
}

// maxPieces bounds the pieces of a position with hands, so that no count
// in hand overflows.
const maxPieces = 255

// readHands reads the hands of a position string (the letters between the
// brackets; Fairy-Stockfish writes "-" for none in some variants).
func (p *stdPos) readHands(hands string) error {
	total := len(hands)
	for _, pc := range p.sq {
		if pc != NoPiece {
			total++
		}
	}
	if total > maxPieces {
		return fmt.Errorf("the board and the hands [%s] hold more than %d pieces, the most a game with drops may have", hands, maxPieces)
	}
	for _, c := range []byte(hands) {
		if c == '-' {
			continue
		}
		up := c &^ 0x20
		if !p.r.known(up) || c < 'A' {
			return fmt.Errorf("the hands [%s]: %q is not a piece of %s", hands, c, p.r.name)
		}
		if p.r.piece(MakePiece(up, White)).Royal {
			return fmt.Errorf("the hands [%s]: a king (%c) cannot be held in hand", hands, c)
		}
		color := White
		if c >= 'a' {
			color = Black
		}
		p.hand[color][up-'A']++
	}
	return nil
}

// fewPieces returns the squares of each side's pieces other than kings
// when there are at most max of them in all (the draw rules by material only
// care about such positions), and ok=false otherwise.
func (p *stdPos) fewPieces(max int) (white, black []Square, ok bool) {
	for _, s := range p.r.board.squares {
		pc := p.sq[s]
		if pc == NoPiece || pc.Letter() == 'K' {
			continue
		}
		if len(white)+len(black) == max {
			return nil, nil, false
		}
		if pc.Color() == White {
			white = append(white, s)
		} else {
			black = append(black, s)
		}
	}
	return white, black, true
}

// bareKings is the insufficient-material rule of the variants that know
// only K v K.
func bareKings(p *stdPos) bool {
	_, _, ok := p.fewPieces(0)
	return ok
}

// WhyNoCastle says, in one reason, why the side to move cannot castle
// the way san ("O-O" or "O-O-O") writes it, or "" when it can or the
// reason is not one of these (WhyNoCastleText, in English).
func (p *stdPos) WhyNoCastle(san string) string { return English(p.WhyNoCastleText(san)) }

// WhyNoCastleText is WhyNoCastle's reason for the reader's language, nil
// for none. The reasons are checked in the order a player would look: no
// such castling in this game, the right lost (the king or the rook has
// moved), a square between them occupied, the king in check, a square
// the king passes or lands on attacked.
func (p *stdPos) WhyNoCastleText(san string) lang.Text {
	b := p.r.board
	var rules []int
	for i, c := range p.r.castles {
		if c.color == p.turn && (c.long == (san == "O-O-O")) {
			rules = append(rules, i)
		}
	}
	if len(rules) == 0 {
		if len(p.r.castles) == 0 {
			return lang.M("there is no castling in %s", TitleText(p.r))
		}
		return lang.M("%s is not a castling of %s (write \"O-O\")", san, TitleText(p.r))
	}
	// With several rules of one name (none today), the first one's reason.
	i := rules[0]
	c := p.r.castles[i]
	partner := "rook"
	if pc := p.sq[c.rookFrom]; pc != NoPiece && pc.Color() == c.color {
		partner = p.r.PieceName(pc.Letter())
	}
	if p.castle&(1<<i) == 0 {
		k, rk := p.sq[c.kingFrom], p.sq[c.rookFrom]
		switch {
		case k == NoPiece || k.Color() != c.color || k.Letter() != 'K':
			return lang.M("your king has left %s, so it may not castle any more in this game", b.SquareName(c.kingFrom))
		case rk == NoPiece || rk.Color() != c.color:
			return lang.M("no piece of yours stands on %s to castle with: it has moved or was captured, so this castling is gone for good", b.SquareName(c.rookFrom))
		}
		return lang.M("your king or your %s on %s has moved earlier in the game (and came back), so this castling is gone for good", PieceWord(partner), b.SquareName(c.rookFrom))
	}
	var between []lang.Text
	for _, s := range c.empty {
		if pc := p.sq[s]; s != c.kingFrom && s != c.rookFrom && pc != NoPiece {
			name, at := PieceWord(p.r.PieceName(pc.Letter())), b.SquareName(s)
			switch {
			case pc.Color() == c.color:
				between = append(between, lang.M("your %s stands on %s", name, at))
			case pc.Color() == White:
				between = append(between, lang.M("White's %s stands on %s", name, at))
			default:
				between = append(between, lang.M("Black's %s stands on %s", name, at))
			}
		}
	}
	if len(between) > 0 {
		return lang.M("the squares between your king and your %s must be empty, but %s", PieceWord(partner), AndList(between...))
	}
	if p.r.attacked(p.sq, c.kingFrom, c.color.Other()) {
		return lang.M("your king is in check, and a king in check may not castle")
	}
	for _, s := range c.safe {
		if s == c.kingFrom || !p.r.attacked(p.sq, s, c.color.Other()) {
			continue
		}
		if s == c.kingTo {
			if c.color.Other() == White {
				return lang.M("your king would land on %s, which White attacks", b.SquareName(s))
			}
			return lang.M("your king would land on %s, which Black attacks", b.SquareName(s))
		}
		if c.color.Other() == White {
			return lang.M("your king would pass through %s, which White attacks", b.SquareName(s))
		}
		return lang.M("your king would pass through %s, which Black attacks", b.SquareName(s))
	}
	return nil
}

// WhyNot says why the drop m is not legal now (ActionExplain), in
// English: WhyNotText.
func (p *stdPos) WhyNot(m Move) string { return English(p.WhyNotText(m)) }

// WhyNotText says why the drop m is not legal now, for the reader's
// language: a pawn on its first rank or where it would promote, a square
// outside the drop region, a check where drops may not give one, a king
// left in check. It is nil for other actions, for a legal drop, and where
// the reader's own words serve (no such piece in hand, an occupied
// square).
func (p *stdPos) WhyNotText(m Move) lang.Text {
	r := p.r
	l := m.Piece
	if m.Kind != Drop || !r.drops || l < 'A' || l > 'Z' || m.To < 0 || int(m.To) >= len(p.sq) || !r.board.Exists(m.To) ||
		p.hand[p.turn][l-'A'] == 0 || p.sq[m.To] != NoPiece || p.Result().Over || slices.Contains(p.Legal(), m) {
		return nil
	}
	name, sq := r.PieceName(l), r.board.SquareName(m.To)
	if !slices.Contains(r.dropAt[p.turn][l-'A'], m.To) {
		if l == r.pawn && slices.Contains(r.dropRegion[p.turn], m.To) {
			if rank := r.board.Rank(m.To); rank == 0 && p.turn == White || rank == r.board.h-1 && p.turn == Black {
				return lang.M("%s may not be dropped on your first rank", aPiece(name))
			}
			return lang.M("%s may not be dropped where it would promote (%s)", aPiece(name), sq)
		}
		return lang.M("%s is not a square where you may drop %s", sq, aPiece(name))
	}
	n := p.play(m)
	if r.royalAttacked(n.sq, p.turn) {
		if p.InCheck() {
			return lang.M("you are in check, and %s on %s does not block it", aPiece(name), sq)
		}
		return lang.M("it would leave your king in check")
	}
	if r.noDropChecks && r.royalAttacked(n.sq, p.turn.Other()) {
		return lang.M("a drop may not give check in this game")
	}
	return nil
}

// WhyIllegal explains why the piece on from cannot go to to, or "" when no
// specific reason is known (WhyIllegalText, in English).
func (p *stdPos) WhyIllegal(from, to Square) string { return English(p.WhyIllegalText(from, to)) }

// WhyIllegalText is WhyIllegal's reason for the reader's language, nil for
// none.
func (p *stdPos) WhyIllegalText(from, to Square) lang.Text {
	pc := p.At(from)
	if pc == NoPiece || pc.Color() != p.turn {
		return nil
	}
	if t := p.At(to); t != NoPiece && t.Color() == p.turn {
		return lang.M("your own piece stands there")
	}
	for _, m := range p.pseudo(nil) {
		if m.From == from && m.To == to {
			if v := p.At(to); v != NoPiece && p.r.captureOK != nil && !p.r.captureOK(pc, v) {
				return lang.M("that capture is not allowed")
			}
			if p.InCheck() {
				return lang.M("you are in check, and this move does not get your king out of it")
			}
			return lang.M("it would leave your king in check")
		}
	}
	if v := p.At(to); v != NoPiece && p.r.captureOK != nil && !p.r.captureOK(pc, v) {
		return lang.M("%s may not capture %s", aPiece(p.r.PieceName(pc.Letter())), aPiece(p.r.PieceName(v.Letter())))
	}
	// Would it get there on an empty board? Then something is in the way.
	empty := make([]Piece, len(p.sq))
	empty[from] = pc
	o := occupancy{b: p.r.board, sq: empty}
	reach := false
	for i := range p.r.piece(pc).Moves {
		o.targets(from, pc, &p.r.piece(pc).Moves[i], p.r.down(pc), func(s Square) {
			if s == to {
				reach = true
			}
		})
	}
	if reach {
		if p.At(to) == NoPiece {
			return lang.M("a piece stands in the way (or that move needs a capture)")
		}
		return lang.M("a piece stands in the way")
	}
	// "an archbishop", "an amazon": a file variant's pieces.
	return lang.M("%s does not move that way", anyPiece(p.r.PieceName(pc.Letter())))
}
