package notation

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

// Positions for the letter tests.
const (
	openE4E5  = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" // every White piece has a move
	kingRook  = "4k3/8/8/8/8/8/8/4K2R w - - 0 1"                                // Rf1: the king's e1-f1 and the rook's h1-f1
	twoRooks  = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1"                               // Tfe1, Tae1
	promotion = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
	pawnKnigt = "4k3/8/8/8/3p4/2P2N2/8/4K3 w - - 0 1" // cxd4 and Nxd4 both take on d4
	pawnBshop = "4k3/8/8/1p6/P7/3B4/8/4K3 w - - 0 1"  // axb5 and Bxb5 both take on b5
	knightTks = "4k3/8/8/3n1b2/8/4N3/8/4K3 w - - 0 1" // Nxd5 takes a knight, Nxf5 a bishop
)

// TestLanguageLetters: each language's letters (issue 42; the table in
// letters.go) read as the pieces they name, on real positions, and the
// reading says how ("S is the knight (Springer) in German").
func TestLanguageLetters(t *testing.T) {
	tests := []struct {
		lang, fen, line, coord, note string
	}{
		// German: K D T L S.
		{"de", "", "Sf3", "g1f3", "S is the knight (Springer) in German"},
		{"de", openE4E5, "Lb5", "f1b5", "L is the bishop (Läufer) in German"},
		{"de", openE4E5, "Dh5", "d1h5", "D is the queen (Dame) in German"},
		{"de", openE4E5, "Ke2", "e1e2", ""},
		{"de", twoRooks, "Tfe1", "f1e1", "T is the rook (Turm) in German"},
		{"de", twoRooks, "Tae1", "a1e1", "T is the rook (Turm) in German"},
		// French: R D T F C.
		{"fr", "", "Cf3", "g1f3", "C is the knight (cavalier) in French"},
		{"fr", openE4E5, "Fb5", "f1b5", "F is the bishop (fou) in French"},
		{"fr", openE4E5, "Re2", "e1e2", "R is the king (roi) in French"},
		{"fr", kingRook, "Th2", "h1h2", "T is the rook (tour) in French"},
		// Spanish and Italian: R D T A C.
		{"es", openE4E5, "Ab5", "f1b5", "A is the bishop (alfil) in Spanish"},
		{"es", openE4E5, "Re2", "e1e2", "R is the king (rey) in Spanish"},
		{"it", openE4E5, "Ab5", "f1b5", "A is the bishop (alfiere) in Italian"},
		{"it", openE4E5, "Dh5", "d1h5", "D is the queen (donna) in Italian"},
		// Portuguese: R D T B C; B is the bishop as in English.
		{"pt", openE4E5, "Bb5", "f1b5", ""},
		{"pt", "", "Cc3", "b1c3", "C is the knight (cavalo) in Portuguese"},
		{"pt", openE4E5, "Re2", "e1e2", "R is the king (rei) in Portuguese"},
		// Dutch: K D T L P.
		{"nl", openE4E5, "Pe2", "g1e2", "P is the knight (paard) in Dutch"},
		{"nl", openE4E5, "Lc4", "f1c4", "L is the bishop (loper) in Dutch"},
		// Polish: K H W G S.
		{"pl", openE4E5, "Hh5", "d1h5", "H is the queen (hetman) in Polish"},
		{"pl", openE4E5, "Gc4", "f1c4", "G is the bishop (goniec) in Polish"},
		{"pl", kingRook, "Wh2", "h1h2", "W is the rook (wieża) in Polish"},
		{"pl", "", "Sc3", "b1c3", "S is the knight (skoczek) in Polish"},
		// Russian: Кр Ф Л С К, and on a Latin keyboard Kp, K, C.
		{"ru", "", "Кf3", "g1f3", "К is the knight (конь) in Russian"},
		{"ru", openE4E5, "Крe2", "e1e2", "Кр is the king (король) in Russian"},
		{"ru", openE4E5, "Фh5", "d1h5", "Ф is the queen (ферзь) in Russian"},
		{"ru", openE4E5, "Сc4", "f1c4", "С is the bishop (слон) in Russian"},
		{"ru", kingRook, "Лh2", "h1h2", "Л is the rook (ладья) in Russian"},
		{"ru", "", "Kf3", "g1f3", "K is the knight (К, конь) in Russian"},
		{"ru", openE4E5, "Kpe2", "e1e2", "Kp is the king (Кр, король) in Russian"},
		{"ru", openE4E5, "Cc4", "f1c4", "C is the bishop (С, слон) in Russian"},
		{"ru", openE4E5, "кр e2", "e1e2", "Кр is the king (король) in Russian"},
		// The letter apart from its square, a capture, a draw offer, a
		// move number, a case folded where it is no file.
		{"de", "", "S f3", "g1f3", "S is the knight (Springer) in German"},
		{"de", "", "1. Sf3", "g1f3", "S is the knight (Springer) in German"},
		{"de", "", "sf3", "g1f3", "S is the knight (Springer) in German"},
		{"de", "", "SF3", "g1f3", "S is the knight (Springer) in German"},
		{"fr", pawnKnigt, "Cxd4", "f3d4", "C is the knight (cavalier) in French"},
		// A small a is the a-file, not the Spanish bishop.
		{"es", pawnBshop, "axb5", "a4b5", ""},
		// The piece taken named too: one note a letter.
		{"de", knightTks, "SxS", "e3d5", "S is the knight (Springer) in German"},
		{"de", knightTks, "SxL", "e3f5", "S is the knight (Springer) in German; L is the bishop (Läufer) in German"},
		// Promotion letters.
		{"de", promotion, "a8=D", "a7a8q", "D is the queen (Dame) in German"},
		{"de", promotion, "a8T", "a7a8r", "T is the rook (Turm) in German"},
		{"fr", promotion, "a8=F", "a7a8b", "F is the bishop (fou) in French"},
		{"fr", promotion, "a8(C)", "a7a8n", "C is the knight (cavalier) in French"},
		{"ru", promotion, "a8Ф", "a7a8q", "Ф is the queen (ферзь) in Russian"},
		// The coordinate form's small promotion letter is English.
		{"fr", promotion, "a7a8r", "a7a8r", ""},
		// English letters no language of the player gives another piece
		// stay: a French player's N, B, Q.
		{"fr", openE4E5, "Nf3", "g1f3", ""},
		{"fr", openE4E5, "Bc4", "f1c4", ""},
		{"de", openE4E5, "Bc4", "f1c4", ""},
		{"en", openE4E5, "Ke2", "e1e2", ""},
	}
	for _, tt := range tests {
		p := pos(t, tt.fen)
		r, err := ReadFor(p, tt.line, Options{Language: tt.lang})
		if err != nil {
			t.Errorf("%s: ReadFor(%q): %v", tt.lang, tt.line, err)
			continue
		}
		if got := Coord(p, r.Move); got != tt.coord || r.Read != SAN(p, r.Move) {
			t.Errorf("%s: ReadFor(%q) = %s (read as %q), want %s", tt.lang, tt.line, got, r.Read, tt.coord)
		}
		if note := strings.Join(r.Notes, "; "); note != tt.note {
			t.Errorf("%s: ReadFor(%q) notes %q, want %q", tt.lang, tt.line, note, tt.note)
		}
	}
}

