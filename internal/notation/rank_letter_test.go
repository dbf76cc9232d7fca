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
	for _, tt := range []struct {
		pos        rules.Position
		in, want   string
		refusalHas string
	}{
		{rooks, "R5a6", "R5a6", ""},
		{rooks, "r5a6", "R5a6", ""},
		{rooks, "R 5a6", "R5a6", ""},
		{rooks, "r 5a6", "R5a6", ""},
		{rooks, "r7-a6", "R7a6", ""},
		{rooks, "r5xa6", "", "captures nothing"},
		{start, "n1c3", "Nc3", ""},
		{start, "N 1c3", "Nc3", ""},
		{start, "b1c3", "Nc3", ""},                     // a square: the knight on b1
		{rooks, "b5a6", "", "there is no piece on b5"}, // b is a file: never the bishop
		{rooks, "s5a6", "", "starts from s5, which is not a square of this board (files a-h, ranks 1-8)"},
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
