package notation

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"referee/internal/lang"
	"referee/internal/rules"
)

// Error says why a move was not read or not played: what was read, what is
// wrong, and (for ambiguity) the candidate moves in canonical notation.
//
// Reason is in English, after the input quoted (Error): for logs, errors
// and callers that want English. Why is the same reason for a reader of
// any language (issue 42), as Kind says; Reason is its English.
type Error struct {
	Input      string
	Reason     string
	Candidates []string
	// Kind says what Why is; Why is nil for an Error made without one.
	Kind ErrorKind
	Why  lang.Text
	// said is Reason as a text.
	said lang.Text
}

// ErrorKind says how an Error's Why reads.
type ErrorKind int

const (
	// Untold: there is no Why, only Reason (an Error made elsewhere).
	Untold ErrorKind = iota
	// NotPlayed: the text read as a move that cannot be played now. Why
	// is the reason, a clause that follows "was not played:" ("there is
	// no piece on e3."); Reason is "was not played: " and its English.
	NotPlayed
	// Unread: the text was not read as a move. Why says what is wrong
	// with it, a phrase of which the text is the subject ("is not a move
	// the referee can read: ..."); Reason is its English.
	Unread
	// Ambiguous: several legal moves fit (Candidates). Why says what more
	// the reader found (how a letter was read both ways, what the digits
	// lack), or is nil.
	Ambiguous
)

// notPlayed is the Error of a text that reads as a move that cannot be
// played now: why, a clause.
func notPlayed(in string, why lang.Text) *Error {
	t := lang.M("was not played: %s", why)
	return &Error{Input: in, Reason: rules.English(t), Kind: NotPlayed, Why: why, said: t}
}

// unread is the Error of a text not read as a move: what, a phrase of
// which the text is the subject.
func unread(in string, what lang.Text) *Error {
	return &Error{Input: in, Reason: rules.English(what), Kind: Unread, Why: what, said: what}
}

// ambiguous is the Error of a text that several legal moves fit: cands,
// written as the player may send them; why says more, or is nil.
func ambiguous(in string, why lang.Text, cands []string) *Error {
	t := lang.M("more than one legal move fits")
	if why != nil {
		t = lang.M("more than one legal move fits: %s", why)
	}
	return &Error{Input: in, Reason: rules.English(t), Candidates: cands, Kind: Ambiguous, Why: why, said: t}
}

// withNotes is e with the notes of its reading at the end of its reason
// (notesSuffix).
func (e *Error) withNotes(notes []note) *Error {
	e2 := *e
	suffix := notesSuffix(notes)
	e2.Reason += rules.English(suffix)
	if e2.Why != nil {
		e2.Why = lang.Join("", e2.Why, suffix)
		e2.said = lang.Join("", e2.said, suffix)
	}
	return &e2
}

func (e *Error) Error() string {
	if len(e.Candidates) > 0 {
		quoted := make([]string, len(e.Candidates))
		for i, c := range e.Candidates {
			quoted[i] = fmt.Sprintf("%q", c)
		}
		return fmt.Sprintf("%q is ambiguous: %s (%s). Reply with one of %s", e.Input, e.Reason,
			strings.Join(e.Candidates, ", "), strings.Join(quoted, " or "))
	}
	return fmt.Sprintf("%q %s", e.Input, e.Reason)
}

// Text is Error for a reader of any language: the input quoted and the
// reason (Why); Error's English where there is no Why.
func (e *Error) Text() lang.Text {
	switch {
	case e.said == nil:
		return lang.Raw(e.Error())
	case len(e.Candidates) > 0:
		quoted := make([]lang.Text, len(e.Candidates))
		for i, c := range e.Candidates {
			quoted[i] = lang.Raw(fmt.Sprintf("%q", c))
		}
		return lang.M("%q is ambiguous: %s (%s). Reply with one of %s", e.Input, e.said,
			strings.Join(e.Candidates, ", "), rules.OrEach(quoted...))
	case e.Kind == NotPlayed:
		return lang.M("%q was not played: %s", e.Input, e.Why)
	}
	return lang.M("%q %s", e.Input, e.said)
}

// pattern is what a piece of text says about a move; zero fields are open.
type pattern struct {
	kind     rules.MoveKind // Normal covers Castle given as a king move, Checker and Wizard
	piece    byte           // piece letter, 0 = any (pawn if the origin is not complete)
	fromFile int            // -1 open
	fromRank int            // -1 open
	to       rules.Square
	toPiece  byte // Chec Toe "NxB": the captured piece's letter instead of a square
	promo    byte
	special  rules.MoveKind // Checker or Wizard when a suffix says so, else Normal
	places   []rules.Placement
	from2    rules.Square // swaps
	// capture marks a text that says the move captures ("x" or ":").
	capture bool
	// literal marks the reading of the text as written; pieceOrFile marks
	// the reading of a lower-case first letter as a piece.
	literal     bool
	pieceOrFile bool
	// notes say how letters of another language, or ICCF digits, were
	// read ("S is the knight (Springer) in German").
	notes []note
	// iccf marks a reading of ICCF numeric notation ("5254").
	iccf bool
}

// The SAN, long and coordinate forms: piece, origin file, origin rank,
// capture mark or dash, destination (or, after a capture mark, the captured
// piece's letter), promotion in one of its four forms, Chec Toe suffix.
// Every character must belong to one of these parts.
const (
	sanHead  = `^(?P<piece>[A-Z])?(?P<file>[a-w])?(?P<rank>[0-9]{1,2})?(?P<sep>[-x:])?(?P<to>[a-z][0-9]{1,2}|[A-Z])`
	sanPromo = `(?:=(?P<p1>[A-Za-z])|/(?P<p2>[A-Za-z])|\((?P<p3>[A-Za-z])\)|(?P<p4>[A-Za-z]))?`
	sanTail  = `(?P<suffix>\^|⌃|o|\*|°|º|˚|⌄|v|@)?$`
)

