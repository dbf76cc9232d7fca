package notation

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

// TestRankDisambiguationInLowerCaseOrSpaced (issue 37): a move told apart
// by the rank of its piece, typed in lower case ("r5a6", "n1c3") or with
// the letter apart ("R 5a6"), is read as the piece's move when the letter
// is no file of the board, so that there is nothing to guess between a
// pawn and a piece; a letter that is a file ("b5a6") is read as a square
// only; a letter that is neither is refused naming the square it is not.
func TestRankDisambiguationInLowerCaseOrSpaced(t *testing.T) {
	rooks, err := rules.Chess().ParsePosition("4k3/R7/8/R7/8/8/8/4K3 w - - 0 1") // rooks on a7 and a5
	if err != nil {
		t.Fatal(err)
	}
	start := rules.Chess().Start()
	bishop, err := rules.Chess().ParsePosition("4k3/8/8/R2B4/8/8/8/4K3 w - - 0 1") // a rook on a5, a bishop on d5
	if err != nil {
		t.Fatal(err)
	}
	// Cuarenta: Black's pawn on c4, White's Camel (C) on g4, which may go
	// to d5; c is a file of the board.
	camel, err := rules.Cuarenta().ParsePosition("cf1b/F4/1ppv/1pkGg/2F1/fp1C1/P1P1/V1K1V/BG2 w - - 6 13")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		pos        rules.Position
		in, want   string
		refusalHas string
	}{
		{rooks, "R5a6", "R5a6", ""},
		{rooks, "r5a6", "R5a6", ""},
		{rooks, "R 5a6", "R5a6", ""},
		{rooks, "r 5a6", "R5a6", ""},
		{rooks, "R5A6", "R5a6", ""}, // caps lock on "r5a6"
		{rooks, "R7A6", "R7a6", ""},
		{start, "N1C3", "Nc3", ""},
		{rooks, "R0A6", "", "starts from r0, which is not a square of this board"}, // no rank 0, in capitals either
		{rooks, "r7-a6", "R7a6", ""},
		{rooks, "r5xa6", "", "captures nothing"},
		{start, "n1c3", "Nc3", ""},
		{start, "N 1c3", "Nc3", ""},
		{start, "b1c3", "Nc3", ""},                      // a square: the knight on b1
		{rooks, "b5a6", "", "there is no piece on b5"},  // b is a file: never the bishop
		{bishop, "b5a8", "", "there is no piece on b5"}, // b is a file: never the bishop on the fifth rank
		{bishop, "B5A8", "", "there is no piece on b5"}, // in capitals too
		{bishop, "d5a8", "Ba8", ""},
		{camel, "c4d5", "", "the piece on c4 is not yours"}, // c is a file: never the Camel on the fourth rank
		{camel, "g4d5", "Cd5+", ""},
		{rooks, "s5a6", "", "starts from s5, which is not a square of this board (files a-h, ranks 1-8)"},
		// R is past Cuarenta's files and the letter of none of its pieces.
		{camel, "r5a6", "", "starts from r5, which is not a square of this board (files a-i, ranks 1-9)"},
		{camel, "R5A6", "", "starts from r5, which is not a square of this board (files a-i, ranks 1-9)"},
	} {
		r, err := Read(tt.pos, tt.in)
		if tt.want != "" {
			if err != nil || r.Read != tt.want {
				t.Errorf("%q: read as %q, %v; want %s", tt.in, r.Read, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.refusalHas) {
			t.Errorf("%q: %v (read as %q); want a refusal saying %q", tt.in, err, r.Read, tt.refusalHas)
		}
	}
}

// TestOriginOnTheBoard: an origin square is read only where it is on the
// board, both sides of each edge tested: file h and rank 8 are the last
// of the chess board, i and 9 are past them, and there is no rank 0 (not
// an origin left open: "a0a1" is not "a1"). A refusal names the square
// and the board's files and ranks.
func TestOriginOnTheBoard(t *testing.T) {
	p, err := rules.Chess().ParsePosition("R7/8/4k3/8/8/8/7P/4K3 w - - 0 1") // a rook on a8, a pawn on h2
	if err != nil {
		t.Fatal(err)
	}
	const board = "which is not a square of this board (files a-h, ranks 1-8)"
	for _, tt := range []struct{ in, want, refusal string }{
		{"h2h4", "h4", ""},
		{"i2h4", "", `starts from i2, ` + board},
		{"a8a1", "Ra1", ""},
		{"a9a1", "", `starts from a9, ` + board},
		{"a0a1", "", `starts from a0, ` + board},
		{"R0a1", "", `starts from 0, ` + board},
	} {
		r, err := Read(p, tt.in)
		if tt.want != "" {
			if err != nil || r.Read != tt.want {
				t.Errorf("%q: read as %q, %v; want %s", tt.in, r.Read, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.refusal) {
			t.Errorf("%q: %v (read as %q); want a refusal saying %q", tt.in, err, r.Read, tt.refusal)
		}
	}
}
