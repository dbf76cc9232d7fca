package event

import (
	"fmt"
	"slices"
	"testing"
)

// TestTieNotes: the notes name, for each pair of neighbours on equal
// points, the criterion that ordered them and its values, or say that
// they share a rank.
func TestTieNotes(t *testing.T) {
	name := func(p int) string { return fmt.Sprintf("p%d", p) }
	tests := []struct {
		name  string
		n     int
		games []Game
		chain []TieBreak
		want  []string
	}{
		{
			// Sensei's double round robin (tiebreak_test.go): A and B on 4,
			// 4 wins each; SB 11 to 9.
			name: "Sonneborn-Berger", n: 4, chain: DefaultChain(),
			games: []Game{
				{White: 1, Black: 2, WhiteScore: 1}, {White: 1, Black: 3, WhiteScore: 1}, {White: 1, Black: 4, WhiteScore: 1},
				{White: 2, Black: 3, WhiteScore: 1}, {White: 2, Black: 4, WhiteScore: 1}, {White: 3, Black: 4, WhiteScore: 1},
				{White: 2, Black: 1, WhiteScore: 1}, {White: 1, Black: 3, WhiteScore: 1}, {White: 4, Black: 1, WhiteScore: 1},
				{White: 3, Black: 2, WhiteScore: 1}, {White: 2, Black: 4, WhiteScore: 1}, {White: 3, Black: 4, WhiteScore: 1},
			},
			want: []string{"p1 and p2, both on 4: p1 stands above on Sonneborn-Berger (11 to 9)."},
		},
		{
			// p1 and p2 drew and each beat p3: 1.5 each, one win each,
			// SB equal (0.5 x 1.5 + 1 x 0), and their own game a draw.
			name: "shared rank", n: 3, chain: DefaultChain(),
			games: []Game{
				{White: 1, Black: 2, WhiteScore: 0.5}, {White: 1, Black: 3, WhiteScore: 1}, {White: 2, Black: 3, WhiteScore: 1},
			},
			want: []string{"p1 and p2, both on 1.5: the tie-breaks could not separate them, and they share rank 1."},
		},
		{
			// Wins first: p1 beat p3 and lost to p4 (1 point, 1 win); p2
			// drew p3 and p4 (1 point, no win); p3 drew p4 too, so p3 is
			// on 1 with no win either, and p2 and p3 are equal on SB (1.5)
			// and drew their game: they share rank 3.
			name: "wins, then a shared rank", n: 4, chain: DefaultChain(),
			games: []Game{
				{White: 1, Black: 3, WhiteScore: 1}, {White: 4, Black: 1, WhiteScore: 1}, {White: 2, Black: 3, WhiteScore: 0.5},
				{White: 4, Black: 2, WhiteScore: 0.5}, {White: 3, Black: 4, WhiteScore: 0.5},
			},
			want: []string{
				"p1 and p2, both on 1: p1 stands above on the number of wins (1 to 0).",
				"p2 and p3, both on 1: the tie-breaks could not separate them, and they share rank 3.",
			},
		},
		{
			// The direct encounter alone: p1 beat p2, p2 beat p3, p3 and p4
			// drew.
			name: "direct", n: 4, chain: []TieBreak{Direct},
			games: []Game{
				{White: 1, Black: 2, WhiteScore: 1}, {White: 2, Black: 3, WhiteScore: 1}, {White: 3, Black: 4, WhiteScore: 0.5},
			},
			want: []string{
				"p1 and p2, both on 1: p1 stands above on the direct encounter (1 to 0).",
				"p3 and p4, both on 0.5: the tie-breaks could not separate them, and they share rank 3.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			players := make([]Entrant, tt.n)
			got := Crosstable(players, tt.games, tt.chain).TieNotes(name)
			if !slices.Equal(got, tt.want) {
				t.Errorf("notes:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}
