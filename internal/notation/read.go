package notation

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"referee/internal/lang"
	"referee/internal/rules"
)

// Reading is what a player's action line was read as.
type Reading struct {
	Move rules.Move
	// OfferDraw is set when the line also offered a draw: "Nc3 draw",
	// "Nc3, and I offer a draw", "Nc3 (draw?)".
	OfferDraw bool
	// Read is the move as read, in canonical SAN, for the reply: read as "Nc3".
	Read string
	// Notes say how ReadFor read what Read would not: a letter of another
	// language ("S is the knight (Springer) in German"), ICCF numeric
	// notation ("5254 is ICCF numeric notation for e2-e4"). The reply
	// shows them with Read, so that no reading passes unnoticed.
	Notes []string
	// NoteTexts are the Notes in the reader's language, in that order.
	NoteTexts []lang.Text
	// Languages are the codes of the languages in whose letters the line
	// is written, where ReadFor read letters no English piece uses ("Sf3":
	// de and pl; "Sxe8=D": de): a hint of the player's language. Nil when
	// the line has none of them.
	Languages []string
}

// Read reads one action line: a move in any form Parse reads, optionally
// with a move number before it ("12. Nf3", "1... e5", "...e5"; the number
// must be the game's and "..." Black's) and a draw offer after it (see
// drawPhrases). Figurines (♘, ♞, ...) stand for the letters of the pieces
// the variant has, and a piece letter may stand apart from its square
// ("N c3"). Every character of the line is used or the line is refused: an
// *Error quotes what was read and what was not understood, and says what
// to send instead.
//
// Read reads the variant's own piece letters, as records and tools write
// them, and ICCF numeric notation in orthodox chess; ReadFor reads a
// player's line, in their language.
func Read(pos rules.Position, line string) (Reading, error) {
	return read(pos, line, nil)
}

// ReadFor reads one action line of a player as Read does, and also the
// piece letters of other languages (letters.go,
// docs/rules/README.md#piece-letters-in-other-languages): those of the
// player's language (o.Language), where it gives a letter of English
// another piece (R is the king in French, P the knight in Dutch); and,
// whatever the language, the letters no English piece uses ("Sf3", "Lb5",
// "Dd1", "Tfe1", "Cf3", "Кf3") as the one piece they mean in every
// language that writes them. A variant's own letters keep their meaning
// (Cuarenta's C, F, G, V; Toto40's H; Toe-to-Toe's G, E, and R and N,
// which are a chariot and a horse there): another language's letter is
// read only for a piece the variant has under its orthodox name. The
// Reading's Notes say what was read so.
func ReadFor(pos rules.Position, line string, o Options) (Reading, error) {
	return read(pos, line, newLetters(o))
}

func read(pos rules.Position, line string, lt *letters) (Reading, error) {
	in := strings.TrimSpace(line)
	s, err := figurines(pos, in, in)
	if err != nil {
		return Reading{}, err
	}
	if s != in && lt != nil && lt.lang != nil && lt.lang.Code != "en" {
		// A figurine shows its piece: its English letter is not the
		// player's language's (♖, R, is no French king).
		lt = newLetters(Options{})
	}
	s = foldChars(s)
	num, black, s := moveNumber(s)
	rest, offer := drawOffer(s)
	m, notes, whole, moveErr := readMove(pos, in, rest, lt)
	if offer && !whole {
		// "Nc3 want a draw?": the offer is part of what was not understood.
		m, notes, _, moveErr = readMove(pos, in, s, lt)
	}
	s = rest
	if err := checkNumber(pos, in, num, black, s, moveErr == nil, m); err != nil {
		return Reading{}, err
	}
	if moveErr != nil {
		return Reading{}, moveErr
	}
	return Reading{Move: m, OfferDraw: offer, Read: SAN(pos, m), Notes: texts(notes), NoteTexts: textsOf(notes), Languages: commonLanguages(notes)}, nil
}

