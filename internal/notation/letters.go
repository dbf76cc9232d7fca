package notation

import (
	"slices"
	"strings"
	"sync"

	"referee/internal/lang"
	"referee/internal/rules"
)

// Issue 42: a player writes the piece letters of their own language
// (docs/rules/README.md#piece-letters-in-other-languages). ReadFor reads
// them; Read and Parse read the variant's own letters only, as records and
// tools write them.

// Language is a language whose piece letters the referee reads.
type Language struct {
	// Code is the language's ISO 639-1 code, as the "language" command
	// takes it ("de").
	Code string
	// Name is the language's name in English ("German"), Native its name
	// in itself ("Deutsch").
	Name, Native string
	// Letters are the letters of the king, queen, rook, bishop and knight,
	// in that order, as the language writes them in notation (the
	// federation's translation of the FIDE Laws, appendix C).
	Letters [5]string
	// Words are those pieces' names in the language, for the notes that
	// say how a letter was read ("S is the knight (Springer) in German").
	Words [5]string
	// lookalikes are Latin letters a player of this language types for a
	// letter of its own script, and the piece (index into Letters) each
	// means: a Russian keyboard's К and С come out as K and C on a Latin
	// one. They count only for players who set the language.
	lookalikes map[string]int
}

// orthodox are the English letters of the pieces Language.Letters list,
// in that order.
const orthodox = "KQRBN"

// orthodoxName names the piece orthodox[i] as the rules name it.
func orthodoxName(i int) string {
	return [...]string{"king", "queen", "rook", "bishop", "knight"}[i]
}

// Languages lists the languages whose piece letters the referee reads,
// English first. Pawns carry no letter in any of them (the FIDE Laws'
// appendix C in each language; English's optional P is read as before),
// so German's B (Bauer) and Dutch's pion are not read as pawns: B stays
// the bishop, and P is the Dutch knight.
//
// Where unsure (checked against each federation's usage as far as the
// sources at hand allow):
//   - Italian: R D T A C is the FIDE translation's; older Italian books
//     write "Cv" for the knight now and then, which is not read.
//   - Portuguese: R D T B C in both Portugal and Brazil; B (bispo) is the
//     English bishop's letter, so it needs no reading.
//   - Polish: K H W G S; the queen's H (hetman) is standard, though some
//     clubs write D (dama), which is read as the queen anyway (every
//     language that writes D means the queen).
//   - Russian: Кр Ф Л С К; the king's Кр is two letters. A player who set
//     Russian and types on a Latin keyboard writes Kp, K and C for them:
//     read as king, knight and bishop for that player only.
func Languages() []Language {
	return []Language{
		{Code: "en", Name: "English", Native: "English",
			Letters: [5]string{"K", "Q", "R", "B", "N"}, Words: [5]string{"king", "queen", "rook", "bishop", "knight"}},
		{Code: "de", Name: "German", Native: "Deutsch",
			Letters: [5]string{"K", "D", "T", "L", "S"}, Words: [5]string{"König", "Dame", "Turm", "Läufer", "Springer"}},
		{Code: "fr", Name: "French", Native: "Français",
			Letters: [5]string{"R", "D", "T", "F", "C"}, Words: [5]string{"roi", "dame", "tour", "fou", "cavalier"}},
		{Code: "es", Name: "Spanish", Native: "Español",
			Letters: [5]string{"R", "D", "T", "A", "C"}, Words: [5]string{"rey", "dama", "torre", "alfil", "caballo"}},
		{Code: "it", Name: "Italian", Native: "Italiano",
			Letters: [5]string{"R", "D", "T", "A", "C"}, Words: [5]string{"re", "donna", "torre", "alfiere", "cavallo"}},
		{Code: "pt", Name: "Portuguese", Native: "Português",
			Letters: [5]string{"R", "D", "T", "B", "C"}, Words: [5]string{"rei", "dama", "torre", "bispo", "cavalo"}},
		{Code: "nl", Name: "Dutch", Native: "Nederlands",
			Letters: [5]string{"K", "D", "T", "L", "P"}, Words: [5]string{"koning", "dame", "toren", "loper", "paard"}},
		{Code: "pl", Name: "Polish", Native: "Polski",
			Letters: [5]string{"K", "H", "W", "G", "S"}, Words: [5]string{"król", "hetman", "wieża", "goniec", "skoczek"}},
		{Code: "ru", Name: "Russian", Native: "Русский",
			Letters: [5]string{"Кр", "Ф", "Л", "С", "К"}, Words: [5]string{"король", "ферзь", "ладья", "слон", "конь"},
			lookalikes: map[string]int{"KP": 0, "C": 3, "K": 4}},
	}
}

