package notation

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"referee/internal/rules"
)

// positions plays n plies of v from the start, choosing moves by a fixed
// rule (Chec Toe's die fed fixed values), and returns every position
// reached where the side to act has a legal move.
func positions(t testing.TB, v rules.Variant, n int) []rules.Position {
	t.Helper()
	var out []rules.Position
	p := v.Start()
	die := 0
	for ply := 0; ply < n; ply++ {
		for {
			r, ok := p.(rules.Roller)
			if !ok || !r.NeedsRoll() {
				break
			}
			die++
			next, err := r.Roll([]int{3, 6, 2, 5, 6, 6, 1, 4}[die%8])
			if err != nil {
				t.Fatal(err)
			}
			p = next
		}
		legal := p.Legal()
		if len(legal) == 0 {
			break
		}
		out = append(out, p)
		next, err := p.Play(legal[(ply*7+3)%len(legal)])
		if err != nil {
			t.Fatal(err)
		}
		p = next
	}
	return out
}

// numbered writes text with the move number of p before it, as players
// do: "12. Nf3" for White, "12... Nf6" for Black.
func numbered(p rules.Position, text string) string {
	if p.Turn() == rules.Black {
		return fmt.Sprintf("%d... %s", p.MoveNumber(), text)
	}
	return fmt.Sprintf("%d. %s", p.MoveNumber(), text)
}

// TestReadAllVariants: in 30 positions of every variant, each legal move's
// canonical and coordinate forms read as that move, alone, with the move
// number before them and with a draw offer after them, and Read gives back
// the canonical form (docs/rules/README.md#notation: liberal in, strict out).
func TestReadAllVariants(t *testing.T) {
	for _, v := range rules.Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			for _, p := range positions(t, v, 30) {
				for _, m := range p.Legal() {
					san := SAN(p, m)
					for _, tc := range []struct {
						line  string
						offer bool
					}{
						{san, false},
						{Coord(p, m), false},
						{numbered(p, san), false},
						{san + " draw", true},
						{numbered(p, Coord(p, m)) + ", and I offer a draw.", true},
					} {
						r, err := Read(p, tc.line)
						if err != nil || r.Move != m || r.OfferDraw != tc.offer || r.Read != san {
							t.Fatalf("%s: Read(%q) = %+v, %v; want the move %s, offer %v", p, tc.line, r, err, san, tc.offer)
						}
					}
				}
			}
		})
	}
}

// TestReadForms: the extra forms of an action line (move numbers,
// figurines, a letter apart from its square, marks, draw offers) read as
// the move they write, and nothing else.
func TestReadForms(t *testing.T) {
	const black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	const move12 = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2 12"
	const move12black = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12"
	tests := []struct {
		fen, line, coord string
		offer            bool
	}{
		{"", "1. e4", "e2e4", false},
		{"", "1.e4", "e2e4", false},
		{"", "1 . e4", "e2e4", false},
		{move12, "12. Nf3", "g1f3", false},
		{black, "1... e5", "e7e5", false},
		{black, "1...e5", "e7e5", false},
		{black, "...e5", "e7e5", false},
		{black, "… e5", "e7e5", false},  // U+2026, as phones write "..."
		{black, "1. e5", "e7e5", false}, // the number alone does not say the side
		{"", "N c3", "b1c3", false},
		{"", "N g1-f3", "g1f3", false},
		{"", "♘f3", "g1f3", false},
		{"", "♞c3", "b1c3", false}, // a black figurine for White's knight: the letter is what counts
		{"", "♘ f3", "g1f3", false},
		{"", "♙e4", "e2e4", false},
		{"", "Nf3+", "g1f3", false},
		{"", "Nf3 !?", "g1f3", false},
		{"", "Nf3.", "g1f3", false},
		{"", "Nc3 draw", "b1c3", true},
		{"", "Nc3 draw?", "b1c3", true},
		{"", "Nc3, draw?", "b1c3", true},
		{"", "Nc3; draw", "b1c3", true},
		{"", "Nc3 and I offer a draw", "b1c3", true},
		{"", "Nc3, and I offer a draw", "b1c3", true},
		{"", "Nc3, and I offer a draw.", "b1c3", true},
		{"", "Nc3 I offer you a draw", "b1c3", true},
		{"", "Nc3 offer draw", "b1c3", true},
		{"", "Nc3 draw offered", "b1c3", true},
		{"", "Nc3 (draw offered)", "b1c3", true},
		{"", "Nc3 (draw?)", "b1c3", true},
		{"", "Nc3 (offer a draw)", "b1c3", true},
		{"", "Nc3 (=)", "b1c3", true}, // the correspondence sign for a draw offer
		{"", "NC3 DRAW", "b1c3", true},
		{"", "1. Nc3 draw", "b1c3", true},
		{move12black, "...Nf6", "g8f6", false}, // Black's dots without the number, later in the game
		{move12black, "12... Nf6", "g8f6", false},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.", "e5d6", false},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6ep", "e5d6", false},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8(Q)", "a7a8q", false},
	}
	for _, tt := range tests {
		p := pos(t, tt.fen)
		r, err := Read(p, tt.line)
		if err != nil {
			t.Errorf("Read(%q): %v", tt.line, err)
			continue
		}
		if got := Coord(p, r.Move); got != tt.coord || r.OfferDraw != tt.offer || r.Read != SAN(p, r.Move) {
			t.Errorf("Read(%q) = %s, offer %v, read as %q; want %s, offer %v", tt.line, got, r.OfferDraw, r.Read, tt.coord, tt.offer)
		}
	}
}

