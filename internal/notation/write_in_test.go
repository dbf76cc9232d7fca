package notation

import (
	"testing"

	"referee/internal/rules"
)

// TestWriteIn: the record in a reader's letters (issue 42): the pieces'
// letters change, squares, castling, promotions' "=" and marks stay;
// Russian, whose letters are Cyrillic, gets figurines.
func TestWriteIn(t *testing.T) {
	chess, err := rules.Lookup("chess")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ code, san, want string }{
		{"de", "Nf3", "Sf3"},
		{"de", "Qxe7+", "Dxe7+"},
		{"de", "e8=Q#", "e8=D#"},
		{"de", "O-O-O", "O-O-O"},
		{"de", "bxc4", "bxc4"},
		{"fr", "Kf1", "Rf1"},
		{"fr", "Rf1", "Tf1"},
		{"nl", "Nbd2", "Pbd2"},
		{"pl", "Qh5", "Hh5"},
		{"ru", "Nf3", "♘f3"},
		{"ru", "Kxe2", "♔xe2"},
		{"en", "Nf3", "Nf3"},
		{"", "Nf3", "Nf3"},
		{"xx", "Nf3", "Nf3"},
		{"german", "Nf3", "Nf3"}, // a language's name is no code
		// Figurines on request (lang.Tag), whatever the language, and
		// without one.
		{"de-x-fig", "Nf3", "♘f3"},
		{"fr-x-fig", "Kf1", "♔f1"},
		{"fr-x-fig", "Rf1", "♖f1"},
		{"nl-x-fig", "e8=Q#", "e8=♕#"},
		{"x-fig", "Bxc4", "♗xc4"},
		{"en-x-fig", "O-O", "O-O"},
		{"ru-x-fig", "Nf3", "♘f3"},
		{"xx-x-fig", "Nf3", "Nf3"},
	} {
		if got := WriteIn(chess, c.san, c.code); got != c.want {
			t.Errorf("WriteIn(%q, %q) = %q, want %q", c.san, c.code, got, c.want)
		}
	}
	// Chec Toe's pawn carries its letter, which no language changes.
	checToe, err := rules.Lookup("chectoe")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ code, san, want string }{
		{"de", "Pa2", "Pa2"},
		{"de", "N@b3", "S@b3"},
	} {
		if got := WriteIn(checToe, c.san, c.code); got != c.want {
			t.Errorf("Chec Toe: WriteIn(%q, %q) = %q, want %q", c.san, c.code, got, c.want)
		}
	}
	// Toe-to-Toe's horse (N) and chariot (R) are no knight and no rook:
	// their letters stay, first in the move and after "=" alike.
	toeToToe, err := rules.Lookup("toetotoe")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ code, san, want string }{
		{"de", "Nc3", "Nc3"},
		{"fr", "Rg2", "Rg2"},
		{"de", "e8=R", "e8=R"},
		// The king stays K for a French reader: R is the chariot there
		// (it was written "Rd2", which that reader reads as the chariot).
		{"fr", "Kd2", "Kd2"},
		{"pl", "Kd2", "Kd2"},
	} {
		if got := WriteIn(toeToToe, c.san, c.code); got != c.want {
			t.Errorf("Toe-to-Toe: WriteIn(%q, %q) = %q, want %q", c.san, c.code, got, c.want)
		}
	}
	// Likewise Cuarenta's bishop for a French and a Polish reader (F is
	// the frog there, G the guard), and Chec Toe's knight for a Dutch
	// one (P is the pawn there): the English letter stays.
	cuarenta, err := rules.Lookup("cuarenta")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v               rules.Variant
		code, san, want string
	}{
		{cuarenta, "fr", "Bxf7", "Bxf7"},
		{cuarenta, "pl", "Bb2", "Bb2"},
		{cuarenta, "de", "Bb2", "Lb2"},
		{cuarenta, "fr", "Kd1", "Rd1"},
		{checToe, "nl", "Nb3", "Nb3"},
		{checToe, "nl", "N@b3", "N@b3"},
		{checToe, "fr", "Nb3", "Cb3"},
	} {
		if got := WriteIn(c.v, c.san, c.code); got != c.want {
			t.Errorf("%s: WriteIn(%q, %q) = %q, want %q", c.v.Name(), c.san, c.code, got, c.want)
		}
	}
}

