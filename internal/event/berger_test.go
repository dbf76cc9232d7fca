package event

import (
	"fmt"
	"strings"
	"testing"
)

// The Berger tables of the FIDE Handbook, C.05 (General regulations for
// competitions), Annex 1, as reproduced on Chris Fox's "Berger Tables" page
// (c.w.fox.tripod.com/chess/berger.html), for 4, 6, 8 and 10 players: each
// round is its boards in order, "White-Black".
var handbook = map[int][]string{
	4: {
		"1-4 2-3",
		"4-3 1-2",
		"2-4 3-1",
	},
	6: {
		"1-6 2-5 3-4",
		"6-4 5-3 1-2",
		"2-6 3-1 4-5",
		"6-5 1-4 2-3",
		"3-6 4-2 5-1",
	},
	8: {
		"1-8 2-7 3-6 4-5",
		"8-5 6-4 7-3 1-2",
		"2-8 3-1 4-7 5-6",
		"8-6 7-5 1-4 2-3",
		"3-8 4-2 5-1 6-7",
		"8-7 1-6 2-5 3-4",
		"4-8 5-3 6-2 7-1",
	},
	10: {
		"1-10 2-9 3-8 4-7 5-6",
		"10-6 7-5 8-4 9-3 1-2",
		"2-10 3-1 4-9 5-8 6-7",
		"10-7 8-6 9-5 1-4 2-3",
		"3-10 4-2 5-1 6-9 7-8",
		"10-8 9-7 1-6 2-5 3-4",
		"4-10 5-3 6-2 7-1 8-9",
		"10-9 1-8 2-7 3-6 4-5",
		"5-10 6-4 7-3 8-2 9-1",
	},
}

func show(round []Pairing) string {
	var s []string
	for _, g := range round {
		s = append(s, fmt.Sprintf("%d-%d", g.White, g.Black))
	}
	return strings.Join(s, " ")
}

func TestBergerMatchesTheHandbook(t *testing.T) {
	for n, want := range handbook {
		got, err := Berger(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d players: %d rounds, want %d", n, len(got), len(want))
		}
		for r := range want {
			if show(got[r]) != want[r] {
				t.Errorf("%d players, round %d: %s, the Handbook has %s", n, r+1, show(got[r]), want[r])
			}
		}
	}
}

// TestEveryPairMeetsOnce: for every size a section may have (3 to 16), each
// pair of players meets exactly once, nobody plays twice in a round, each
// player of an odd table sits out exactly one round, and colours are as
// balanced as a round robin allows (no player more than one game off even).
func TestEveryPairMeetsOnce(t *testing.T) {
	for n := 2; n <= 16; n++ {
		rounds, err := Berger(n)
		if err != nil {
			t.Fatal(err)
		}
		met := map[[2]int]int{}
		byes := map[int]int{}
		white := map[int]int{}
		for r, round := range rounds {
			seen := map[int]bool{}
			for _, g := range round {
				for _, p := range []int{g.White, g.Black} {
					if p == 0 {
						continue
					}
					if p < 1 || p > n {
						t.Fatalf("n=%d round %d: player %d does not exist", n, r+1, p)
					}
					if seen[p] {
						t.Fatalf("n=%d round %d: player %d plays twice", n, r+1, p)
					}
					seen[p] = true
				}
				if g.Bye() {
					byes[g.White]++
					continue
				}
				a, b := min(g.White, g.Black), max(g.White, g.Black)
				met[[2]int{a, b}]++
				white[g.White]++
			}
			if len(seen) != n {
				t.Fatalf("n=%d round %d: %d players, want %d", n, r+1, len(seen), n)
			}
		}
		for a := 1; a <= n; a++ {
			for b := a + 1; b <= n; b++ {
				if met[[2]int{a, b}] != 1 {
					t.Errorf("n=%d: %d and %d meet %d times", n, a, b, met[[2]int{a, b}])
				}
			}
			games := n - 1
			if n%2 == 1 {
				if byes[a] != 1 {
					t.Errorf("n=%d: player %d sits out %d rounds", n, a, byes[a])
				}
			}
			if d := 2*white[a] - games; d < -1 || d > 1 {
				t.Errorf("n=%d: player %d has White in %d of %d games", n, a, white[a], games)
			}
		}
	}
}

// TestDoubleBergerSwapsColours: the second cycle is the first with colours
// reversed, and (the Handbook's recommendation) the first cycle's last two
// rounds are exchanged, so nobody gets three games in a row with one colour
// across the two cycles.
func TestDoubleBergerSwapsColours(t *testing.T) {
	rounds, err := DoubleBerger(6)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 10 {
		t.Fatalf("%d rounds, want 10", len(rounds))
	}
	single, _ := Berger(6)
	if show(rounds[3]) != show(single[4]) || show(rounds[4]) != show(single[3]) {
		t.Errorf("first cycle rounds 4 and 5 are %s / %s, want the single table's 5 and 4", show(rounds[3]), show(rounds[4]))
	}
	for r := 0; r < 5; r++ {
		for i, g := range rounds[r] {
			h := rounds[r+5][i]
			if g.Bye() != h.Bye() || (!g.Bye() && (g.White != h.Black || g.Black != h.White)) || (g.Bye() && g.White != h.White) {
				t.Errorf("round %d board %d: %v, then %v", r+1, i+1, g, h)
			}
		}
	}
}

// TestDoubleBergerColourRuns checks what the exchange buys: from 5 players
// up nobody has one colour three times running where the cycles meet. (With
// 3 rounds a cycle, 4 players cannot avoid it: the exchange only moves the
// run.)
func TestDoubleBergerColourRuns(t *testing.T) {
	for n := 5; n <= 16; n++ {
		rounds, err := DoubleBerger(n)
		if err != nil {
			t.Fatal(err)
		}
		run := map[int][2]int{} // player: colour (1 White, 2 Black), length
		for r, round := range rounds {
			for _, g := range round {
				if g.Bye() {
					continue
				}
				for p, c := range map[int]int{g.White: 1, g.Black: 2} {
					last := run[p]
					if last[0] == c {
						last[1]++
					} else {
						last = [2]int{c, 1}
					}
					run[p] = last
					if last[1] >= 3 && (r == len(rounds)/2 || r == len(rounds)/2+1) {
						t.Errorf("n=%d: player %d has the same colour three times in a row at the cycles' seam (round %d)", n, p, r+1)
					}
				}
			}
		}
	}
}

func TestBergerRefusesTooFew(t *testing.T) {
	if _, err := Berger(1); err == nil {
		t.Fatal("a round robin of 1 player was accepted")
	}
}
