// Package event holds the arithmetic of correspondence events: round-robin
// pairings from the FIDE Berger tables. It is pure: it knows nothing of
// mail, storage or the rules of any game, so everything it decides can be
// recomputed from the event's record.
package event

import "fmt"

// Pairing is one game of a round: White and Black are player numbers
// (1-based, in the order of the entry list). Black is 0 when White sits out
// the round (a bye).
type Pairing struct {
	White, Black int
}

// Bye reports whether the pairing is a round off for White.
func (p Pairing) Bye() bool { return p.Black == 0 }

// Berger returns the rounds of a single round robin for n players, as the
// FIDE Handbook's Berger tables give them (C.05, Annex 1): with an even n
// there are n-1 rounds of n/2 games; with an odd n a dummy player n+1 is
// added and whoever meets it has a bye that round.
//
// The tables follow one rule, checked against the Handbook's tables in the
// tests: in round r (1-based) of an even table of n players, board 1 pairs
// player n with p = 1 + (r-1)·n/2 (counted in 1…n-1, wrapping), p White in
// odd rounds and n White in even rounds; board k+1 pairs p+k (White) with
// p-k (Black), both counted in 1…n-1.
func Berger(n int) ([][]Pairing, error) {
	if n < 2 {
		return nil, fmt.Errorf("a round robin needs at least 2 players, not %d", n)
	}
	m := n
	if m%2 == 1 {
		m++
	}
	wrap := func(x int) int { // into 1…m-1
		x = (x - 1) % (m - 1)
		if x < 0 {
			x += m - 1
		}
		return x + 1
	}
	rounds := make([][]Pairing, m-1)
	for r := 1; r <= m-1; r++ {
		p := wrap(1 + (r-1)*m/2)
		board := Pairing{White: p, Black: m}
		if r%2 == 0 {
			board = Pairing{White: m, Black: p}
		}
		round := []Pairing{board}
		for k := 1; k < m/2; k++ {
			round = append(round, Pairing{White: wrap(p + k), Black: wrap(p - k)})
		}
		if m != n { // the dummy player m: whoever meets it sits out
			for i, g := range round {
				switch m {
				case g.White:
					round[i] = Pairing{White: g.Black}
				case g.Black:
					round[i] = Pairing{White: g.White}
				}
			}
		}
		rounds[r-1] = round
	}
	return rounds, nil
}

// DoubleBerger returns a double round robin: the Berger rounds, then the same
// rounds again with colours swapped. As the Handbook recommends, the last two
// rounds of the first cycle are exchanged, so that no player has the same
// colour three times in a row where the cycles meet.
func DoubleBerger(n int) ([][]Pairing, error) {
	first, err := Berger(n)
	if err != nil {
		return nil, err
	}
	if k := len(first); k >= 2 {
		first[k-2], first[k-1] = first[k-1], first[k-2]
	}
	rounds := append([][]Pairing{}, first...)
	for _, r := range first {
		second := make([]Pairing, len(r))
		for i, g := range r {
			if g.Bye() {
				second[i] = g
			} else {
				second[i] = Pairing{White: g.Black, Black: g.White}
			}
		}
		rounds = append(rounds, second)
	}
	return rounds, nil
}