var (
	// "12. Nf3", "1.e4", "1... e5", "1…e5" (U+2026, as phones write "...").
	moveNumberRE = regexp.MustCompile(`^([0-9]{1,4})\s*(\.+|…)\s*`)
	// "...e5", "… e5": Black's move without its number.
	blackDotsRE = regexp.MustCompile(`^(\.{2,}|…)\s*`)
)

// moveNumber takes a move number off s: num is -1 when there is none;
// black is set by "..." (two or more dots, or "…"). A number with nothing
// after it is not taken off.
func moveNumber(s string) (num int, black bool, rest string) {
	if m := moveNumberRE.FindStringSubmatch(s); m != nil && len(m[0]) < len(s) { // "666." is Chec Toe's roll
		n, _ := strconv.Atoi(m[1])
		return n, m[2] != ".", s[len(m[0]):]
	}
	if m := blackDotsRE.FindString(s); m != "" && len(m) < len(s) {
		return -1, true, s[len(m):]
	}
	return -1, false, s
}

// checkNumber refuses a move number that is not the game's, and "..."
// when White is to move. rest is the move as written, ok and m its reading.
func checkNumber(pos rules.Position, in string, num int, black bool, rest string, ok bool, m rules.Move) error {
	if num < 0 && !black {
		return nil
	}
	move := lang.Text(lang.Raw(strings.TrimSpace(rest)))
	if ok {
		move = moveText{pos, m}
	}
	want := pos.MoveNumber()
	dots := ". "
	if pos.Turn() == rules.Black {
		dots = "... "
	}
	if num >= 0 && num != want {
		if pos.Turn() == rules.Black {
			return notPlayed(in, lang.M("it is numbered %d, but the game is at move %d (Black to play). Send the move without a number, e.g. %q, or with this move's number, %q.",
				num, want, move, lang.Join("", lang.Raw(strconv.Itoa(want)+dots), move)))
		}
		return notPlayed(in, lang.M("it is numbered %d, but the game is at move %d (White to play). Send the move without a number, e.g. %q, or with this move's number, %q.",
			num, want, move, lang.Join("", lang.Raw(strconv.Itoa(want)+dots), move)))
	}
	if black && pos.Turn() != rules.Black {
		return notPlayed(in, lang.M("\"...\" marks a move of Black, but it is White's turn. Send the move without the dots, e.g. %q.", move))
	}
	return nil
}

// drawPhrases are the words that offer a draw after a move, each
// optionally preceded by "and" and separated from the move by a space,
// comma or semicolon ("Nc3 draw", "Nc3, and I offer a draw"), or put in
// brackets ("Nc3 (draw?)", "Nc3 (draw offered)", and the correspondence
// sign "(=)"); a closing "?", "." or "!" belongs to the phrase.
const drawPhrases = `(?:(?:i\s+)?offer\s+(?:you\s+)?(?:a\s+)?draw|draw\s+offer(?:ed)?|draw)`

var (
	drawRE      = regexp.MustCompile(`(?i)^(.*?\S)(?:\s*[,;]\s*|\s+)(?:and\s+)?` + drawPhrases + `\s*\??\s*[.!]*$`)
	drawParenRE = regexp.MustCompile(`(?i)^(.*?\S)\s*\(\s*(?:(?:and\s+)?` + drawPhrases + `\s*\??|=)\s*\)\s*[.!]*$`)
)

// drawOffer takes a draw offer off the end of s.
func drawOffer(s string) (rest string, offer bool) {
	for _, re := range []*regexp.Regexp{drawParenRE, drawRE} {
		if m := re.FindStringSubmatch(s); m != nil {
			return m[1], true
		}
	}
	return s, false
}

// figurine is a chess figurine and the letter and name it stands for.
type figurine struct {
	letter byte
	name   string
}

