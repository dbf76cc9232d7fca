package notation

import (
	"strings"
	"testing"

	"referee/internal/rules"
)

// TestSplitLimits: a first line that does not read as a move as a whole is
// searched for the part that does, so that the refusal can say "read Nf3 as
// a move but did not understand …". The search is bounded, both sides of
// each bound tested: by words (from the start, then from the end), up to
// maxSplitTokens (16) words; cut anywhere, up to maxSplitChars (40) bytes.
// Past them the line is refused as unreadable as a whole (still with a
// reason and an example).
func TestSplitLimits(t *testing.T) {
	p := rules.Chess().Start()
	words := func(n int) string { return "Nf3" + strings.Repeat(" xx", n-1) } // over 40 bytes from 14 words
	last := func(n int) string { return strings.Repeat("xx ", n-1) + "Nf3" }  // the move as the last word
	glued := func(n int) string { return "(Nf3)" + strings.Repeat("x", n-5) }
	tests := []struct {
		name  string
		line  string
		found bool
	}{
		{"16 words: searched by words", words(16), true},
		{"17 words: not searched", words(17), false},
		{"16 words, the move last: searched by words", last(16), true},
		{"17 words, the move last: not searched", last(17), false},
		{"40 bytes: searched anywhere", glued(40), true},
		{"41 bytes: not searched", glued(41), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := len(strings.Fields(tt.line)); strings.Contains(tt.name, "words") && n != maxSplitTokens && n != maxSplitTokens+1 {
				t.Fatalf("%d words: the case does not sit on the bound", n)
			}
			_, err := Read(p, tt.line)
			if err == nil {
				t.Fatalf("%q was read as a move", tt.line)
			}
			found := strings.Contains(err.Error(), `the referee read "Nf3" as a move but did not understand`)
			if found != tt.found {
				t.Errorf("%q (%d bytes): %v\nwant the readable part found: %v", tt.line, len(tt.line), err, tt.found)
			}
			if !strings.Contains(err.Error(), "Nf3") && !strings.Contains(err.Error(), "write it like") {
				t.Errorf("the refusal gives no example: %v", err)
			}
		})
	}
}
