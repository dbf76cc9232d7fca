package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The kit: what every variant needs and none of them defines, so that a
// variant's file holds only its own rules. A variant embeds gameInfo (its
// names, board, piece table and rules text); its positions embed cells
// (board array, side to act, move number) and legalCache (the legal
// actions and result, computed once), play by membership (playLegal) and
// read and write their position strings with the framing helpers below.

// gameInfo is what describes a variant, as opposed to how it plays: it
// gives the Variant methods Name, Title, Summary and Board, and the
// abilities VariantRulesText and VariantPieces.
type gameInfo struct {
	name, title, summary string
	rulesText            string // the rules in one paragraph, for players
	board                *Board
	pieceSet
}

func (g *gameInfo) Name() string    { return g.name }
func (g *gameInfo) Title() string   { return g.title }
func (g *gameInfo) Summary() string { return g.summary }
func (g *gameInfo) Board() *Board   { return g.board }

// RulesText states the rules in one paragraph, for players.
func (g *gameInfo) RulesText() string { return g.rulesText }

// pieceSet is a variant's piece table, indexed by upper-case letter.
type pieceSet struct {
	table   [128]*PieceType
	letters []byte // in table order
}

func newPieceSet(pts ...*PieceType) pieceSet {
	var s pieceSet
	for _, pt := range pts {
		s.table[pt.Letter] = pt
		s.letters = append(s.letters, pt.Letter)
	}
	return s
}

// PieceLetters lists the variant's piece letters, pawn included; the
// slice is the caller's.
func (s *pieceSet) PieceLetters() []byte { return slices.Clone(s.letters) }

// PieceName names the piece with letter c ("knight"), or "".
func (s *pieceSet) PieceName(c byte) string {
	if pt := s.table[c&127]; pt != nil {
		return pt.Name
	}
	return ""
}

// known reports whether c (either case) is a piece letter of the variant.
func (s *pieceSet) known(c byte) bool { return s.table[c&^0x20&127] != nil }

// cells is the part of a position every variant has: the board array (one
// entry per grid square, holes included), the side to act and the move
// number. It gives the Position methods Turn, MoveNumber and At.
type cells struct {
	sq   []Piece
	turn Color
	full int
}

func (c *cells) Turn() Color     { return c.turn }
func (c *cells) MoveNumber() int { return c.full }

// At returns the piece on s (NoPiece when empty or off the board).
func (c *cells) At(s Square) Piece {
	if s < 0 || int(s) >= len(c.sq) {
		return NoPiece
	}
	return c.sq[s]
}

// next is the cells after the side to act ends its turn: a copy of the
// board, the other side to act, and the move number one up after Black.
func (c *cells) next() cells {
	n := cells{sq: slices.Clone(c.sq), turn: c.turn.Other(), full: c.full}
	if c.turn == Black {
		n.full++
	}
	return n
}

// legalCache holds a position's legal actions and its result, computed on
// first use, once, by whichever goroutine asks first (sync.Once: later
// readers wait for it and then only read), so positions stay safe for
// concurrent use. Lazily, because perft and replays make many positions
// whose moves nobody asks for.
type legalCache struct {
	once   sync.Once
	moves  []Move // nil once the game is over
	result Result
}

// get returns the legal actions and the result, computing them with fill
// on the first call.
func (c *legalCache) get(fill func() ([]Move, Result)) ([]Move, Result) {
	c.once.Do(func() { c.moves, c.result = fill() })
	return c.moves, c.result
}

// playLegal is Play by membership: once the game is over (r) every action
// is refused with the game-over error; otherwise m is played by next when
// it is one of the legal actions moves, and refused by refuse (which
// says why, wrapping ErrIllegal) when it is not.
func playLegal[P Position](moves []Move, r Result, m Move, next func(Move) P, refuse func(Move) error) (Position, error) {
	if r.Over {
		return nil, gameOver(r)
	}
	if slices.Contains(moves, m) {
		return next(m), nil
	}
	return nil, refuse(m)
}

// Position strings (docs/rules/chess.md#position-string): space-separated fields, the board first
// (ranks high to low, digits for runs of empty squares), the side to act
// as w or b, the move number last.

// positionFields splits the position string s of the variant into its
// fields, which names lists; another count is refused with an error that
// names them all.
func positionFields(variant, s string, names ...string) ([]string, error) {
	f := strings.Fields(s)
	if len(f) != len(names) {
		return nil, fmt.Errorf("a %s position string has %d fields (%s); %q has %d", variant, len(names), strings.Join(names, ", "), s, len(f))
	}
	return f, nil
}

// plainBoard writes the board field of a variant whose pieces carry no
// marks: upper case for White, lower case for Black.
func plainBoard(b *Board, sq []Piece) string {
	return writeBoard(b, sq, func(pc Piece) string { return string(pc.FENLetter()) })
}

// cutHands splits a board field written "board[hands]"; eg is an example
// of the hands for the error.
func cutHands(field, eg string) (board, hands string, err error) {
	board, hands, ok := strings.Cut(field, "[")
	if !ok || !strings.HasSuffix(hands, "]") {
		return "", "", fmt.Errorf("the board field %q has no hands in brackets, e.g. %s", field, eg)
	}
	return board, strings.TrimSuffix(hands, "]"), nil
}

// handsField writes the hands of a "board[hands]" field: White's letters,
// then Black's in lower case.
func handsField(white, black []byte) string {
	return "[" + string(white) + strings.ToLower(string(black)) + "]"
}

// sideField writes the side to act.
func sideField(c Color) string {
	if c == Black {
		return "b"
	}
	return "w"
}

// parseSide reads the side field; verb is what the side does ("move",
// "act"), for the error.
func parseSide(f, verb string) (Color, error) {
	switch f {
	case "w":
		return White, nil
	case "b":
		return Black, nil
	}
	return White, fmt.Errorf("the side to %s is %q; write w or b", verb, f)
}

// parseMoveNumber reads the move number field (from 1).
func parseMoveNumber(f string) (int, error) {
	n, err := strconv.Atoi(f)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("the move number %q is not a number from 1", f)
	}
	return n, nil
}

// MoveNumberOf reads the move number of a position string, its last field
// in every variant (docs/rules/chess.md#position-string), without reading
// the rest: what ParsePosition(s).MoveNumber() returns for a valid s, at a
// small part of the cost.
func MoveNumberOf(s string) (int, error) {
	s = strings.TrimRight(s, " \t")
	return parseMoveNumber(s[strings.LastIndexAny(s, " \t")+1:])
}

// parseClock reads a halfmove clock field (from 0).
func parseClock(f string) (int, error) {
	n, err := strconv.Atoi(f)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("the halfmove clock %q is not a number", f)
	}
	return n, nil
}
