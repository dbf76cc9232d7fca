package rules

import (
	"errors"
	"fmt"
	"slices"
)

// ChessFamilySpec describes, as plain data, a chess-like variant the
// engine can already play: a board, a piece table, a start position and
// the chess-family rules (a pawn's double step, en passant, promotion,
// castling, an automatic n-move draw, repetition, drops from hand as in
// crazyhouse). Variant files (internal/variantfile) are built through it.
type ChessFamilySpec struct {
	Name, Title, Summary, RulesText string
	Board                           *Board
	Pieces                          []*PieceType // exactly one Royal type, lettered K
	Start                           string       // a position string: board, side, castling, en passant, clock, move
	// Pawn is the letter of the piece that double-steps, takes en passant
	// and promotes; 0 for none.
	Pawn byte
	// DoubleStep[c]: the squares from which a pawn of colour c may step
	// two squares straight forward.
	DoubleStep [2][]Square
	EnPassant  bool
	// Promotion[c]: the squares where a pawn of colour c ending its move
	// promotes to one of PromotionChoices (staying a pawn too when
	// PromotionOptional).
	Promotion         [2][]Square
	PromotionChoices  []byte
	PromotionOptional bool
	Castles           []CastleSpec
	// AutoDrawPlies ends the game drawn after that many plies without a
	// capture or a pawn move; 0 for never.
	AutoDrawPlies int
	// Repetition: threefold repetition may be claimed, fivefold draws.
	Repetition bool
	// PerftLeaves bounds perft's estimated work (see PerftLimit); 0: 1e9.
	PerftLeaves float64
	// Checkmate and Stalemate are the outcomes for the side to move that
	// is checkmated or stalemated; zero means chess's (a loss, a draw).
	Checkmate, Stalemate Outcome
	// Extinction, when set, ends the game when a side has too few pieces
	// left (Shatranj's bare king). Pieces in hand count as the side's.
	Extinction *Extinction
	// NFold, when above 0, ends the game at once on the NFold-th
	// occurrence of a position (Fairy-Stockfish's nFoldRule) with
	// NFoldOutcome (zero: a draw) for the side to move, or for White when
	// NFoldAbsolute; Repetition's claim is then not offered.
	NFold         int
	NFoldOutcome  Outcome
	NFoldAbsolute bool

	// Drops and pockets, as Fairy-Stockfish 11.1 defines them.
	//
	// Drops: each side holds pieces in hand, written after the board in
	// the position string as Fairy-Stockfish writes its FEN (White's
	// letters, then Black's in lower case, from the last piece type of
	// Pieces to the first: "RNBQKBNR[QPnp]", "[]" for none), and may, as
	// its move, drop one on an empty square of its DropRegion. A drop may
	// block a check; it may never leave its own king attacked. The royal
	// piece is never held in hand.
	Drops bool
	// CapturesToHand (with Drops): a captured piece goes to the
	// capturer's hand, changing colour; a promoted one (marked ~ after
	// its letter in the position string: "Q~") goes as the Pawn.
	CapturesToHand bool
	// DropRegion[c]: the squares where side c may drop; nil for the whole
	// board.
	DropRegion [2][]Square
	// The Pawn is never dropped on its side's first rank (rank 1 for
	// White, the last rank for Black) unless FirstRankPawnDrops, nor on its
	// Promotion squares unless PromotionZonePawnDrops.
	FirstRankPawnDrops, PromotionZonePawnDrops bool
	// NoDropChecks: a drop may not give check (Fairy-Stockfish's
	// dropChecks = false).
	NoDropChecks bool
}

// Outcome is how a rule ends the game for one side.
type Outcome uint8

// The outcomes; OutcomeDefault is the rule's usual one.
const (
	OutcomeDefault Outcome = iota
	OutcomeLoss
	OutcomeDraw
	OutcomeWin
)

// Extinction is a rule that ends the game on material, as Fairy-Stockfish
// defines it: a side with at most Count pieces of one of Types (the
// letter '*' counting every piece, king included) while the opponent has
// at least OpponentCount of them gets Outcome. With Claim the rule waits a
// move for the side to move (it needs OpponentCount+1 against it), so that
// a bare king that can bare the other king at once is not lost yet. The
// rule is looked at before mate and stalemate, the side not to move first.
type Extinction struct {
	Types         []byte
	Count         int
	OpponentCount int
	Claim         bool
	Outcome       Outcome
	Reason        string // e.g. "bare king"
}

// CastleSpec is one castling move along a rank: the king and the rook
// go from and to the given squares. The squares between king and rook
// and both destinations must be empty (the two pieces excepted); the king
// may not be attacked on any square from its start to its destination.
type CastleSpec struct {
	Color            Color
	Letter           byte // in the position string: K Q k q
	KingFrom, KingTo Square
	RookFrom, RookTo Square
	Long             bool // written O-O-O
}