// TestReadChecToeCommands: a number-like command is not a move number:
// "666." is the apocalypse roll after a double six (docs/rules/chectoe.md, docs/rules/README.md#notation).
func TestReadChecToeCommands(t *testing.T) {
	p, err := rules.ChecToe().ParsePosition("4/2n1/1P2/2N1[BRpbr] w 66 - 3")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"666", "666.", "roll", "roll, draw?"} {
		r, err := Read(p, line)
		if err != nil || r.Move.Kind != rules.Roll || r.Read != "roll" {
			t.Errorf("Read(%q) = %+v, %v; want the apocalypse roll", line, r, err)
		}
	}
}

// TestReadNoSilentSkips: a character the referee does not use makes the
// line a question back to the player, quoting what was read and what was
// not understood.
func TestReadNoSilentSkips(t *testing.T) {
	const black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	const castling = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	const rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"
	tests := []struct {
		fen, line string
		want      []string // each must be in the error
	}{
		{"", "Nf3 please", []string{`read "Nf3" as a move but did not understand "please" after it`, `e.g. "Nf3"`, "lines below"}},
		{"", "please Nf3", []string{`read "Nf3" as a move but did not understand "please" before it`}},
		{"", "e4 e5", []string{`read "e4" as a move but did not understand "e5" after it`}},
		{"", "1. e4 e5", []string{`did not understand "e5" after it`}},
		{"", "(Nf3)", []string{`read "Nf3" as a move but did not understand "(" before it and ")" after it`}},
		{"", "Nf3)", []string{`did not understand ")" after it`}},
		{"", "e4=", []string{`read "e4" as a move but did not understand "=" after it`}},
		{"", "e4(", []string{`did not understand "(" after it`}},
		{"", "e4/", []string{`did not understand "/" after it`}},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8(Q", []string{`did not understand`}},
		{"", "Nc3 draw please", []string{`did not understand "draw please" after it`, `To offer a draw with your move, write "Nc3 draw"`}},
		{"", "Nc3 want a draw?", []string{`did not understand "want a draw" after it`, `write "Nc3 draw"`}},
		{"", "Nc3 drawn", []string{`did not understand "drawn"`}},
		{"", "Qh5 Nc3", []string{`read "Qh5" as a move but did not understand "Nc3" after it`, `"Qh5" on its own would not be played`}},
		{"", "Nxf3", []string{`it is written as a capture, but Nf3 captures nothing (f3 is empty). Reply "Nf3"`}},
		{"", "e4 e.p.", []string{`e4 is not an en passant capture`}},
		{"", "2. e4", []string{`it is numbered 2, but the game is at move 1 (White to play)`, `"e4"`, `"1. e4"`}},
		{black, "2... e5", []string{`it is numbered 2, but the game is at move 1 (Black to play)`, `"1... e5"`}},
		{"", "...e5", []string{`"..." marks a move of Black, but it is White's turn`}},
		{"", "1.", []string{`is not a move the referee can read`}},
		{"", "hello", []string{`is not a move the referee can read`}},
		{"", "e4 I think", []string{`read "e4" as a move but did not understand "I think" after it`}},
		{"", "N c3 please", []string{`read "Nc3" as a move but did not understand "please" after it`}},
		// The readable part is found at the end of the line as well as at
		// its start, and inside it ("(Nf3" has no closing bracket).
		{"", "(Nf3", []string{`read "Nf3" as a move but did not understand "(" before it`}},
		{"", "please play Nf3 thanks", []string{`read "Nf3" as a move but did not understand "please play" before it and "thanks" after it`}},
		// Castling and the commands are readable parts too.
		{castling, "O-O please", []string{`read "O-O" as a move but did not understand "please" after it`, `e.g. "O-O"`}},
		// The readable part is itself ambiguous: the candidates are named.
		{rooks, "Rd1 please", []string{`read "Rd1" as a move but did not understand "please" after it`, `And "Rd1" is ambiguous: more than one legal move fits (Rad1, Rhd1). Reply with one of "Rad1" or "Rhd1"`}},
		// A wrong move number: the move is suggested as the referee writes it.
		{"", "2. e2-e4", []string{`it is numbered 2, but the game is at move 1`, `e.g. "e4"`, `"1. e4"`}},
		{"", "0. e4", []string{`it is numbered 0, but the game is at move 1`}},
		// Dots with no move after them are no mark of Black's move.
		{"", "...", []string{`is empty: write a move such as`}},
		// One letter is no move (and "N", a piece letter, no knight move).
		{"", "N", []string{`is not a move the referee can read`}},
		{"", "Y", []string{`is not a move the referee can read`}},
	}
	for _, tt := range tests {
		p := pos(t, tt.fen)
		r, err := Read(p, tt.line)
		var ne *Error
		if !errors.As(err, &ne) {
			t.Errorf("Read(%q) = %+v, %v; want a *notation.Error", tt.line, r, err)
			continue
		}
		msg := err.Error()
		for _, w := range append(tt.want, fmt.Sprintf("%q", tt.line)) {
			if !strings.Contains(msg, w) {
				t.Errorf("Read(%q) error\n  %s\nwant it to contain\n  %s", tt.line, msg, w)
			}
		}
	}
}

// TestUnknownLetters: a piece letter or figurine the variant has no piece
// for is refused with the variant's letters (taken from its piece table),
// never read as a pawn move or a file ("Cc3" is not c3).
func TestUnknownLetters(t *testing.T) {
	const checToe = "4/2n1/1P2/2N1[BRpbr] w 5 - 3"
	tests := []struct {
		variant, fen, line, want string
	}{
		{"chess", "", "Cc3", `"Cc3" was not played: Chess has no piece with the letter C (pieces: K Q R B N; pawn moves are written without a letter, e.g. "c3").`},
		{"chess", "", "CC3", `Chess has no piece with the letter C (pieces: K Q R B N; pawn moves are written without a letter, e.g. "c3").`},
		{"chess", "", "Xf3", `Chess has no piece with the letter X (pieces: K Q R B N; pawn moves`},
		{"chess", "", "xf3", `Chess has no piece with the letter X`},
		{"chess", "", "zf3", `Chess has no piece with the letter Z`},
		{"chess", "", "aab5", `Chess has no piece with the letter A`}, // a doubled key: the first letter read as a piece's, as in "xf3"
		// A capital that is no piece is no file, whatever follows it: not
		// the bishop's c1a3, not the pawn's axb5.
		{"chess", "rnbqkbnr/1ppppppp/p7/8/8/1P6/P1PPPPPP/RNBQKBNR w KQkq - 0 2", "C1a3", `Chess has no piece with the letter C (pieces: K Q R B N; pawn moves are written without a letter, e.g. "Ba3").`},
		{"chess", "rnbqkbnr/p1pppppp/8/1p6/P7/8/1PPPPPPP/RNBQKBNR w KQkq b6 0 2", "Axb5", `Chess has no piece with the letter A (pieces: K Q R B N; pawn moves`},
		{"chess", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "Exd5", `Chess has no piece with the letter E (pieces: K Q R B N; pawn moves are written without a letter, e.g. "exd5").`},
		{"chess", "", "Gf3", `Chess has no piece with the letter G`},
		{"chess", "", "Vc3", `Chess has no piece with the letter V`},
		{"toroidal", "", "Cc3", `Toroidal chess has no piece with the letter C (pieces: K Q R B N; pawn moves`},
		{"klein", "", "Hc3", `Klein chess has no piece with the letter H (pieces: K Q R B N;`},
		{"cuarenta", "", "Qd5", `Cuarenta has no piece with the letter Q (pieces: K B V G C F; pawn moves are written without a letter`},
		{"cuarenta", "", "Nc4", `Cuarenta has no piece with the letter N (pieces: K B V G C F;`},
		{"cuarenta", "", "♕d5", `Cuarenta has no queen, which the figurine ♕ stands for (pieces: K B V G C F;`},
		{"toto40", "", "Bd6", `Toto40 has no piece with the letter B (pieces: K R N H; pawn moves`},
		{"toto40", "", "♗d4", `Toto40 has no bishop, which the figurine ♗ stands for (pieces: K R N H;`},
		{"toto40", "", "BxN", `Toto40 has no piece with the letter B (pieces: K R N H;`}, // a capture naming the piece taken
		{"toetotoe", "", "Q@e1 G@d1", `Toe-to-Toe Chess has no piece with the letter Q (pieces: K G R N E;`},
		{"chectoe", checToe, "Q@a1", `Chec Toe has no piece with the letter Q (pieces: P N B R`},
		{"chectoe", checToe, "a@b3", `Chec Toe has no piece with the letter A (pieces: P N B R`},
		{"chectoe", checToe, "z@b3", `Chec Toe has no piece with the letter Z (pieces: P N B R`},
		{"chectoe", checToe, "Kd2", `Chec Toe has no piece with the letter K (pieces: P N B R`},
		{"chectoe", checToe, "♔d2", `Chec Toe has no king, which the figurine ♔ stands for (pieces: P N B R`},
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
		for _, read := range []func() error{
			func() error { _, err := Read(p, tt.line); return err },
			func() error { _, err := Parse(p, tt.line); return err },
		} {
			err := read()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: %q: error %v, want it to contain %q", tt.variant, tt.line, err, tt.want)
			}
		}
	}
}