// TestSharedLetters: whatever the player's language, and with none set,
// the letters no English piece uses read as the one piece they mean in
// every language that writes them (S, L, D, T, C, A, F, H, W, G, and the
// Cyrillic letters), and the note names those languages.
func TestSharedLetters(t *testing.T) {
	tests := []struct {
		fen, line, coord, note string
	}{
		{"", "Sf3", "g1f3", "S is the knight in German and Polish"},
		{"", "Cc3", "b1c3", "C is the knight in French, Spanish, Italian and Portuguese"},
		{"", "Кf3", "g1f3", "К is the knight in Russian"},
		{openE4E5, "Lb5", "f1b5", "L is the bishop in German and Dutch"},
		{openE4E5, "Ab5", "f1b5", "A is the bishop in Spanish and Italian"},
		{openE4E5, "Fb5", "f1b5", "F is the bishop in French"},
		{openE4E5, "Gb5", "f1b5", "G is the bishop in Polish"},
		{openE4E5, "Сb5", "f1b5", "С is the bishop in Russian"},
		{openE4E5, "Dh5", "d1h5", "D is the queen in German, French, Spanish, Italian, Portuguese and Dutch"},
		{openE4E5, "Hh5", "d1h5", "H is the queen in Polish"},
		{openE4E5, "Фh5", "d1h5", "Ф is the queen in Russian"},
		{openE4E5, "Крe2", "e1e2", "Кр is the king in Russian"},
		{kingRook, "Th2", "h1h2", "T is the rook in German, French, Spanish, Italian, Portuguese and Dutch"},
		{kingRook, "Wh2", "h1h2", "W is the rook in Polish"},
		{kingRook, "Лh2", "h1h2", "Л is the rook in Russian"},
		{twoRooks, "Tfe1", "f1e1", "T is the rook in German, French, Spanish, Italian, Portuguese and Dutch"},
		{promotion, "a8=D", "a7a8q", "D is the queen in German, French, Spanish, Italian, Portuguese and Dutch"},
		{promotion, "a7a8s", "a7a8n", "S is the knight in German and Polish"},
		// A small letter that is no file of the board is read too.
		{"", "sf3", "g1f3", "S is the knight in German and Polish"},
	}
	for _, lang := range []string{"", "en", "de", "fr", "pl"} {
		for _, tt := range tests {
			p := pos(t, tt.fen)
			r, err := ReadFor(p, tt.line, Options{Language: lang})
			if err != nil {
				t.Errorf("%q: ReadFor(%q): %v", lang, tt.line, err)
				continue
			}
			if got := Coord(p, r.Move); got != tt.coord {
				t.Errorf("%q: ReadFor(%q) = %s, want %s", lang, tt.line, got, tt.coord)
			}
			// A player's own language says it in its own words.
			if note := strings.Join(r.Notes, "; "); note != tt.note && !strings.Contains(note, " in "+languageName(lang)) {
				t.Errorf("%q: ReadFor(%q) notes %q, want %q", lang, tt.line, note, tt.note)
			}
		}
	}
}