var figurineLetters = map[rune]figurine{
	'♔': {'K', "king"}, '♕': {'Q', "queen"}, '♖': {'R', "rook"}, '♗': {'B', "bishop"}, '♘': {'N', "knight"}, '♙': {'P', "pawn"},
	'♚': {'K', "king"}, '♛': {'Q', "queen"}, '♜': {'R', "rook"}, '♝': {'B', "bishop"}, '♞': {'N', "knight"}, '♟': {'P', "pawn"},
}

// figurines replaces each figurine in s by its letter, when the variant
// has that piece; otherwise it is an error naming the variant's pieces.
func figurines(p rules.Position, in, s string) (string, error) {
	if !strings.ContainsAny(s, "♔♕♖♗♘♙♚♛♜♝♞♟") {
		return s, nil
	}
	var b strings.Builder
	for _, r := range s {
		f, ok := figurineLetters[r]
		if !ok {
			b.WriteRune(r)
			continue
		}
		if !knownLetter(p, f.letter) {
			return "", notPlayed(in, unknownPiece(p, lang.M("%s, which the figurine %c stands for", rules.PieceWord(f.name), r), nil))
		}
		b.WriteByte(f.letter)
	}
	return b.String(), nil
}

// readMove reads s (figurines replaced) as a move; when s does not read
// as a whole, it looks for the part that does and quotes the rest.
// whole is false when s did not read as a move as a whole.
func readMove(p rules.Position, in, s string, lt *letters) (m rules.Move, notes []note, whole bool, err error) {
	t, ep := normalise(s)
	m, notes, readable, err := parseText(p, in, t, ep, lt)
	if err == nil || readable {
		return m, notes, true, err
	}
	if sp, ok := splitReadable(p, t, lt); ok {
		return rules.Move{}, nil, false, leftover(p, in, sp, lt)
	}
	return rules.Move{}, nil, false, err
}

// Limits of the search for the readable part of a line: longer lines are
// refused as a whole.
const (
	maxSplitTokens = 16
	maxSplitChars  = 40
)

// split is a line cut into the part read as a move and the rest.
type split struct {
	read, before, after string
}

// splitReadable finds the longest run of words at the start (or else at
// the end) of s that reads as a move, or else the longest readable piece
// of s cut anywhere ("Nf3)", "(Nf3)").
func splitReadable(p rules.Position, s string, lt *letters) (split, bool) {
	reads := func(x string) bool {
		n, _ := normalise(x)
		return n != "" && looksLikeMove(p, n, lt)
	}
	if toks := strings.Fields(s); len(toks) > 1 && len(toks) <= maxSplitTokens {
		for k := len(toks) - 1; k >= 1; k-- {
			if pre := strings.Join(toks[:k], " "); reads(pre) {
				return split{read: pre, after: strings.Join(toks[k:], " ")}, true
			}
		}
		for k := 1; k < len(toks); k++ {
			if suf := strings.Join(toks[k:], " "); reads(suf) {
				return split{read: suf, before: strings.Join(toks[:k], " ")}, true
			}
		}
	}
	if len(s) > maxSplitChars {
		return split{}, false
	}
	for n := len(s) - 1; n >= 2; n-- {
		for i := 0; i+n <= len(s); i++ {
			j := i + n
			if !utf8.RuneStart(s[i]) || j < len(s) && !utf8.RuneStart(s[j]) {
				continue
			}
			if allDigits(s[i:j]) && (isDigit(s, i-1) || isDigit(s, j)) {
				continue // a number cut out of a longer one ("52541" of "525412") is none a player wrote
			}
			if mid := strings.TrimSpace(s[i:j]); reads(mid) {
				return split{read: mid, before: strings.TrimSpace(s[:i]), after: strings.TrimSpace(s[j:])}, true
			}
		}
	}
	return split{}, false
}

// allDigits reports whether s is digits only.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// isDigit reports whether s has a digit at i.
func isDigit(s string, i int) bool {
	return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9'
}

