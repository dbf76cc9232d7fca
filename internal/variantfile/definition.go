package variantfile

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Piece is one piece type of a definition.
type Piece struct {
	Letter byte   // upper case; Black's is the lower-case letter
	Key    string // the variants.ini key that defined it: "knight", "customPiece1", "king"
	Betza  *Betza
	Royal  bool // the king: its capture or attack decides (check, mate)
	Line   int  // where its letter was given
}

// Definition is what a section of a variants file says, with everything
// inherited and every default of Fairy-Stockfish filled in. Piece sets are
// strings of upper-case letters.
type Definition struct {
	Name   string
	Parent string // as written after the colon, or ""
	Line   int    // the section header

	Width, Height int // files and ranks, 1..16
	StartFEN      string
	Pieces        []Piece // in Fairy-Stockfish's type order

	// Promotion: a piece of PromotionPawnTypes ending its move in the
	// region becomes one of PromotionPieceTypes (staying is allowed
	// unless MandatoryPawnPromotion).
	PromotionRegion        [2]Region // White, Black
	PromotionPawnTypes     [2]string
	PromotionPieceTypes    [2]string
	MandatoryPawnPromotion bool

	DoubleStep       bool
	DoubleStepRegion [2]Region
	TripleStepRegion [2]Region
	EnPassantRegion  [2]Region
	EnPassantTypes   [2]string

	Castling Castling
	Checking bool // false: no check, the king may be left attacked

	// Drops and pockets (crazyhouse): the hands are the FEN's [...].
	PieceDrops             bool
	CapturesToHand         bool
	DropRegion             [2]Region
	FirstRankPawnDrops     bool
	PromotionZonePawnDrops bool
	DropChecks             bool
	MustCapture            bool

	Results Results

	NMoveRule          int // plies/2 without a capture or a move of NMoveRuleTypes; 0 = none
	NMoveRuleTypes     [2]string
	NFoldRule          int // the n-th occurrence of a position ends the game; 0 = none
	NFoldValue         Value
	NFoldValueAbsolute bool // NFoldValue is White's result, not the mover's

	// Description is the rules in the players' words (the key
	// description), or "": the opening mail then describes the definition.
	Description string

	// The referee's own keys, which Fairy-Stockfish ignores.
	WrapFiles bool   // referee_wrapFiles: file a is next to the last file
	WrapRanks bool   // referee_wrapRanks: rank 1 is next to the last rank
	KleinSeam int    // referee_kleinSeam: a step between this rank and the next mirrors the file; 0 = none
	Holes     Region // referee_holes: squares that do not exist

	// Ignored lists keys read and set aside: they only tune
	// Fairy-Stockfish's GUI or evaluation (pieceValueMg, pieceToCharTable ...).
	Ignored []string
	// Notes say where Fairy-Stockfish would read this definition differently.
	Notes []string
}

// Castling is the castling rule of a definition (Fairy-Stockfish's keys).
type Castling struct {
	Enabled       bool
	KingsideFile  int // where the king lands, 0-based
	QueensideFile int
	Rank          int // relative to each side, 0-based
	KingFile      int // -1: where the king stands in the start position
	KingPiece     [2]byte
	// Where the partners start; -1: the outermost castling rook on each
	// side of the king in the start position, as Fairy-Stockfish 11.1
	// finds it from the FEN's KQkq.
	RookKingsideFile  int
	RookQueensideFile int
	RookPieces        [2]string
}

// Results are the rules that end a game, each a Value for the side to move
// (Fairy-Stockfish's convention).
type Results struct {
	CheckmateValue Value // the side to move is checkmated
	StalemateValue Value // the side to move has no legal move and is not in check
	// Extinction: a side left with ExtinctionPieceCount or fewer pieces of
	// ExtinctionPieceTypes ("*": every type) gets ExtinctionValue, when the
	// opponent has at least ExtinctionOpponentPieceCount. The bare-king rule
	// of Shatranj is extinction of "*" at 1 against 2.
	ExtinctionValue              Value
	ExtinctionPieceTypes         string
	ExtinctionPieceCount         int
	ExtinctionOpponentPieceCount int
	ExtinctionClaim              bool
	ExtinctionPseudoRoyal        bool
	// Capture the flag: a piece of FlagPiece (0: any) reaching FlagRegion wins.
	FlagPiece  [2]byte
	FlagRegion [2]Region
	FlagMove   bool
	// CheckCounting: giving a number of checks wins (the count is in the FEN).
	CheckCounting bool
}

