package event

import "fmt"

// Bracket returns the first-round pairings of a knockout of n entrants (2,
// 4, 8, 16 or 32), seeded as every bracket is: seed 1 meets seed n, and the
// two best seeds can meet only in the final, the best four only in the
// semi-finals, and so on. Each pairing is a match; its first game has the
// better seed as White.
func Bracket(n int) ([]Pairing, error) {
	switch n {
	case 2, 4, 8, 16, 32:
	default:
		return nil, fmt.Errorf("a knockout takes 2, 4, 8, 16 or 32 entrants, not %d", n)
	}
	order := []int{1, 2}
	for len(order) < n {
		m := 2 * len(order)
		next := make([]int, 0, m)
		for _, s := range order {
			next = append(next, s, m+1-s)
		}
		order = next
	}
	matches := make([]Pairing, 0, n/2)
	for i := 0; i < n; i += 2 {
		matches = append(matches, Pairing{White: order[i], Black: order[i+1]})
	}
	return matches, nil
}

// NextRound pairs the winners of a round's matches, given in match order:
// the winners of matches 1 and 2 meet, then 3 and 4, and so on, which keeps
// the bracket's seeding. White in the new match's first game is the winner
// of the earlier match.
func NextRound(winners []int) ([]Pairing, error) {
	if len(winners) < 2 || len(winners)%2 != 0 {
		return nil, fmt.Errorf("a knockout round needs an even number of winners, not %d", len(winners))
	}
	var matches []Pairing
	for i := 0; i < len(winners); i += 2 {
		matches = append(matches, Pairing{White: winners[i], Black: winners[i+1]})
	}
	return matches, nil
}