// leftover is the error for a line with more than a move on it.
func leftover(p rules.Position, in string, sp split, lt *letters) error {
	var why []lang.Text
	switch {
	case sp.before != "" && sp.after != "":
		why = append(why, lang.M("the referee read %q as a move but did not understand %q before it and %q after it.", sp.read, sp.before, sp.after))
	case sp.before != "":
		why = append(why, lang.M("the referee read %q as a move but did not understand %q before it.", sp.read, sp.before))
	default:
		why = append(why, lang.M("the referee read %q as a move but did not understand %q after it.", sp.read, sp.after))
	}
	n, ep := normalise(sp.read)
	m, _, _, err := parseText(p, sp.read, n, ep, lt)
	if err == nil {
		san := moveText{p, m}
		why = append(why, lang.M("Send the move alone on the first line, e.g. %q, and anything else on the lines below it (they are passed on to your opponent).", san))
		if strings.Contains(strings.ToLower(sp.before+" "+sp.after), "draw") {
			why = append(why, lang.M("To offer a draw with your move, write %q.", lang.Join("", san, lang.Raw(" draw"))))
		}
		return notPlayed(in, lang.Join(" ", why...))
	}
	why = append(why, lang.M("Send only your move on the first line, and anything else on the lines below it (they are passed on to your opponent)."))
	var ne *Error
	switch {
	case errors.As(err, &ne) && ne.Kind == NotPlayed:
		why = append(why, lang.M("And %q on its own would not be played: %s", sp.read, ne.Why))
	case errors.As(err, &ne):
		why = append(why, lang.M("And %s", ne.Text()))
	default:
		why = append(why, lang.Raw("And "+err.Error()))
	}
	return notPlayed(in, lang.Join(" ", why...))
}

// pieceLetters lists the variant's piece letters, pawn included.
func pieceLetters(v rules.Variant) []byte {
	if l, ok := v.(rules.VariantPieces); ok {
		return l.PieceLetters()
	}
	return nil
}

// unknownPiece says that the variant has no such piece (what: "piece with
// the letter C"), lists its pieces' letters and gives an example.
func unknownPiece(p rules.Position, what lang.Text, eg lang.Text) lang.Text {
	v := p.Variant()
	var ls []string
	for _, c := range pieceLetters(v) {
		if c == pawnLetter && !pawnLetterRequired(v) {
			continue
		}
		ls = append(ls, string(c))
	}
	pieces := []lang.Text{lang.Raw(strings.Join(ls, " "))}
	if !pawnLetterRequired(v) {
		pieces = append(pieces, lang.M("; pawn moves are written without a letter"))
	}
	if eg == nil && !pawnLetterRequired(v) {
		eg = exampleOf(p, rules.Normal)
	}
	if eg != nil {
		pieces = append(pieces, lang.M(", e.g. %q", eg))
	}
	return lang.M("%s has no %s (pieces: %s).", rules.TitleText(v), what, lang.Join("", pieces...))
}

// foldExample is the legal move s means when read in lower case ("Cc3":
// c3), or an example of a pawn move.
func foldExample(p rules.Position, s string, lt *letters) lang.Text {
	if pats, _ := readings(p, strings.ToLower(s), lt); len(pats) > 0 {
		if got := match(p, p.Legal(), pats[0]); len(got) == 1 {
			return moveText{p, got[0]}
		}
	}
	return exampleOf(p, rules.Normal)
}

// exampleOf is a legal move of the given kind for error messages (for
// Normal, a pawn move where pawns are written without a letter), or nil.
func exampleOf(p rules.Position, kind rules.MoveKind) lang.Text {
	for _, m := range p.Legal() {
		if m.Kind != kind {
			continue
		}
		if kind == rules.Normal && !pawnLetterRequired(p.Variant()) && p.At(m.From).Letter() != pawnLetter {
			continue
		}
		return moveText{p, m}
	}
	return nil
}
