// Package notation reads players' moves liberally (SAN, long and coordinate
// forms, drops, deployments, swaps, Chec Toe suffixes, commands, ICCF
// numeric notation in orthodox chess, and with ReadFor the piece letters of
// other languages) and writes them strictly: canonical SAN with minimal
// disambiguation, and the coordinate form of docs/rules/README.md#notation.
package notation

import (
	"slices"
	"strings"

	"referee/internal/rules"
)

// Chec Toe's suffixes (docs/rules/chectoe.md, docs/rules/README.md#notation).
const (
	DropMark    = "⌄" // U+2304
	CheckerMark = "⌃" // U+2303
	WizardMark  = "°" // U+00B0
)

// pawnLetterRequired reports whether pawn moves carry their letter in SAN
// (Chec Toe); elsewhere a pawn move starts with its destination.
func pawnLetterRequired(v rules.Variant) bool {
	h, ok := v.(rules.VariantPawnLetter)
	return ok && h.PawnLetterRequired()
}

// castlingSAN writes the castling move m as the variant does, else "O-O"
// when the king goes toward the h-file and "O-O-O" toward the a-file.
func castlingSAN(v rules.Variant, m rules.Move) string {
	if c, ok := v.(rules.VariantCastling); ok {
		return c.CastlingSAN(m)
	}
	if b := v.Board(); b.File(m.To) > b.File(m.From) {
		return "O-O"
	}
	return "O-O-O"
}

// pawnLetter is the letter of the variant's pawn.
const pawnLetter = 'P'

// SAN writes m (legal in p) as mails show it: StandardSAN, or, where a
// case-insensitive reader (Parse, which takes "bxc4" for the b-pawn or the
// bishop) would also find another legal move in it, the long form with
// the origin square ("b3xc4"), so that a player who copies it into a reply
// plays that move. Records and exports use StandardSAN.
func SAN(p rules.Position, m rules.Move) string {
	s := standardBody(p, m)
	if m.Kind == rules.Normal || m.Kind == rules.Checker || m.Kind == rules.Wizard {
		n, _ := normalise(s)
		if got, _, _ := candidates(p, n, p.Legal(), nil); len(got) != 1 || got[0] != m {
			s = longForm(p, m)
		}
	}
	return withMarks(p, m, s)
}

// StandardSAN writes m (legal in p) in standard algebraic notation, as the
// PGN standard (§8.2.3) does and as records and exports carry it: the
// piece letter (none for a pawn, except in Chec Toe, where pawns carry
// theirs), the least disambiguation that tells m apart from the other
// legal moves of a piece of the same letter to the same square (file,
// else rank, else square), "x" for a capture, the destination, "=" and the
// promotion letter, and "+" or "#" in games with check. Letters are read
// with their case, as PGN does: "bxc4" is a pawn's capture, "Bxc4" a
// bishop's (ParseSAN reads it back).
//
// Where the variants' pawns make standard SAN ambiguous, a pawn is
// disambiguated as a piece is, with the whole origin square where the file
// is not enough (a rank alone before a square, "4g3", reads as nothing
// anyone writes): a pawn's capture always carries its file, and its origin
// square when two pawns of one file take the same square (the wrapped
// boards' pawns, which move both ways: "e6xf5" beside "e4xf5"); a pawn's
// step carries its origin's file when pawns of other files may step there
// (Cuarenta's diagonal steps: "fg4" beside "hg4"), and its origin square
// when a pawn of the same file may ("h4h3" beside "gh3" in Toto40, "g4g3"
// beside "g5g3" in Toe-to-Toe). Should a written form still fit another
// legal move (no variant here has one), the long form is written.
func StandardSAN(p rules.Position, m rules.Move) string {
	s := standardBody(p, m)
	if m.Kind == rules.Normal || m.Kind == rules.Checker || m.Kind == rules.Wizard {
		if got := literalCandidates(p, s); len(got) != 1 || got[0] != m {
			s = longForm(p, m)
		}
	}
	return withMarks(p, m, s)
}

// withMarks adds "#" or "+" to the body s of m in games with check.
func withMarks(p rules.Position, m rules.Move, s string) string {
	if !p.Variant().HasCheck() || m.Kind == rules.Deploy || m.Kind == rules.Swap {
		return s
	}
	next, err := p.Play(m)
	if err != nil {
		return s
	}
	if res := next.Result(); res.Over && !res.Draw && res.Reason == "checkmate" {
		return s + "#"
	}
	if next.InCheck() {
		return s + "+"
	}
	return s
}

// standardBody is sanBody with a pawn disambiguated against other pawns
// going to the same square (StandardSAN's doc says how).
func standardBody(p rules.Position, m rules.Move) string {
	s := sanBody(p, m)
	if m.Kind != rules.Normal && m.Kind != rules.Checker && m.Kind != rules.Wizard {
		return s
	}
	if p.At(m.From).Letter() != pawnLetter || pawnLetterRequired(p.Variant()) {
		return s
	}
	d := disambiguation(p, m)
	if d == "" {
		return s
	}
	b := p.Variant().Board()
	from := b.SquareName(m.From)
	file := from[:1]
	if p.IsCapture(m) {
		if d == file {
			return s // "exf5": the file is written anyway
		}
		return from + s[1:] // "e6xf5" for "exf5"
	}
	if d == file && b.File(m.From) != b.File(m.To) {
		return file + s // "fg4": no other pawn of the f-file steps there
	}
	return from + s // "h4h3"
}