// The same forms for ReadFor, with the piece letters of other languages
// (letters.go): the Cyrillic ones, and the king's two letters (Кр, Kp).
const (
	foreignPiece = `(?P<piece>[KКк][pPрР]|[A-Z]|[КкФфЛлСс])`
	foreignPromo = `[A-Za-zКкФфЛлСс]`
	sanHeadF     = `^` + foreignPiece + `?(?P<file>[a-w])?(?P<rank>[0-9]{1,2})?(?P<sep>[-x:])?(?P<to>[a-z][0-9]{1,2}|[A-Z])`
	sanPromoF    = `(?:=(?P<p1>` + foreignPromo + `)|/(?P<p2>` + foreignPromo + `)|\((?P<p3>` + foreignPromo + `)\)|(?P<p4>` + foreignPromo + `))?`
)

var (
	sanRE = regexp.MustCompile(sanHead + sanPromo + sanTail)
	// Chec Toe has no promotion: a trailing o, *, v, ^ is a suffix.
	checToeRE = regexp.MustCompile(sanHead + sanTail)
	// The same with other languages' letters (ReadFor).
	sanREF     = regexp.MustCompile(sanHeadF + sanPromoF + sanTail)
	checToeREF = regexp.MustCompile(sanHeadF + sanTail)
	// ICCF numeric notation: from and to, two digits each, and a
	// promotion digit ("5254", "57581").
	iccfRE = regexp.MustCompile(`^[0-9]{4,5}$`)
	dropRE = regexp.MustCompile(`^([A-Za-z])@([a-z][0-9]{1,2})$`)
	// Chec Toe's seed notation: Nb3⌄ (or v) is a drop.
	dropSuffixRE = regexp.MustCompile(`^([A-Z])([a-z][0-9]{1,2})(⌄|v)$`)
	swapRE       = regexp.MustCompile(`^([a-z][0-9]{1,2})\s*(?:<>|<->|↔)\s*([a-z][0-9]{1,2})$`)
	swapWordRE   = regexp.MustCompile(`^swap\s+([a-z][0-9]{1,2})[\s,]+([a-z][0-9]{1,2})$`)
	placeRE      = regexp.MustCompile(`^([A-Za-z])@?([a-z][0-9]{1,2})$`)
	castleRE     = regexp.MustCompile(`^(O-O(-O)?)$`)
	// An en passant mark after the destination: "exd6 e.p.", "exd6ep".
	epRE = regexp.MustCompile(`(?i)^(.*[0-9])\s*(?:e\.\s?p|ep)$`)
	// A piece letter written apart from its square: "N c3", "N g1-f3".
	// Also before a rank that tells two pieces apart ("R 5a6", "r 5a6").
	spacedLetterRE = regexp.MustCompile(`(^|[\s,;])([A-Z]|[КкФфЛлСс]|[КкK][рР])\s+([x:]?[a-w][0-9]|[a-w][x:]|[a-w][a-w][0-9]|[0-9]{1,2}[-x:]?[a-w][0-9])`)
	spacedLowerRE  = regexp.MustCompile(`(^|[\s,;])([a-z])\s+([0-9]{1,2}[-x:]?[a-w][0-9])`)
)

// foldChars folds the many characters people and clients use for the same
// thing: dashes, the multiplication sign, castling with zeros or small o,
// non-breaking spaces.
func foldChars(s string) string {
	return strings.TrimSpace(charFolder.Replace(s))
}

// charFolder is read only (a Replacer is safe for concurrent use).
var charFolder = strings.NewReplacer("×", "x", "–", "-", "—", "-", "‐", "-", "−", "-", "0-0-0", "O-O-O", "0-0", "O-O",
	"o-o-o", "O-O-O", "o-o", "O-O", "\u00a0", " ")

// normalise folds s (see foldChars), drops the marks that carry no meaning
// for the referee (+ # ! ? and a closing full stop or comma), joins a piece
// letter written apart from its square, and takes off an en passant mark,
// reporting it in ep.
func normalise(s string) (out string, ep bool) {
	s = foldChars(s)
	s = strings.TrimRight(s, "!?+#.,; ")
	if m := epRE.FindStringSubmatch(s); m != nil {
		s, ep = m[1], true
		s = strings.TrimRight(s, "!?+#.,; ")
	}
	s = spacedLetterRE.ReplaceAllString(s, "$1$2$3")
	s = spacedLowerRE.ReplaceAllString(s, "$1$2$3")
	return strings.TrimSpace(s), ep
}

// Parse reads text as an action of the side to act in p. It accepts every
// form of docs/rules/README.md#notation and fails with an *Error saying why. Unlike Read it
// takes no move number and no draw offer: text is the move alone.
func Parse(p rules.Position, text string) (rules.Move, error) {
	in := strings.TrimSpace(text)
	s, err := figurines(p, in, in)
	if err != nil {
		return rules.Move{}, err
	}
	m, _, _, err := readMove(p, in, s, nil)
	return m, err
}

// parseText reads the normalised text s (in is what the player wrote, for
// errors). readable is false when s does not even look like a move, a
// castling or a command: then the caller may look for the part that does.
//
// lt reads other languages' letters (nil: the variant's own only); notes
// say how the move was read where a letter of another language or ICCF
// digits were read, and end the reason of a refusal.
func parseText(p rules.Position, in, s string, ep bool, lt *letters) (m rules.Move, notes []note, readable bool, err error) {
	m, notes, readable, err = parseText1(p, in, s, ep, lt)
	if err == nil || len(notes) == 0 {
		return m, notes, readable, err
	}
	if e, ok := err.(*Error); ok && len(e.Candidates) == 0 {
		err = e.withNotes(notes)
	}
	return m, notes, readable, err
}