// TestExampleIn: the example a mail offers reads back as the same move
// for its reader: the French "Cc3" is the knight's move; the Dutch
// "Pc3" is also the English pawn's c3, so a Dutch reader gets "b1c3".
func TestExampleIn(t *testing.T) {
	chess, err := rules.Lookup("chess")
	if err != nil {
		t.Fatal(err)
	}
	pos := chess.Start()
	m, err := Parse(pos, "Nc3")
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]string{"en": "Nc3", "de": "Sc3", "fr": "Cc3", "nl": "b1c3", "ru": "♘c3"} {
		if got := ExampleIn(pos, m, code); got != want {
			t.Errorf("ExampleIn(Nc3, %s) = %q, want %q", code, got, want)
		}
	}
	// Toe-to-Toe: the king's b2 is "Kb2" in French too, since a French
	// player reads "Rb2" as the chariot's (R is the chariot there).
	toeToToe, err := rules.Lookup("toetotoe")
	if err != nil {
		t.Fatal(err)
	}
	if pos, err = toeToToe.ParsePosition("8/3g4/k1e1n1en/pppppppp/PPPPPPPP/1N2E3/5R2/KE1NG3[] w p 0 5"); err != nil {
		t.Fatal(err)
	}
	if m, err = Parse(pos, "Kb2"); err != nil {
		t.Fatal(err)
	}
	if r, err := ReadFor(pos, "Rb2", Options{Language: "fr"}); err != nil || r.Move == m {
		t.Fatalf("ReadFor(Rb2, fr) = %q, %v; want the chariot's move", r.Read, err)
	}
	for code, want := range map[string]string{"en": "Kb2", "de": "Kb2", "fr": "Kb2"} {
		if got := ExampleIn(pos, m, code); got != want {
			t.Errorf("Toe-to-Toe: ExampleIn(Kb2, %s) = %q, want %q", code, got, want)
		}
	}
}

// TestWriteInReadsBack: every legal move of every variant, from its start
// and a few plies on, written for each reader (each language, with and
// without figurines) is read back for that reader as the same move, or
// ExampleIn falls back to a form that is: what the reader copies from
// their mail is what was played. A figurine is read as the piece it
// shows, so the French reader's ♖ is the rook even where the king could
// go to the same square (R is the French king).
func TestWriteInReadsBack(t *testing.T) {
	var tags []string
	for _, l := range Languages() {
		tags = append(tags, l.Code, l.Code+"-x-fig")
	}
	tags = append(tags, "", "x-fig")
	for _, v := range rules.Variants() {
		pos := v.Start()
		for ply := 0; ply < 4 && !pos.Result().Over; ply++ {
			legal := pos.Legal()
			for _, m := range legal {
				san := SAN(pos, m)
				for _, tag := range tags {
					w := WriteIn(v, san, tag)
					if w == san {
						continue // SAN itself: the reading tests read it
					}
					r, err := ReadFor(pos, w, Options{Language: tag})
					if err != nil || r.Move != m {
						// WriteIn's letters are the reader's, but a mail's
						// example must read back: ExampleIn makes sure.
						ex := ExampleIn(pos, m, tag)
						if r2, err2 := ReadFor(pos, ex, Options{Language: tag}); err2 != nil || r2.Move != m {
							t.Errorf("%s %q: %s written %q for %q reads %q, %v; example %q reads %q, %v",
								v.Name(), pos, san, w, tag, r.Read, err, ex, r2.Read, err2)
						}
					}
				}
			}
			if len(legal) == 0 {
				break
			}
			next, err := pos.Play(legal[len(legal)/2])
			if err != nil {
				t.Fatal(err)
			}
			pos = next
		}
	}
}

// TestFigurinesReadAsTheirPiece: a figurine is the piece it shows for a
// reader of any language, though its English letter is another piece in
// theirs (R is the French king, P the Dutch knight).
func TestFigurinesReadAsTheirPiece(t *testing.T) {
	chess, err := rules.Lookup("chess")
	if err != nil {
		t.Fatal(err)
	}
	// White's king on e1 and rook on h1, f1 empty: Kf1 and Rf1 are legal.
	pos, err := chess.ParsePosition("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tag, line, want string }{
		{"fr", "♖f1", "Rf1"},
		{"fr-x-fig", "♖f1", "Rf1"},
		{"fr-x-fig", "♔f1", "Kf1"},
		{"es", "♖f1", "Rf1"},
		{"ru", "♔f1", "Kf1"},
		{"ru", "♖f1", "Rf1"},
	} {
		r, err := ReadFor(pos, c.line, Options{Language: c.tag})
		if err != nil || r.Read != c.want {
			t.Errorf("ReadFor(%q, %q) = %q, %v; want %s", c.line, c.tag, r.Read, err, c.want)
		}
	}
}

// BenchmarkWriteIn writes one move for a reader of each kind: a board
// mail writes its whole record so, every move for every non-English
// reader. The letter readers are built once (readers): before, each call
// built them, at 52 µs a move in German.
func BenchmarkWriteIn(b *testing.B) {
	v := rules.Chess()
	for _, tag := range []string{"en", "de", "ru", "de-x-fig"} {
		b.Run(tag, func(b *testing.B) {
			for b.Loop() {
				WriteIn(v, "Nf3", tag)
			}
		})
	}
}
