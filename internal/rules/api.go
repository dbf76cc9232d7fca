// Package rules holds the referee's rule engine: board topologies, pieces built
// from shared movement primitives, and one Position type per variant behind a
// common interface. It does no I/O and never draws random numbers: die rolls
// are inputs (see Roller).
package rules

import (
	"errors"
	"fmt"
	"referee/internal/lang"
)

// Color is a side: White acts first in every game (docs/rules/README.md#common-ground).
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposing side.
func (c Color) Other() Color { return c ^ 1 }

// String returns "White" or "Black".
func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Square is an index into a board's rectangular grid: file + rank*Width, both
// 0-based (a1 is 0). Use Board.Exists to know whether the square is part of
// the board (Cuarenta and Toto40 have holes).
type Square int16

// NoSquare marks an absent square (e.g. the origin of a drop).
const NoSquare Square = -1

// Piece is one piece on a square or in a hand. The zero value is an empty
// square. The low byte is the piece letter in upper case ('K', 'Q', 'P', 'V',
// ...), bit 8 is set for Black, bit 9 marks a pawn that moves toward lower
// ranks whatever its colour (the downward pawns of docs/rules/wrapped.md, written P'),
// and bit 10 a promoted piece in a game whose captures go to hand (written
// Q~: captured, it goes to hand as a pawn).
type Piece uint16

// NoPiece is an empty square.
const NoPiece Piece = 0

const (
	pieceBlack    Piece = 1 << 8
	pieceDown     Piece = 1 << 9
	piecePromoted Piece = 1 << 10
)

// MakePiece returns the piece with the given upper-case letter and colour.
func MakePiece(letter byte, c Color) Piece {
	p := Piece(letter)
	if c == Black {
		p |= pieceBlack
	}
	return p
}

// WithDown returns p marked as moving toward lower ranks (or not).
func (p Piece) WithDown(down bool) Piece {
	if down {
		return p | pieceDown
	}
	return p &^ pieceDown
}

// Letter returns the piece's upper-case letter, or 0 for NoPiece.
func (p Piece) Letter() byte { return byte(p) }

// Color returns the piece's side. It is meaningless for NoPiece.
func (p Piece) Color() Color {
	if p&pieceBlack != 0 {
		return Black
	}
	return White
}

// Down reports whether the piece moves toward lower ranks because it carries
// its own direction (docs/rules/wrapped.md pawns written P'); ordinary Black pieces
// are not marked Down.
func (p Piece) Down() bool { return p&pieceDown != 0 }

// Promoted reports whether the piece is a promoted pawn in a game whose
// captures go to hand (written Q~ in the position string): captured, it
// goes to the capturer's hand as a pawn. Elsewhere no piece is marked.
func (p Piece) Promoted() bool { return p&piecePromoted != 0 }

// withPromoted returns p marked as promoted (or not).
func (p Piece) withPromoted(promoted bool) Piece {
	if promoted {
		return p | piecePromoted
	}
	return p &^ piecePromoted
}

// FENLetter returns the letter as a position string writes it: upper case for
// White, lower case for Black (the ' of a downward pawn is not included).
func (p Piece) FENLetter() byte {
	if p == NoPiece {
		return 0
	}
	if p.Color() == Black {
		return p.Letter() + ('a' - 'A')
	}
	return p.Letter()
}

// MoveKind says what kind of action a Move is.
type MoveKind uint8

// The kinds of action. Every variant uses a subset.
const (
	// Normal moves a piece From -> To, capturing what stands on To (or en
	// passant); Promo is the promotion letter or 0.
	Normal MoveKind = iota
	// Castle: From is the king's square, To the king's destination (the
	// coordinate form is the king's move, docs/rules/README.md#notation; in Cuarenta e2h1).
	Castle
	// Drop places Piece (a letter) from the mover's hand on To.
	Drop
	// Deploy places all of Place[:NPlace] (Toe-to-Toe phase 1).
	Deploy
	// Swap exchanges the pieces on From and To (Toe-to-Toe phase 2).
	Swap
	// PromoteInPlace replaces the pawn on From (== To) by Promo (Toe-to-Toe).
	PromoteInPlace
	// Checker is a Chec Toe Checker leap From -> To (never captures).
	Checker
	// Wizard is a Chec Toe Wizard move From -> To.
	Wizard
	// Reroll asks for the Chec Toe re-roll of the turn's first roll.
	Reroll
	// Roll asks for the Chec Toe apocalypse roll after a double six.
	Roll
	// Pass ends the turn without acting (Chec Toe).
	Pass
)

// Placement is one piece placed from hand during a deployment.
type Placement struct {
	Piece byte // upper-case letter
	To    Square
}