func parseText1(p rules.Position, in, s string, ep bool, lt *letters) (m rules.Move, notes []note, readable bool, err error) {
	legal := p.Legal()
	if s == "" {
		return rules.Move{}, nil, true, unread(in, lang.M("is empty: write a move such as %s", example(p)))
	}
	if len(legal) == 0 {
		if r, ok := p.(rules.Roller); ok && r.NeedsRoll() {
			return rules.Move{}, nil, true, unread(in, lang.M("cannot be played yet: the referee must roll the die first"))
		}
		return rules.Move{}, nil, true, unread(in, lang.M("cannot be played: there are no legal moves (the game is over)"))
	}
	if ep {
		defer func() {
			if err == nil && !isEnPassant(p, m) {
				err = notPlayed(in, lang.M("%s is not an en passant capture, yet it is marked e.p. Reply %q if that is your move.", moveText{p, m}, moveText{p, m}))
				m = rules.Move{}
			}
		}()
	}
	if kind, ok := commandKind(s); ok {
		if why := whyNot(p, rules.Move{Kind: kind, From: rules.NoSquare, To: rules.NoSquare}); why != nil {
			return rules.Move{}, nil, true, notPlayed(in, why)
		}
		switch kind {
		case rules.Reroll:
			m, err = pick(p, in, legal, func(m rules.Move) bool { return m.Kind == rules.Reroll }, lang.M("a re-roll is not allowed now (only once a turn, and only to replace the turn's first roll of 1 to 5)"))
		case rules.Roll:
			m, err = pick(p, in, legal, func(m rules.Move) bool { return m.Kind == rules.Roll }, lang.M("the apocalypse roll is allowed only right after a double six"))
		default:
			m, err = pick(p, in, legal, func(m rules.Move) bool { return m.Kind == rules.Pass }, lang.M("passing is not allowed now"))
		}
		return m, nil, true, err
	}
	if c := castleRE.FindStringSubmatch(strings.ToUpper(s)); c != nil {
		why := lang.M("castling is not allowed now")
		if ex, ok := p.(rules.CastleExplain); ok {
			if w := whyNoCastle(ex, c[1]); w != nil {
				why = lang.M("castling is not allowed now: %s", w)
			}
		} else {
			why = lang.M("there is no castling in %s", rules.TitleText(p.Variant()))
		}
		m, err = pick(p, in, legal, func(mv rules.Move) bool {
			return mv.Kind == rules.Castle && castlingSAN(p.Variant(), mv) == c[1]
		}, why)
		return m, nil, true, err
	}
	got, pats, perr := candidates(p, s, legal, lt)
	if len(pats) == 0 {
		if perr != nil {
			return rules.Move{}, nil, true, unread(in, perr)
		}
		return rules.Move{}, nil, false, unread(in, lang.M("is not a move the referee can read: write it like %s (or \"moves\" for the list)", example(p)))
	}
	notes = pats[0].notes
	for _, pt := range pats {
		if len(got) == 1 && contains(match(p, legal, pt), got[0]) {
			notes = pt.notes
			break
		}
	}
	if pats[0].iccf {
		if err := iccfRefusal(p, in, pats[0], got); err != nil {
			return rules.Move{}, notes, true, err
		}
	}
	switch len(got) {
	case 1:
		if claimsCapture(p, legal, pats, got[0]) && !p.IsCapture(got[0]) {
			san := moveText{p, got[0]}
			return rules.Move{}, nil, true, notPlayed(in, lang.M("it is written as a capture, but %s captures nothing (%s). Reply %q if that is your move.",
				san, emptyOrOwn(p, got[0]), san))
		}
		return got[0], notes, true, nil
	case 0:
		return rules.Move{}, notes, true, explain(p, in, s, pats[0], lt)
	}
	cands := make([]string, len(got))
	for i, m := range got {
		cands[i] = sanFor(p, m, lt)
	}
	sort.Strings(cands)
	var why []note
	for _, pt := range pats {
		for _, m := range got {
			if contains(match(p, legal, pt), m) {
				for _, n := range pt.notes {
					why = addNote(why, n)
				}
			}
		}
	}
	var more lang.Text
	if len(why) > 0 {
		more = andEach(textsOf(why))
	}
	return rules.Move{}, notes, true, ambiguous(in, more, cands)
}

// commandKind recognises the Chec Toe commands (docs/rules/README.md#notation).
func commandKind(s string) (rules.MoveKind, bool) {
	switch strings.ToLower(s) {
	case "reroll", "re-roll":
		return rules.Reroll, true
	case "roll", "apocalypse", "666":
		return rules.Roll, true
	case "pass", "-", "--":
		return rules.Pass, true
	}
	return 0, false
}

// looksLikeMove reports whether s (normalised) reads as a move, a castling
// or a command in p, legal or not.
func looksLikeMove(p rules.Position, s string, lt *letters) bool {
	if _, ok := commandKind(s); ok || castleRE.MatchString(strings.ToUpper(s)) {
		return true
	}
	pats, perr := readings(p, s, lt)
	if len(pats) == 0 && iccfRE.MatchString(s) {
		return false // a number that names no move ("2027"): not taken for one in a sentence
	}
	return len(pats) > 0 || perr != nil
}

// claimsCapture reports whether every reading of the text that gives m
// says it captures.
func claimsCapture(p rules.Position, legal []rules.Move, pats []pattern, m rules.Move) bool {
	claimed := false
	for _, pt := range pats {
		if !contains(match(p, legal, pt), m) {
			continue
		}
		if !pt.capture {
			return false
		}
		claimed = true
	}
	return claimed
}

// emptyOrOwn says why a move written as a capture captures nothing.
func emptyOrOwn(p rules.Position, m rules.Move) lang.Text {
	if m.Kind == rules.Checker {
		return lang.M("a Checker leap never captures")
	}
	return lang.M("%s is empty", p.Variant().Board().SquareName(m.To))
}

// isEnPassant reports whether m is a capture onto an empty square.
func isEnPassant(p rules.Position, m rules.Move) bool {
	return m.Kind == rules.Normal && p.IsCapture(m) && p.At(m.To) == rules.NoPiece
}