func languageName(code string) string {
	l, _ := LookupLanguage(code)
	return l.Name
}

// TestConflictingLetters: a letter that English uses for one piece and
// the player's language for another (R: the king in French, Spanish,
// Italian, Portuguese; P: the knight in Dutch; K and C: the knight and
// the bishop for a Russian on a Latin keyboard) is English until the
// player sets a language. Once set, the language's reading comes first;
// where only the English one is legal it is played and the reading says
// so; where both are, the player is asked, with candidates they can send
// back as they are.
func TestConflictingLetters(t *testing.T) {
	tests := []struct {
		name, lang, fen, line string
		coord                 string   // the move read, "" for a question
		cands                 []string // the candidates asked about
		note                  string
	}{
		{"French R before setting French: the rook", "", kingRook, "Rf1", "h1f1", nil, ""},
		{"French R after: both legal, asked", "fr", kingRook, "Rf1", "", []string{"Kf1", "Rh1-f1"}, ""},
		{"Spanish R after: the king alone can go", "es", kingRook, "Rd2", "e1d2", nil, "R is the king (rey) in Spanish"},
		{"Italian R after: the rook alone can go", "it", kingRook, "Rh5", "h1h5", nil, "R is the rook in English"},
		{"German: R is the rook as in English", "de", kingRook, "Rf1", "h1f1", nil, ""},
		{"Dutch P before setting Dutch: the pawn", "", "", "Pc3", "c2c3", nil, ""},
		{"Dutch P after: the pawn's c3 and the knight's c3, asked", "nl", "", "Pc3", "", []string{"Nc3", "c3"}, ""},
		{"Dutch P after: the knight alone", "nl", openE4E5, "Pe2", "g1e2", nil, "P is the knight (paard) in Dutch"},
		{"Dutch P after: the pawn alone", "nl", "", "Pe4", "e2e4", nil, "P is the pawn in English"},
		{"Russian K before setting Russian: the king", "", openE4E5, "Ke2", "e1e2", nil, ""},
		{"Russian K after: the king's e2 and the knight's e2, asked", "ru", openE4E5, "Ke2", "", []string{"Ke1-e2", "Ne2"}, ""},
		{"French promotion letter R: no king to promote to, the rook", "fr", promotion, "a8=R", "a7a8r", nil, "R is the rook in English"},
		{"French: a small c that is a file stays a pawn's capture", "fr", pawnKnigt, "cxd4", "c3d4", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pos(t, tt.fen)
			r, err := ReadFor(p, tt.line, Options{Language: tt.lang})
			if tt.coord == "" {
				e, ok := err.(*Error)
				if !ok || strings.Join(e.Candidates, " ") != strings.Join(tt.cands, " ") {
					t.Fatalf("ReadFor(%q) = %+v, %v; want a question with %q", tt.line, r, err, tt.cands)
				}
				for _, c := range e.Candidates {
					got, err := ReadFor(p, c, Options{Language: tt.lang})
					if err != nil {
						t.Errorf("the candidate %q does not read back: %v", c, err)
					} else if SAN(p, got.Move) == "" {
						t.Errorf("the candidate %q reads as nothing", c)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadFor(%q): %v", tt.line, err)
			}
			if got := Coord(p, r.Move); got != tt.coord {
				t.Errorf("ReadFor(%q) = %s, want %s", tt.line, got, tt.coord)
			}
			if note := strings.Join(r.Notes, "; "); note != tt.note {
				t.Errorf("ReadFor(%q) notes %q, want %q", tt.line, note, tt.note)
			}
		})
	}
}

// TestLetterRefusals: a move in another language's letters that is not
// legal is refused with the reason of its English form, and says how its
// letters were read.
func TestLetterRefusals(t *testing.T) {
	tests := []struct {
		lang, fen, line string
		want            []string
	}{
		{"de", "", "Lb5", []string{`"Lb5" was not played: your bishop on f1 cannot go to b5`, "(L is the bishop (Läufer) in German.)"}},
		{"", "", "Dh5", []string{`your queen on d1 cannot go to h5`, "(D is the queen in German, French"}},
		{"fr", "", "Rf2", []string{`your king on e1 cannot go to f2`, "(R is the king (roi) in French.)"}},
		{"fr", promotion, "a8=K", []string{"K is not a promotion choice there"}},
		// An English letter the language reads alike: asked without a note.
		{"de", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", []string{`"Nd2" is ambiguous: more than one legal move fits (Nbd2, Nfd2).`}},
	}
	for _, tt := range tests {
		p := pos(t, tt.fen)
		_, err := ReadFor(p, tt.line, Options{Language: tt.lang})
		if err == nil {
			t.Errorf("%s: ReadFor(%q) read a move", tt.lang, tt.line)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: ReadFor(%q): %v\nwant it to contain %q", tt.lang, tt.line, err, w)
			}
		}
	}
}

// TestVariantsKeepTheirLetters: a variant's own letters mean its own
// pieces for every language: Cuarenta's C (camel), F (frog), G (guard),
// V (vao); Toto40's H (hawk); Toe-to-Toe's G (general), E (elephant), R
// (chariot) and N (horse); Chec Toe's P, which is its pawn even for a
// Dutch player (pawns there must carry their letter). In every variant,
// every language reads each legal move's coordinate form, and its SAN
// unless the SAN starts with a letter the language gives another piece.
func TestVariantsKeepTheirLetters(t *testing.T) {
	for _, l := range append(Languages(), Language{}) {
		for _, v := range rules.Variants() {
			for _, p := range positions(t, v, 4) {
				for _, m := range p.Legal() {
					san := SAN(p, m)
					forms := []string{Coord(p, m)}
					if !conflicts(l, p.Variant(), san) {
						forms = append(forms, san)
					}
					for _, f := range forms {
						r, err := ReadFor(p, f, Options{Language: l.Code})
						if err != nil || r.Move != m {
							t.Fatalf("%s, %q: %s: ReadFor(%q) = %v, %v; want %s", v.Name(), l.Code, p, f, r.Read, err, san)
						}
					}
				}
			}
		}
	}
	// The fairy letters, in positions where they move, for a player of
	// each language whose letters they are too.
	tests := []struct {
		variant, fen, line, lang, coord string
	}{
		{"cuarenta", "", "Cg4", "fr", "h1g4"},
		{"cuarenta", "", "Cg4", "", "h1g4"},
		{"cuarenta", "", "Fd5", "fr", "d1d5"},
		{"cuarenta", "", "Ga4", "pl", "c2a4"},
		{"cuarenta", "", "Ga4", "", "c2a4"},
		{"cuarenta", "", "Vxf7", "ru", "a2f7"},
		{"toto40", "", "Hf5", "pl", "f3f5"},
		{"toto40", "", "Hf5", "", "f3f5"},
	}
	for _, tt := range tests {
		v, err := rules.Lookup(tt.variant)
		if err != nil {
			t.Fatal(err)
		}
		p := v.Start()
		if tt.fen != "" {
			if p, err = v.ParsePosition(tt.fen); err != nil {
				t.Fatal(err)
			}
		}
		r, err := ReadFor(p, tt.line, Options{Language: tt.lang})
		if err != nil {
			t.Errorf("%s, %q: ReadFor(%q): %v", tt.variant, tt.lang, tt.line, err)
			continue
		}
		if got := Coord(p, r.Move); got != tt.coord || len(r.Notes) != 0 {
			t.Errorf("%s, %q: ReadFor(%q) = %s, notes %q; want %s without a note", tt.variant, tt.lang, tt.line, got, r.Notes, tt.coord)
		}
	}
	// A letter of another language for a piece the variant does not have
	// is no piece there: Cuarenta has no knight, Toto40 no bishop.
	for _, tt := range []struct{ variant, line, want string }{
		{"cuarenta", "Sg4", "Cuarenta has no piece with the letter S"},
		{"cuarenta", "Кg4", "Cuarenta has no piece with the letter N"},
		{"toto40", "Lf5", "Toto40 has no piece with the letter L"},
		{"toetotoe", "T@a1 T@h1", "Toe-to-Toe Chess has no piece with the letter T"},
	} {
		v, _ := rules.Lookup(tt.variant)
		if _, err := ReadFor(v.Start(), tt.line, Options{Language: "de"}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ReadFor(%q): %v, want %q", tt.variant, tt.line, err, tt.want)
		}
	}
}

// TestRenamedPiecesKeepTheirLetters: Toe-to-Toe's N (horse) and R
// (chariot) are no knight and no rook, so another language's letter for
// those ("S", "T") names no piece there, for a player of that language
// and with none set.
func TestRenamedPiecesKeepTheirLetters(t *testing.T) {
	v, err := rules.Lookup("toetotoe")
	if err != nil {
		t.Fatal(err)
	}
	// In play: the horse on b1 may go to c3, the chariot on g1 to g2.
	p, err := v.ParsePosition("8/3g4/k1e1n1en/pppppppp/PPPPPPPP/1N2ER2/8/KE1NG1R1[] w p 0 5")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ lang, line, want string }{
		{"de", "Sc3", `"Sc3" was not played: Toe-to-Toe Chess has no piece with the letter S`},
		{"", "Sc3", `"Sc3" was not played: Toe-to-Toe Chess has no piece with the letter S`},
		{"de", "Tg2", `"Tg2" was not played: Toe-to-Toe Chess has no piece with the letter T`},
		{"", "Tg2", `"Tg2" was not played: Toe-to-Toe Chess has no piece with the letter T`},
	} {
		if r, err := ReadFor(p, tt.line, Options{Language: tt.lang}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: ReadFor(%q) = %q, %v; want %q", tt.lang, tt.line, r.Read, err, tt.want)
		}
	}
}

