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
		{
			// Five players, one cycle: p5 wins with 3; p1, p2 and p3 are on
			// 2. p3 drew all four games, so wins put p1 and p2 (one each)
			// above it; their Sonneborn-Berger is equal (p1: 1 x p2's 2 +
			// 1/2 x p3's 2 + 1/2 x p4's 1; p2: 1/2 x p3's 2 + 1 x p4's 1 +
			// 1/2 x p5's 3: 3.5 each), so their own game decides: the
			// direct encounter counts the games between the two of them
			// (1 to 0), not those with p3, whom wins had already set apart
			// (that would be 1.5 to 0.5).
			name: "direct encounter among those still tied", n: 5, chain: DefaultChain(),
			games: []Game{
				{White: 1, Black: 2, WhiteScore: 1}, {White: 1, Black: 3, WhiteScore: 0.5}, {White: 1, Black: 4, WhiteScore: 0.5},
				{White: 5, Black: 1, WhiteScore: 1}, {White: 2, Black: 3, WhiteScore: 0.5}, {White: 2, Black: 4, WhiteScore: 1},
				{White: 2, Black: 5, WhiteScore: 0.5}, {White: 3, Black: 4, WhiteScore: 0.5}, {White: 3, Black: 5, WhiteScore: 0.5},
				{White: 5, Black: 4, WhiteScore: 1},
			},
			want: []string{
				"p1 and p2, both on 2: p1 stands above on the direct encounter (1 to 0).",
				"p2 and p3, both on 2: p2 stands above on the number of wins (1 to 0).",
			},
		},
		{
			// An organiser may repeat the direct encounter after another
			// criterion (ParseChain takes "direct,wins,direct"). Six
			// players, one cycle; p1 to p4 end on 3 points (p5 on 2, p6 on
			// 1). In their games among themselves p3 scores 2, p1 and p2
			// 1.5 each (p1 beat p2, lost to p3, drew p4; p2 beat p3, drew
			// p4), p4 1. p1 and p2 have two wins each, so the second direct
			// encounter, among the two of them alone, decides: 1 to 0.
			name: "direct encounter repeated", n: 6, chain: []TieBreak{Direct, Wins, Direct},
			games: []Game{
				{White: 1, Black: 2, WhiteScore: 1}, {White: 3, Black: 1, WhiteScore: 1}, {White: 1, Black: 4, WhiteScore: 0.5},
				{White: 2, Black: 3, WhiteScore: 1}, {White: 4, Black: 2, WhiteScore: 0.5}, {White: 3, Black: 4, WhiteScore: 1},
				{White: 1, Black: 5, WhiteScore: 0.5}, {White: 6, Black: 1, WhiteScore: 0}, {White: 2, Black: 5, WhiteScore: 1},
				{White: 6, Black: 2, WhiteScore: 0.5}, {White: 5, Black: 3, WhiteScore: 0.5}, {White: 3, Black: 6, WhiteScore: 0.5},
				{White: 4, Black: 5, WhiteScore: 1}, {White: 6, Black: 4, WhiteScore: 0}, {White: 5, Black: 6, WhiteScore: 1},
			},
			want: []string{
				"p3 and p1, both on 3: p3 stands above on the direct encounter (2 to 1.5).",
				"p1 and p2, both on 3: p1 stands above on the direct encounter (1 to 0).",
				"p2 and p4, both on 3: p2 stands above on the direct encounter (1.5 to 1).",
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