// TestParseNoSilentSkips: the characters Parse used to skip (an unknown
// capital read as a file, a capture mark with nothing before it, a
// dangling promotion sign, a capture or e.p. mark on a move that captures
// nothing) now make an error.
func TestParseNoSilentSkips(t *testing.T) {
	for _, tt := range []struct{ fen, in string }{
		{"", "Cc3"},
		{"", "CC3"},
		{"", "Xf3"},
		{"", "e4="},
		{"", "e4("},
		{"", "e4/"},
		{"", "Nf3)"},
		{"", "Nxf3"},
		{"", "e2xe4"},
		{"", "e4 ep"},
		{"", "e4e.p."},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8(Q"},
	} {
		p := pos(t, tt.fen)
		if m, err := Parse(p, tt.in); err == nil {
			t.Errorf("Parse(%q) = %s, want an error", tt.in, Coord(p, m))
		}
	}
}

// FuzzRead: no line panics Read; a move read is legal, and reading its
// canonical form again gives the same move without a draw offer; an error
// quotes the line.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"e4", "1. e4", "1...e5", "Nc3 draw", "Nc3, and I offer a draw.", "Nc3 (=)", "N c3", "♘f3",
		"Cc3", "Nf3 please", "(Nf3)", "e4 e.p.", "K@e1 G@d1", "e1<>d1", "Nb3⌄", "b2d4^", "pass", "O-O", "…e5", "\x00", "12. ♞ xc3+",
		// ICCF numeric notation and other languages' letters (issue 42).
		"5254", "1. 5254", "57581", "9254", "525412", "2027 please", "Sf3", "Tfe1", "e8=D", "Кр e2", "кf3", "Kpe2", "Pc3", "Rf1", "S@b3", "a8(Ф)"} {
		f.Add(s, []byte{3, 12, 7})
	}
	variants := rules.Variants()
	f.Fuzz(func(t *testing.T, line string, walk []byte) {
		if len(walk) == 0 {
			walk = []byte{0}
		}
		if len(walk) > 80 {
			walk = walk[:80] // long games only slow the search down (superko and repetition histories)
		}
		p := variants[int(walk[0])%len(variants)].Start()
		for _, c := range walk[1:] {
			if r, ok := p.(rules.Roller); ok && r.NeedsRoll() {
				n, err := r.Roll(int(c)%6 + 1)
				if err != nil {
					t.Fatal(err)
				}
				p = n
				continue
			}
			legal := p.Legal()
			if len(legal) == 0 {
				break
			}
			n, err := p.Play(legal[int(c)%len(legal)])
			if err != nil {
				t.Fatal(err)
			}
			p = n
		}
		// ReadFor, in a language the walk picks: a move read is legal, and
		// its coordinate form reads back as it.
		langs := Languages()
		o := Options{Language: langs[int(walk[len(walk)-1])%len(langs)].Code}
		if r, err := ReadFor(p, line, o); err != nil {
			if read := fmt.Sprintf("%q", strings.TrimSpace(line)); !strings.Contains(err.Error(), read) {
				t.Fatalf("ReadFor: the error for %q does not say what was read: %s", line, err)
			}
		} else {
			if _, err := p.Play(r.Move); err != nil {
				t.Fatalf("ReadFor(%q, %s) in %s returned an illegal move: %v", line, o.Language, p, err)
			}
			if again, err := ReadFor(p, Coord(p, r.Move), o); err != nil || again.Move != r.Move {
				t.Fatalf("%s: %q read (%s) as %s, which reads back as %+v, %v", p, line, o.Language, Coord(p, r.Move), again, err)
			}
		}
		r, err := Read(p, line)
		if err != nil {
			if read := fmt.Sprintf("%q", strings.TrimSpace(line)); !strings.Contains(err.Error(), read) {
				t.Fatalf("the error for %q does not say what was read: %s", line, err)
			}
			return
		}
		if _, err := p.Play(r.Move); err != nil {
			t.Fatalf("Read(%q) in %s returned an illegal move: %v", line, p, err)
		}
		again, err := Read(p, r.Read)
		if err != nil || again.Move != r.Move || again.OfferDraw {
			t.Fatalf("%s: %q read as %q, which reads back as %+v, %v", p, line, r.Read, again, err)
		}
	})
}