// LookupLanguage finds a language by its code or its name, in English or
// in itself, in any case ("de", "DE", "german", "deutsch", "français",
// "francais").
func LookupLanguage(s string) (Language, bool) {
	key := fold(strings.TrimSpace(s))
	for _, l := range Languages() {
		if key == l.Code || key == fold(l.Name) || key == fold(l.Native) || key == fold(plain(l.Native)) {
			return l, true
		}
	}
	return Language{}, false
}

// fold is s in lower case; plain is s without the accents of the names
// above ("Français": "Francais").
func fold(s string) string { return strings.ToLower(s) }

func plain(s string) string {
	return strings.NewReplacer("ç", "c", "ñ", "n", "ê", "e", "é", "e").Replace(s)
}

// Options say how ReadFor reads a player's line beyond what Read reads.
type Options struct {
	// Language is the code of the player's language (Languages), "" when
	// they set none, or their language tag (lang.Tag: "de-x-fig" for a
	// German reader of figurines). Its letters are read; a letter it
	// shares with English for another piece (R is the French king, P the
	// Dutch knight) means its piece, and the English one until a language
	// is set. Figurines are read as the pieces they show, whatever the
	// language.
	Language string
}

// letters reads piece letters for one player: the variant's own, the
// player's language's, and the letters of other languages that English
// does not use. A nil *letters reads the variant's own letters only.
type letters struct {
	lang *Language // nil when the player set no language
	// shared maps a letter of another language that English does not use
	// for any piece ("S", "Кр") to the one piece it means in every
	// language that writes it (index into orthodox), with those languages.
	shared map[string]sharedLetter
}

type sharedLetter struct {
	piece int
	langs []string // the languages' names, in table order
	codes []string // and their codes
}

// note says how a letter or digits were read, for the player: text is
// the sentence ("S is the knight in German and Polish") in the reader's
// language, langs the codes of the languages that write the letter so,
// when it was read as a letter no English piece uses (for the hint to set
// a language).
type note struct {
	text  lang.Text
	langs []string
}

// english is the note's sentence in English ("" for none): notes are
// told apart by it.
func (n note) english() string { return rules.English(n.text) }

// newLetters is the reader of o's language (an unknown code reads as
// none set).
func newLetters(o Options) *letters {
	code, _ := lang.SplitTag(o.Language)
	all := readers()
	if lt, ok := all[code]; ok {
		return lt
	}
	return all[""]
}

// readers are the letter readers of each language, and of none (""),
// built once: nothing changes them after (a board mail writes every move
// of its record through one, at 50 µs a build).
var readers = sync.OnceValue(func() map[string]*letters {
	m := map[string]*letters{"": buildLetters("")}
	for _, l := range Languages() {
		m[l.Code] = buildLetters(l.Code)
	}
	return m
})

// buildLetters builds the reader of the language code.
func buildLetters(code string) *letters {
	lt := &letters{shared: map[string]sharedLetter{}}
	conflict := map[string]bool{}
	for _, l := range Languages() {
		if l.Code == code {
			lang := l
			lt.lang = &lang
		}
		for i, x := range l.Letters {
			if len(x) == 1 && strings.Contains("KQRBNP", x) {
				continue // a letter of English: never read as another language's without the player's say
			}
			key := upperToken(x)
			sh, ok := lt.shared[key]
			if ok && sh.piece != i {
				conflict[key] = true
			}
			sh.piece = i
			sh.langs = append(sh.langs, l.Name)
			sh.codes = append(sh.codes, l.Code)
			lt.shared[key] = sh
		}
	}
	for x := range conflict {
		delete(lt.shared, x) // no language here has one yet: a letter two languages read differently is nobody's
	}
	return lt
}