func contains(ms []rules.Move, m rules.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func pick(p rules.Position, in string, legal []rules.Move, ok func(rules.Move) bool, why lang.Text) (rules.Move, error) {
	var got []rules.Move
	for _, m := range legal {
		if ok(m) {
			got = append(got, m)
		}
	}
	if len(got) == 1 {
		return got[0], nil
	}
	if len(got) == 0 {
		return rules.Move{}, notPlayed(in, lang.Join("", why, lang.Raw(".")))
	}
	cands := make([]string, len(got))
	for i, m := range got {
		cands[i] = SAN(p, m)
	}
	return rules.Move{}, ambiguous(in, nil, cands)
}

// readings turns text into the patterns it may mean, the literal reading
// first. perr explains a text that looks like a move but names no square
// (a phrase of which the text is the subject, as Unread's), or is nil.
// lt reads other languages' letters (nil: the variant's own only).
func readings(p rules.Position, s string, lt *letters) (pats []pattern, perr lang.Text) {
	b := p.Variant().Board()
	v := p.Variant()
	if iccfRE.MatchString(s) {
		return iccfReading(p, s)
	}
	sq := func(x string) (rules.Square, bool) { return b.ParseSquare(x) }
	if m := swapRE.FindStringSubmatch(s); m != nil || swapWordRE.MatchString(strings.ToLower(s)) {
		if m == nil {
			m = swapWordRE.FindStringSubmatch(strings.ToLower(s))
		}
		a, ok1 := sq(m[1])
		c, ok2 := sq(m[2])
		if !ok1 || !ok2 {
			return nil, lang.M("names a square that is not on the board")
		}
		return []pattern{{kind: rules.Swap, to: a, from2: c}}, nil
	}
	if m := dropRE.FindStringSubmatch(s); m != nil {
		to, ok := sq(m[2])
		if !ok {
			return nil, lang.M("drops on %s, which is not a square of this board", m[2])
		}
		c, n := lt.piece(v, b, string(upper(m[1][0])), m[1][0] >= 'A' && m[1][0] <= 'Z')
		return []pattern{{kind: rules.Drop, piece: c, to: to, fromFile: -1, fromRank: -1, notes: addNote(nil, n)}}, nil
	}
	if m := dropSuffixRE.FindStringSubmatch(s); m != nil {
		if to, ok := sq(m[2]); ok {
			c, n := lt.piece(v, b, m[1], true)
			return []pattern{{kind: rules.Drop, piece: c, to: to, fromFile: -1, fromRank: -1, notes: addNote(nil, n)}}, nil
		}
	}
	// Deployments: several placements on one line ("K@e1 G@d1"; "Ke1 Gd1"
	// while deploying).
	if toks := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' }); len(toks) >= 2 {
		var ms [][]string
		for _, t := range toks {
			m := placeRE.FindStringSubmatch(t)
			if m == nil {
				ms = nil
				break
			}
			ms = append(ms, m)
		}
		if ms != nil && (allHave(toks, "@") || deploying(p)) {
			var places []rules.Placement
			for _, m := range ms {
				to, ok := sq(m[2])
				if !ok {
					return nil, lang.M("places a piece on %s, which is not a square of this board", m[2])
				}
				places = append(places, rules.Placement{Piece: upper(m[1][0]), To: to})
			}
			return []pattern{{kind: rules.Deploy, places: places}}, nil
		}
	}
	re := sanRE
	if pawnLetterRequired(p.Variant()) {
		re = checToeRE // no promotions; o and v are suffixes
	}
	if lt != nil {
		re = sanREF
		if pawnLetterRequired(p.Variant()) {
			re = checToeREF
		}
	}
	// asWritten: the case of t is the player's (see letters.piece).
	try := func(t string, literal, pieceOrFile, asWritten bool) {
		m := re.FindStringSubmatch(t)
		if m == nil {
			return
		}
		g := func(name string) string { return m[re.SubexpIndex(name)] }
		pt := pattern{kind: rules.Normal, fromFile: -1, fromRank: -1, to: rules.NoSquare, literal: literal, pieceOrFile: pieceOrFile}
		sep := g("sep")
		pt.capture = sep == "x" || sep == ":"
		if sep != "" && g("piece") == "" && g("file") == "" && g("rank") == "" {
			return // "xf3", "-e4": a mark with nothing before it
		}
		// A letter the player's language reads as another piece than
		// English does is read both ways (alt).
		var pieceAlt, promoAlt letterAlt
		if piece := g("piece"); piece != "" {
			x := upperToken(piece)
			pt.piece, pieceAlt.note = lt.piece(v, b, x, asWritten)
			pt.notes = addNote(pt.notes, pieceAlt.note)
			pieceAlt.c, pieceAlt.altNote = lt.english(v, x, pt.piece)
		}
		if f := g("file"); f != "" {
			pt.fromFile = int(f[0] - 'a')
		}
		rankZero := false
		if r := g("rank"); r != "" {
			n, _ := strconv.Atoi(r)
			pt.fromRank = n - 1
			rankZero = n == 0
		}
		if pt.fromFile >= b.Width() || pt.fromRank >= b.Height() || rankZero {
			// "r5a6" read as written: r5 is no square ("R5a6", the rook
			// on the fifth rank, is tried below). There is no rank 0:
			// "a0a1" is refused, not read as a1 with the rank left open.
			if perr == nil {
				perr = lang.M("starts from %s, which is not a square of this board (%s)", g("file")+g("rank"), boardRange(b))
			}
			return
		}
		if to := g("to"); len(to) == 1 {
			if !pt.capture {
				return // a captured piece's letter follows a capture mark: "PxN"
			}
			var n note
			pt.toPiece, n = lt.piece(v, b, to, asWritten)
			pt.notes = addNote(pt.notes, n)
		} else {
			sq, ok := sq(to)
			if !ok {
				if perr == nil {
					perr = lang.M("names %s, which is not a square of this board (%s)", to, boardRange(b))
				}
				return
			}
			pt.to = sq
		}
		if re == sanRE || re == sanREF {
			for _, name := range []string{"p1", "p2", "p3", "p4"} {
				if x := g(name); x != "" {
					pt.promo, promoAlt.note = lt.promo(v, b, x)
					pt.notes = addNote(pt.notes, promoAlt.note)
					if x[0] >= 'A' && x[0] <= 'Z' {
						promoAlt.c, promoAlt.altNote = lt.english(v, upperToken(x), pt.promo)
					}
				}
			}
		}
		switch g("suffix") {
		case "^", "⌃":
			pt.special = rules.Checker
		case "o", "*", "°", "º", "˚":
			pt.special = rules.Wizard
		case "⌄", "v", "@":
			pt.kind = rules.Drop
		}
		if pt.kind == rules.Drop && (pt.piece == 0 || pt.fromFile >= 0 || pt.to == rules.NoSquare) {
			return
		}
		pats = append(pats, pt)
		if pieceAlt.c != 0 {
			a := pt
			a.piece, a.notes = pieceAlt.c, pieceAlt.swap(pt.notes)
			pats = append(pats, a)
		}
		if promoAlt.c != 0 {
			for _, a := range slices.Clone(pats[len(pats)-1-btoi(pieceAlt.c != 0):]) {
				a.promo, a.notes = promoAlt.c, promoAlt.swap(a.notes)
				pats = append(pats, a)
			}
		}
	}
	try(s, true, false, true)
	if !mayFoldCase(p, s) {
		// "Cc3", "CC3": an upper-case letter the variant has no piece for
		// is not a file; read it as that letter, to say so.
		if len(pats) == 0 {
			try(s[:1]+strings.ToLower(s[1:]), false, false, true)
		}
		return pats, perr
	}
	startsWithSquare := isDigit(s, 1)
	if len(s) > 0 && s[0] >= 'a' && s[0] <= 'z' && !startsWithSquare {
		try(string(upper(s[0]))+s[1:], false, true, false) // "nf3": a knight, unless a pawn move is meant
	}
	if pieceBeforeRank(p, s) {
		try(string(upper(s[0]))+s[1:], false, false, false)
	}
	if low := strings.ToLower(s); low != s {
		try(low, false, false, false) // "E4", "G1F3"
		switch {
		case len(low) > 1 && !isDigit(low, 1):
			try(string(upper(low[0]))+low[1:], false, false, false) // "NF3"
		case pieceBeforeRank(p, low):
			try(string(upper(low[0]))+low[1:], false, false, false) // "R5A6", as "r5a6"
		}
	}
	return pats, perr
}

