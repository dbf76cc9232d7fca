package variantfile

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"referee/internal/rules"
)

// Build turns a definition into a variant the engine plays, when the engine
// can express all of it (ENGINE.md says what it cannot yet): every piece's
// moves, the chess-family rules (double step, en passant, promotion,
// castling along a rank, drops from hand as in crazyhouse), checkmate
// winning and stalemate drawing. It refuses the rest, saying every reason.
//
// The n-move rule ends the game automatically after n moves by each side
// without a capture or a pawn move, and the n-fold repetition rule at the
// n-th occurrence of a position, as Fairy-Stockfish does (no claim).
func Build(d *Definition) (rules.Variant, error) {
	var why []string
	no := func(format string, args ...any) { why = append(why, fmt.Sprintf(format, args...)) }

	board := rules.NewBoard(rules.BoardSpec{
		Name: fmt.Sprintf("%dx%d", d.Width, d.Height), Width: d.Width, Height: d.Height,
		Exists:    func(f, r int) bool { return !d.Holes.Has(f, r) },
		WrapFiles: d.WrapFiles, WrapRanks: d.WrapRanks, KleinSeam: d.KleinSeam,
	})
	var pieces []*rules.PieceType
	for _, p := range d.Pieces {
		if p.Key == "janggiCannon" {
			// Fairy-Stockfish's janggiCannon is more than its Betza pR.
			no("the janggiCannon (%c): Janggi's cannon neither hops over nor captures another cannon, a rule the engine lacks; for a plain hopping rook write customPiece1 = %c:pR", p.Letter, p.Letter|0x20)
		}
		prims, gaps := p.Betza.Prims()
		for _, g := range gaps {
			no("the %s (%c, %q): %s", p.Key, p.Letter, p.Betza.Text, g)
		}
		pieces = append(pieces, &rules.PieceType{Letter: p.Letter, Name: pieceName(p), Royal: p.Royal, Moves: prims})
	}
	r := d.Results
	start := padFEN(d.StartFEN)
	fields := strings.Fields(start)
	placement, hands, hasHands := strings.Cut(fields[0], "[")
	hands = strings.Trim(strings.TrimSuffix(hands, "]"), "-")
	switch {
	case d.CapturesToHand && !d.PieceDrops:
		no("capturesToHand = true without pieceDrops: captured pieces would go to a hand that is never played; write pieceDrops = true, or capturesToHand = false")
	case hands != "" && !d.PieceDrops:
		no("the start position holds pieces in hand ([%s]) but pieceDrops is false, so they could never be played; write pieceDrops = true, or empty the brackets", hands)
	case d.PieceDrops:
		// Fairy-Stockfish reads a start position without brackets as
		// empty hands; the engine's position strings always have them.
		fields[0] = placement + "[" + hands + "]"
		if pp := pawnPiece(d); pp != nil && string(pp.Letter) != d.PromotionPawnTypes[0] {
			no("pieceDrops with the pawn (%c) not the one pawn type that promotes (%q): Fairy-Stockfish 11.1's rules for pawn drops and for captured promoted pieces are the pawn's", pp.Letter, d.PromotionPawnTypes[0])
		}
	case hasHands: // empty hands without drops: Fairy-Stockfish ignores them
		fields[0] = placement
	}
	start = strings.Join(fields, " ")
	if r.CheckCounting {
		no("checkCounting (n-check) is not played by the engine yet")
	}
	if r.FlagRegion[0].Len()+r.FlagRegion[1].Len() > 0 {
		no("flagRegion (capture the flag) is not played by the engine yet")
	}
	outcomeOf := func(key string, v Value) rules.Outcome {
		switch v {
		case ValueWin:
			return rules.OutcomeWin
		case ValueLoss:
			return rules.OutcomeLoss
		case ValueDraw:
			return rules.OutcomeDraw
		}
		no("%s = %s: the game must end somehow; write win, loss or draw", key, v)
		return rules.OutcomeDefault
	}
	checkmate, stalemate := outcomeOf("checkmateValue", r.CheckmateValue), outcomeOf("stalemateValue", r.StalemateValue)
	var extinction *rules.Extinction
	if r.ExtinctionValue != ValueNone && r.ExtinctionPieceTypes != "" {
		if r.ExtinctionPseudoRoyal {
			no("extinctionPseudoRoyal is not played by the engine yet")
		}
		reason := "extinction"
		if r.ExtinctionPieceTypes == "*" && r.ExtinctionPieceCount == 1 {
			reason = "bare king"
		}
		extinction = &rules.Extinction{Types: []byte(r.ExtinctionPieceTypes), Count: r.ExtinctionPieceCount,
			OpponentCount: r.ExtinctionOpponentPieceCount, Claim: r.ExtinctionClaim,
			Outcome: outcomeOf("extinctionValue", r.ExtinctionValue), Reason: reason}
	}
	if !d.Checking {
		no("checking = false is not played by the engine yet")
	}
	if d.MustCapture {
		no("mustCapture is not played by the engine yet")
	}

	if d.TripleStepRegion[0].Len()+d.TripleStepRegion[1].Len() > 0 {
		no("triple steps are not played by the engine yet")
	}
	all := Ranks(d.Width, 0, d.Height-1)
	for c := range 2 {
		if !d.EnPassantRegion[c].covers(all) {
			no("enPassantRegion is not played by the engine yet")
			break
		}
	}
	if d.Piece('K') == nil || !d.Piece('K').Royal {
		no("the engine needs a king lettered k (king = k)")
	}
	// The pawn: one type, the same for both sides, promoting, taking en
	// passant and resetting the n-move count.
	pawns := d.PromotionPawnTypes[0]
	var pawn byte
	switch {
	case pawns != d.PromotionPawnTypes[1]:
		no("promotionPawnTypesWhite and ...Black differ; the engine has one pawn type for both")
	case len(pawns) > 1:
		no("promotionPawnTypes %q: the engine has one pawn type", pawns)
	case len(pawns) == 1:
		pawn = pawns[0]
	}
	for c := range 2 {
		if e := d.EnPassantTypes[c]; e != "" && e != string(pawn) {
			no("enPassantTypes %q: only the pawn type %q may take en passant in the engine", e, string(pawn))
		}
		if n := d.NMoveRuleTypes[c]; n != "" && n != string(pawn) && d.NMoveRule > 0 {
			no("nMoveRuleTypes %q: only the pawn type %q may reset the n-move count in the engine", n, string(pawn))
		}
	}
	if d.PromotionPieceTypes[0] != d.PromotionPieceTypes[1] {
		no("promotionPieceTypesWhite and ...Black differ; the engine has one set of choices")
	}
	squares := func(reg Region) []rules.Square {
		var out []rules.Square
		for _, s := range board.Squares() {
			if reg.Has(board.File(s), board.Rank(s)) {
				out = append(out, s)
			}
		}
		return out
	}
	spec := rules.ChessFamilySpec{
		Name: d.Name, Title: d.Name, Summary: fmt.Sprintf("%s %dx%d variant defined in a variants file", article(d.Width), d.Width, d.Height),
		Board: board, Pieces: pieces, Start: start, Pawn: pawn,
		PromotionChoices: []byte(d.PromotionPieceTypes[0]), PromotionOptional: !d.MandatoryPawnPromotion,
		AutoDrawPlies: 2 * d.NMoveRule, NFold: d.NFoldRule, NFoldAbsolute: d.NFoldValueAbsolute,
		Checkmate: checkmate, Stalemate: stalemate, Extinction: extinction,
	}
	if d.NFoldRule > 0 {
		spec.NFoldOutcome = outcomeOf("nFoldValue", d.NFoldValue)
	}
	if d.PieceDrops {
		spec.Drops, spec.CapturesToHand = true, d.CapturesToHand
		spec.FirstRankPawnDrops, spec.PromotionZonePawnDrops = d.FirstRankPawnDrops, d.PromotionZonePawnDrops
		spec.NoDropChecks = !d.DropChecks
		for c := range 2 {
			if !d.DropRegion[c].covers(all) {
				spec.DropRegion[c] = squares(d.DropRegion[c])
			}
		}
	}
	spec.RulesText = describeRules(d)
	if d.Description != "" {
		spec.RulesText = d.Description + " " + spec.RulesText
		spec.Summary = d.Description
	}
	if pawn != 0 {
		pp := d.Piece(pawn)
		spec.EnPassant = d.DoubleStep && strings.ContainsRune(d.EnPassantTypes[0], rune(pawn)) && (pp.Key == "pawn" || pp.Betza.EnPassant)
		for c := range 2 {
			if d.DoubleStep {
				spec.DoubleStep[c] = squares(d.DoubleStepRegion[c])
			}
			spec.Promotion[c] = squares(d.PromotionRegion[c])
		}
	}
	if d.Castling.Enabled {
		at := startSquares(d)
		c := d.Castling
		for side := range 2 {
			rank := c.Rank
			if side == 1 {
				rank = d.Height - 1 - c.Rank
			}
			own := func(f int, letters string) bool {
				p := at(f, rank)
				if p == 0 || (p >= 'a') != (side == 1) {
					return false
				}
				return strings.IndexByte(letters, p&^0x20) >= 0
			}
			king := c.KingFile
			if king < 0 {
				for f := range d.Width {
					if own(f, string(c.KingPiece[side])) {
						king = f
						break
					}
				}
			}
			if king < 0 {
				continue // no king on the castling rank: this side never castles
			}
			rooks := [2]int{c.RookKingsideFile, c.RookQueensideFile}
			if rooks[0] < 0 {
				for f := d.Width - 1; f > king; f-- {
					if own(f, c.RookPieces[side]) {
						rooks[0] = f
						break
					}
				}
			}
			if rooks[1] < 0 {
				for f := range king {
					if own(f, c.RookPieces[side]) {
						rooks[1] = f
						break
					}
				}
			}
			sq := func(f int) rules.Square { return board.Sq(f, rank) }
			letters := []byte("KQ")
			if side == 1 {
				letters = []byte("kq")
			}
			for i, cs := range []rules.CastleSpec{
				{Letter: letters[0], KingFrom: sq(king), KingTo: sq(c.KingsideFile), RookFrom: sq(rooks[0]), RookTo: sq(c.KingsideFile - 1)},
				{Letter: letters[1], KingFrom: sq(king), KingTo: sq(c.QueensideFile), RookFrom: sq(rooks[1]), RookTo: sq(c.QueensideFile + 1), Long: true},
			} {
				if rooks[i] < 0 {
					continue // no partner on that side
				}
				cs.Color = rules.Color(side)
				if slices.Contains([]rules.Square{cs.KingFrom, cs.KingTo, cs.RookFrom, cs.RookTo}, rules.NoSquare) {
					no("castling %c: its squares are not on the board", cs.Letter)
					continue
				}
				spec.Castles = append(spec.Castles, cs)
			}
		}
	}
	if len(why) > 0 {
		return nil, fmt.Errorf("variant %s cannot be played yet: %w", d.Name, errors.Join(wrapAll(why)...))
	}
	v, err := rules.NewChessFamily(spec)
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", d.Name, err)
	}
	return v, nil
}

