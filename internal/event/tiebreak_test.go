package event

import (
	"fmt"
	"strings"
	"testing"
)

func table(st []Standing) string {
	var s []string
	for _, x := range st {
		s = append(s, fmt.Sprintf("%d:%d %.1f w%d sb%.2f", x.Rank, x.Player, x.Points, x.Wins, x.SB))
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
	want := "1:2 2.0 w1 sb2.50 | 2:4 1.5 w1 sb2.50 | 3:1 1.5 w1 sb2.00 | 4:3 1.0 w1 sb1.50"
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
	want := "1:1 1.5 w1 sb2.25 | 1:2 1.5 w1 sb2.25 | 1:3 1.5 w1 sb2.25 | 4:4 1.5 w0 sb2.25"
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
