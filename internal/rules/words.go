package rules

import "referee/internal/lang"

// PieceWord is a piece's name (PieceType.Name) as a text in the reader's
// language (issue 42): the names of the pieces of the referee's own
// variants have catalog entries; another name (a variant file's) is
// written as its file gives it.
func PieceWord(name string) lang.Text {
	switch name {
	case "king":
		return lang.M("king")
	case "queen":
		return lang.M("queen")
	case "rook":
		return lang.M("rook")
	case "bishop":
		return lang.M("bishop")
	case "knight":
		return lang.M("knight")
	case "pawn":
		return lang.M("pawn")
	case "general":
		return lang.M("general")
	case "chariot":
		return lang.M("chariot")
	case "horse":
		return lang.M("horse")
	case "elephant":
		return lang.M("elephant")
	case "hawk":
		return lang.M("hawk")
	case "vao":
		return lang.M("vao")
	case "guard":
		return lang.M("guard")
	case "camel":
		return lang.M("camel")
	case "frog":
		return lang.M("frog")
	}
	return lang.Raw(name)
}

// SummaryText is v's one-line summary (Variant.Summary) in the reader's
// language (issue 42): the referee's own variants have catalog entries,
// whose English a test keeps equal to their Summary; another variant (a
// variant file's) is written as its file gives it.
func SummaryText(v Variant) lang.Text {
	switch v.Name() {
	case "chess":
		return lang.M("orthodox chess, FIDE laws: castling, en passant, promotion, 50/75-move and repetition draws")
	case "toroidal":
		return lang.M("8x14 board, ranks and files wrap (a torus); two pawn groups a side")
	case "cylindrical":
		return lang.M("8x14 board, ranks wrap, files a and h are edges; two pawn groups a side")
	case "klein":
		return lang.M("8x14 Klein bottle: files wrap, crossing between ranks 11 and 12 mirrors the file")
	case "cuarenta":
		return lang.M("40 light squares of a 9x9 board; Vao, Guard, Camel, Frog; king-camel castling")
	case "toto40":
		return lang.M("40-square staircase split by a fighting line; no check, capture the king; superko")
	case "toetotoe":
		return lang.M("pawns toe to toe; deploy K+G, E+E, N+N, R+R, then three swaps each, then play; no stalemating")
	case "chectoe":
		return lang.M("4x4 board, drops, a die the referee rolls; Wizard and Checker moves; four in a line (a Toe) wins")
	}
	return lang.Raw(v.Summary())
}
