package rules

import (
	"fmt"
	"referee/internal/lang"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Chec Toe (docs/rules/chectoe.md, seed 001): a 4×4 board, drops, and a die the
// referee rolls. The rules here never draw a number: the referee calls
// Roll with each value.
type checToe struct {
	gameInfo
	wizard  Prim
	checker Prim
}

// chtOrder is the hand order and the die's names: 1 P, 2 N, 3 B, 4 R.
var chtOrder = []byte{'P', 'N', 'B', 'R'}

// ChecToe returns the variant: one shared value, built on first use.
func ChecToe() Variant { return checToeVariant() }

var checToeVariant = sync.OnceValue(func() Variant {
	all := Join(orthogonal, diagonal)
	return &checToe{
		gameInfo: gameInfo{
			name: "chectoe", title: "Chec Toe", board: Rect("4x4", 4, 4),
			summary: "4x4 board, drops, a die the referee rolls; Wizard and Checker moves; four in a line (a Toe) wins",
			rulesText: "A 4x4 board, empty at the start; each player has a Pawn, Knight, Bishop and Rook in hand. " +
				"The referee rolls a die for every turn: 1-4 name P, N, B, R (move that piece, or drop it if in hand); " +
				"5 lets you drop any piece or move any piece as a Wizard (one diagonal step or a (3,1) leap); a 6 is " +
				"rolled again, and two 6s let you move or drop anything - or ask for the apocalypse roll (\"roll\"): " +
				"a third 6 sends every enemy piece back to hand. Once a turn you may \"reroll\" the first roll: then a " +
				"1-4 piece must be dropped or moved as a Checker (a two-square leap onto an empty square). You may " +
				"\"pass\". Four of your pieces on a line (a Toe) win if they survive your opponent's next turn.",
			pieceSet: newPieceSet(
				&PieceType{Letter: 'P', Name: "pawn", Moves: []Prim{
					Steps(MoveOnly, orthogonal...),                   // moves one square orthogonally, never capturing
					ForwardSteps(CaptureOnly, Vec{-1, 1}, Vec{1, 1}), // captures diagonally forward
				}},
				&PieceType{Letter: 'N', Name: "knight", Moves: []Prim{Leaps(knightVecs...)}},
				&PieceType{Letter: 'B', Name: "bishop", Moves: []Prim{Rides(0, diagonal...)}},
				&PieceType{Letter: 'R', Name: "rook", Moves: []Prim{Rides(0, orthogonal...)}},
			),
		},
		wizard:  Leaps(Join(diagonal, Symmetric(3, 1))...),             // one diagonal step or a (3,1) leap; moves and captures
		checker: Prim{Kind: Leap, Vecs: Scale(2, all), Mode: MoveOnly}, // two squares any way, over anything, onto an empty square
	}
})

func (v *checToe) HasCheck() bool           { return false }
func (v *checToe) HasHands() bool           { return true }
func (v *checToe) PawnLetterRequired() bool { return true }

func (v *checToe) Start() Position {
	p, err := v.ParsePosition("4/4/4/4[PNBRpnbr] w - - 1")
	if err != nil {
		panic("chectoe start: " + err.Error())
	}
	return p
}

// ctPos is a Chec Toe position.
type ctPos struct {
	v *checToe
	cells
	hand     [2][4]bool // in chtOrder
	rolls    []int      // this turn's rolls, the replaced first roll excluded
	rerolled bool
	owes     bool  // the referee must roll before anyone acts
	pending  Color // owner of the standing Toe
	hasToe   bool  // pending is set
	won      bool  // pending names the winner
	cache    legalCache
}

func (p *ctPos) Variant() Variant  { return p.v }
func (p *ctPos) InCheck() bool     { return false }
func (p *ctPos) Claimable() string { return "" }
func (p *ctPos) NeedsRoll() bool   { return p.owes && !p.won }

func (p *ctPos) IsCapture(m Move) bool {
	return (m.Kind == Normal || m.Kind == Wizard) && p.sq[m.To] != NoPiece
}

func (p *ctPos) Hand(c Color) []byte {
	var out []byte
	for i, l := range chtOrder {
		if p.hand[c][i] {
			out = append(out, l)
		}
	}
	return out
}

// clone is a copy of p with nothing computed yet, for the action being
// applied to change.
func (p *ctPos) clone() *ctPos {
	return &ctPos{v: p.v, cells: cells{sq: slices.Clone(p.sq), turn: p.turn, full: p.full}, hand: p.hand,
		rolls: slices.Clone(p.rolls), rerolled: p.rerolled, owes: p.owes, pending: p.pending, hasToe: p.hasToe, won: p.won}
}

// DieState writes the die field: the turn's rolls, r when the first was
// replaced by a re-roll, ? while a roll is owed, - before the first roll.
func (p *ctPos) DieState() string {
	var b strings.Builder
	if p.rerolled {
		b.WriteByte('r')
	}
	for _, r := range p.rolls {
		b.WriteString(strconv.Itoa(r))
	}
	if b.Len() == 0 && !p.rerolled {
		return "-"
	}
	if p.owes {
		b.WriteByte('?')
	}
	return b.String()
}

// stage is what the standing die allows.
type stage int

const (
	stNatural     stage = iota // 1-4: that piece, naturally or by drop; 5: any drop or any Wizard move
	stCheckerOnly              // after a re-roll of 1-4: drop that piece, or move it as a Checker
	stDoubleSix                // any natural move or drop, or the apocalypse roll
)

// standing returns the value acted on and the stage, once no roll is owed.
func (p *ctPos) standing() (int, stage) {
	r := p.rolls
	switch {
	case len(r) == 1 && p.rerolled && r[0] <= 4:
		return r[0], stCheckerOnly
	case len(r) == 2 && r[0] == 6 && r[1] == 6:
		return 6, stDoubleSix
	}
	return r[len(r)-1], stNatural
}

// Roll applies one die value (docs/rules/chectoe.md): a 6 is void and rolled again;
// two 6s make a double six; after the apocalypse request a 6 sends every
// enemy piece home and ends the turn.
func (p *ctPos) Roll(v int) (Position, error) {
	if p.won {
		return nil, gameOver(p.Result())
	}
	if !p.NeedsRoll() {
		return nil, fmt.Errorf("%w: no roll is due now", ErrIllegal)
	}
	if v < 1 || v > 6 {
		return nil, fmt.Errorf("%w: a die shows 1 to 6, not %d", ErrIllegal, v)
	}
	n := p.clone()
	n.rolls = append(n.rolls, v)
	n.owes = false
	r := n.rolls
	switch {
	case len(r) == 1 && v == 6:
		n.owes = true // void: rolled again at once
	case len(r) == 3 && r[0] == 6 && r[1] == 6 && v == 6:
		// "666": every enemy piece on the board returns to its owner's hand.
		for _, s := range n.v.board.squares {
			if pc := n.sq[s]; pc != NoPiece && pc.Color() != n.turn {
				n.hand[pc.Color()][slices.Index(chtOrder, pc.Letter())] = true
				n.sq[s] = NoPiece
			}
		}
		return n.endTurn(), nil
	}
	return n, nil
}

// pieceSquare finds side c's piece with letter l, or NoSquare.
func (p *ctPos) pieceSquare(c Color, l byte) Square {
	for _, s := range p.v.board.squares {
		if pc := p.sq[s]; pc != NoPiece && pc.Color() == c && pc.Letter() == l {
			return s
		}
	}
	return NoSquare
}

// Legal returns the actions the die allows now (docs/rules/chectoe.md), none while a
// roll is owed or once the game is over; each call returns a fresh copy
// the caller may change.
func (p *ctPos) Legal() []Move {
	moves, _ := p.cache.get(p.compute)
	return slices.Clone(moves)
}

// Result: a Toe that survived the opponent's turn wins (docs/rules/chectoe.md).
func (p *ctPos) Result() Result {
	_, r := p.cache.get(p.compute)
	return r
}

func (p *ctPos) compute() ([]Move, Result) {
	if p.won {
		return nil, Result{Over: true, Winner: p.pending, Reason: "a Toe survived the opponent's turn"}
	}
	if p.owes {
		return nil, Result{}
	}
	return p.allowed(), Result{}
}

// allowed lists the actions the standing die allows.
func (p *ctPos) allowed() []Move {
	b := p.v.board
	o := occupancy{b: b, sq: p.sq}
	var out []Move
	drops := func(l byte) {
		if !p.hand[p.turn][slices.Index(chtOrder, l)] {
			return
		}
		for _, s := range b.squares {
			if p.sq[s] == NoPiece {
				out = append(out, Move{Kind: Drop, From: NoSquare, To: s, Piece: l})
			}
		}
	}
	moves := func(l byte, kind MoveKind) {
		from := p.pieceSquare(p.turn, l)
		if from == NoSquare {
			return
		}
		pc := p.sq[from]
		var prims []Prim
		switch kind {
		case Normal:
			prims = p.v.table[l].Moves
		case Wizard:
			prims = []Prim{p.v.wizard}
		case Checker:
			prims = []Prim{p.v.checker}
		}
		seen := map[Square]bool{}
		for i := range prims {
			o.targets(from, pc, &prims[i], p.turn == Black, func(to Square) {
				if !seen[to] {
					seen[to] = true
					out = append(out, Move{Kind: kind, From: from, To: to})
				}
			})
		}
	}
	v, st := p.standing()
	switch {
	case st == stCheckerOnly:
		l := chtOrder[v-1]
		drops(l)
		moves(l, Checker)
	case st == stDoubleSix:
		for _, l := range chtOrder {
			moves(l, Normal)
			drops(l)
		}
		out = append(out, Move{Kind: Roll, From: NoSquare, To: NoSquare})
	case v == 5:
		for _, l := range chtOrder {
			drops(l)
			moves(l, Wizard)
		}
	default:
		l := chtOrder[v-1]
		moves(l, Normal)
		drops(l)
	}
	// Re-roll: once a turn, only to replace the turn's first roll of 1-5.
	if !p.rerolled && len(p.rolls) == 1 && p.rolls[0] <= 5 {
		out = append(out, Move{Kind: Reroll, From: NoSquare, To: NoSquare})
	}
	out = append(out, Move{Kind: Pass, From: NoSquare, To: NoSquare})
	return out
}

func (p *ctPos) Play(m Move) (Position, error) {
	moves, r := p.cache.get(p.compute)
	return playLegal(moves, r, m, p.play, func(Move) error {
		v, st := 0, stNatural
		if !p.owes && len(p.rolls) > 0 {
			v, st = p.standing()
		}
		return fmt.Errorf("%w: the die (%s) does not allow that now%s", ErrIllegal, p.DieState(), ctHint(v, st))
	})
}

// play applies the legal action m.
func (p *ctPos) play(m Move) *ctPos {
	n := p.clone()
	switch m.Kind {
	case Reroll:
		n.rerolled, n.rolls, n.owes = true, nil, true
		return n
	case Roll:
		n.owes = true
		return n
	case Pass:
	case Drop:
		n.sq[m.To] = MakePiece(m.Piece, p.turn)
		n.hand[p.turn][slices.Index(chtOrder, m.Piece)] = false
	default:
		if victim := n.sq[m.To]; victim != NoPiece {
			n.hand[victim.Color()][slices.Index(chtOrder, victim.Letter())] = true // a captured piece returns to its owner's hand
		}
		n.sq[m.To], n.sq[m.From] = n.sq[m.From], NoPiece
	}
	return n.endTurn()
}

func ctHint(v int, st stage) string {
	switch {
	case v == 0:
		return ""
	case st == stCheckerOnly:
		return fmt.Sprintf(": after the re-roll of %d the %c must be dropped, or moved as a Checker", v, chtOrder[v-1])
	case st == stDoubleSix:
		return ": after a double six, move or drop any piece, \"roll\" for the apocalypse, or \"pass\""
	case v == 5:
		return ": a 5 allows a drop of any piece or a Wizard move of any piece"
	}
	return fmt.Sprintf(": a %d allows only the %c, moved naturally or dropped", v, chtOrder[v-1])
}

// toe reports whether side c has four pieces on one rank, file or long
// diagonal.
func (p *ctPos) toe(c Color) bool {
	b := p.v.board
	mine := func(f, r int) bool {
		pc := p.sq[b.Sq(f, r)]
		return pc != NoPiece && pc.Color() == c
	}
	d1, d2 := true, true
	for i := range 4 {
		row, col := true, true
		for j := range 4 {
			row = row && mine(j, i)
			col = col && mine(i, j)
		}
		if row || col {
			return true
		}
		d1 = d1 && mine(i, i)
		d2 = d2 && mine(i, 3-i)
	}
	return d1 || d2
}

// endTurn resolves Toe and Chec, then hands the turn over.
func (n *ctPos) endTurn() *ctPos {
	mover := n.turn
	switch {
	case n.hasToe && n.pending == mover.Other() && n.toe(mover.Other()):
		// The opponent's Toe survived this turn: it wins, even against a new Toe.
		n.won = true
	case n.toe(mover):
		n.pending, n.hasToe = mover, true
	default:
		n.hasToe = false
	}
	n.rolls, n.rerolled = nil, false
	if mover == Black {
		n.full++ // after Black's turn, also when it ends the game
	}
	// After a win the side field names the winner (the opponent of the
	// mover), as the pending field does; no roll is owed.
	n.turn = mover.Other()
	n.owes = !n.won
	return n
}

// Prompt says what the die allows now.
func (p *ctPos) Prompt() string { return p.PromptText().In(nil) }

// PromptText is Prompt in the reader's language.
func (p *ctPos) PromptText() lang.Text {
	if p.won {
		return lang.Raw("")
	}
	if p.owes {
		return lang.M("The referee rolls the die for you.")
	}
	v, st := p.standing()
	var s []lang.Text
	switch r := p.rolls; {
	case st == stCheckerOnly:
		s = append(s, lang.M("Your re-roll shows %d.", v))
	case st == stDoubleSix:
		s = append(s, lang.M("The die shows a double six."))
	case len(r) == 3:
		s = append(s, lang.M("The apocalypse roll shows %d.", v))
	case st == stNatural && len(r) == 2 && r[0] == 6:
		s = append(s, lang.M("The die shows %d (the 6 before it is void).", r[1]))
	default:
		s = append(s, lang.M("The die shows %d.", v))
	}
	switch {
	case st == stCheckerOnly:
		s = append(s, lang.M("After your re-roll, drop your %s or move it as a Checker (two squares, onto an empty square, written with ^%s).", PieceWord(p.v.PieceName(chtOrder[v-1])), p.example(Checker)))
	case st == stDoubleSix:
		s = append(s, lang.M("Double six: move or drop any piece, or reply \"roll\" for the apocalypse roll (a 6 sends all enemy pieces home)."))
	case v == 5:
		s = append(s, lang.M("Drop any piece from your hand, or move any piece as a Wizard (one diagonal step or a (3,1) leap, written with o%s).", p.example(Wizard)))
	default:
		s = append(s, lang.M("Move your %s, or drop it if it is in your hand.", PieceWord(p.v.PieceName(chtOrder[v-1]))))
	}
	if !p.rerolled && len(p.rolls) == 1 && p.rolls[0] <= 5 {
		s = append(s, lang.M("You may also \"reroll\" once."))
	}
	if p.hasToe && p.pending != p.turn {
		s = append(s, lang.M("Your opponent has a Toe: capture one of its pieces this turn (a Chec), or they win."))
	}
	s = append(s, lang.M("Or \"pass\"."))
	return lang.Join(" ", s...)
}

func (p *ctPos) String() string {
	pend := "-"
	if p.hasToe || p.won {
		pend = sideField(p.pending)
	}
	return fmt.Sprintf("%s%s %s %s %s %d", plainBoard(p.v.board, p.sq), handsField(p.Hand(White), p.Hand(Black)),
		sideField(p.turn), p.DieState(), pend, p.full)
}

func (v *checToe) ParsePosition(s string) (Position, error) {
	f, err := positionFields(v.name, s, "board[hands]", "side", "die", "pending Toe", "move number")
	if err != nil {
		return nil, err
	}
	boardField, hands, err := cutHands(f[0], "4/4/4/4[PNBRpnbr]")
	if err != nil {
		return nil, err
	}
	sq, err := parseBoard(v.board, boardField, v.known, false, false)
	if err != nil {
		return nil, err
	}
	p := &ctPos{v: v, cells: cells{sq: sq}}
	for _, c := range []byte(hands) {
		i := slices.Index(chtOrder, c&^0x20)
		if i < 0 {
			return nil, fmt.Errorf("hand %q: %q is not a Chec Toe piece (P N B R)", hands+"]", c)
		}
		color := White
		if c >= 'a' {
			color = Black
		}
		p.hand[color][i] = true
	}
	for c := range 2 {
		for i, l := range chtOrder {
			n := 0
			if p.hand[c][i] {
				n++
			}
			for _, s := range v.board.squares {
				if pc := sq[s]; pc != NoPiece && pc.Color() == Color(c) && pc.Letter() == l {
					n++
				}
			}
			if n != 1 {
				return nil, fmt.Errorf("%s has %d %ss (on the board and in hand); each side has exactly one of each piece", Color(c), n, v.PieceName(l))
			}
		}
	}
	if p.turn, err = parseSide(f[1], "act"); err != nil {
		return nil, err
	}
	die := f[2]
	if die == "-" {
		p.owes = true
	} else {
		if strings.HasPrefix(die, "r") {
			p.rerolled, die = true, die[1:]
		}
		if strings.HasSuffix(die, "?") {
			p.owes, die = true, strings.TrimSuffix(die, "?")
		}
		for _, c := range die {
			if c < '1' || c > '6' {
				return nil, fmt.Errorf("the die field %q: write the turn's rolls as digits 1-6, e.g. 3, 63, 66, r2, 6?", f[2])
			}
			p.rolls = append(p.rolls, int(c-'0'))
		}
	}
	switch f[3] {
	case "-":
	case "w", "b":
		p.hasToe = true
		if f[3] == "b" {
			p.pending = Black
		}
		if p.toe(p.pending) && p.pending == p.turn {
			p.won = true // after a win the field names the winner
		}
	default:
		return nil, fmt.Errorf("the pending Toe field is %q; write w, b or -", f[3])
	}
	if p.full, err = parseMoveNumber(f[4]); err != nil {
		return nil, err
	}
	return p, nil
}

// dieText names the standing die for a player: "the die shows 4", "your
// re-roll shows 2", "the die shows a double six", "the apocalypse roll
// shows 3".
func (p *ctPos) dieText() lang.Text {
	v, st := p.standing()
	switch {
	case st == stCheckerOnly:
		return lang.M("your re-roll shows %d", v)
	case st == stDoubleSix:
		return lang.M("the die shows a double six")
	case len(p.rolls) == 3:
		return lang.M("the apocalypse roll shows %d", v)
	}
	return lang.M("the die shows %d", v)
}

// DieText says in words what the die stands at, for both players' status
// lines (DieDescriber), as the prompt says it: "shows 4 (after a void 6)"
// where DieState writes "64", "re-roll shows 2" for "r2" (a re-roll of 1
// to 4), "double six" for "66", "not rolled yet" for "-".
func (p *ctPos) DieText() string { return p.DieWords().In(nil) }

// DieWords is DieText in the reader's language.
func (p *ctPos) DieWords() lang.Text {
	if p.won {
		return lang.Raw("-")
	}
	if p.owes {
		if len(p.rolls) == 0 && !p.rerolled {
			return lang.M("not rolled yet")
		}
		return lang.M("the referee rolls again")
	}
	v, st := p.standing()
	switch {
	case st == stCheckerOnly:
		return lang.M("re-roll shows %d", v)
	case st == stDoubleSix:
		return lang.M("double six")
	case len(p.rolls) == 3:
		return lang.M("apocalypse roll shows %d", v)
	}
	if len(p.rolls) >= 2 && p.rolls[len(p.rolls)-2] == 6 {
		return lang.M("shows %d (after a void 6)", v)
	}
	return lang.M("shows %d", v)
}

// allows says in words what the standing die allows, with an example of
// how to write it where the notation has a mark.
func (p *ctPos) allows() lang.Text {
	v, st := p.standing()
	switch {
	case st == stCheckerOnly:
		l := chtOrder[v-1]
		return lang.M("only your %s may act: drop it from your hand, or move it as a Checker (a two-square leap onto an empty square, written with ^%s)",
			PieceWord(p.v.PieceName(l)), p.example(Checker))
	case st == stDoubleSix:
		return lang.M("move or drop any piece, or reply \"roll\" for the apocalypse roll")
	case v == 5:
		return lang.M("drop any piece from your hand, or move a piece as a Wizard (one diagonal step or a (3,1) leap, written with o%s); natural moves are not allowed",
			p.example(Wizard))
	}
	return lang.M("only a %s may move or be dropped this turn", PieceWord(p.v.PieceName(chtOrder[v-1])))
}

// example is `, e.g. "Nc3o"` for a legal move of kind k, or "".
func (p *ctPos) example(k MoveKind) lang.Text {
	for _, m := range p.Legal() {
		if m.Kind != k {
			continue
		}
		x := ""
		if p.sq[m.To] != NoPiece {
			x = "x"
		}
		mark := "o"
		if k == Checker {
			mark = "^"
		}
		return lang.M(", e.g. %q", fmt.Sprintf("%c%s%s%s", p.sq[m.From].Letter(), x, p.v.board.SquareName(m.To), mark))
	}
	return lang.Raw("")
}

// WhyNot says why the action m is not legal now (ActionExplain): what the
// die shows, and what it allows.
func (p *ctPos) WhyNot(m Move) string { return English(p.WhyNotText(m)) }

// WhyNotText is WhyNot in the reader's language; nil where WhyNot is "".
func (p *ctPos) WhyNotText(m Move) lang.Text {
	if p.won || p.owes || len(p.rolls) == 0 {
		return nil
	}
	if slices.Contains(p.Legal(), m) {
		return nil
	}
	die := lang.M("%s: %s", p.dieText(), p.allows())
	v, st := p.standing()
	b := p.v.board
	// may reports whether the die lets the piece with letter l act at all.
	may := func(l byte) bool {
		return st == stDoubleSix || v == 5 || chtOrder[v-1] == l
	}
	switch m.Kind {
	case Reroll:
		if p.rerolled {
			return lang.M("you have re-rolled this turn already (once a turn); %s", die)
		}
		return lang.M("a re-roll replaces only the turn's first roll, when it is 1 to 5; %s", die)
	case Roll:
		return lang.M("the apocalypse roll comes only right after a double six; %s", die)
	case Drop:
		i := slices.Index(chtOrder, m.Piece)
		switch {
		case i < 0:
			return nil
		case !may(m.Piece):
			return die
		case !p.hand[p.turn][i]:
			return lang.M("your %s is on the board (%s), not in your hand; %s", PieceWord(p.v.PieceName(m.Piece)), b.SquareName(p.pieceSquare(p.turn, m.Piece)), die)
		case b.Exists(m.To) && p.sq[m.To] != NoPiece:
			return lang.M("%s is occupied, and a drop goes to an empty square", b.SquareName(m.To))
		}
		return die
	case Normal, Checker, Wizard:
		l := m.Piece
		if m.From != NoSquare && b.Exists(m.From) {
			pc := p.sq[m.From]
			if pc == NoPiece || pc.Color() != p.turn {
				return nil
			}
			l = pc.Letter()
		}
		if l == 0 {
			return nil
		}
		if !may(l) {
			return die
		}
		if m.From == NoSquare && p.pieceSquare(p.turn, l) == NoSquare {
			return lang.M("your %s is in your hand, not on the board: drop it (%q)", PieceWord(p.v.PieceName(l)), fmt.Sprintf("%c@%s", l, b.SquareName(m.To)))
		}
		natural := st == stDoubleSix || (st == stNatural && v <= 4)
		switch {
		case m.Kind == Normal && !natural:
			return die
		case m.Kind == Checker && st != stCheckerOnly:
			return lang.M("a Checker move comes only after a re-roll of 1 to 4; %s", die)
		case m.Kind == Wizard && !(st == stNatural && v == 5):
			return lang.M("a Wizard move needs a 5; %s", die)
		}
	}
	return nil
}

// WhyIllegal explains a refused move from -> to by the die
// (PositionExplain); "" when the die allows the piece and the way is the
// problem.
func (p *ctPos) WhyIllegal(from, to Square) string {
	return p.WhyNot(Move{Kind: Normal, From: from, To: to})
}

// WhyIllegalText is WhyIllegal in the reader's language.
func (p *ctPos) WhyIllegalText(from, to Square) lang.Text {
	return p.WhyNotText(Move{Kind: Normal, From: from, To: to})
}

// Effect tells what a re-roll or the apocalypse roll brought
// (ActionEffect): the referee rolls after the action, and the players
// learn the outcome from the headline.
func (p *ctPos) Effect(m Move, after Position) string {
	a, ok := after.(*ctPos)
	if !ok {
		return ""
	}
	who := p.turn
	switch m.Kind {
	case Pass:
		return fmt.Sprintf("%s passed.", who)
	case Reroll:
		if a.turn != who || a.owes || len(a.rolls) == 0 {
			return ""
		}
		vals := make([]string, len(a.rolls))
		for i, r := range a.rolls {
			vals[i] = strconv.Itoa(r)
		}
		v, st := a.standing()
		var means string
		switch {
		case st == stCheckerOnly:
			means = fmt.Sprintf("the %s must be dropped, or moved as a Checker", p.v.PieceName(chtOrder[v-1]))
		case st == stDoubleSix:
			means = "a double six"
		case v == 5:
			means = "a drop or a Wizard move"
			if len(a.rolls) > 1 {
				means = "the 6 is void, and the 5 means a drop or a Wizard move"
			}
		default:
			// docs/rules/chectoe.md: after a re-roll's 6 play is normal, so
			// the value rolled after it is acted on as usual.
			means = fmt.Sprintf("the 6 is void, and play goes on normally: the %s moves as usual, or is dropped from hand", p.v.PieceName(chtOrder[v-1]))
		}
		return fmt.Sprintf("%s asked for a re-roll and rolled %s: %s.", who, strings.Join(vals, ", then "), means)
	case Roll:
		if a.turn == who && !a.owes && len(a.rolls) == 3 {
			return fmt.Sprintf("%s asked for the apocalypse roll and rolled %d, not a 6: %s acts on the %d.", who, a.rolls[2], who, a.rolls[2])
		}
		var sent []string
		for _, s := range p.v.board.squares {
			if pc := p.sq[s]; pc != NoPiece && pc.Color() != who && a.sq[s] != pc {
				sent = append(sent, fmt.Sprintf("%s (%s)", p.v.PieceName(pc.Letter()), p.v.board.SquareName(s)))
			}
		}
		opp := who.Other()
		if len(sent) == 0 {
			return fmt.Sprintf("%s asked for the apocalypse roll and rolled a 6, but %s had no piece on the board to send back; %s's turn ended.", who, opp, who)
		}
		return fmt.Sprintf("%s asked for the apocalypse roll and rolled a 6: %s's %s went back to %s's hand, and %s's turn ended.", who, opp, joinAnd(sent), opp, who)
	}
	return ""
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