// hasPiece reports whether the variant has the piece with letter c.
func hasPiece(v rules.Variant, c byte) bool {
	if vp, ok := v.(rules.VariantPieces); ok {
		return vp.PieceName(c) != ""
	}
	return true
}

// isOrthodox reports whether the variant's piece with letter c is the
// orthodox piece of that letter (its rules name it so): Toe-to-Toe's R
// is a chariot and its N a horse, Toto40's R a rook.
func isOrthodox(v rules.Variant, c byte) bool {
	vp, ok := v.(rules.VariantPieces)
	if !ok {
		return true
	}
	name := vp.PieceName(c)
	if c == pawnLetter {
		return name == "pawn"
	}
	if i := strings.IndexByte(orthodox, c); i >= 0 {
		return name == orthodoxName(i)
	}
	return false
}

// piece reads the piece letter x (upper-cased: "S", "КР", "KP") written
// in a move in the variant on board b. asWritten is false when the case
// was folded by the reader ("sf3" tried as "Sf3"): then a letter that is
// a file of the board is not another language's letter ("cxd4" stays a
// pawn's capture, never the French knight's). It returns the variant's
// letter and, when it is not x, a note saying why ("S is the knight
// (Springer) in German"). On a nil *letters it is x's first byte.
func (lt *letters) piece(v rules.Variant, b *rules.Board, x string, asWritten bool) (byte, note) {
	if lt == nil || x == "" {
		if x == "" {
			return 0, note{}
		}
		return x[0], note{}
	}
	latin := len(x) <= 2 && x[0] >= 'A' && x[0] <= 'Z'
	if latin && len(x) == 1 && !asWritten && int(x[0]-'A') < b.Width() {
		return x[0], note{}
	}
	own := latin && len(x) == 1 && hasPiece(v, x[0])
	if l := lt.lang; l != nil {
		i, lookalike := -1, false
		for k, y := range l.Letters {
			if strings.ToUpper(y) == x {
				i = k
			}
		}
		if k, ok := l.lookalikes[x]; ok && i < 0 {
			i, lookalike = k, true
		}
		if i >= 0 {
			y := orthodox[i]
			mayTake := !own || isOrthodox(v, x[0]) && !(x[0] == pawnLetter && pawnLetterRequired(v))
			if isOrthodox(v, y) && hasPiece(v, y) && mayTake {
				if x == string(y) {
					return y, note{}
				}
				return y, note{text: ownLetter{x: written(x), i: i, l: *l, lookalike: lookalike}}
			}
		}
	}
	if own {
		return x[0], note{}
	}
	sh, ok := lt.shared[x]
	if !ok {
		return x[0], note{}
	}
	y := orthodox[sh.piece]
	var names []lang.Text
	for _, c := range sh.codes {
		l, _ := LookupLanguage(c)
		names = append(names, languageText(l))
	}
	n := note{text: lang.M("%s is the %s in %s", written(x), rules.PieceWord(orthodoxName(sh.piece)), rules.AndList(names...)), langs: slices.Clip(sh.codes)}
	if latin && (!isOrthodox(v, y) || !hasPiece(v, y)) {
		return x[0], note{} // "Sc3" in Cuarenta: no knight there, refused as the letter S as before
	}
	return y, n
}

// ownLetter is the note on a letter read in the player's own language
// l: the letter x of the piece orthodox[i] ("S is the knight (Springer)
// in German"), or its Latin lookalike ("C is the bishop (С, слон) in
// Russian"). In l itself, the mail's language, the piece's name is the
// word already: it is not repeated ("S steht auf Deutsch für Springer").
type ownLetter struct {
	x         string
	i         int
	l         Language
	lookalike bool
}

// In is the note in p's language.
func (n ownLetter) In(p *lang.Printer) string {
	name, in := rules.PieceWord(orthodoxName(n.i)), languageText(n.l)
	switch {
	case p.Code() == n.l.Code && n.lookalike:
		return p.Sprintf("%s is the %s (%s) in %s", n.x, name, n.l.Letters[n.i], in)
	case p.Code() == n.l.Code:
		return p.Sprintf("%s is the %s in %s", n.x, name, in)
	case n.lookalike:
		return p.Sprintf("%s is the %s (%s, %s) in %s", n.x, name, n.l.Letters[n.i], n.l.Words[n.i], in)
	}
	return p.Sprintf("%s is the %s (%s) in %s", n.x, name, n.l.Words[n.i], in)
}

