package variantfile

import (
	"fmt"
	"slices"
	"strings"

	"referee/internal/rules"
)

// NamedType is one of Fairy-Stockfish's predefined piece types: its key in
// variants.ini and its moves in Betza notation (as its own documentation
// gives them).
type NamedType struct {
	Key   string
	Betza string
}

// NamedTypes lists Fairy-Stockfish's predefined piece types, in its order.
// The key assigns a letter (`knight = n`); customPiece1 .. customPiece25
// take a letter and a Betza string (`customPiece1 = a:mBcpB`), and so may
// king (`king = k:KN`, a royal piece with other moves).
func NamedTypes() []NamedType {
	return []NamedType{
		{"pawn", "fmWfceF"},
		{"knight", "N"},
		{"bishop", "B"},
		{"rook", "R"},
		{"queen", "Q"},
		{"fers", "F"},
		{"alfil", "A"},
		{"fersAlfil", "FA"},
		{"silver", "FfW"},
		{"aiwok", "RNF"},
		{"bers", "RF"},
		{"archbishop", "BN"},
		{"chancellor", "RN"},
		{"amazon", "QN"},
		{"knibis", "mNcB"},
		{"biskni", "mBcN"},
		{"kniroo", "mNcR"},
		{"rookni", "mRcN"},
		{"shogiPawn", "fW"},
		{"lance", "fR"},
		{"shogiKnight", "fN"},
		{"gold", "WfF"},
		{"dragonHorse", "BW"},
		{"clobber", "cW"},
		{"breakthrough", "fmWfF"},
		{"immobile", ""},
		{"cannon", "mRcpR"},
		{"janggiCannon", "pR"},
		{"soldier", "fsW"},
		{"horse", "nN"},
		{"elephant", "nA"},
		{"janggiElephant", "nZ"},
		{"banner", "RcpRnN"},
		{"wazir", "W"},
		{"commoner", "K"},
		{"centaur", "KN"},
		{"king", "K"},
	}
}

// MaxCustomPieces is the number of customPieceN slots of Fairy-Stockfish.
const MaxCustomPieces = 25

// namedBetza returns the Betza string of a predefined type.
func namedBetza(key string) (string, bool) {
	for _, t := range NamedTypes() {
		if t.Key == key {
			return t.Betza, true
		}
	}
	return "", false
}

// customSlot returns n for the key customPieceN (1..25).
func customSlot(key string) (int, bool) {
	rest, ok := strings.CutPrefix(key, "customPiece")
	if !ok || rest == "" || len(rest) > 2 || rest[0] == '0' {
		return 0, false
	}
	n := 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n >= 1 && n <= MaxCustomPieces
}

// Words says in English what the piece does, move by move: "moves and
// captures like a bishop, and leaps like a knight".
func (b *Betza) Words() string {
	if len(b.Moves) == 0 {
		return "never moves"
	}
	var parts []string
	for _, m := range b.Moves {
		parts = append(parts, m.Words())
	}
	s := parts[0]
	if n := len(parts); n > 1 {
		s = strings.Join(parts[:n-1], ", ") + ", and " + parts[n-1]
	}
	if b.EnPassant {
		s += "; it may capture en passant"
	}
	return s
}

// Words says in English what one move does.
func (m Move) Words() string {
	manner := m.manner()
	var s string
	switch m.Kind {
	case KindHop, KindGrasshop:
		lines := m.lines()
		to := "a square beyond it"
		if m.Kind == KindGrasshop {
			to = "the square just beyond it"
		}
		switch m.Mode {
		case rules.MoveOnly:
			s = fmt.Sprintf("moves without capturing by hopping %s over one piece of either side to %s (empty)", lines, to)
		case rules.CaptureOnly:
			s = fmt.Sprintf("captures by hopping %s over one piece of either side onto an enemy on %s", lines, to)
		default:
			s = fmt.Sprintf("moves and captures by hopping %s over one piece of either side to %s", lines, to)
		}
	default:
		verb := "leaps"
		switch {
		case m.Kind == KindRide:
			verb = "moves"
		case m.Kind == KindLeap && (m.Atom == 'W' || m.Atom == 'F' || m.Atom == 'K'):
			verb = "steps"
		}
		switch m.Mode {
		case rules.MoveOnly:
			s = verb + " " + manner + " without capturing"
		case rules.CaptureOnly:
			s = "captures " + manner
		default:
			if m.Kind == KindRide {
				verb = "moves and captures"
			}
			s = verb + " " + manner
		}
		switch m.Kind {
		case KindLame:
			s += ", unless a piece stands on the square it passes"
		case KindJump:
			s += ", only over a piece of either side on the square halfway"
		}
	}
	if m.Initial {
		s += ", only as its first move"
	}
	return s
}

// lines names the lines a hopper goes along.
func (m Move) lines() string {
	orth := slices.ContainsFunc(m.Vecs, func(v rules.Vec) bool { return v.DX == 0 || v.DY == 0 })
	diag := slices.ContainsFunc(m.Vecs, func(v rules.Vec) bool { return v.DX != 0 && v.DY != 0 })
	full := len(m.Vecs) == 4 || len(m.Vecs) == 8
	var s string
	switch {
	case orth && diag:
		s = "along queen lines"
	case orth:
		s = "along rook lines"
	default:
		s = "along bishop lines"
	}
	if !full {
		s += " (" + dirNames(m.Vecs) + ")"
	}
	return s
}

