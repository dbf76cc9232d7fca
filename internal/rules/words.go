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