// written is a piece letter as a note shows it: Кр, not the upper-cased
// КР the reader compares.
func written(x string) string {
	if x == "КР" {
		return "Кр"
	}
	if x == "KP" {
		return "Kp"
	}
	return x
}

// languageText is the language's name (Name, in English: "German") in
// the reader's language. A language added to Languages without a message
// for its name here is named in English.
func languageText(l Language) lang.Text {
	switch l.Code {
	case "de":
		return lang.M("German")
	case "fr":
		return lang.M("French")
	case "es":
		return lang.M("Spanish")
	case "it":
		return lang.M("Italian")
	case "pt":
		return lang.M("Portuguese")
	case "nl":
		return lang.M("Dutch")
	case "pl":
		return lang.M("Polish")
	case "ru":
		return lang.M("Russian")
	}
	return lang.Raw(l.Name)
}

// upperToken upper-cases a piece letter as the reader compares it
// ("кр": "КР", "Kp": "KP"), a king's two letters mixed from two scripts
// as their first letter's ("Кp": "КР", "Kр": "KP").
func upperToken(x string) string {
	x = strings.ToUpper(x)
	switch x {
	case "КP":
		return "КР"
	case "KР":
		return "KP"
	}
	return x
}

// notesSuffix is the notes of a reading for the end of a refusal's
// reason: " (S is the knight in German and Polish.)"; nil for none.
func notesSuffix(notes []note) lang.Text {
	if len(notes) == 0 {
		return nil
	}
	return lang.Join("", lang.Raw(" ("), lang.Join("; ", textsOf(notes)...), lang.Raw(".)"))
}

// texts are the notes' sentences in English.
func texts(notes []note) []string {
	var out []string
	for _, n := range notes {
		out = append(out, n.english())
	}
	return out
}

// textsOf are the notes' sentences.
func textsOf(notes []note) []lang.Text {
	var out []lang.Text
	for _, n := range notes {
		out = append(out, n.text)
	}
	return out
}

// andEach joins the notes of two readings: "S is the knight in German
// and Polish, and S is ..." ("%s, and %s" between each two).
func andEach(texts []lang.Text) lang.Text {
	if len(texts) == 0 {
		return nil
	}
	t := texts[0]
	for _, x := range texts[1:] {
		t = lang.M("%s, and %s", t, x)
	}
	return t
}

// commonLanguages are the codes of the languages every note with
// languages names: those whose letters the whole line is written in.
func commonLanguages(notes []note) []string {
	var out []string
	first := true
	for _, n := range notes {
		if n.langs == nil {
			continue
		}
		if first {
			out, first = slices.Clone(n.langs), false
			continue
		}
		out = slices.DeleteFunc(out, func(c string) bool { return !slices.Contains(n.langs, c) })
	}
	return out
}

// addNote appends n to notes unless it says nothing or is there already.
func addNote(notes []note, n note) []note {
	if n.text == nil || slices.ContainsFunc(notes, func(x note) bool { return x.english() == n.english() }) {
		return notes
	}
	return append(notes, n)
}

// promo reads a promotion letter x as written. A small letter of English
// is the coordinate form's ("e7e8q", "e7e8r" for a French player too);
// any other letter is read as a piece letter ("e8=R": the French king,
// "e8d": the queen).
func (lt *letters) promo(v rules.Variant, b *rules.Board, x string) (byte, note) {
	if lt == nil || x[0] < 'a' || x[0] > 'z' {
		if lt == nil {
			return upper(x[0]), note{}
		}
		return lt.piece(v, b, upperToken(x), true)
	}
	if c := upper(x[0]); strings.IndexByte("KQRBNP", c) >= 0 || hasPiece(v, c) {
		return c, note{}
	}
	return lt.piece(v, b, upperToken(x), true)
}