// Variants builds each variant of the file the engine can play, in file
// order, and says why each of the others cannot be played (refused, or
// beyond the engine); the file's own errors come first.
func (f *File) Variants() ([]rules.Variant, []error) {
	var vs []rules.Variant
	errs := slices.Clone(f.Errors)
	for _, s := range f.Sections {
		d, err := f.Lookup(s.Name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		v, err := Build(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		vs = append(vs, v)
	}
	return vs, errs
}

func wrapAll(why []string) []error {
	out := make([]error, len(why))
	for i, w := range why {
		out[i] = tag(ErrUnsupported, "%s", w)
	}
	return out
}

// covers reports whether r holds every square of all.
func (r Region) covers(all Region) bool {
	for i := range r {
		if all[i]&^r[i] != 0 {
			return false
		}
	}
	return true
}

// startSquares returns the letter on each square of the start position
// (0 when empty or off the board).
func startSquares(d *Definition) func(file, rank int) byte {
	grid := make([][]byte, d.Height)
	placement, _, _ := strings.Cut(strings.Fields(d.StartFEN + " x")[0], "[")
	rows := strings.Split(placement, "/")
	for i, row := range rows {
		rank := d.Height - 1 - i
		if rank < 0 {
			break
		}
		grid[rank] = make([]byte, d.Width)
		file := 0
		skip := func() { // holes are not written in the FEN
			for file < d.Width && d.Holes.Has(file, rank) {
				file++
			}
		}
		for j := 0; j < len(row); j++ {
			switch c := row[j]; {
			case c >= '0' && c <= '9':
				n := 0
				for ; j < len(row) && row[j] >= '0' && row[j] <= '9'; j++ {
					n = n*10 + int(row[j]-'0')
				}
				j--
				for range n {
					skip()
					file++
				}
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				skip()
				if file < d.Width {
					grid[rank][file] = c
				}
				file++
			}
		}
	}
	return func(file, rank int) byte {
		if rank < 0 || rank >= len(grid) || grid[rank] == nil || file < 0 || file >= d.Width {
			return 0
		}
		return grid[rank][file]
	}
}

// padFEN completes a start position to the six fields the engine reads
// (Fairy-Stockfish allows the last ones to be left out).
func padFEN(s string) string {
	f := strings.Fields(s)
	defaults := []string{"", "w", "-", "-", "0", "1"}
	for len(f) < len(defaults) {
		f = append(f, defaults[len(f)])
	}
	return strings.Join(f, " ")
}

// pawnPiece returns the piece of Fairy-Stockfish's pawn type (the key
// pawn), or nil.
func pawnPiece(d *Definition) *Piece {
	for i := range d.Pieces {
		if d.Pieces[i].Key == "pawn" {
			return &d.Pieces[i]
		}
	}
	return nil
}

// pieceName is the name a player reads: the type's key, or "piece X" for
// a custom piece.
func pieceName(p Piece) string {
	if strings.HasPrefix(p.Key, "customPiece") {
		return "piece " + string(p.Letter)
	}
	return p.Key
}

// describeRules says what the definition's rules are, in one paragraph.
func describeRules(d *Definition) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %dx%d board", strings.ToUpper(article(d.Width)[:1])+article(d.Width)[1:], d.Width, d.Height)
	if d.WrapFiles {
		b.WriteString(", files wrap")
	}
	if d.WrapRanks {
		b.WriteString(", ranks wrap")
	}
	if d.KleinSeam > 0 {
		fmt.Fprintf(&b, ", crossing between ranks %d and %d mirrors the file", d.KleinSeam, d.KleinSeam+1)
	}
	if n := d.Holes.Len(); n > 0 {
		fmt.Fprintf(&b, ", without the squares %s", d.Holes.Describe(d.Width, d.Height))
	}
	b.WriteString(". ")
	for _, p := range d.Pieces {
		fmt.Fprintf(&b, "%c (%s) %s. ", p.Letter, pieceName(p), p.Betza.Words())
	}
	if d.PieceDrops {
		b.WriteString(dropRules(d))
	}
	return strings.TrimSpace(b.String())
}

// article is the indefinite article before the number n said aloud: "an"
// before eight and eleven.
func article(n int) string {
	if n == 8 || n == 11 {
		return "an"
	}
	return "a"
}

// dropRules says how drops are played, in sentences for players.
func dropRules(d *Definition) string {
	var b strings.Builder
	if d.CapturesToHand {
		b.WriteString("A captured piece goes to the capturer's hand (a promoted one as a pawn). ")
	}
	b.WriteString("Instead of moving, a player may drop a piece from hand on an empty square")
	all := Ranks(d.Width, 0, d.Height-1)
	if !d.DropRegion[0].covers(all) || !d.DropRegion[1].covers(all) {
		fmt.Fprintf(&b, " of %s (White) or %s (Black)", d.DropRegion[0].Describe(d.Width, d.Height), d.DropRegion[1].Describe(d.Width, d.Height))
	}
	b.WriteString(" (written N@f3)")
	var not []string
	if pp := pawnPiece(d); pp != nil {
		if !d.FirstRankPawnDrops {
			not = append(not, "on its own first rank")
		}
		if !d.PromotionZonePawnDrops && d.PromotionRegion[0].Len() > 0 {
			not = append(not, "where it would promote")
		}
		if len(not) > 0 {
			fmt.Fprintf(&b, "; a pawn not %s", strings.Join(not, " nor "))
		}
	}
	if !d.DropChecks {
		b.WriteString("; a drop may not give check")
	}
	b.WriteString(". ")
	return b.String()
}
