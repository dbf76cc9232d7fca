package variantfile

import (
	"fmt"
	"strings"
)

// Describe says in words what the definition was understood to be, a line
// a subject: the board, each piece's moves, the pawns, castling and the
// rules that end a game. `referee variant check` prints it.
func (d *Definition) Describe() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if d.Description != "" {
		add("Description: %s", d.Description)
	}

	board := fmt.Sprintf("Board: %d files × %d ranks (a1 to %c%d)", d.Width, d.Height, 'a'+d.Width-1, d.Height)
	if d.WrapFiles {
		board += "; the first and last files are next to each other"
	}
	if d.WrapRanks {
		board += "; the first and last ranks are next to each other"
	}
	if d.KleinSeam > 0 {
		board += fmt.Sprintf("; a step between ranks %d and %d mirrors the file", d.KleinSeam, d.KleinSeam+1)
	}
	if d.Holes.Len() > 0 {
		board += "; without the squares " + d.Holes.Describe(d.Width, d.Height)
	}
	add("%s.", board)
	add("Start: %s", d.StartFEN)
	for _, p := range d.Pieces {
		royal := ""
		if p.Royal {
			royal = "; royal: checkmating it wins"
		}
		add("%c %s (%s%s): %s.", p.Letter, pieceName(p), p.Betza.Text, royal, p.Betza.Words())
	}

	if pawns := d.PromotionPawnTypes[0]; pawns != "" && d.PromotionPieceTypes[0] != "" {
		must := "may"
		if d.MandatoryPawnPromotion {
			must = "must"
		}
		add("Promotion: %s %s promote on %s (White) and %s (Black) to %s.", letterList(pawns), must,
			d.PromotionRegion[0].Describe(d.Width, d.Height), d.PromotionRegion[1].Describe(d.Width, d.Height), letterList(d.PromotionPieceTypes[0]))
	} else {
		add("Promotion: none.")
	}
	if d.DoubleStep {
		ep := "no en passant"
		if t := d.EnPassantTypes[0]; t != "" {
			ep = "taken en passant by " + letterList(t)
		}
		add("Double steps: from %s (White) and %s (Black), %s.", d.DoubleStepRegion[0].Describe(d.Width, d.Height), d.DoubleStepRegion[1].Describe(d.Width, d.Height), ep)
	} else {
		add("Double steps: none.")
	}
	if c := d.Castling; c.Enabled {
		king := "the king's file in the start position"
		if c.KingFile >= 0 {
			king = fmt.Sprintf("file %c", 'a'+c.KingFile)
		}
		add("Castling: on each side's rank %d, the king from %s to file %c (kingside) or %c (queenside), with the outermost %s of that side.",
			c.Rank+1, king, 'a'+c.KingsideFile, 'a'+c.QueensideFile, letterList(c.RookPieces[0]))
	} else {
		add("Castling: none.")
	}
	if d.PieceDrops {
		add("Drops: %s", strings.TrimSpace(dropRules(d)))
	}

	r := d.Results
	var ends []string
	if d.Checking {
		ends = append(ends, "checkmate is a "+r.CheckmateValue.String()+" for the side mated")
	} else {
		ends = append(ends, "no check: a king may be left attacked")
	}
	ends = append(ends, "stalemate is a "+r.StalemateValue.String()+" for the side stalemated")
	if r.ExtinctionValue != ValueNone {
		types := r.ExtinctionPieceTypes
		if types == "*" {
			types = "pieces"
		} else {
			types = letterList(types)
		}
		ends = append(ends, fmt.Sprintf("a side left with %d or fewer %s (the opponent having %d or more) has a %s", r.ExtinctionPieceCount, types, r.ExtinctionOpponentPieceCount, r.ExtinctionValue))
	}
	if r.FlagRegion[0].Len()+r.FlagRegion[1].Len() > 0 {
		ends = append(ends, fmt.Sprintf("a piece reaching %s (White) or %s (Black) wins", r.FlagRegion[0].Describe(d.Width, d.Height), r.FlagRegion[1].Describe(d.Width, d.Height)))
	}
	if r.CheckCounting {
		ends = append(ends, "the checks still to give are counted; giving the last wins")
	}
	if d.MustCapture {
		ends = append(ends, "a capture must be made when one can")
	}
	if d.NMoveRule > 0 {
		ends = append(ends, fmt.Sprintf("a draw after %d moves by each side without a capture or a move of %s", d.NMoveRule, letterList(d.NMoveRuleTypes[0])))
	}
	if d.NFoldRule > 0 {
		whose := "the side to move"
		if d.NFoldValueAbsolute {
			whose = "White"
		}
		if d.NFoldValue == ValueDraw {
			ends = append(ends, fmt.Sprintf("the %s occurrence of a position ends the game drawn", ordinal(d.NFoldRule)))
		} else {
			ends = append(ends, fmt.Sprintf("the %s occurrence of a position ends the game: a %s for %s", ordinal(d.NFoldRule), d.NFoldValue, whose))
		}
	}
	add("Results: %s.", strings.Join(ends, "; "))
	for _, n := range d.Notes {
		add("Note: %s.", strings.TrimSuffix(n, "."))
	}
	if len(d.Ignored) > 0 {
		add("Set aside (they only tune Fairy-Stockfish's own play or display): %s.", strings.Join(d.Ignored, ", "))
	}
	return out
}

// letterList writes piece letters as "P", "Q, R, B or N".
func letterList(s string) string {
	var ls []string
	for _, c := range []byte(s) {
		ls = append(ls, string(c))
	}
	switch len(ls) {
	case 0:
		return "no piece"
	case 1:
		return ls[0]
	}
	return strings.Join(ls[:len(ls)-1], ", ") + " or " + ls[len(ls)-1]
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}
