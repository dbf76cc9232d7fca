package event

import "fmt"

// TieNotes says, for every pair of neighbours in the standings who ended
// on the same points, which criterion of the chain put one above the other
// and with what values, or that none could and they share a rank: what a
// reader of a final crosstable needs to check the order. name gives a
// player's name by number (from 1). Nil when no two players tie on points.
func (t Table) TieNotes(name func(player int) string) []string {
	st := t.Standings
	var out []string
	for i := 0; i+1 < len(st); i++ {
		a, b := st[i], st[i+1]
		if a.Points != b.Points {
			continue
		}
		out = append(out, t.tieNote(a, b, name))
	}
	return out
}

// tieNote explains the order of a and b, neighbours on equal points.
func (t Table) tieNote(a, b Standing, name func(int) string) string {
	both := fmt.Sprintf("%s and %s, both on %s", name(a.Player), name(b.Player), Points(a.Points))
	// The players still tied with a and b before each criterion: those on
	// their points, then those equal to them on each criterion so far.
	tied := map[int]Standing{}
	for _, s := range t.Standings {
		if s.Points == a.Points {
			tied[s.Player] = s
		}
	}
	for _, c := range t.Chain {
		var va, vb float64
		var what string
		switch c {
		case Wins:
			va, vb, what = float64(a.Wins), float64(b.Wins), "the number of wins"
		case SonnebornBerger:
			va, vb, what = a.SB, b.SB, "Sonneborn-Berger"
		case Direct:
			var group []int
			for p := range tied {
				group = append(group, p-1)
			}
			direct := directScores(group, t.games)
			va, vb, what = direct[a.Player-1], direct[b.Player-1], "the direct encounter"
			if direct == nil {
				continue // not every pair met equally often: it says nothing
			}
		}
		if va != vb {
			return fmt.Sprintf("%s: %s stands above on %s (%s to %s).", both, name(a.Player), what, Points(va), Points(vb))
		}
		var out []int
		for p, s := range tied {
			if value(c, s, t.games, tied) != va {
				out = append(out, p)
			}
		}
		for _, p := range out {
			delete(tied, p)
		}
	}
	if a.Rank == b.Rank {
		return fmt.Sprintf("%s: the tie-breaks could not separate them, and they share rank %d.", both, a.Rank)
	}
	return fmt.Sprintf("%s: ranked %d and %d.", both, a.Rank, b.Rank)
}

// value is s's value on criterion c (the direct encounter among tied).
func value(c TieBreak, s Standing, games []Game, tied map[int]Standing) float64 {
	switch c {
	case Wins:
		return float64(s.Wins)
	case SonnebornBerger:
		return s.SB
	}
	var group []int
	for p := range tied {
		group = append(group, p-1)
	}
	return directScores(group, games)[s.Player-1]
}