// literalCandidates returns the legal moves that s, read as written (case
// and all), describes; a text written as a capture describes captures
// only.
func literalCandidates(p rules.Position, s string) []rules.Move {
	n, _ := normalise(s)
	pats, _ := readings(p, n, nil)
	if len(pats) == 0 || !pats[0].literal {
		return nil
	}
	got := match(p, p.Legal(), pats[0])
	if pats[0].capture {
		got = slices.DeleteFunc(got, func(m rules.Move) bool { return !p.IsCapture(m) })
	}
	return got
}

func sanBody(p rules.Position, m rules.Move) string {
	b := p.Variant().Board()
	name := b.SquareName
	if m.Kind == rules.Castle {
		return castlingSAN(p.Variant(), m)
	}
	// A deployment is one item, its placements joined by commas
	// ("K@e1,G@d1"): docs/rules/toetotoe.md writes it with a space, which reads
	// as two items in a list of moves; both forms are read.
	if s, ok := placementForm(b, m, ",", func(c byte) string { return string(c) }); ok {
		return s
	}
	pc := p.At(m.From)
	letter := pc.Letter()
	capture := p.IsCapture(m)
	var sb strings.Builder
	if letter != pawnLetter || pawnLetterRequired(p.Variant()) {
		sb.WriteByte(letter)
		sb.WriteString(disambiguation(p, m))
	} else if capture {
		sb.WriteByte(byte('a' + b.File(m.From)))
	}
	if capture {
		sb.WriteByte('x')
	}
	sb.WriteString(name(m.To))
	if m.Promo != 0 {
		sb.WriteString("=" + string(m.Promo))
	}
	switch m.Kind {
	case rules.Checker:
		sb.WriteString(CheckerMark)
	case rules.Wizard:
		sb.WriteString(WizardMark)
	}
	return sb.String()
}

// disambiguation returns "", a file, a rank or a square: the least that
// tells m apart from other legal moves of a piece of the same letter to the
// same square (docs/rules/README.md#notation).
func disambiguation(p rules.Position, m rules.Move) string {
	b := p.Variant().Board()
	letter := p.At(m.From).Letter()
	var others []rules.Square
	for _, o := range p.Legal() {
		if o.Kind == m.Kind && o.To == m.To && o.From != m.From && o.Promo == m.Promo && p.At(o.From).Letter() == letter {
			others = append(others, o.From)
		}
	}
	if len(others) == 0 {
		return ""
	}
	sameFile, sameRank := false, false
	for _, o := range others {
		if b.File(o) == b.File(m.From) {
			sameFile = true
		}
		if b.Rank(o) == b.Rank(m.From) {
			sameRank = true
		}
	}
	switch {
	case !sameFile:
		return string(rune('a' + b.File(m.From)))
	case !sameRank:
		return b.SquareName(m.From)[1:]
	default:
		return b.SquareName(m.From)
	}
}

func orderedPair(b *rules.Board, x, y rules.Square) (rules.Square, rules.Square) {
	if b.File(y) < b.File(x) || (b.File(y) == b.File(x) && b.Rank(y) < b.Rank(x)) {
		return y, x
	}
	return x, y
}

// Coord writes m in the coordinate form (docs/rules/README.md#notation): e2e4, e7e8q, e1g1,
// N@b3, K@e1,G@d1, d1<>e1, e8=g, b2d4^, b2c3o, reroll, roll, pass.
func Coord(p rules.Position, m rules.Move) string {
	b := p.Variant().Board()
	name := b.SquareName
	if s, ok := placementForm(b, m, ",", func(c byte) string { return strings.ToLower(string(c)) }); ok {
		return s
	}
	s := name(m.From) + name(m.To)
	if m.Promo != 0 {
		s += strings.ToLower(string(m.Promo))
	}
	switch m.Kind {
	case rules.Checker:
		s += "^"
	case rules.Wizard:
		s += "o"
	}
	return s
}

// longForm writes m with its origin square: Ng1-f3, b3xc4, e7-e8=Q, Nb1-b3⌃.
func longForm(p rules.Position, m rules.Move) string {
	b := p.Variant().Board()
	var sb strings.Builder
	if l := p.At(m.From).Letter(); l != pawnLetter || pawnLetterRequired(p.Variant()) {
		sb.WriteByte(l)
	}
	sb.WriteString(b.SquareName(m.From))
	if p.IsCapture(m) {
		sb.WriteByte('x')
	} else {
		sb.WriteByte('-')
	}
	sb.WriteString(b.SquareName(m.To))
	if m.Promo != 0 {
		sb.WriteString("=" + string(m.Promo))
	}
	switch m.Kind {
	case rules.Checker:
		sb.WriteString(CheckerMark)
	case rules.Wizard:
		sb.WriteString(WizardMark)
	}
	return sb.String()
}

// placementForm writes the kinds whose canonical and coordinate forms
// differ only in the separator of a deployment's placements and the case of
// an in-place promotion letter: drops, deployments, swaps, in-place
// promotions and the Chec Toe commands. ok is false for other kinds.
func placementForm(b *rules.Board, m rules.Move, deploySep string, promo func(byte) string) (string, bool) {
	name := b.SquareName
	switch m.Kind {
	case rules.Drop:
		return string(m.Piece) + "@" + name(m.To), true
	case rules.Deploy:
		parts := make([]string, m.NPlace)
		for i := range int(m.NPlace) {
			parts[i] = string(m.Place[i].Piece) + "@" + name(m.Place[i].To)
		}
		return strings.Join(parts, deploySep), true
	case rules.Swap:
		a, c := orderedPair(b, m.From, m.To)
		return name(a) + "<>" + name(c), true
	case rules.PromoteInPlace:
		return name(m.From) + "=" + promo(m.Promo), true
	case rules.Reroll:
		return "reroll", true
	case rules.Roll:
		return "roll", true
	case rules.Pass:
		return "pass", true
	}
	return "", false
}
