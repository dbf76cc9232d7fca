package variantfile

import (
	"fmt"
	"strings"
)

// keyDef is one key the reader takes, with how it changes the definition.
type keyDef struct {
	name string
	set  func(b *builder, v string) error
}

// keyTable lists the keys the reader takes, in the order they are applied
// (the board size first; an alias before the keys it stands for). Names and
// meanings are Fairy-Stockfish's (its variants.ini header and parser), apart
// from the referee_ keys, which it ignores.
func keyTable() []keyDef {
	both := func(set func(b *builder, c int, v string) error) func(*builder, string) error {
		return func(b *builder, v string) error {
			for c := range 2 {
				if err := set(b, c, v); err != nil {
					return err
				}
			}
			return nil
		}
	}
	side := func(c int, set func(b *builder, c int, v string) error) func(*builder, string) error {
		return func(b *builder, v string) error { return set(b, c, v) }
	}
	boolKey := func(p func(d *Definition) *bool) func(*builder, string) error {
		return func(b *builder, v string) error {
			x, err := parseBool(v)
			*p(&b.d) = x
			return err
		}
	}
	valueKey := func(p func(d *Definition) *Value) func(*builder, string) error {
		return func(b *builder, v string) error {
			x, err := parseValue(v)
			*p(&b.d) = x
			return err
		}
	}
	intKey := func(max int, p func(d *Definition) *int) func(*builder, string) error {
		return func(b *builder, v string) error {
			x, err := parseInt(v, max)
			*p(&b.d) = x
			return err
		}
	}
	fileKey := func(p func(d *Definition) *int) func(*builder, string) error {
		return func(b *builder, v string) error {
			x, err := parseFile(v)
			*p(&b.d) = x
			return err
		}
	}
	region := func(p func(d *Definition, c int) *Region) func(*builder, int, string) error {
		return func(b *builder, c int, v string) error {
			r, err := parseRegion(v, b.d.Width, b.d.Height)
			*p(&b.d, c) = r
			return err
		}
	}
	set := func(p func(b *builder, c int) *[]string) func(*builder, int, string) error {
		return func(b *builder, c int, v string) error {
			s, err := b.pieceSet(v)
			*p(b, c) = s
			return err
		}
	}
	one := func(p func(b *builder, c int) *string) func(*builder, int, string) error {
		return func(b *builder, c int, v string) error {
			s, err := b.pieceType(v)
			*p(b, c) = s
			return err
		}
	}
	ignore := func(name string) func(*builder, string) error {
		return func(b *builder, v string) error {
			b.d.Ignored = append(b.d.Ignored, name)
			return nil
		}
	}
	onlyFalse := func(name string) func(*builder, string) error {
		return func(b *builder, v string) error {
			x, err := parseBool(v)
			if err == nil && x {
				return tag(ErrUnsupported, "%s = true is not supported by the referee; remove the line or write false", name)
			}
			return err
		}
	}
	// A region key replaces the relative rank of promotionRank or
	// doubleStepRank for its side.
	absolute := func(set func(*builder, int, string) error, rel func(b *builder) *[2]int) func(*builder, int, string) error {
		return func(b *builder, c int, v string) error {
			(*rel(b))[c] = -1
			return set(b, c, v)
		}
	}
	promoRegion := absolute(region(func(d *Definition, c int) *Region { return &d.PromotionRegion[c] }), func(b *builder) *[2]int { return &b.promoRel })
	dsRegion := absolute(region(func(d *Definition, c int) *Region { return &d.DoubleStepRegion[c] }), func(b *builder) *[2]int { return &b.doubleStepRel })
	tsRegion := region(func(d *Definition, c int) *Region { return &d.TripleStepRegion[c] })
	epRegion := region(func(d *Definition, c int) *Region { return &d.EnPassantRegion[c] })
	dropRegion := region(func(d *Definition, c int) *Region { return &d.DropRegion[c] })
	flagRegion := region(func(d *Definition, c int) *Region { return &d.Results.FlagRegion[c] })
	promoPawn := set(func(b *builder, c int) *[]string { return &b.promoPawn[c] })
	promoPiece := set(func(b *builder, c int) *[]string { return &b.promoPiece[c] })
	epTypes := set(func(b *builder, c int) *[]string { return &b.epTypes[c] })
	nMoveTypes := set(func(b *builder, c int) *[]string { return &b.nMoveTypes[c] })
	rookPieces := set(func(b *builder, c int) *[]string { return &b.rookPieces[c] })
	kingPiece := one(func(b *builder, c int) *string { return &b.kingPiece[c] })
	flagPiece := one(func(b *builder, c int) *string { return &b.flagPiece[c] })

	return []keyDef{
		// The board (applied first).
		{"maxRank", func(b *builder, v string) error {
			r, err := parseRank(v)
			b.d.Height = r + 1
			return err
		}},
		{"maxFile", func(b *builder, v string) error {
			f, err := parseFile(v)
			b.d.Width = f + 1
			return err
		}},
		// Deprecated names Fairy-Stockfish still reads (11.1 knows only these).
		// Fairy-Stockfish 11.1's keys: ranks counted from each side's own
		// first rank, so Black's follow the board's height (resolved in
		// finish, when the height is known).
		{"promotionRank", func(b *builder, v string) error {
			r, err := parseRank(v)
			b.promoRel = [2]int{r, r}
			return err
		}},
		{"doubleStepRank", func(b *builder, v string) error {
			r, err := parseRank(v)
			b.doubleStepRel = [2]int{r, r}
			return err
		}},
		{"whiteFlag", side(0, flagRegion)},
		{"blackFlag", side(1, flagRegion)},
		{"castlingRookPiece", both(rookPieces)},
		{"whiteDropRegion", side(0, dropRegion)},
		{"blackDropRegion", side(1, dropRegion)},
		{"pawnTypes", func(b *builder, v string) error {
			for _, f := range []func(*builder, int, string) error{promoPawn, epTypes, nMoveTypes} {
				if err := both(f)(b, v); err != nil {
					return err
				}
			}
			return nil
		}},
		// GUI and evaluation settings of Fairy-Stockfish: read, set aside.
		{"variantTemplate", ignore("variantTemplate")},
		{"pieceToCharTable", ignore("pieceToCharTable")},
		{"pocketSize", ignore("pocketSize")},
		{"pieceValueMg", ignore("pieceValueMg")},
		{"pieceValueEg", ignore("pieceValueEg")},
		{"chess960", onlyFalse("chess960")},
		{"twoBoards", onlyFalse("twoBoards")},
		{"startFen", func(b *builder, v string) error {
			if v == "" {
				return fmt.Errorf("an empty start position; write a FEN, e.g. rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
			}
			b.d.StartFEN = v
			return nil
		}},
		{"promotionRegionWhite", side(0, promoRegion)},
		{"promotionRegionBlack", side(1, promoRegion)},
		{"promotionPawnTypes", both(promoPawn)},
		{"promotionPawnTypesWhite", side(0, promoPawn)},
		{"promotionPawnTypesBlack", side(1, promoPawn)},
		{"promotionPieceTypes", both(promoPiece)},
		{"promotionPieceTypesWhite", side(0, promoPiece)},
		{"promotionPieceTypesBlack", side(1, promoPiece)},
		{"mandatoryPawnPromotion", boolKey(func(d *Definition) *bool { return &d.MandatoryPawnPromotion })},
		{"doubleStep", boolKey(func(d *Definition) *bool { return &d.DoubleStep })},
		{"doubleStepRegionWhite", side(0, dsRegion)},
		{"doubleStepRegionBlack", side(1, dsRegion)},
		{"tripleStepRegionWhite", side(0, tsRegion)},
		{"tripleStepRegionBlack", side(1, tsRegion)},
		{"enPassantRegion", both(epRegion)},
		{"enPassantRegionWhite", side(0, epRegion)},
		{"enPassantRegionBlack", side(1, epRegion)},
		{"enPassantTypes", both(epTypes)},
		{"enPassantTypesWhite", side(0, epTypes)},
		{"enPassantTypesBlack", side(1, epTypes)},
		{"castling", boolKey(func(d *Definition) *bool { return &d.Castling.Enabled })},
		{"castlingKingsideFile", fileKey(func(d *Definition) *int { return &d.Castling.KingsideFile })},
		{"castlingQueensideFile", fileKey(func(d *Definition) *int { return &d.Castling.QueensideFile })},
		{"castlingRank", func(b *builder, v string) error {
			r, err := parseRank(v)
			b.d.Castling.Rank = r
			return err
		}},
		{"castlingKingFile", fileKey(func(d *Definition) *int { return &d.Castling.KingFile })},
		{"castlingKingPiece", both(kingPiece)},
		// Fairy-Stockfish 11.1: the king moves as the type with this letter
		// (Knightmate's royal knight: kingType = n).
		{"kingType", func(b *builder, v string) error {
			k, err := b.pieceType(v)
			if err != nil || k == "*" || k == "-" {
				return fmt.Errorf("%q: give the letter of the piece type the king moves as, e.g. kingType = n for a royal knight", clip(v))
			}
			b.kingType = k
			return nil
		}},
		{"castlingKingPieceWhite", side(0, kingPiece)},
		{"castlingKingPieceBlack", side(1, kingPiece)},
		{"castlingRookKingsideFile", fileKey(func(d *Definition) *int { return &d.Castling.RookKingsideFile })},
		{"castlingRookQueensideFile", fileKey(func(d *Definition) *int { return &d.Castling.RookQueensideFile })},
		{"castlingRookPieces", both(rookPieces)},
		{"castlingRookPiecesWhite", side(0, rookPieces)},
		{"castlingRookPiecesBlack", side(1, rookPieces)},
		{"checking", boolKey(func(d *Definition) *bool { return &d.Checking })},
		{"dropChecks", boolKey(func(d *Definition) *bool { return &d.DropChecks })},
		{"mustCapture", boolKey(func(d *Definition) *bool { return &d.MustCapture })},
		{"pieceDrops", boolKey(func(d *Definition) *bool { return &d.PieceDrops })},
		{"capturesToHand", boolKey(func(d *Definition) *bool { return &d.CapturesToHand })},
		{"firstRankPawnDrops", boolKey(func(d *Definition) *bool { return &d.FirstRankPawnDrops })},
		{"promotionZonePawnDrops", boolKey(func(d *Definition) *bool { return &d.PromotionZonePawnDrops })},
		{"dropRegionWhite", side(0, dropRegion)},
		{"dropRegionBlack", side(1, dropRegion)},
		{"nMoveRuleTypes", both(nMoveTypes)},
		{"nMoveRuleTypesWhite", side(0, nMoveTypes)},
		{"nMoveRuleTypesBlack", side(1, nMoveTypes)},
		{"nMoveRule", intKey(10000, func(d *Definition) *int { return &d.NMoveRule })},
		{"nFoldRule", intKey(1000, func(d *Definition) *int { return &d.NFoldRule })},
		{"nFoldValue", valueKey(func(d *Definition) *Value { return &d.NFoldValue })},
		{"nFoldValueAbsolute", boolKey(func(d *Definition) *bool { return &d.NFoldValueAbsolute })},
		{"stalemateValue", valueKey(func(d *Definition) *Value { return &d.Results.StalemateValue })},
		{"checkmateValue", valueKey(func(d *Definition) *Value { return &d.Results.CheckmateValue })},
		{"extinctionValue", valueKey(func(d *Definition) *Value { return &d.Results.ExtinctionValue })},
		{"extinctionClaim", boolKey(func(d *Definition) *bool { return &d.Results.ExtinctionClaim })},
		{"extinctionPseudoRoyal", boolKey(func(d *Definition) *bool { return &d.Results.ExtinctionPseudoRoyal })},
		{"extinctionPieceTypes", func(b *builder, v string) error {
			s, err := b.pieceSet(v)
			b.extinction = s
			return err
		}},
		{"extinctionPieceCount", intKey(MaxBoardSide*MaxBoardSide, func(d *Definition) *int { return &d.Results.ExtinctionPieceCount })},
		{"extinctionOpponentPieceCount", intKey(MaxBoardSide*MaxBoardSide, func(d *Definition) *int { return &d.Results.ExtinctionOpponentPieceCount })},
		{"flagPiece", both(flagPiece)},
		{"flagPieceWhite", side(0, flagPiece)},
		{"flagPieceBlack", side(1, flagPiece)},
		{"flagRegion", both(flagRegion)},
		{"flagRegionWhite", side(0, flagRegion)},
		{"flagRegionBlack", side(1, flagRegion)},
		{"flagMove", boolKey(func(d *Definition) *bool { return &d.Results.FlagMove })},
		{"checkCounting", boolKey(func(d *Definition) *bool { return &d.Results.CheckCounting })},
		// The referee's own keys: Fairy-Stockfish ignores them when it
		// loads the file (its `check` lists them as invalid options).
		{"referee_wrapFiles", boolKey(func(d *Definition) *bool { return &d.WrapFiles })},
		{"referee_wrapRanks", boolKey(func(d *Definition) *bool { return &d.WrapRanks })},
		{"referee_kleinSeam", func(b *builder, v string) error {
			n, err := parseInt(v, MaxBoardSide-1)
			b.d.KleinSeam = n
			return err
		}},
		{"referee_holes", func(b *builder, v string) error {
			r, err := parseRegion(v, b.d.Width, b.d.Height)
			b.d.Holes = r
			return err
		}},
		// The rules in the players' words, for the opening mail and the
		// help (Fairy-Stockfish ignores the key).
		{"description", func(b *builder, v string) error {
			if len(v) > MaxDescriptionBytes {
				return fmt.Errorf("%d bytes; a description has at most %d (one line: what players need to know beyond the board and the pieces)", len(v), MaxDescriptionBytes)
			}
			b.d.Description = strings.TrimSpace(v)
			return nil
		}},
	}
}

// MaxDescriptionBytes bounds a variant's description.
const MaxDescriptionBytes = 1000

// fsfUnsupported lists keys of Fairy-Stockfish's variants.ini the referee
// does not support yet: a file using them is refused, with that reason.
func fsfUnsupported() []string {
	return []string{
		"mobilityRegion", "doubleStepRankMin", "dropOnTop", "sittuyinPromotion", "promotionLimit",
		"promotedPieceType", "piecePromotionOnCapture", "mandatoryPiecePromotion", "pieceDemotion",
		"blastOnCapture", "blastImmuneTypes", "mutuallyImmuneTypes", "petrifyOnCaptureTypes",
		"petrifyBlastPieces", "castlingDroppedPiece", "oppositeCastling", "mustDrop", "mustDropType",
		"dropLoop", "enclosingDrop", "enclosingDropStart", "sittuyinRookDrop", "dropOppositeColoredBishop",
		"dropPromoted", "dropNoDoubled", "dropNoDoubledCount", "immobilityIllegal", "gating", "wallingRule",
		"wallingRegionWhite", "wallingRegionBlack", "wallingRegion", "wallOrMove", "seirawanGating",
		"cambodianMoves", "diagonalLines", "pass", "passWhite", "passBlack", "passOnStalemate",
		"passOnStalemateWhite", "passOnStalemateBlack", "makpongRule", "flyingGeneral",
		"soldierPromotionRank", "flipEnclosedPieces", "perpetualCheckIllegal", "moveRepetitionIllegal",
		"chasingRule", "stalematePieceCount", "shogiPawnDropMateIllegal", "shatarMateRule", "bikjangRule",
		"dupleCheck", "flagPieceCount", "flagPieceBlockedWin", "flagPieceSafe", "connectN",
		"connectPieceTypes", "connectHorizontal", "connectVertical", "connectDiagonal",
		"connectRegion1White", "connectRegion2White", "connectRegion1Black", "connectRegion2Black",
		"connectNxN", "collinearN", "connectValue", "materialCounting", "adjudicateFullBoard",
		"countingRule", "castlingWins",
		// Fairy-Stockfish 11.1 names, since renamed or removed.
		"kingPass", "kingPassOnStalemate", "endgameEval", "firstRankDoubleSteps",
		"shogiDoubledPawn", "euroshogiKnight",
	}
}
