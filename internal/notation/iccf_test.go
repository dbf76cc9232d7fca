package notation

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

// TestICCF: ICCF numeric notation (iccf.go) in orthodox chess: from and to
// as two digits each (file a = 1 ... h = 8, then the rank), a fifth digit
// for a promotion (1 queen, 2 rook, 3 bishop, 4 knight), castling as the
// king's move. Read and ReadFor read it alike, and the reading says so.
func TestICCF(t *testing.T) {
	const (
		castling      = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
		castlingBlack = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
		enPassant     = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
		blackPromo    = "4k3/8/8/8/8/8/p7/4K3 b - - 0 1"
		capture       = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
	)
	tests := []struct {
		name, fen, line, coord, note string
	}{
		{"a pawn's double step", "", "5254", "e2e4", "5254 is ICCF numeric notation for e2-e4"},
		{"a knight", "", "7163", "g1f3", "7163 is ICCF numeric notation for g1-f3"},
		{"the h-file (8)", "", "8283", "h2h3", "8283 is ICCF numeric notation for h2-h3"},
		{"a capture", capture, "5445", "e4d5", "5445 is ICCF numeric notation for e4-d5"},
		{"en passant", enPassant, "5546", "e5d6", "5546 is ICCF numeric notation for e5-d6"},
		{"White castles short", castling, "5171", "e1g1", "5171 is ICCF numeric notation for e1-g1"},
		{"White castles long", castling, "5131", "e1c1", "5131 is ICCF numeric notation for e1-c1"},
		{"Black castles short", castlingBlack, "5878", "e8g8", "5878 is ICCF numeric notation for e8-g8"},
		{"Black castles long", castlingBlack, "5838", "e8c8", "5838 is ICCF numeric notation for e8-c8"},
		{"promotion 1: queen", promotion, "17181", "a7a8q", "17181 is ICCF numeric notation for a7-a8=Q"},
		{"promotion 2: rook", promotion, "17182", "a7a8r", "17182 is ICCF numeric notation for a7-a8=R"},
		{"promotion 3: bishop", promotion, "17183", "a7a8b", "17183 is ICCF numeric notation for a7-a8=B"},
		{"promotion 4: knight", promotion, "17184", "a7a8n", "17184 is ICCF numeric notation for a7-a8=N"},
		{"Black promotes", blackPromo, "12111", "a2a1q", "12111 is ICCF numeric notation for a2-a1=Q"},
		{"with a move number", "", "1. 5254", "e2e4", "5254 is ICCF numeric notation for e2-e4"},
		{"with a draw offer", "", "5254 draw", "e2e4", "5254 is ICCF numeric notation for e2-e4"},
		{"with a closing full stop", "", "5254.", "e2e4", "5254 is ICCF numeric notation for e2-e4"},
		{"marked e.p.", enPassant, "5546 e.p.", "e5d6", "5546 is ICCF numeric notation for e5-d6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pos(t, tt.fen)
			for _, o := range []*Options{nil, {}, {Language: "de"}} {
				var r Reading
				var err error
				if o == nil {
					r, err = Read(p, tt.line)
				} else {
					r, err = ReadFor(p, tt.line, *o)
				}
				if err != nil {
					t.Fatalf("%q: %v", tt.line, err)
				}
				if got := Coord(p, r.Move); got != tt.coord || r.Read != SAN(p, r.Move) {
					t.Errorf("%q = %s (read as %q), want %s", tt.line, got, r.Read, tt.coord)
				}
				if note := strings.Join(r.Notes, "; "); note != tt.note {
					t.Errorf("%q: notes %q, want %q", tt.line, note, tt.note)
				}
			}
			if _, err := Parse(p, tt.line); err != nil && !strings.Contains(tt.line, " ") {
				t.Errorf("Parse(%q): %v", tt.line, err)
			}
		})
	}
}

// TestICCFRefusals: digits that name no square or no promotion piece, a
// promotion without its digit and a digit on a move that is no
// promotion are refused, each saying what to send instead.
func TestICCFRefusals(t *testing.T) {
	tests := []struct {
		name, fen, line string
		want            []string
		cands           []string
	}{
		{"file 9", "", "9254", []string{`"9254" reads as ICCF numeric notation, but 92 names no square`, `"5254" for e2-e4`}, nil},
		{"file 0", "", "0254", []string{`but 02 names no square`}, nil},
		{"rank 0", "", "5250", []string{`but 50 names no square`}, nil},
		{"rank 9 of the destination", "", "5259", []string{`but 59 names no square`}, nil},
		{"promotion digit 5", promotion, "17185", []string{`its fifth digit, 5, names no piece to promote to: 1 queen, 2 rook, 3 bishop, 4 knight`}, nil},
		{"promotion digit 0", promotion, "17180", []string{`its fifth digit, 0, names no piece`}, nil},
		{"promotion digit missing", promotion, "1718", []string{`"1718" is ambiguous: the pawn promotes there, and ICCF numeric notation says to what with a fifth digit`}, []string{"17181", "17182", "17183", "17184"}},
		{"a digit on a move that is no promotion", "", "52541", []string{`"52541" was not played: e4 is no promotion, so it has no fifth digit: write "5254".`}, nil},
		{"a digit on a move that is no move", "", "52551", []string{`"52551" was not played: your pawn on e2 cannot go to e5: a pawn does not move that way. (52551 is ICCF numeric notation for e2-e5=Q.)`}, nil},
		{"six digits", "", "525412", []string{`is not a move the referee can read`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pos(t, tt.fen)
			_, err := Read(p, tt.line)
			if err == nil {
				t.Fatalf("%q was read", tt.line)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q: %v\nwant it to contain %q", tt.line, err, w)
				}
			}
			if e, ok := err.(*Error); tt.cands != nil && (!ok || strings.Join(e.Candidates, " ") != strings.Join(tt.cands, " ")) {
				t.Errorf("%q: %v, want the candidates %q", tt.line, err, tt.cands)
			}
		})
	}
}