// pieceBeforeRank reports whether s starts with a lower-case piece letter
// and a rank ("r5a6", "n1c3"). The letter is no file of this board, so
// nothing else is meant: no guess between a pawn and a piece (a letter
// that is a file, "b5a6", is read as the square b5 only).
func pieceBeforeRank(p rules.Position, s string) bool {
	return len(s) > 1 && s[0] >= 'a' && s[0] <= 'z' && isDigit(s, 1) &&
		int(s[0]-'a') >= p.Variant().Board().Width() && knownLetter(p, upper(s[0]))
}

// letterAlt is the English reading of a letter the player's language
// reads as another piece (letters.english): c is 0 when there is none.
type letterAlt struct {
	c       byte
	note    note // the language's reading's note
	altNote note // the English reading's note
}

// swap replaces the language's note by the English one in notes.
func (a letterAlt) swap(notes []note) []note {
	out := slices.DeleteFunc(slices.Clone(notes), func(n note) bool { return n.english() == a.note.english() })
	return addNote(out, a.altNote)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mayFoldCase reports whether the case of s may be read otherwise than
// written. A text starting with an upper-case letter that is no piece
// letter of the variant is read in lower case only when it is all in upper
// case and that letter starts a square or a pawn capture ("E4", "G1F3",
// "EXD5"); "Cc3" is not the pawn move c3.
func mayFoldCase(p rules.Position, s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' || knownLetter(p, s[0]) {
		return true
	}
	if strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 {
		return false
	}
	return len(s) > 1 && (s[1] >= '0' && s[1] <= '9' || s[1] == 'X' || s[1] == ':')
}

// allHave reports whether every token contains sub.
func allHave(toks []string, sub string) bool {
	for _, t := range toks {
		if !strings.Contains(t, sub) {
			return false
		}
	}
	return true
}

