package notation

import (
	"fmt"
	"strings"

	"referee/internal/lang"
	"referee/internal/rules"
)

// ICCF numeric notation (issue 42), the notation correspondence chess
// standardised: each square is two digits, its file (a = 1 ... h = 8) and
// its rank; a move is its origin and destination ("5254" for e2-e4), with
// a fifth digit for a promotion (1 queen, 2 rook, 3 bishop, 4 knight:
// "57581" for e8=Q), and castling as the king's move ("5171", "5838").
//
// It describes orthodox chess only: one digit per coordinate cannot name
// the ranks 9 to 14 of the wrapped boards (8 files by 14 ranks), nor
// Cuarenta's ninth file; and its promotion digits name the orthodox
// pieces, which Toe-to-Toe (8x8, but with generals, chariots, horses and
// elephants, promoting in place) does not promote to. A notation that
// reads some moves of a game and not others would fail a player in the
// middle of it, so elsewhere the digits are refused with a reason and the
// move in algebraic notation.

// iccfPromo are the pieces of the promotion digits 1 to 4.
const iccfPromo = "QRBN"

// iccfBoard reports whether ICCF numeric notation describes the variant:
// an 8x8 board with every square, the six orthodox pieces, no hands.
func iccfBoard(v rules.Variant) bool {
	b := v.Board()
	if b.Width() != 8 || b.Height() != 8 || len(b.Squares()) != 64 {
		return false
	}
	if h, ok := v.(rules.VariantHands); ok && h.HasHands() {
		return false
	}
	ls := pieceLetters(v)
	if len(ls) != 6 {
		return false
	}
	for _, c := range ls {
		if !isOrthodox(v, c) {
			return false
		}
	}
	return true
}

// iccfReading reads the digits s (four or five) as ICCF numeric notation,
// or says why it cannot.
func iccfReading(p rules.Position, s string) ([]pattern, lang.Text) {
	v := p.Variant()
	b := v.Board()
	if !iccfBoard(v) {
		return nil, iccfElsewhere(p, s)
	}
	for i := 0; i < 4; i += 2 {
		if f, r := s[i], s[i+1]; f < '1' || f > '8' || r < '1' || r > '8' {
			return nil, lang.M("reads as ICCF numeric notation, but %s names no square: a square is two digits, its file (1 for a ... 8 for h) and its rank (1 to 8), e.g. \"5254\" for e2-e4", s[i:i+2])
		}
	}
	pt := pattern{kind: rules.Normal, fromFile: int(s[0] - '1'), fromRank: int(s[1] - '1'), to: b.Sq(int(s[2]-'1'), int(s[3]-'1')), iccf: true}
	if len(s) == 5 {
		if s[4] < '1' || s[4] > '4' {
			return nil, lang.M("reads as ICCF numeric notation, but its fifth digit, %c, names no piece to promote to: 1 queen, 2 rook, 3 bishop, 4 knight (e.g. \"57581\" for e7-e8=Q)", s[4])
		}
		pt.promo = iccfPromo[s[4]-'1']
	}
	pt.notes = []note{{text: lang.M("%s is ICCF numeric notation for %s", s, iccfLong(b, pt))}}
	return []pattern{pt}, nil
}

// iccfLong writes what an ICCF pattern says in the long algebraic form:
// "e2-e4", "e7-e8=Q".
func iccfLong(b *rules.Board, pt pattern) string {
	s := b.SquareName(b.Sq(pt.fromFile, pt.fromRank)) + "-" + b.SquareName(pt.to)
	if pt.promo != 0 {
		s += "=" + string(pt.promo)
	}
	return s
}

// iccfDigits writes the move m (with an origin) in ICCF numeric notation.
func iccfDigits(b *rules.Board, m rules.Move) string {
	s := fmt.Sprintf("%d%d%d%d", b.File(m.From)+1, b.Rank(m.From)+1, b.File(m.To)+1, b.Rank(m.To)+1)
	if i := strings.IndexByte(iccfPromo, m.Promo); m.Promo != 0 && i >= 0 {
		s += fmt.Sprint(i + 1)
	}
	return s
}

// iccfRefusal is the refusal of an ICCF reading that the coordinate form
// would word otherwise: a promotion without its digit (the choices, in
// digits), a promotion digit on a move that is none. got are the legal
// moves the reading found. It is nil when the coordinate form's reasons
// apply as they are.
func iccfRefusal(p rules.Position, in string, pt pattern, got []rules.Move) error {
	b := p.Variant().Board()
	if len(got) > 1 {
		cands := make([]string, len(got))
		for i, m := range got {
			cands[i] = iccfDigits(b, m)
		}
		why := lang.M("the pawn promotes there, and ICCF numeric notation says to what with a fifth digit: 1 queen, 2 rook, 3 bishop, 4 knight")
		return &Error{Input: in, Reason: rules.English(why), Candidates: cands, Kind: Ambiguous, Why: why, said: why}
	}
	if len(got) == 0 && pt.promo != 0 {
		plain := pt
		plain.promo = 0
		if ms := match(p, p.Legal(), plain); len(ms) == 1 && ms[0].Promo == 0 {
			return notPlayed(in, lang.M("%s is no promotion, so it has no fifth digit: write %q.", moveText{p, ms[0]}, iccfDigits(b, ms[0])))
		}
	}
	return nil
}

// iccfElsewhere says why digits are not read in a variant that ICCF
// numeric notation does not describe, with the move they would name in
// algebraic notation when the board has those squares and the move is
// legal.
func iccfElsewhere(p rules.Position, s string) lang.Text {
	v := p.Variant()
	b := v.Board()
	from, ok1 := b.ParseSquare(string(rune('a'+s[0]-'1')) + s[1:2])
	to, ok2 := b.ParseSquare(string(rune('a'+s[2]-'1')) + s[3:4])
	if s[0] >= '1' && s[2] >= '1' && ok1 && ok2 {
		if ms := match(p, p.Legal(), pattern{kind: rules.Normal, fromFile: b.File(from), fromRank: b.Rank(from), to: to}); len(ms) == 1 {
			return lang.M("looks like ICCF numeric notation, which the referee reads only in orthodox chess (its 8x8 board and its pieces); in %s write the move in algebraic notation: %s-%s is %q",
				rules.TitleText(v), b.SquareName(from), b.SquareName(to), moveText{p, ms[0]})
		}
	}
	return lang.M("looks like ICCF numeric notation, which the referee reads only in orthodox chess (its 8x8 board and its pieces); in %s write the move in algebraic notation, e.g. %q",
		rules.TitleText(v), example(p))
}