// english is the English reading of the letter x (upper-cased, as piece
// takes it) that the player's language read as another piece, c: the
// variant's own piece x, when it has one ("R", the rook, for a French
// player's R, read as the king), or 0. Both readings are tried: the one
// that is legal is played, and the player is asked when both are.
func (lt *letters) english(v rules.Variant, x string, c byte) (byte, note) {
	if lt == nil || lt.lang == nil || len(x) != 1 || x[0] == c || !hasPiece(v, x[0]) {
		return 0, note{}
	}
	name := x
	if vp, ok := v.(rules.VariantPieces); ok {
		name = vp.PieceName(x[0])
	}
	return x[0], note{text: lang.M("%s is the %s in English", x, rules.PieceWord(name))}
}

// sanFor writes m (legal in p) for a player who reads with lt: SAN, or,
// where their letters read SAN otherwise (a French player's "Rf1", read
// as the king too), the long form ("Rh1-f1"), or else the coordinates.
func sanFor(p rules.Position, m rules.Move, lt *letters) string {
	s := SAN(p, m)
	if lt == nil || lt.lang == nil {
		return s
	}
	legal := p.Legal()
	for _, form := range []string{s, withMarks(p, m, longForm(p, m))} {
		n, _ := normalise(form)
		if got, _, _ := candidates(p, n, legal, lt); len(got) == 1 && got[0] == m {
			return form
		}
	}
	return Coord(p, m)
}

// figurinesOf are the figurines of the pieces Language.Letters list, in
// that order, for the languages whose letters are not Latin.
const figurinesOf = "♔♕♖♗♘"

// WriteIn writes san, a move as SAN writes it in the variant v (the
// English letters), for a reader of the language tag (lang.Tag: a code,
// with "-x-fig" where the reader asked for figurines): with the piece
// letters of the language ("Sf3" for "Nf3" in German, "e8=D" for "e8=Q"),
// or with figurines ("♘f3") where the language's letters are not Latin
// (Russian) or the reader asked for them. Only the letters of the
// orthodox pieces change (isOrthodox: Toe-to-Toe's N, a horse, stays N),
// and only to a letter the reader reads as that piece: where the
// variant's own piece has the language's letter, the English one stays
// (Toe-to-Toe's king for a French reader, "Kd2": R is the chariot there;
// Cuarenta's bishop for a French or Polish one, F and G being its frog
// and guard; Chec Toe's knight for a Dutch one, P being its pawn). A
// figurine is read back as the piece it shows (figurines), so it stands
// for any orthodox piece the variant has. Squares, castling and marks
// stay. An unknown code, or English without figurines, leaves san as it
// is; records and exports keep English SAN.
func WriteIn(v rules.Variant, san, tag string) string {
	code, asked := lang.SplitTag(tag)
	if code == "" {
		code = "en"
	}
	if code == "en" && !asked {
		return san
	}
	lt, ok := readers()[code]
	if !ok || lt.lang == nil {
		return san
	}
	l := *lt.lang
	figurines := asked
	for _, x := range l.Letters {
		for _, r := range x {
			if r > 'Z' {
				figurines = true
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(san); i++ {
		c := san[i]
		k := strings.IndexByte(orthodox, c)
		if k < 0 || (i > 0 && san[i-1] != '=') || !isOrthodox(v, c) {
			b.WriteByte(c)
			continue
		}
		switch {
		case asked:
			// The figurine is read as the English letter it stands for.
			b.WriteString(string([]rune(figurinesOf)[k]))
		case !readsAs(lt, v, l.Letters[k], c):
			b.WriteByte(c)
		case figurines:
			b.WriteString(string([]rune(figurinesOf)[k]))
		default:
			b.WriteString(l.Letters[k])
		}
	}
	return b.String()
}

// readsAs reports whether the reader lt reads the language's letter x as
// the variant's piece c, as a move's piece letter.
func readsAs(lt *letters, v rules.Variant, x string, c byte) bool {
	got, _ := lt.piece(v, v.Board(), upperToken(x), true)
	return got == c
}

// ExampleIn writes m (legal in p) as an example for a player of the
// language code to copy: WriteIn's form when ReadFor reads it back as m
// for that player, else the coordinate form.
func ExampleIn(p rules.Position, m rules.Move, code string) string {
	san := SAN(p, m)
	s := WriteIn(p.Variant(), san, code)
	if s == san {
		return s
	}
	if r, err := ReadFor(p, s, Options{Language: code}); err == nil && r.Move == m {
		return s
	}
	return Coord(p, m)
}