// deploying reports whether the side to act deploys (Toe-to-Toe phase 1).
func deploying(p rules.Position) bool {
	for _, m := range p.Legal() {
		if m.Kind == rules.Deploy {
			return true
		}
	}
	return false
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func boardRange(b *rules.Board) lang.Text {
	return lang.M("files a-%c, ranks 1-%d", 'a'+b.Width()-1, b.Height())
}

// match returns the legal moves pt describes.
func match(p rules.Position, legal []rules.Move, pt pattern) []rules.Move {
	b := p.Variant().Board()
	var out []rules.Move
	for _, m := range legal {
		if fits(p, b, m, pt) {
			out = append(out, m)
		}
	}
	if pt.kind == rules.Normal && pt.promo == 0 {
		// No promotion written: the unpromoted move if there is one.
		var plain []rules.Move
		for _, m := range out {
			if m.Promo == 0 {
				plain = append(plain, m)
			}
		}
		if len(plain) > 0 {
			out = plain
		}
	}
	if pt.kind == rules.Normal && pt.special == rules.Normal {
		// No Checker/Wizard suffix: the natural move if there is one.
		var natural []rules.Move
		for _, m := range out {
			if m.Kind != rules.Checker && m.Kind != rules.Wizard {
				natural = append(natural, m)
			}
		}
		if len(natural) > 0 {
			out = natural
		}
	}
	return out
}

func fits(p rules.Position, b *rules.Board, m rules.Move, pt pattern) bool {
	switch pt.kind {
	case rules.Swap:
		return m.Kind == rules.Swap && ((m.From == pt.to && m.To == pt.from2) || (m.From == pt.from2 && m.To == pt.to))
	case rules.Drop:
		return m.Kind == rules.Drop && m.Piece == pt.piece && m.To == pt.to
	case rules.Deploy:
		if m.Kind != rules.Deploy || int(m.NPlace) != len(pt.places) {
			return false
		}
		used := make([]bool, m.NPlace)
		for _, want := range pt.places {
			ok := false
			for i := range int(m.NPlace) {
				if !used[i] && m.Place[i] == want {
					used[i], ok = true, true
					break
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	// Promotion in place (Toe-to-Toe "e8=G"): the square is the pawn's own.
	if m.Kind == rules.PromoteInPlace {
		return pt.promo != 0 && m.Promo == pt.promo && m.From == pt.to && (pt.piece == 0 || pt.piece == 'P') && pt.fromFile < 0
	}
	switch m.Kind {
	case rules.Normal, rules.Castle, rules.Checker, rules.Wizard:
	default:
		return false
	}
	if pt.special != rules.Normal && m.Kind != pt.special {
		return false
	}
	to := pt.to
	if pt.toPiece != 0 {
		victim := p.At(m.To)
		if victim == rules.NoPiece || victim.Color() == p.Turn() || victim.Letter() != pt.toPiece {
			return false
		}
		to = m.To
	}
	if m.To != to {
		return false
	}
	mover := p.At(m.From).Letter()
	originComplete := pt.fromFile >= 0 && pt.fromRank >= 0
	switch {
	case pt.piece != 0:
		if mover != pt.piece {
			return false
		}
	case !originComplete && mover != pawnLetter:
		return false
	}
	if pt.fromFile >= 0 && b.File(m.From) != pt.fromFile {
		return false
	}
	if pt.fromRank >= 0 && b.Rank(m.From) != pt.fromRank {
		return false
	}
	if pt.promo != 0 && m.Promo != pt.promo {
		return false
	}
	if m.Kind == rules.Castle && !originComplete {
		return false // castling is written O-O, or as the king's move e1g1
	}
	return true
}

// explain says why nothing legal fits pt.
func explain(p rules.Position, in, s string, pt pattern, lt *letters) error {
	b := p.Variant().Board()
	fail := func(why lang.Text) error { return notPlayed(in, why) }
	switch pt.kind {
	case rules.Drop:
		if !knownLetter(p, pt.piece) {
			return fail(unknownPiece(p, lang.M("piece with the letter %c", pt.piece), exampleOf(p, rules.Drop)))
		}
		if why := whyNot(p, rules.Move{Kind: rules.Drop, From: rules.NoSquare, To: pt.to, Piece: pt.piece}); why != nil {
			return fail(why)
		}
		if !contains8(p.Hand(p.Turn()), pt.piece) {
			return fail(lang.M("you have no %c in hand to drop (in hand: %s).", pt.piece, handText(p.Hand(p.Turn()))))
		}
		if p.At(pt.to) != rules.NoPiece {
			return fail(lang.M("%s is occupied; a drop goes to an empty square.", b.SquareName(pt.to)))
		}
		return fail(lang.M("that drop is not allowed now. Reply \"moves\" for the list."))
	case rules.Deploy:
		for _, pl := range pt.places {
			if !knownLetter(p, pl.Piece) {
				return fail(unknownPiece(p, lang.M("piece with the letter %c", pl.Piece), exampleOf(p, rules.Deploy)))
			}
		}
		return fail(lang.M("those placements are not a legal deployment now: %s", deployHint(p)))
	case rules.Swap:
		return fail(lang.M("swapping %s and %s is not legal now: both must be your pieces, and afterwards neither king may be attacked.", b.SquareName(pt.to), b.SquareName(pt.from2)))
	}
	if pt.piece != 0 && !knownLetter(p, pt.piece) {
		return fail(unknownPiece(p, lang.M("piece with the letter %c", pt.piece), foldExample(p, s, lt)))
	}
	// Which own pieces of that kind exist, and could any of them get there?
	var mine []rules.Square
	for _, s := range b.Squares() {
		pc := p.At(s)
		if pc == rules.NoPiece || pc.Color() != p.Turn() {
			continue
		}
		want := pt.piece
		if want == 0 {
			want = pawnLetter
		}
		if pt.fromFile >= 0 && pt.fromRank >= 0 {
			if s == b.Sq(pt.fromFile, pt.fromRank) {
				mine = append(mine, s)
			}
			continue
		}
		if pc.Letter() == want && (pt.fromFile < 0 || b.File(s) == pt.fromFile) && (pt.fromRank < 0 || b.Rank(s) == pt.fromRank) {
			mine = append(mine, s)
		}
	}
	if pt.fromFile >= 0 && pt.fromRank >= 0 {
		from := b.Sq(pt.fromFile, pt.fromRank)
		pc := p.At(from)
		switch {
		case !b.Exists(from):
			return fail(lang.M("%s is not a square of this board.", b.SquareName(from)))
		case pc == rules.NoPiece:
			return fail(lang.M("there is no piece on %s.", b.SquareName(from)))
		case pc.Color() != p.Turn():
			return fail(lang.M("the piece on %s is not yours.", b.SquareName(from)))
		case pt.piece != 0 && pc.Letter() != pt.piece:
			return fail(lang.M("%s holds your %s, not %s.", b.SquareName(from), pieceName(p, pc.Letter()), lang.M("a %s", pieceName(p, pt.piece))))
		}
	}
	// The position's own reason (the die in Chec Toe), with what is legal.
	kind := rules.Normal
	if pt.special != rules.Normal {
		kind = pt.special
	}
	if pt.to != rules.NoSquare {
		for _, from := range mine {
			if why := whyNot(p, rules.Move{Kind: kind, From: from, To: pt.to}); why != nil {
				return fail(why)
			}
		}
		if len(mine) == 0 && pt.fromFile < 0 && pt.fromRank < 0 {
			letter := pt.piece
			if letter == 0 {
				letter = pawnLetter
			}
			if why := whyNot(p, rules.Move{Kind: kind, From: rules.NoSquare, To: pt.to, Piece: letter}); why != nil {
				return fail(why)
			}
		}
	}
	if len(mine) == 0 {
		what := rules.PieceWord("pawn")
		if pt.piece != 0 {
			what = pieceName(p, pt.piece)
		}
		return fail(lang.M("you have no %s that could make it.", what))
	}
	target := lang.Text(lang.Raw(b.SquareName(pt.to)))
	if pt.to == rules.NoSquare {
		target = lang.M("there")
	}
	if pt.special != rules.Normal && pt.to != rules.NoSquare {
		// "Nc3°" in a game where the move is an ordinary one: only the
		// mark of a Chec Toe Checker or Wizard move is wrong.
		for _, m := range p.Legal() {
			if m.To == pt.to && m.Kind == rules.Normal && slices.Contains(mine, m.From) {
				if pt.special == rules.Wizard {
					return fail(lang.M("%s is an ordinary move, not a Wizard move: send it as %q, without the mark after the square.", moveText{p, m}, moveText{p, m}))
				}
				return fail(lang.M("%s is an ordinary move, not a Checker move: send it as %q, without the mark after the square.", moveText{p, m}, moveText{p, m}))
			}
		}
	}
	if pt.promo != 0 && pt.to != rules.NoSquare {
		// The move itself may be fine and only the promotion wrong.
		var choices []string
		plain := false
		for _, m := range p.Legal() {
			if m.To != pt.to || !slices.Contains(mine, m.From) {
				continue
			}
			if m.Promo != 0 {
				choices = append(choices, string(m.Promo))
			} else {
				plain = true
			}
		}
		switch {
		case len(choices) > 0:
			return fail(lang.M("%c is not a promotion choice there: choose one of %s.", pt.promo, strings.Join(choices, ", ")))
		case plain:
			return fail(lang.M("that move is not a promotion: write it without the %c.", pt.promo))
		}
	}
	if pt.to != rules.NoSquare {
		// "Kg1" where O-O is legal: castling is written O-O, or with the
		// king's whole origin (fits), never as a king's move with none.
		for _, m := range p.Legal() {
			if m.Kind == rules.Castle && m.To == pt.to && slices.Contains(mine, m.From) {
				return fail(lang.M("castling is written %q, or with the king's squares, %q; not as a king's move.", SAN(p, m), Coord(p, m)))
			}
		}
	}
	if ex, ok := p.(rules.PositionExplain); ok && pt.to != rules.NoSquare {
		// The most telling reason among the pieces that might be meant: a
		// king left in check, then a blocked way, then the way pieces move.
		// A piece that does not move that way at all is named only when
		// it is plausibly the one meant: a pawn on the target's file, or
		// the only piece of its kind; never Black's a7 pawn for "c4".
		var best, farWhy lang.Text
		bestRank, bestFrom := 99, rules.NoSquare
		for _, from := range mine {
			t := whyIllegal(ex, from, pt.to)
			why := rules.English(t)
			rank := 3
			switch {
			case why == "":
				continue
			case strings.Contains(why, "check"):
				rank = 0
			case strings.Contains(why, "in the way"), strings.Contains(why, "own piece"), strings.Contains(why, "capture"):
				rank = 1
			}
			pawn := p.At(from).Letter() == pawnLetter
			if rank == 3 && ((pawn && b.File(from) != b.File(pt.to)) || (!pawn && len(mine) > 1)) {
				farWhy = t
				continue
			}
			if rank < bestRank {
				best, bestRank, bestFrom = t, rank, from
			}
		}
		if best != nil {
			return fail(lang.M("your %s on %s cannot go to %s: %s.",
				pieceName(p, p.At(bestFrom).Letter()), b.SquareName(bestFrom), target, best))
		}
		if farWhy != nil {
			name := pieceName(p, p.At(mine[0]).Letter())
			return fail(lang.M("none of your %ss can go to %s: %s.", name, target, farWhy))
		}
	}
	if p.InCheck() {
		return fail(lang.M("you are in check, and it does not get you out of check."))
	}
	mover := pieceName(p, p.At(mine[0]).Letter())
	if pt.to == rules.NoSquare && pt.toPiece != 0 {
		// "PxN": the piece taken is named, not its square.
		return fail(lang.M("no %s of yours can take %s now.", mover, withArticle(p, pt.toPiece)))
	}
	return fail(lang.M("no %s of yours can go to %s: it does not move that way, or the way is blocked.", mover, target))
}

// withArticle writes the name of the piece with letter c after English's
// "a" or "an" ("an amazon"): the article is a message of its own, which
// a language without one writes as the name alone.
func withArticle(p rules.Position, c byte) lang.Text {
	if name := pieceNameEnglish(p, c); name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return lang.M("an %s", pieceName(p, c))
	}
	return lang.M("a %s", pieceName(p, c))
}

// whyIllegal is the position's reason why the piece on from cannot go to
// to (rules.PositionExplain), in the reader's language where the position
// writes it so; nil for none.
func whyIllegal(ex rules.PositionExplain, from, to rules.Square) lang.Text {
	if et, ok := ex.(rules.PositionExplainText); ok {
		return et.WhyIllegalText(from, to)
	}
	if why := ex.WhyIllegal(from, to); why != "" {
		return lang.Raw(why) // the variant's own words: English this round
	}
	return nil
}

// whyNoCastle is rules.CastleExplain's reason, as whyIllegal.
func whyNoCastle(ex rules.CastleExplain, san string) lang.Text {
	if et, ok := ex.(rules.CastleExplainText); ok {
		return et.WhyNoCastleText(san)
	}
	if why := ex.WhyNoCastle(san); why != "" {
		return lang.Raw(why)
	}
	return nil
}

// whyNot is the position's own reason why m is not legal now (see
// rules.ActionExplain), followed by what is legal, or "" when the
// position gives none.
func whyNot(p rules.Position, m rules.Move) lang.Text {
	ex, ok := p.(rules.ActionExplain)
	if !ok {
		return nil
	}
	var why lang.Text
	if et, ok := ex.(rules.ActionExplainText); ok {
		why = et.WhyNotText(m)
	} else if w := ex.WhyNot(m); w != "" {
		why = lang.Raw(w) // the variant's own words: English this round
	}
	if why == nil {
		return nil
	}
	why = fullStop{why}
	if l := legalSummary(p); l != nil {
		why = lang.M("%s Legal now: %s.", why, l)
	}
	return why
}

// fullStop is a text that ends with one full stop.
type fullStop struct{ t lang.Text }

// In writes the text with one full stop at its end.
func (f fullStop) In(p *lang.Printer) string { return strings.TrimSuffix(f.t.In(p), ".") + "." }

// legalSummary lists the legal actions of p for an error message, as a
// player may type them: the drops of one piece on every empty square
// as one item ("R@ on any empty square, e.g. R@a1"), every other action
// by itself ("Nb4⌃ (Nb4^)"). It is "" when the list would be too long
// to read in a sentence; "moves" lists them all.
func legalSummary(p rules.Position) lang.Text {
	legal := p.Legal()
	b := p.Variant().Board()
	empty := 0
	for _, s := range b.Squares() {
		if p.At(s) == rules.NoPiece {
			empty++
		}
	}
	drops := map[byte][]rules.Move{}
	for _, m := range legal {
		if m.Kind == rules.Drop {
			drops[m.Piece] = append(drops[m.Piece], m)
		}
	}
	var items []lang.Text
	done := map[byte]bool{}
	for _, m := range legal {
		if ds := drops[m.Piece]; m.Kind == rules.Drop && len(ds) == empty && len(ds) > 2 {
			if !done[m.Piece] {
				done[m.Piece] = true
				items = append(items, lang.M("%c@ on any empty square (e.g. %s)", m.Piece, SAN(p, ds[0])))
			}
			continue
		}
		san := SAN(p, m)
		if typed := Typeable(san); typed != san {
			san += " (" + typed + ")"
		}
		items = append(items, lang.Raw(san))
	}
	if len(items) == 0 || len(items) > 12 {
		return nil
	}
	return lang.Join(", ", items...)
}

func contains8(bs []byte, c byte) bool {
	for _, x := range bs {
		if x == c {
			return true
		}
	}
	return false
}

func handText(h []byte) lang.Text {
	if len(h) == 0 {
		return lang.M("nothing")
	}
	return lang.Raw(strings.Join(strings.Split(string(h), ""), " "))
}

// knownLetter reports whether the variant has a piece with letter c (true
// when the variant does not list its letters).
func knownLetter(p rules.Position, c byte) bool {
	if ls := pieceLetters(p.Variant()); ls != nil {
		return contains8(ls, c)
	}
	return true
}

// pieceName is the name of the piece with letter c in the reader's
// language (rules.PieceWord), or the letter.
func pieceName(p rules.Position, c byte) lang.Text {
	return rules.PieceWord(pieceNameEnglish(p, c))
}

// pieceNameEnglish is the variant's name of the piece with letter c, or
// the letter.
func pieceNameEnglish(p rules.Position, c byte) string {
	if n, ok := p.Variant().(rules.VariantPieces); ok {
		if s := n.PieceName(c); s != "" {
			return s
		}
	}
	return string(c)
}

func deployHint(p rules.Position) lang.Text {
	if pr, ok := p.(rules.Prompter); ok {
		return pr.PromptText()
	}
	return lang.M("reply \"moves\" for the list.")
}

// example is a legal move of p for error messages (moveText).
func example(p rules.Position) lang.Text {
	legal := p.Legal()
	if len(legal) == 0 {
		return lang.Raw("Nf3")
	}
	return moveText{p, legal[len(legal)/2]}
}

// moveText is the legal move m of p as a refusal suggests it: SAN, in the
// reader's piece letters where their language reads it back as m
// (ExampleIn: "Sf3" for a German reader; English SAN in English).
type moveText struct {
	p rules.Position
	m rules.Move
}

// In is the move for a reader of p's language.
func (t moveText) In(p *lang.Printer) string { return ExampleIn(t.p, t.m, p.Code()) }

// ParseCoord reads only the coordinate form (docs/rules/README.md#notation), for tools.
func ParseCoord(p rules.Position, s string) (rules.Move, error) {
	for _, m := range p.Legal() {
		if Coord(p, m) == strings.TrimSpace(s) {
			return m, nil
		}
	}
	return rules.Move{}, unread(s, lang.M("is not a legal move in coordinate form here"))
}

// candidates returns the legal moves the normalised text s may mean, the
// readings tried, and why nothing could be read.
func candidates(p rules.Position, s string, legal []rules.Move, lt *letters) (got []rules.Move, pats []pattern, perr lang.Text) {
	pats, perr = readings(p, s, lt)
	if len(pats) == 0 {
		return nil, nil, perr
	}
	// The literal reading first. Case-folded readings count when it finds
	// nothing, and the upper-cased first letter also when the text starts
	// with a lower-case letter that may be a piece or a file ("bxc3": the
	// b-pawn or the bishop): if both find legal moves, the player is asked.
	union := func(pt pattern) {
		for _, m := range match(p, legal, pt) {
			if !contains(got, m) {
				got = append(got, m)
			}
		}
	}
	for i, pt := range pats {
		if i == 0 || pt.literal {
			union(pt)
		}
	}
	if len(got) == 0 {
		for _, pt := range pats[1:] {
			union(pt)
		}
	} else {
		for _, pt := range pats[1:] {
			if pt.pieceOrFile {
				union(pt)
			}
		}
	}
	return got, pats, nil
}

// ParseSAN reads a move of a game record (PGN movetext): where the text,
// read as written, case and all, names exactly one legal move, that is the
// move ("bxc4" is a pawn's capture even where a bishop could take on c4,
// as in PGN); anything else is read as Parse reads it, liberally, so that a
// record written by hand still replays. StandardSAN writes what it reads
// back.
func ParseSAN(p rules.Position, text string) (rules.Move, error) {
	if s := strings.TrimSpace(text); s != "" {
		if got := literalCandidates(p, foldChars(s)); len(got) == 1 {
			return got[0], nil
		}
	}
	return Parse(p, text)
}
