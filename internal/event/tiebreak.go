package event

import (
	"fmt"
	"slices"
)

// Game is one finished game of an event for the crosstable: player numbers
// (1-based) and White's score (1, 0.5 or 0).
type Game struct {
	White, Black int
	WhiteScore   float64
}

// TieBreak names one criterion of a tie-break chain.
type TieBreak string

// The tie-breaks an organiser can chain, each as ICCF and FIDE define it.
const (
	// Wins is the number of games won (ICCF calls it Baumbach).
	Wins TieBreak = "wins"
	// SonnebornBerger is the sum of the scores of the opponents beaten,
	// plus half the scores of those drawn, each game counted on its own.
	SonnebornBerger TieBreak = "sb"
	// Direct is the score in the games among the tied players, used only
	// when every pair of them has met as often as any other pair.
	Direct TieBreak = "direct"
)

// DefaultChain is the chain used unless the organiser picks another: the
// number of wins, then Sonneborn-Berger, then the direct encounter, as ICCF
// applies them.
func DefaultChain() []TieBreak { return []TieBreak{Wins, SonnebornBerger, Direct} }

// ParseChain reads a chain such as "wins,sb,direct".
func ParseChain(names []string) ([]TieBreak, error) {
	var chain []TieBreak
	for _, n := range names {
		switch tb := TieBreak(n); tb {
		case Wins, SonnebornBerger, Direct:
			chain = append(chain, tb)
		default:
			return nil, fmt.Errorf("unknown tie-break %q: use wins, sb or direct", n)
		}
	}
	return chain, nil
}

// Standing is one player's line of the crosstable.
type Standing struct {
	Player int     // player number
	Rank   int     // 1 first; players still tied after the whole chain share a rank
	Points float64 // 1 a win, ½ a draw
	Games  int     // games finished
	Wins   int
	SB     float64 // Sonneborn-Berger
}

// Standings ranks n players by points, then by the chain, from the finished
// games. It is a pure function of its arguments, so a crosstable can always
// be recomputed from the event's games.
func Standings(n int, games []Game, chain []TieBreak) []Standing {
	st := make([]Standing, n)
	for i := range st {
		st[i].Player = i + 1
	}
	for _, g := range games {
		w, b := &st[g.White-1], &st[g.Black-1]
		w.Points += g.WhiteScore
		b.Points += 1 - g.WhiteScore
		w.Games++
		b.Games++
		switch g.WhiteScore {
		case 1:
			w.Wins++
		case 0:
			b.Wins++
		}
	}
	for _, g := range games {
		st[g.White-1].SB += g.WhiteScore * st[g.Black-1].Points
		st[g.Black-1].SB += (1 - g.WhiteScore) * st[g.White-1].Points
	}

	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	out := make([]Standing, 0, n)
	for _, group := range separate(all, st, games, chain) {
		rank := len(out) + 1
		for _, i := range group {
			s := st[i]
			s.Rank = rank
			out = append(out, s)
		}
	}
	return out
}

// separate orders players (indexes into st) by points, then by each
// criterion of the chain in turn, each criterion applied only within the
// group still tied on everything before it; it returns the groups still tied
// at the end, best first, each in player order.
func separate(players []int, st []Standing, games []Game, chain []TieBreak) [][]int {
	value := func(i int) float64 { return st[i].Points }
	return splitBy(players, value, func(group []int) [][]int {
		return separateBy(group, st, games, chain)
	})
}

func separateBy(group []int, st []Standing, games []Game, chain []TieBreak) [][]int {
	if len(group) < 2 || len(chain) == 0 {
		return [][]int{group}
	}
	var value func(i int) float64
	switch chain[0] {
	case Wins:
		value = func(i int) float64 { return float64(st[i].Wins) }
	case SonnebornBerger:
		value = func(i int) float64 { return st[i].SB }
	case Direct:
		direct := directScores(group, games)
		value = func(i int) float64 { return direct[i] } // nil map: all 0, no split
	}
	return splitBy(group, value, func(sub []int) [][]int {
		return separateBy(sub, st, games, chain[1:])
	})
}

// splitBy sorts group by value, highest first, and hands each run of equal
// values to next.
func splitBy(group []int, value func(int) float64, next func([]int) [][]int) [][]int {
	sorted := slices.Clone(group)
	slices.SortStableFunc(sorted, func(a, b int) int { return compareFloat(value(b), value(a)) })
	var out [][]int
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && value(sorted[end]) == value(sorted[start]) {
			end++
		}
		out = append(out, next(sorted[start:end])...)
		start = end
	}
	return out
}

// directScores returns the points each player of group (indexes) scored in
// the games among them, or nil when not every pair met equally often (then
// the criterion says nothing, as FIDE's rule for the direct encounter).
func directScores(group []int, games []Game) map[int]float64 {
	in := map[int]bool{}
	for _, i := range group {
		in[i] = true
	}
	met := map[[2]int]int{}
	score := map[int]float64{}
	for _, g := range games {
		w, b := g.White-1, g.Black-1
		if !in[w] || !in[b] {
			continue
		}
		met[[2]int{min(w, b), max(w, b)}]++
		score[w] += g.WhiteScore
		score[b] += 1 - g.WhiteScore
	}
	want := -1
	for x := 0; x < len(group); x++ {
		for y := x + 1; y < len(group); y++ {
			a, b := group[x], group[y]
			k := met[[2]int{min(a, b), max(a, b)}]
			if k == 0 || (want >= 0 && k != want) {
				return nil
			}
			want = k
		}
	}
	return score
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