// Piece returns the piece type with letter c (either case), or nil.
func (d *Definition) Piece(c byte) *Piece {
	c &^= 0x20
	for i := range d.Pieces {
		if d.Pieces[i].Letter == c {
			return &d.Pieces[i]
		}
	}
	return nil
}

// builder is a definition being read: Fairy-Stockfish's model, where piece
// sets are sets of type keys (so that `knight = h` in a child also renames
// the knight in the inherited promotion choices), resolved to letters at
// the end.
type builder struct {
	d       Definition
	letters map[string]pieceDef // type key -> letter and moves
	// Piece sets by type key; "*" is every type.
	promoPawn, promoPiece, epTypes, nMoveTypes, rookPieces [2][]string
	kingPiece, flagPiece                                   [2]string
	extinction                                             []string
	// kingType is the type key the king moves as (Fairy-Stockfish 11.1's
	// kingType), or "" for the king's own moves.
	kingType string
	// promoRel and doubleStepRel are promotionRank and doubleStepRank per
	// side (0 is the side's first rank), or -1 where a region key gave the
	// squares instead.
	promoRel, doubleStepRel [2]int
}

type pieceDef struct {
	letter byte
	betza  string
	line   int
}

// fairyDefault is Fairy-Stockfish's default template: chess rules, no pieces.
func fairyDefault() *builder {
	b := &builder{letters: map[string]pieceDef{}}
	d := &b.d
	d.Width, d.Height = 8, 8
	d.StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	// Fairy-Stockfish 11.1's defaults: promotion on each side's eighth
	// rank, double steps from its second, counted from its own side (on a
	// 9-rank board Black's pawns double-step from rank 8). Regions of
	// whole ranks of the widest board, whatever maxFile says.
	b.promoRel, b.doubleStepRel = [2]int{7, 7}, [2]int{1, 1}
	d.MandatoryPawnPromotion = true
	d.DoubleStep = true
	all := Ranks(16, 0, 15)
	d.EnPassantRegion = [2]Region{all, all}
	d.Castling = Castling{Enabled: true, KingsideFile: 6, QueensideFile: 2, KingFile: -1, RookKingsideFile: -1, RookQueensideFile: -1}
	d.Checking = true
	d.DropRegion = [2]Region{all, all}
	d.DropChecks = true
	d.Results = Results{CheckmateValue: ValueLoss, StalemateValue: ValueDraw}
	d.NMoveRule, d.NFoldRule, d.NFoldValue = 50, 3, ValueDraw
	for c := range 2 {
		b.promoPawn[c] = []string{"pawn"}
		b.promoPiece[c] = []string{"queen", "rook", "bishop", "knight"}
		b.epTypes[c] = []string{"pawn"}
		b.nMoveTypes[c] = []string{"pawn"}
		b.rookPieces[c] = []string{"rook"}
		b.kingPiece[c] = "king"
		b.flagPiece[c] = "*"
	}
	return b
}

func (b *builder) clone() *builder {
	n := *b
	n.letters = maps.Clone(b.letters)
	for c := range 2 {
		n.promoPawn[c] = slices.Clone(b.promoPawn[c])
		n.promoPiece[c] = slices.Clone(b.promoPiece[c])
		n.epTypes[c] = slices.Clone(b.epTypes[c])
		n.nMoveTypes[c] = slices.Clone(b.nMoveTypes[c])
		n.rookPieces[c] = slices.Clone(b.rookPieces[c])
	}
	n.extinction = slices.Clone(b.extinction)
	n.d.Ignored = slices.Clone(b.d.Ignored)
	n.d.Notes = slices.Clone(b.d.Notes)
	n.d.Pieces = nil
	return &n
}