// Move is one action of the player to act. Moves are comparable with ==:
// two moves are the same action exactly when they are equal (docs/rules/README.md#common-ground: a
// move is identified by its origin or kind, destination and promotion).
// Unused fields are zero (From is NoSquare for drops and commands).
type Move struct {
	Kind   MoveKind
	From   Square
	To     Square
	Promo  byte // promotion letter (upper case), or 0
	Piece  byte // dropped piece letter (upper case), or 0
	NPlace uint8
	Place  [2]Placement // deployments, in the canonical order of docs/rules/README.md#notation
}

// Result is how a game ended, or the zero value while it goes on.
type Result struct {
	Over   bool
	Draw   bool
	Winner Color  // meaningful when Over && !Draw
	Reason string // e.g. "checkmate", "stalemate", "fivefold repetition", "king captured"
}

// Score returns "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
func (r Result) Score() string {
	switch {
	case !r.Over:
		return "*"
	case r.Draw:
		return "1/2-1/2"
	case r.Winner == White:
		return "1-0"
	default:
		return "0-1"
	}
}

// String describes the result for people, e.g. "White wins by checkmate".
func (r Result) String() string {
	switch {
	case !r.Over:
		return "game in progress"
	case r.Draw:
		return fmt.Sprintf("draw (%s)", r.Reason)
	default:
		return fmt.Sprintf("%s wins (%s)", r.Winner, r.Reason)
	}
}

// Variant is one game the referee hosts. Implementations are immutable values
// safe for concurrent use.
type Variant interface {
	// Name is the short name used on the command line and in subjects:
	// chess, toroidal, cylindrical, klein, cuarenta, toto40, toetotoe, chectoe.
	Name() string
	// Title is the name for people, e.g. "Toroidal chess".
	Title() string
	// Summary is one line describing the game, for `referee variants`.
	Summary() string
	// Board is the topology the game is played on.
	Board() *Board
	// Start returns the initial position.
	Start() Position
	// ParsePosition reads a position string (docs/rules/chess.md#position-string). A position read
	// this way starts its own history (repetition, superko) there.
	ParsePosition(s string) (Position, error)
	// HasCheck reports whether the game knows check (SAN writes + and #).
	HasCheck() bool
}

// Position is the whole state of a game at one moment, including whatever
// history its rules need (repetition counts, superko). Positions are
// immutable: Play returns a new one. They are safe for concurrent use:
// what a position computes on demand (its moves, its result) is computed
// once, whichever goroutine asks first.
type Position interface {
	Variant() Variant
	// String returns the position string (docs/rules/chess.md#position-string).
	String() string
	// Turn is the side to act.
	Turn() Color
	// MoveNumber is the move number field of the position string.
	MoveNumber() int
	// At returns the piece on sq (NoPiece when empty or not on the board).
	At(sq Square) Piece
	// Hand returns the letters (upper case) in c's hand, in canonical order.
	Hand(c Color) []byte
	// Legal returns every legal action of the side to act, each once, in a
	// deterministic order. It is empty when the game is over (whenever
	// Result().Over) or when the position waits for a die roll (see
	// Roller). The caller owns the slice: each call returns a fresh one.
	Legal() []Move
	// Play returns the position after m, or an error (wrapping ErrIllegal)
	// when m is not legal here; once the game is over every action is
	// refused with an error that also wraps ErrGameOver and names the
	// result.
	Play(m Move) (Position, error)
	// Result is the automatic result of the game (mate, stalemate, 75-move
	// rule, fivefold repetition, insufficient material, king captured, a Toe
	// that survived, ...), or the zero Result.
	Result() Result
	// Claimable names a draw the side to act may claim now ("threefold
	// repetition", "fifty-move rule"), or "" when there is none.
	Claimable() string
	// InCheck reports whether the side to act is in check (false in games
	// without check).
	InCheck() bool
	// IsCapture reports whether the legal move m captures.
	IsCapture(m Move) bool
}

// The optional abilities of variants and positions, declared here beside
// Variant and Position the way go-imap v2's imapserver declares SessionMove
// beside Session: a variant or position has an ability when it implements
// the interface, and a caller asks with a type assertion,
//
//	if vp, ok := v.(rules.VariantPieces); ok {
//		name := vp.PieceName('N')
//	}
//
// Nothing outside this package names a variant: what differs between
// games is asked of the game through these.

// VariantPieces is a Variant that lists its pieces (every variant here).
type VariantPieces interface {
	Variant
	// PieceLetters lists the piece letters (upper case), pawn included, in
	// the order of the variant's piece table. The slice is the caller's.
	PieceLetters() []byte
	// PieceName names the piece with letter c ("knight"), or "" when the
	// variant has no such piece.
	PieceName(c byte) string
}