// conflicts reports whether the SAN san starts with a letter that the
// language l reads as another piece in v (a French player's "Rf1").
func conflicts(l Language, v rules.Variant, san string) bool {
	if l.Code == "" || san == "" {
		return false
	}
	lt := newLetters(Options{Language: l.Code})
	c, _ := lt.piece(v, v.Board(), san[:1], true)
	if c != san[0] {
		return true
	}
	for _, x := range []string{"=", "("} {
		if i := strings.Index(san, x); i >= 0 && i+1 < len(san) {
			if c, _ := lt.piece(v, v.Board(), san[i+1:i+2], true); c != san[i+1] {
				return true
			}
		}
	}
	return false
}

// TestReadIsEnglish: Read and Parse read the variant's letters only, as
// records and tools write them: "Cc3" is no knight there (TestUnknownLetters).
func TestReadIsEnglish(t *testing.T) {
	p := rules.Chess().Start()
	for _, line := range []string{"Sf3", "Cc3", "Кf3"} {
		if _, err := Read(p, line); err == nil {
			t.Errorf("Read(%q) read a move", line)
		}
		if _, err := ReadFor(p, line, Options{}); err != nil {
			t.Errorf("ReadFor(%q): %v", line, err)
		}
	}
}

// TestLookupLanguage: codes and names in any case, and the languages'
// own names with or without their accents.
func TestLookupLanguage(t *testing.T) {
	for in, want := range map[string]string{
		"de": "de", "DE": "de", "German": "de", "deutsch": "de", "français": "fr", "Francais": "fr",
		"español": "es", "espanol": "es", "italiano": "it", "português": "pt", "portugues": "pt",
		"nederlands": "nl", "Dutch": "nl", "polski": "pl", "русский": "ru", "Russian": "ru", "en": "en",
	} {
		if l, ok := LookupLanguage(in); !ok || l.Code != want {
			t.Errorf("LookupLanguage(%q) = %q, %v; want %q", in, l.Code, ok, want)
		}
	}
	for _, in := range []string{"", "xx", "klingon", "d"} {
		if l, ok := LookupLanguage(in); ok {
			t.Errorf("LookupLanguage(%q) = %q", in, l.Code)
		}
	}
	// At least the languages of issue 42.
	var codes []string
	for _, l := range Languages() {
		codes = append(codes, l.Code)
	}
	if got := strings.Join(codes, " "); got != "en de fr es it pt nl pl ru" {
		t.Errorf("languages %s", got)
	}
}

// TestReadingLanguages: a line in letters no English piece uses names
// the languages it may be written in, for the hint to set one: every
// letter of the line must fit ("a8=D" is not Polish, whose queen is H).
func TestReadingLanguages(t *testing.T) {
	for _, tt := range []struct {
		lang, fen, line, want string
	}{
		{"", "", "Sf3", "de pl"},
		{"", openE4E5, "Fb5", "fr"},
		{"", openE4E5, "Gb5", "pl"},
		{"", "", "Кf3", "ru"},
		{"", "", "Nf3", ""},
		{"", "", "5254", ""},
		{"", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=D", "de fr es it pt nl"},
		{"de", "", "Sf3", ""}, // a language set: nothing to hint
	} {
		p := pos(t, tt.fen)
		r, err := ReadFor(p, tt.line, Options{Language: tt.lang})
		if err != nil {
			t.Fatalf("ReadFor(%q): %v", tt.line, err)
		}
		if got := strings.Join(r.Languages, " "); got != tt.want {
			t.Errorf("ReadFor(%q, %q).Languages = %q, want %q", tt.line, tt.lang, got, tt.want)
		}
	}
}
