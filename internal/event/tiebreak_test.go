package event

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func table(st []Standing) string {
	var s []string
	for _, x := range st {
		s = append(s, fmt.Sprintf("%d:%d %.1f g%d w%d sb%.2f", x.Rank, x.Player, x.Points, x.Games, x.Wins, x.SB))
	}
	return strings.Join(s, " | ")
}

// TestSenseisDoubleRoundRobin is the worked example of Sensei's Library,
// "Sonneborn-Berger" (senseis.xmp.net, snapshot of 2005-09-14): a double
// round robin of four players A-D with these results (row player's score,
// first cycle then second):
//
//	A | - 1 1 1 | - 0 1 0 |  4  SB 4+3+3+1 = 11
//	B | 0 - 1 1 | 1 - 0 1 |  4  SB 4+3+1+1 =  9
//	C | 0 0 - 1 | 0 1 - 1 |  3  SB 4+1+1   =  6
//	D | 0 0 0 - | 1 0 0 - |  1  SB 4       =  4
//
// A and B tie on points and on wins; Sonneborn-Berger puts A first.
func TestSenseisDoubleRoundRobin(t *testing.T) {
	const A, B, C, D = 1, 2, 3, 4
	games := []Game{
		{A, B, 1}, {A, C, 1}, {A, D, 1}, {B, C, 1}, {B, D, 1}, {C, D, 1},
		{B, A, 1}, {A, C, 1}, {D, A, 1}, {C, B, 1}, {B, D, 1}, {C, D, 1},
	}
	got := Standings(4, games, DefaultChain())
	want := []Standing{
		{Player: A, Rank: 1, Points: 4, Games: 6, Wins: 4, SB: 11},
		{Player: B, Rank: 2, Points: 4, Games: 6, Wins: 4, SB: 9},
		{Player: C, Rank: 3, Points: 3, Games: 6, Wins: 3, SB: 6},
		{Player: D, Rank: 4, Points: 1, Games: 6, Wins: 1, SB: 4},
	}
	if table(got) != table(want) {
		t.Fatalf("standings\n got %s\nwant %s", table(got), table(want))
	}
}

// TestDrawsCountHalf: Sonneborn-Berger counts half the score of an opponent
// drawn. Four players, one cycle: 1-2 ½, 1-3 1-0, 4-1 1-0, 2-3 1-0, 2-4 ½,
// 3-4 1-0. Points: 2 has 2, 1 and 4 have 1½, 3 has 1. Between 1 and 4 (one
// win each): SB of 1 = ½·2 + 1·1 = 2, of 4 = 1·1½ + ½·2 = 2½, so 4 is second.
func TestDrawsCountHalf(t *testing.T) {
	games := []Game{{1, 2, 0.5}, {1, 3, 1}, {4, 1, 1}, {2, 3, 1}, {2, 4, 0.5}, {3, 4, 1}}
	got := table(Standings(4, games, DefaultChain()))
	want := "1:2 2.0 g3 w1 sb2.50 | 2:4 1.5 g3 w1 sb2.50 | 3:1 1.5 g3 w1 sb2.00 | 4:3 1.0 g3 w1 sb1.50"
	if got != want {
		t.Fatalf("standings\n got %s\nwant %s", got, want)
	}
}

// TestChainOrderMatters: A beats B and D, loses to C; B beats C and D; C
// loses to D. A and B have 2 points, C and D 1. The direct encounter puts A
// over B and D over C; Sonneborn-Berger agrees on A (3 to 2) but puts C
// (who beat A, 2 points) over D (who beat C, 1 point).
func TestChainOrderMatters(t *testing.T) {
	const A, B, C, D = 1, 2, 3, 4
	games := []Game{{A, B, 1}, {C, A, 1}, {A, D, 1}, {B, C, 1}, {B, D, 1}, {D, C, 1}}
	tests := []struct {
		chain []TieBreak
		want  []int
	}{
		{[]TieBreak{Direct}, []int{A, B, D, C}},
		{[]TieBreak{SonnebornBerger}, []int{A, B, C, D}},
		{[]TieBreak{Direct, SonnebornBerger}, []int{A, B, D, C}},
	}
	for _, tt := range tests {
		st := Standings(4, games, tt.chain)
		for i, p := range tt.want {
			if st[i].Player != p || st[i].Rank != i+1 {
				t.Errorf("chain %v: %s, want players in order %v", tt.chain, table(st), tt.want)
				break
			}
		}
	}
}

// TestTiedAfterTheChainShareARank: a cycle of three (each beats the next)
// and a fourth player who draws everyone: A, B and C are tied on points,
// wins, SB and among themselves, so they share first place.
func TestTiedAfterTheChainShareARank(t *testing.T) {
	const A, B, C, D = 1, 2, 3, 4
	games := []Game{{A, B, 1}, {B, C, 1}, {C, A, 1}, {A, D, 0.5}, {B, D, 0.5}, {C, D, 0.5}}
	got := table(Standings(4, games, DefaultChain()))
	want := "1:1 1.5 g3 w1 sb2.25 | 1:2 1.5 g3 w1 sb2.25 | 1:3 1.5 g3 w1 sb2.25 | 4:4 1.5 g3 w0 sb2.25"
	if got != want {
		t.Fatalf("standings\n got %s\nwant %s", got, want)
	}
}