// VariantHands is a Variant whose players hold pieces in hand and place
// them on the board: drops (Chec Toe) or deployments (Toe-to-Toe). Its
// diagrams show the hands and its help explains "N@b3".
type VariantHands interface {
	Variant
	HasHands() bool
}

// VariantMarks is a Variant that marks some squares in its diagrams
// (Toto40's fighting line).
type VariantMarks interface {
	Variant
	// MarkedSquare reports whether sq is drawn marked.
	MarkedSquare(sq Square) bool
	// MarkLegend is the sentence under a diagram that explains the mark.
	MarkLegend() string
}

// VariantRulesText is a Variant that states its rules in one paragraph for
// players (the opening mail and the help mail: "The rules in short").
type VariantRulesText interface {
	Variant
	RulesText() string
}

// VariantCastling is a Variant that castles. CastlingSAN writes the
// legal castling move m as SAN writes it: "O-O" or "O-O-O" (in Cuarenta
// both sides' only castling is "O-O", whichever way the king goes).
type VariantCastling interface {
	Variant
	CastlingSAN(m Move) string
}

// VariantPawnLetter is a Variant whose SAN names the pawn like any other
// piece ("Pb3", Chec Toe) when PawnLetterRequired is true; elsewhere a
// pawn move starts with its destination ("e4").
type VariantPawnLetter interface {
	Variant
	PawnLetterRequired() bool
}

// PositionExplain is a Position that can say why a move from -> to is not
// legal ("it would leave your king in check"), or "" when it knows no
// specific reason.
type PositionExplain interface {
	Position
	WhyIllegal(from, to Square) string
}

// CastleExplain is a Position of a game with castling that can say, in
// the one reason that applies, why the side to move cannot castle as san
// ("O-O", "O-O-O") writes it, or "" when it knows no such reason.
type CastleExplain interface {
	Position
	WhyNoCastle(san string) string
}

// ActionExplain is a Position that can say, in its rules' own terms, why
// the action m is not legal now ("the die shows 4: only a rook may move
// or be dropped this turn"; "there is no pass during the swaps: swap two
// alike pieces, e.g. \"a4<>b4\""), or "" when it knows no specific
// reason. m may be any kind of action: a drop, a command (Pass, Reroll,
// Roll), a deployment, a swap, or a move (From and To set; Kind Checker
// or Wizard when the player marked it so). A Normal move with From ==
// NoSquare and Piece set asks about a piece that is not on the board.
type ActionExplain interface {
	Position
	WhyNot(m Move) string
}

// ActionEffect is a Position that can say what the action m, played here,
// did beyond what its notation shows, once the referee's rolls after it
// are in: after is the position then. It is "" when there is nothing to
// add. Chec Toe's apocalypse roll: "White rolled a 6 after the double
// six: Black's knight (c3) and rook (d4) went back to Black's hand."
type ActionEffect interface {
	Position
	Effect(m Move, after Position) string
}

// Roller is a Position of a game with a die (Chec Toe). While NeedsRoll is
// true the referee must roll and call Roll before anyone acts.
type Roller interface {
	Position
	NeedsRoll() bool
	// Roll returns the position after the die showed v (1..6).
	Roll(v int) (Position, error)
	// DieState is the die field of the position string ("-", "3", "r63", "6?").
	DieState() string
}

// DieDescriber is a Roller that says in words what its die stands at
// ("shows 4 (after a void 6)", "double six"), as a status line shows it
// to people; DieState is the position string's field ("64", "66").
type DieDescriber interface {
	Roller
	DieText() string
	// DieWords is DieText in the reader's language.
	DieWords() lang.Text
}

// Prompter is a Position that can say in one sentence what the side to
// act is expected to do now, beyond "your move" (Toe-to-Toe's deployment
// and swap phases, Chec Toe's die).
type Prompter interface {
	Position
	Prompt() string
	// PromptText is Prompt in the reader's language.
	PromptText() lang.Text
}

// perftLimiter is a Variant with perft: perftLimit is the PerftLimit of
// the variant (see there).
type perftLimiter interface {
	Variant
	perftLimit() float64
}

// Orthodox is the name of orthodox chess: the game of a record without a
// Variant tag, and the one whose records need no FEN from its start (PGN's
// default).
const Orthodox = "chess"

// ErrIllegal is wrapped by every error about an illegal action.
var ErrIllegal = fmt.Errorf("illegal action")

// ErrGameOver is wrapped (with ErrIllegal) by the error of every action
// offered after the game has ended.
var ErrGameOver = errors.New("the game is over")

// gameOver is the error of an action offered after the game ended with r.
func gameOver(r Result) error {
	return fmt.Errorf("%w: %w: %s; no further action can be played", ErrIllegal, ErrGameOver, r)
}
