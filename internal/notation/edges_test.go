package notation

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

// TestReadEdges: readings and refusals at the edges of the reader's
// tests (issue 44: each case tells a mutant of the reader from the
// reader). A case gives the variant, the position ("" for the start), the
// player's language ("-" for Read), the line, and either the move read
// (coordinates) with its notes, or the refusal's whole text.
func TestReadEdges(t *testing.T) {
	const (
		cuarentaPawnC6 = "4/k4/4/1P3/4/2K2/4/5/4 w - - 0 1"
		checToeDrops   = "4/2n1/1P2/2N1[BRpbr] w 5 - 3" // White may drop B or R
		toeToToePlay   = "8/3g4/k1e1n1en/pppppppp/PPPPPPPP/1N2ER2/8/KE1NG1R1[] w p 0 5"
	)
	tests := []struct {
		name, variant, fen, lang, line string
		coord, notes                   string // the move read, and its notes joined by "; "
		err                            string // or the refusal
	}{
		{name: "a French player's small r in Cuarenta (no rook) is the English letter, not the king",
			variant: "cuarenta", fen: cuarentaPawnC6, lang: "fr", line: "c6d7r",
			err: `"c6d7r" was not played: R is not a promotion choice there: choose one of C.`},
		{name: "a question keeps its notes in its reason, not again at its end",
			variant: "chess", fen: "4k3/8/8/8/8/8/8/4K2R w - - 0 1", lang: "fr", line: "Rf1",
			err: `"Rf1" is ambiguous: more than one legal move fits: R is the king (roi) in French, and R is the rook in English (Kf1, Rh1-f1). Reply with one of "Kf1" or "Rh1-f1"`},
		// Chec Toe's drops: an upper-case letter is another language's
		// as written; a small one that is a file of the board is not.
		{name: "a drop with Spanish and Italian A is the bishop's",
			variant: "chectoe", fen: checToeDrops, lang: "", line: "A@a1",
			coord: "B@a1", notes: "A is the bishop in Spanish and Italian"},
		{name: "a drop with a small a is no piece's, even for a Spanish player",
			variant: "chectoe", fen: checToeDrops, lang: "es", line: "a@a1",
			err: `"a@a1" was not played: Chec Toe has no piece with the letter A (pieces: P N B R, e.g. "B@a1").`},
		// Upper case read in lower case (mayFoldCase) only where no small
		// letter follows, z too: "E4z" is not "e4z", "Z4a" not "z4a".
		{name: "a small z after E4 keeps the text from being read in lower case",
			variant: "chess", lang: "-", line: "E4z",
			err: `"E4z" was not played: the referee read "E4" as a move but did not understand "z" after it. Send the move alone on the first line, e.g. "e4", and anything else on the lines below it (they are passed on to your opponent).`},
		{name: "Z, no piece and past every board, with a small letter after it, is not read in lower case",
			variant: "chess", lang: "-", line: "Z4a",
			err: `"Z4a" was not played: the referee read "Z4" as a move but did not understand "a" after it. Send only your move on the first line, and anything else on the lines below it (they are passed on to your opponent). And "Z4" names z4, which is not a square of this board (files a-h, ranks 1-8)`},
		// The game's own reason for a piece not on the board (Chec Toe's
		// piece in hand) is given only for a move written without an
		// origin: one with an origin names a piece that is not there.
		{name: "a move from the a-file of a piece in hand: no such piece",
			variant: "chectoe", fen: checToeDrops, lang: "-", line: "Bab3",
			err: `"Bab3" was not played: you have no bishop that could make it.`},
		{name: "a move from the first rank of a piece in hand: no such piece",
			variant: "chectoe", fen: checToeDrops, lang: "-", line: "B1b3",
			err: `"B1b3" was not played: you have no bishop that could make it.`},
		// Castling written as the king's move without its origin: the
		// refusal says how to write it (it said the king would be left in
		// check, as castling is no king's step), and no promotion is
		// mentioned.
		{name: "Kg1 where O-O is legal",
			variant: "chess", fen: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", lang: "-", line: "Kg1",
			err: `"Kg1" was not played: castling is written "O-O", or with the king's squares, "e1g1"; not as a king's move.`},
		{name: "Kc1 where O-O-O is legal",
			variant: "chess", fen: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", lang: "-", line: "Kc1",
			err: `"Kc1" was not played: castling is written "O-O-O", or with the king's squares, "e1c1"; not as a king's move.`},
		{name: "Kg1 where castling is not allowed",
			variant: "chess", fen: "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", lang: "-", line: "Kg1",
			err: `"Kg1" was not played: your king on e1 cannot go to g1: a king does not move that way.`},
		// Of two pieces refused for the same kind of reason, the first on
		// the board is named.
		{name: "two rooks both blocked: the a1 rook is named",
			variant: "chess", fen: "4k3/8/8/8/8/8/8/RN2K1NR w - - 0 1", lang: "-", line: "Rd1",
			err: `"Rd1" was not played: your rook on a1 cannot go to d1: a piece stands in the way (or that move needs a capture).`},
		// The piece taken named instead of its square, with its article.
		{name: "no horse takes an elephant",
			variant: "toetotoe", fen: toeToToePlay, lang: "-", line: "NxE",
			err: `"NxE" was not played: no horse of yours can take an elephant now.`},
		{name: "no horse takes a general",
			variant: "toetotoe", fen: toeToToePlay, lang: "-", line: "NxG",
			err: `"NxG" was not played: no horse of yours can take a general now.`},
		// The readable piece of a line cut anywhere: a number is not cut
		// out of a longer one, 0 being a digit too, but a move beside a
		// digit is read, and so is a number with no digit beside it.
		{name: "a move after a digit",
			variant: "chess", lang: "-", line: "1Nf3",
			err: `"1Nf3" was not played: the referee read "Nf3" as a move but did not understand "1" before it. Send the move alone on the first line, e.g. "Nf3", and anything else on the lines below it (they are passed on to your opponent).`},
		{name: "ICCF digits in brackets",
			variant: "chess", lang: "-", line: "(5254)",
			err: `"(5254)" was not played: the referee read "5254" as a move but did not understand "(" before it and ")" after it. Send the move alone on the first line, e.g. "e4", and anything else on the lines below it (they are passed on to your opponent).`},
		{name: "ICCF digits after a 0 are not cut out of the number",
			variant: "chess", lang: "-", line: "05254x",
			err: `"05254x" is not a move the referee can read: write it like d3 (or "moves" for the list)`},
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
			var r Reading
			if tt.lang == "-" {
				r, err = Read(p, tt.line)
			} else {
				r, err = ReadFor(p, tt.line, Options{Language: tt.lang})
			}
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("%q: read %q, %v\nwant the refusal %s", tt.line, r.Read, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v", tt.line, err)
			}
			if got, notes := Coord(p, r.Move), strings.Join(r.Notes, "; "); got != tt.coord || notes != tt.notes {
				t.Errorf("%q = %s, notes %q; want %s, notes %q", tt.line, got, notes, tt.coord, tt.notes)
			}
		})
	}
}