// TestICCFIllegalAsCoordinates: an illegal move in ICCF digits is refused
// with the reasons of its coordinate form, and says how it was read.
func TestICCFIllegalAsCoordinates(t *testing.T) {
	const pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"
	const castleThroughCheck = "r3k2r/8/8/8/8/8/5r2/R3K2R w KQ - 0 1"
	for _, tt := range []struct{ fen, iccf, coord string }{
		{"", "5255", "e2e5"}, // a pawn does not move that way
		{"", "7155", "g1e5"}, // nor a knight
		{"", "5152", "e1e2"}, // an own piece stands there
		{"", "3334", "c3c4"}, // no piece on c3
		{"", "5756", "e7e6"}, // not White's piece
		{pinned, "5233", "e2c3"},
		{castleThroughCheck, "5171", "e1g1"},
	} {
		p := pos(t, tt.fen)
		_, ierr := Read(p, tt.iccf)
		_, cerr := Read(p, tt.coord)
		ie, ok1 := ierr.(*Error)
		ce, ok2 := cerr.(*Error)
		if !ok1 || !ok2 {
			t.Fatalf("%s / %s: %v / %v, want both refused", tt.iccf, tt.coord, ierr, cerr)
		}
		if !strings.HasPrefix(ie.Reason, ce.Reason) || !strings.Contains(ie.Reason, tt.iccf+" is ICCF numeric notation for") {
			t.Errorf("%s: %q\nwant the reason of %s, %q, and how it was read", tt.iccf, ie.Reason, tt.coord, ce.Reason)
		}
	}
}

// TestICCFOnlyInOrthodoxChess: the digits are refused on boards ICCF
// numeric notation does not describe (iccf.go says why), with the move in
// algebraic notation where the board has the squares and it is legal.
func TestICCFOnlyInOrthodoxChess(t *testing.T) {
	const checToe = "4/2n1/1P2/2N1[BRpbr] w 5 - 3" // rolled: the die is no reason here
	tests := []struct {
		variant, fen, line, want string
	}{
		{"toroidal", "", "5254", `in Toroidal chess write the move in algebraic notation: e2-e4 is "e4"`},
		{"cylindrical", "", "5254", `e2-e4 is "e4"`},
		{"klein", "", "7163", `g1-f3 is "Nf3"`},
		{"toroidal", "", "1213", `a2-a3 is "a3"`},  // from the a-file (1)
		{"toroidal", "", "2113", `b1-a3 is "Na3"`}, // to the a-file
		{"cuarenta", "", "5254", `in Cuarenta write the move in algebraic notation, e.g. "`},
		{"toto40", "", "5254", `in Toto40 write the move in algebraic notation`},
		{"toetotoe", "", "5254", `in Toe-to-Toe Chess write the move in algebraic notation`},
		{"chectoe", checToe, "2233", `in Chec Toe write the move in algebraic notation`},
		// e1 is off the 4x4 board: no move is named, though the pawn on
		// a1 may go to a2.
		{"chectoe", "4/4/4/P3[NBRpnbr] w 1 - 1", "5112", `in Chec Toe write the move in algebraic notation, e.g. "`},
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
		_, err = Read(p, tt.line)
		if err == nil || !strings.Contains(err.Error(), "looks like ICCF numeric notation, which the referee reads only in orthodox chess") ||
			!strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Read(%q): %v\nwant the refusal with %q", tt.variant, tt.line, err, tt.want)
		}
	}
}

// TestDigitsKeepTheirMeaning: the digit strings read before ICCF numeric
// notation mean what they meant: a move number before a move, "666" the
// Chec Toe apocalypse roll (TestReadChecToeCommands), "0-0" castling;
// results and bare numbers are no move, and a number in a sentence is not
// taken for one ("2027 please").
func TestDigitsKeepTheirMeaning(t *testing.T) {
	const castling = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	for _, tt := range []struct{ fen, line, coord string }{
		{"", "1. e4", "e2e4"},
		{"", "1.e4", "e2e4"},
		{castling, "0-0", "e1g1"},
		{castling, "0-0-0", "e1c1"},
	} {
		p := pos(t, tt.fen)
		r, err := Read(p, tt.line)
		if err != nil || Coord(p, r.Move) != tt.coord || len(r.Notes) != 0 {
			t.Errorf("Read(%q) = %+v, %v; want %s without a note", tt.line, r, err, tt.coord)
		}
	}
	for _, tt := range []struct{ line, want string }{
		{"1-0", "is not a move the referee can read"},
		{"0-1", "is not a move the referee can read"},
		{"1/2-1/2", "is not a move the referee can read"},
		{"12.", "is not a move the referee can read"},
		{"12", "is not a move the referee can read"},
		{"525", "is not a move the referee can read"},
		{"2027 please", "is not a move the referee can read"},
		{"5254 please", `read "5254" as a move but did not understand "please" after it`},
	} {
		_, err := Read(rules.Chess().Start(), tt.line)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%q): %v, want %q", tt.line, err, tt.want)
		}
	}
}