// NewChessFamily builds the variant a spec describes. It refuses a spec
// whose start position does not parse or whose castling squares do not
// lie on one rank of the board.
func NewChessFamily(s ChessFamilySpec) (Variant, error) {
	if s.Board == nil {
		return nil, errors.New("the spec has no board")
	}
	b := s.Board
	royal := 0
	for _, pt := range s.Pieces {
		if pt == nil || pt.Letter < 'A' || pt.Letter > 'Z' {
			return nil, errors.New("every piece type needs an upper-case letter")
		}
		for _, m := range pt.Moves {
			if m.Kind == LameLeap && len(m.Paths) != len(m.Vecs) {
				return nil, fmt.Errorf("piece %c: a lame leap needs a path for each of its vectors", pt.Letter)
			}
		}
		if pt.Royal {
			royal++
			if pt.Letter != 'K' {
				return nil, fmt.Errorf("the royal piece is lettered %c; the engine knows its king as K", pt.Letter)
			}
		}
	}
	if royal != 1 {
		return nil, fmt.Errorf("the spec has %d royal piece types; the engine needs exactly one", royal)
	}
	leaves := s.PerftLeaves
	if leaves == 0 {
		leaves = 1e9
	}
	r := &stdRules{gameInfo: gameInfo{
		name: s.Name, title: s.Title, summary: s.Summary, rulesText: s.RulesText, board: b,
		pieceSet: newPieceSet(s.Pieces...),
	},
		start: s.Start, pawn: s.Pawn, enPassant: s.EnPassant && s.Pawn != 0,
		autoPlies: s.AutoDrawPlies, resetOnPawn: true, repetition: s.Repetition,
		perftLeaves: leaves, checkmate: s.Checkmate, stalemate: s.Stalemate,
		nFold: s.NFold, nFoldOutcome: s.NFoldOutcome, nFoldAbsolute: s.NFoldAbsolute,
	}
	if s.NFold > 0 {
		if s.NFold < 2 {
			return nil, fmt.Errorf("an n-fold repetition rule needs n of 2 or more, not %d", s.NFold)
		}
		r.repetition = false
	}
	if e := s.Extinction; e != nil {
		if len(e.Types) == 0 {
			return nil, errors.New("an extinction rule needs the piece letters it counts ('*' for every piece)")
		}
		x := *e
		x.Types = slices.Clone(e.Types)
		r.extinction = &x
	}
	if s.CapturesToHand && !s.Drops {
		return nil, errors.New("captures go to hand (CapturesToHand) only in a game with drops (Drops)")
	}
	if s.Drops {
		if err := r.setDrops(s); err != nil {
			return nil, err
		}
	}
	if s.Pawn != 0 {
		ds := [2][]Square{slices.Clone(s.DoubleStep[0]), slices.Clone(s.DoubleStep[1])}
		if len(ds[0])+len(ds[1]) > 0 {
			r.doubleStep = func(p Piece, from Square) bool { return slices.Contains(ds[p.Color()], from) }
		}
		promo := [2][]Square{slices.Clone(s.Promotion[0]), slices.Clone(s.Promotion[1])}
		choices, optional := slices.Clone(s.PromotionChoices), s.PromotionOptional
		if len(choices) > 0 {
			r.promotion = func(p Piece, from, to Square) ([]byte, bool) {
				if slices.Contains(promo[p.Color()], to) {
					return choices, optional
				}
				return nil, false
			}
		}
	}
	for _, c := range s.Castles {
		rank := b.Rank(c.KingFrom)
		for _, sq := range []Square{c.KingTo, c.RookFrom, c.RookTo} {
			if !b.Exists(sq) || b.Rank(sq) != rank {
				return nil, fmt.Errorf("castling %c: the king and rook squares must lie on one rank of the board", c.Letter)
			}
		}
		span := func(a, z Square) []Square {
			lo, hi := min(b.File(a), b.File(z)), max(b.File(a), b.File(z))
			var out []Square
			for f := lo; f <= hi; f++ {
				out = append(out, b.Sq(f, rank))
			}
			return out
		}
		var empty []Square
		for _, sq := range append(append(span(c.KingFrom, c.RookFrom), span(c.KingFrom, c.KingTo)...), span(c.RookFrom, c.RookTo)...) {
			if sq != c.KingFrom && sq != c.RookFrom && !slices.Contains(empty, sq) {
				empty = append(empty, sq)
			}
		}
		safe := span(c.KingFrom, c.KingTo)
		if b.File(c.KingTo) < b.File(c.KingFrom) {
			slices.Reverse(safe)
		}
		r.castles = append(r.castles, castleRule{color: c.Color, letter: c.Letter, kingFrom: c.KingFrom, kingTo: c.KingTo,
			rookFrom: c.RookFrom, rookTo: c.RookTo, empty: empty, safe: safe, long: c.Long})
	}
	if _, err := r.ParsePosition(r.start); err != nil {
		return nil, fmt.Errorf("the start position: %w", err)
	}
	return r, nil
}

// setDrops sets the drop rules of s: the squares where each letter may be
// dropped, and the order hands are written in.
func (r *stdRules) setDrops(s ChessFamilySpec) error {
	b := r.board
	r.drops, r.toHand, r.noDropChecks = true, s.CapturesToHand, s.NoDropChecks
	for i := len(s.Pieces) - 1; i >= 0; i-- {
		if pt := s.Pieces[i]; !pt.Royal {
			r.handOrder = append(r.handOrder, pt.Letter)
		}
	}
	for c := range 2 {
		region := s.DropRegion[c]
		if region == nil {
			region = b.squares
		}
		for _, sq := range region {
			if !b.Exists(sq) {
				return fmt.Errorf("the drop region of %s holds a square that is not on the board (%d)", Color(c), sq)
			}
		}
		r.dropRegion[c] = slices.Clone(region)
		firstRank := 0
		if c == int(Black) {
			firstRank = b.h - 1
		}
		for _, l := range r.handOrder {
			var at []Square
			for _, sq := range b.squares { // in board order, whatever the region's
				if !slices.Contains(region, sq) {
					continue
				}
				if l == s.Pawn && (!s.FirstRankPawnDrops && b.Rank(sq) == firstRank ||
					!s.PromotionZonePawnDrops && slices.Contains(s.Promotion[c], sq)) {
					continue
				}
				at = append(at, sq)
			}
			r.dropAt[c][l-'A'] = at
		}
	}
	return nil
}