// TestUnknownLetterExampleIsPlayable: the example in the refusal of an
// unknown piece letter is a move the player can send as it is, of the
// kind the sentence gives it for: a pawn move after "pawn moves are
// written without a letter", a drop for a drop, a deployment while
// deploying.
func TestUnknownLetterExampleIsPlayable(t *testing.T) {
	eg := regexp.MustCompile(`e\.g\. "([^"]+)"`)
	tests := []struct {
		name, variant, fen, line string
		kind                     rules.MoveKind
		pawn                     bool // the example moves a pawn
	}{
		{"chess", "chess", "", "Xf3", rules.Normal, true},
		{"chess without pawns: no example", "chess", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Xf3", rules.Normal, false},
		{"cuarenta", "cuarenta", "", "Qd5", rules.Normal, true},
		{"toto40", "toto40", "", "Bd6", rules.Normal, true},
		{"chectoe drop", "chectoe", "4/2n1/1P2/2N1[BRpbr] w 5 - 3", "Q@a1", rules.Drop, false},
		{"toetotoe deployment", "toetotoe", "", "Q@e1 G@d1", rules.Deploy, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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
			_, err = Read(p, tt.line)
			if err == nil {
				t.Fatalf("%q was read", tt.line)
			}
			m := eg.FindStringSubmatch(err.Error())
			if tt.kind == rules.Normal && !tt.pawn {
				if m != nil {
					t.Errorf("%q: an example with no pawn on the board: %v", tt.line, err)
				}
				return
			}
			if m == nil {
				t.Fatalf("%q: no example: %v", tt.line, err)
			}
			r, err := Read(p, m[1])
			if err != nil {
				t.Fatalf("the example %q does not read: %v", m[1], err)
			}
			if r.Move.Kind != tt.kind || (p.At(r.Move.From).Letter() == 'P') != tt.pawn {
				t.Errorf("the example %q is a move of kind %v by %c, want kind %v, a pawn: %v", m[1], r.Move.Kind, p.At(r.Move.From).Letter(), tt.kind, tt.pawn)
			}
		})
	}
}