func TestParseChain(t *testing.T) {
	if c, err := ParseChain([]string{"sb", "wins"}); err != nil || len(c) != 2 || c[0] != SonnebornBerger {
		t.Fatalf("ParseChain(sb,wins) = %v, %v", c, err)
	}
	if _, err := ParseChain([]string{"buchholz"}); err == nil || !strings.Contains(err.Error(), "wins, sb or direct") {
		t.Fatalf("an unknown tie-break gave %v", err)
	}
}

// TestDirectEncounterAmongThree: the direct encounter ranks a group of
// three or more tied players by their scores in the games among them, as
// FIDE's tie-break regulations (C.07, "direct encounter": the points scored
// in the games between the tied players) apply it to any number of players,
// and says nothing when not every pair of them met, or when pairs met
// unequally often. The direct encounter alone is the chain, so nothing else
// can split the group. Five players, one cycle:
//
//	1-2 1-0, 1-3 ½, 2-3 1-0        among 1, 2, 3: 1½, 1, ½
//	4-1 1-0, 2-4 ½, 3-4 1-0, 4-5 1-0
//	5 beats 1, 2 and 3
//
// 5 has 3 points, 4 has 2½, and 1, 2 and 3 have 1½ each (Sonneborn-Berger
// would order them 3, 2, 1: the reverse). Every value below is worked by
// hand in the comments.
func TestDirectEncounterAmongThree(t *testing.T) {
	roundRobin := []Game{
		{1, 2, 1}, {1, 3, 0.5}, {2, 3, 1},
		{4, 1, 1}, {2, 4, 0.5}, {3, 4, 1}, {4, 5, 1},
		{5, 1, 1}, {5, 2, 1}, {5, 3, 1},
	}
	with := func(extra ...Game) []Game { return append(slices.Clone(roundRobin), extra...) }
	tests := []struct {
		name  string
		games []Game
		want  string
	}{
		// SB: 5 = 3·1½ = 4½; 4 = 1½ + ½·1½ + 3 = 5¼; 1 = 1½ + ½·1½ = 2¼;
		// 2 = 1½ + ½·2½ = 2¾; 3 = ½·1½ + 2½ = 3¼.
		{"every pair met once: 1, 2, 3 by their direct scores", roundRobin,
			"1:5 3.0 g4 w3 sb4.50 | 2:4 2.5 g4 w2 sb5.25 | 3:1 1.5 g4 w1 sb2.25 | 4:2 1.5 g4 w1 sb2.75 | 5:3 1.5 g4 w1 sb3.25"},
		// 1-3 not played, 5-1 and 5-3 drawn instead of won: 1, 2 and 3
		// still have 1½ each (direct scores would be 1, 1, 0), 4 has 2½,
		// 5 has 2. SB: 4 = 1½ + ¾ + 2 = 4¼; 5 = ¾ + 1½ + ¾ = 3; 1 = 1½ + 1 =
		// 2½; 2 = 1½ + 1¼ = 2¾; 3 = 2½ + 1 = 3½.
		{"one pair never met: no split", []Game{
			{1, 2, 1}, {2, 3, 1},
			{4, 1, 1}, {2, 4, 0.5}, {3, 4, 1}, {4, 5, 1},
			{5, 1, 0.5}, {5, 2, 1}, {5, 3, 0.5},
		}, "1:4 2.5 g4 w2 sb4.25 | 2:5 2.0 g4 w1 sb3.00 | 3:1 1.5 g3 w1 sb2.50 | 3:2 1.5 g4 w1 sb2.75 | 3:3 1.5 g3 w1 sb3.50"},
		// 1 and 3 meet twice more (each wins with White) and 2 beats 5 in
		// a second game: 1, 2, 3 and 4 have 2½ each, 5 has 3; the pair
		// 1-3 met three times, every other pair once. SB: 1 = 2½ + 1¼ +
		// 2½ = 6¼; 2 = 2½ + 1¼ + 3 = 6¾; 3 = 1¼ + 2½ + 2½ = 6¼; 4 = 2½ +
		// 1¼ + 3 = 6¾; 5 = 3·2½ = 7½.
		{"pairs met unequally often: no split", with(Game{1, 3, 1}, Game{3, 1, 1}, Game{2, 5, 1}),
			"1:5 3.0 g5 w3 sb7.50 | 2:1 2.5 g6 w2 sb6.25 | 2:2 2.5 g5 w2 sb6.75 | 2:3 2.5 g6 w2 sb6.25 | 2:4 2.5 g4 w2 sb6.75"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := table(Standings(5, tt.games, []TieBreak{Direct})); got != tt.want {
				t.Fatalf("standings\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestDirectEncounterInADoubleRoundRobin: every pair met twice, so the
// direct encounter applies. A and B have 1½ points each; A scored 1½ of 2
// against B (1-0, then a draw with Black), so A stands above B. C beat A
// twice and split with B: 3 points.
func TestDirectEncounterInADoubleRoundRobin(t *testing.T) {
	const A, B, C = 1, 2, 3
	games := []Game{{A, B, 1}, {B, A, 0.5}, {A, C, 0}, {C, A, 1}, {B, C, 1}, {C, B, 1}}
	st := Standings(3, games, []TieBreak{Direct})
	for i, want := range []int{C, A, B} {
		if st[i].Player != want || st[i].Rank != i+1 {
			t.Fatalf("standings %s, want players %d, %d, %d ranked 1, 2, 3", table(st), C, A, B)
		}
	}
}