// keyOf returns the type key that has letter c (either case) now.
func (b *builder) keyOf(c byte) (string, bool) {
	c |= 0x20
	for k, p := range b.letters {
		if p.letter == c {
			return k, true
		}
	}
	return "", false
}

// pieceSet reads letters (or * for every type, - for none) into type keys.
func (b *builder) pieceSet(v string) ([]string, error) {
	var out []string
	for _, c := range []byte(strings.ReplaceAll(v, " ", "")) {
		switch {
		case c == '-':
			return out, nil
		case c == '*':
			out = append(out, "*")
		default:
			k, ok := b.keyOf(c)
			if !ok {
				return nil, fmt.Errorf("%q is not the letter of a piece of this variant (%s); give pieces by their letters, e.g. nbrq", c, b.letterList())
			}
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// pieceType reads one letter, * (any) or - (none).
func (b *builder) pieceType(v string) (string, error) {
	if v == "*" || v == "-" {
		return v, nil
	}
	if len(v) != 1 {
		return "", fmt.Errorf("%q is not one piece letter; write one letter, e.g. k", clip(v))
	}
	k, ok := b.keyOf(v[0])
	if !ok {
		return "", fmt.Errorf("%q is not the letter of a piece of this variant (%s)", v, b.letterList())
	}
	return k, nil
}

func (b *builder) letterList() string {
	var ls []string
	for _, p := range b.letters {
		ls = append(ls, string(p.letter))
	}
	slices.Sort(ls)
	if len(ls) == 0 {
		return "it has no pieces yet"
	}
	return "its letters are " + strings.Join(ls, " ")
}

// setPiece applies a piece key: `knight = n`, `customPiece1 = a:mBcpB`,
// `king = k:KN`, or `knight = -` to remove the type.
func (b *builder) setPiece(e entry) error {
	custom := false
	if _, ok := customSlot(e.key); ok {
		custom = true
	}
	v := e.value
	if v == "-" {
		delete(b.letters, e.key)
		return nil
	}
	if v == "" || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
		return fmt.Errorf("%s = %q: a piece key takes a letter, e.g. %s = %s, or - to remove the piece", e.key, clip(v), e.key, suggestLetter(e.key))
	}
	letter := v[0] | 0x20
	betza, hasBetza := "", false
	if len(v) > 1 {
		if v[1] != ':' {
			return fmt.Errorf("%s = %q: write the letter alone, or the letter, a colon and the moves in Betza notation, e.g. %s = %c:mBcpB", e.key, clip(v), e.key, letter)
		}
		betza, hasBetza = strings.TrimSpace(v[2:]), true
	}
	switch {
	case custom && !hasBetza:
		return fmt.Errorf("%s = %q: a custom piece needs its moves in Betza notation after a colon, e.g. %s = %c:NN", e.key, v, e.key, letter)
	case !custom && e.key != "king" && hasBetza:
		return fmt.Errorf("%s = %q: only customPiece1..%d and king take Betza moves; the %s moves as %q. Use a customPiece key for other moves", e.key, clip(v), MaxCustomPieces, e.key, mustNamed(e.key))
	case !hasBetza:
		betza = mustNamed(e.key)
	}
	if _, err := ParseBetza(betza); err != nil {
		return fmt.Errorf("%s: %w", e.key, err)
	}
	b.letters[e.key] = pieceDef{letter: letter, betza: betza, line: e.line}
	return nil
}

func mustNamed(key string) string {
	s, _ := namedBetza(key)
	return s
}

func suggestLetter(key string) string {
	if key == "knight" {
		return "n"
	}
	return string(key[0] | 0x20)
}

// isPieceKey reports whether key names a piece type.
func isPieceKey(key string) bool {
	if _, ok := customSlot(key); ok {
		return true
	}
	_, ok := namedBetza(key)
	return ok
}

// apply reads one section's lines onto b, in Fairy-Stockfish's order: the
// board size, the pieces, then the rules (an alias before the keys it
// stands for, so the specific key wins).
func (b *builder) apply(s *section) []error {
	var errs []error
	fail := func(e entry, err error) {
		msg := err.Error()
		if !strings.HasPrefix(msg, e.key) {
			msg = e.key + " = " + clip(e.value) + ": " + msg
		}
		errs = append(errs, &Error{Line: e.line, Section: s.name, Msg: msg, Err: err})
	}
	byKey := map[string]entry{}
	for _, e := range s.entries {
		byKey[e.key] = e
	}
	table := keyTable()
	known := map[string]bool{}
	for _, k := range table {
		known[k.name] = true
	}
	more := 0
	for _, e := range s.entries {
		if known[e.key] || isPieceKey(e.key) {
			continue
		}
		if len(errs) >= maxErrors {
			more++
			continue
		}
		fail(e, unknownKey(e.key))
	}
	if more > 0 {
		errs = append(errs, &Error{Section: s.name, Msg: fmt.Sprintf("and %d more lines with keys that are not read", more)})
		return errs
	}
	// The board size first: regions and squares depend on it.
	for _, k := range table[:2] {
		if e, ok := byKey[k.name]; ok {
			if err := k.set(b, e.value); err != nil {
				fail(e, err)
			}
		}
	}
	// Then the pieces, in Fairy-Stockfish's type order.
	for _, k := range pieceKeyOrder() {
		if e, ok := byKey[k]; ok {
			if err := b.setPiece(e); err != nil {
				fail(e, err)
			}
		}
	}
	for _, k := range table[2:] {
		if e, ok := byKey[k.name]; ok && k.set != nil {
			if err := k.set(b, e.value); err != nil {
				fail(e, err)
			}
		}
	}
	return errs
}

// finish resolves the type keys to letters and checks the whole
// definition: the start position against the board and pieces, the
// letters unique, the castling squares on the board.
func (b *builder) finish(name, parent string, line int) (*Definition, []error) {
	d := b.d
	d.Name, d.Parent, d.Line = name, parent, line
	var errs []error
	fail := func(l int, format string, args ...any) {
		errs = append(errs, &Error{Line: l, Section: name, Msg: fmt.Sprintf(format, args...)})
	}
	// Pieces in Fairy-Stockfish's type order; letters unique.
	byLetter := map[byte]string{}
	for _, k := range pieceKeyOrder() {
		p, ok := b.letters[k]
		if !ok {
			continue
		}
		up := p.letter &^ 0x20
		if other, dup := byLetter[up]; dup {
			fail(p.line, "the letter %c is given to both %s (line %d) and %s; give each piece type its own letter", p.letter, other, b.letters[other].line, k)
			continue
		}
		byLetter[up] = k
		if t, ok := b.letters[b.kingType]; ok && k == "king" && p.betza == mustNamed("king") {
			p.betza = t.betza
		}
		bz, err := ParseBetza(p.betza)
		if err != nil { // checked when set; kept for safety
			fail(p.line, "%s: %v", k, err)
			continue
		}
		d.Pieces = append(d.Pieces, Piece{Letter: up, Key: k, Betza: bz, Royal: k == "king", Line: p.line})
		for _, n := range bz.Notes {
			d.Notes = append(d.Notes, fmt.Sprintf("%s (%c): %s", k, up, n))
		}
	}
	for c := range 2 {
		last := d.Height - 1
		if r := b.promoRel[c]; r >= 0 {
			// The promotion zone: the side's rank r and every rank beyond.
			d.PromotionRegion[c] = Ranks(MaxBoardSide, r, last)
			if c == 1 {
				d.PromotionRegion[c] = Ranks(MaxBoardSide, 0, last-r)
			}
		}
		if r := b.doubleStepRel[c]; r >= 0 {
			// Double steps from the side's second rank up to rank r.
			d.DoubleStepRegion[c] = Ranks(MaxBoardSide, 1, r)
			if c == 1 {
				d.DoubleStepRegion[c] = Ranks(MaxBoardSide, last-r, last-1)
			}
		}
	}
	if _, ok := b.letters[b.kingType]; b.kingType != "" && !ok {
		fail(line, "kingType: the king is to move as the %s, which this variant has removed; keep that piece type (it need not be on the board) or remove kingType", b.kingType)
	}
	letters := func(keys []string) string {
		var s []byte
		for _, k := range keys {
			if k == "*" {
				for _, p := range d.Pieces {
					s = append(s, p.Letter)
				}
				continue
			}
			if p, ok := b.letters[k]; ok && !slices.Contains(s, p.letter&^0x20) {
				s = append(s, p.letter&^0x20)
			}
		}
		return string(s)
	}
	one := func(k string) byte {
		if p, ok := b.letters[k]; ok {
			return p.letter &^ 0x20
		}
		return 0
	}
	for c := range 2 {
		d.PromotionPawnTypes[c] = letters(b.promoPawn[c])
		d.PromotionPieceTypes[c] = letters(b.promoPiece[c])
		d.EnPassantTypes[c] = letters(b.epTypes[c])
		d.NMoveRuleTypes[c] = letters(b.nMoveTypes[c])
		d.Castling.RookPieces[c] = letters(b.rookPieces[c])
		d.Castling.KingPiece[c] = one(b.kingPiece[c])
		d.Results.FlagPiece[c] = one(b.flagPiece[c])
	}
	if slices.Contains(b.extinction, "*") {
		d.Results.ExtinctionPieceTypes = "*"
	} else {
		d.Results.ExtinctionPieceTypes = letters(b.extinction)
	}
	if err := checkFEN(&d); err != nil {
		fail(line, "startFen %q: %v", clip(d.StartFEN), err)
	}
	if d.Castling.Enabled {
		for _, f := range []struct {
			what string
			v    int
		}{{"castlingKingsideFile", d.Castling.KingsideFile}, {"castlingQueensideFile", d.Castling.QueensideFile}, {"castlingKingFile", d.Castling.KingFile}} {
			if f.v >= d.Width {
				fail(line, "%s is file %c, beyond this board's %d files; set it, or castling = false", f.what, 'a'+f.v, d.Width)
			}
		}
		if d.Castling.Rank >= d.Height {
			fail(line, "castlingRank %d is beyond this board's %d ranks", d.Castling.Rank+1, d.Height)
		}
	}
	if d.KleinSeam >= d.Height {
		fail(line, "referee_kleinSeam %d must be a rank below the last (1 to %d)", d.KleinSeam, d.Height-1)
	}
	return &d, errs
}

// unknownKey explains a key the reader does not take.
func unknownKey(key string) error {
	if slices.Contains(fsfUnsupported(), key) {
		return tag(ErrUnsupported, "%s is a key of Fairy-Stockfish that the referee does not support (yet); remove the line, or choose another variant", key)
	}
	if strings.HasPrefix(key, "mobilityRegion") {
		return tag(ErrUnsupported, "%s (a mobility region, which only guides Fairy-Stockfish's evaluation) is not supported by the referee; remove the line", key)
	}
	msg := fmt.Sprintf("%s is not a key of variants.ini", key)
	if s := suggestKey(key); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	} else {
		msg += "; the keys are listed in the header of Fairy-Stockfish's variants.ini, and the referee's own start with referee_"
	}
	return tag(ErrUnknownKey, "%s", msg)
}

// suggestKey returns the known key nearest to key, if near enough.
func suggestKey(key string) string {
	var cands []string
	for _, k := range keyTable() {
		cands = append(cands, k.name)
	}
	for _, t := range NamedTypes() {
		cands = append(cands, t.Key)
	}
	cands = append(cands, "customPiece1")
	best, bestD := "", 4
	lk := strings.ToLower(key)
	for _, c := range cands {
		if strings.ToLower(c) == lk {
			return c
		}
		if d := editDistance(lk, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// pieceKeyOrder is the piece keys in Fairy-Stockfish's type order: the
// named types but the king, the custom pieces, then the king.
func pieceKeyOrder() []string {
	var order []string
	for _, t := range NamedTypes() {
		if t.Key != "king" {
			order = append(order, t.Key)
		}
	}
	for n := 1; n <= MaxCustomPieces; n++ {
		order = append(order, fmt.Sprintf("customPiece%d", n))
	}
	return append(order, "king")
}