// manner says where a move goes: "like a knight", "one square diagonally
// forward", "up to 2 squares orthogonally".
func (m Move) manner() string {
	full := len(m.Vecs) == 8 || (len(m.Vecs) == 4 && (m.Atom != 'N' && m.Atom != 'C' && m.Atom != 'Z'))
	if m.Atom == 'K' || m.Atom == 'Q' {
		full = len(m.Vecs) == 8
	}
	name := map[byte]string{'N': "knight", 'C': "camel (3,1)", 'Z': "zebra (3,2)"}
	switch m.Kind {
	case KindRide:
		if full && m.Range == 0 {
			switch m.Atom {
			case 'W', 'R':
				return "like a rook"
			case 'F', 'B':
				return "like a bishop"
			case 'K', 'Q':
				return "like a queen"
			case 'N':
				return "like a nightrider (knight leaps repeated in one line)"
			}
		}
		step := map[byte]string{'D': "two-square leaps", 'A': "two-square diagonal leaps", 'H': "three-square leaps",
			'G': "three-square diagonal leaps", 'N': "knight leaps", 'C': "camel leaps", 'Z': "zebra leaps"}[m.Atom]
		how := "any distance"
		if m.Range > 0 {
			how = fmt.Sprintf("up to %d squares", m.Range)
			if step != "" {
				how = fmt.Sprintf("up to %d", m.Range)
			}
		}
		if step != "" {
			how += " of " + step
		}
		return how + " " + m.dirs(full)
	default:
		if n, ok := name[m.Atom]; ok {
			if full {
				return "like a " + n
			}
			return "like a " + n + ", only " + vecList(m.Vecs)
		}
		if m.Atom == 'K' && full {
			return "like a king"
		}
		dist := map[byte]string{'W': "one square", 'F': "one square", 'K': "one square", 'D': "two squares", 'A': "two squares",
			'H': "three squares", 'G': "three squares"}[m.Atom]
		return dist + " " + m.dirs(full)
	}
}

// dirs names the directions of an orthogonal or diagonal move.
func (m Move) dirs(full bool) string {
	orth := slices.ContainsFunc(m.Vecs, func(v rules.Vec) bool { return v.DX == 0 || v.DY == 0 })
	diag := slices.ContainsFunc(m.Vecs, func(v rules.Vec) bool { return v.DX != 0 && v.DY != 0 })
	if oblique(m.Vecs) {
		return "by " + vecList(m.Vecs)
	}
	if full {
		switch {
		case orth && diag:
			return "in any direction"
		case orth:
			return "orthogonally"
		default:
			return "diagonally"
		}
	}
	return dirNames(m.Vecs)
}

func oblique(vecs []rules.Vec) bool {
	return slices.ContainsFunc(vecs, func(v rules.Vec) bool { return v.DX != 0 && v.DY != 0 && abs(int(v.DX)) != abs(int(v.DY)) })
}

// dirNames names unit directions: "forward", "diagonally forward", ...
func dirNames(vecs []rules.Vec) string {
	has := map[string]bool{}
	for _, v := range vecs {
		has[dirName(v)] = true
	}
	var out []string
	take := func(name string, parts ...string) {
		for _, p := range parts {
			if !has[p] {
				return
			}
		}
		for _, p := range parts {
			delete(has, p)
		}
		out = append(out, name)
	}
	take("orthogonally", "forward", "backward", "left", "right")
	take("diagonally", "forward-left", "forward-right", "backward-left", "backward-right")
	take("diagonally forward", "forward-left", "forward-right")
	take("diagonally backward", "backward-left", "backward-right")
	take("sideways", "left", "right")
	take("forward or backward", "forward", "backward")
	for _, n := range []string{"forward", "backward", "left", "right", "forward-left", "forward-right", "backward-left", "backward-right"} {
		if has[n] {
			out = append(out, n)
		}
	}
	rank := map[string]int{"orthogonally": 0, "diagonally": 1, "forward": 2, "forward or backward": 2,
		"diagonally forward": 3, "forward-left": 3, "forward-right": 3, "sideways": 4, "left": 4, "right": 4,
		"diagonally backward": 5, "backward-left": 5, "backward-right": 5, "backward": 6}
	slices.SortStableFunc(out, func(a, b string) int { return rank[a] - rank[b] })
	if len(out) <= 1 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

func dirName(v rules.Vec) string {
	var s string
	switch {
	case v.DY > 0:
		s = "forward"
	case v.DY < 0:
		s = "backward"
	}
	h := ""
	switch {
	case v.DX > 0:
		h = "right"
	case v.DX < 0:
		h = "left"
	}
	switch {
	case s == "":
		return h
	case h == "":
		return s
	}
	return s + "-" + h
}

// vecList writes vectors as (files,ranks) with signs, forward positive.
func vecList(vecs []rules.Vec) string {
	var parts []string
	for _, v := range vecs {
		parts = append(parts, fmt.Sprintf("(%+d,%+d)", v.DX, v.DY))
	}
	return strings.Join(parts, " ") + " (files, ranks forward)"
}
