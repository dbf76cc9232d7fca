package event

import "fmt"

// TieNotes says, for every pair of neighbours in the standings who ended
// on the same points, which criterion of the chain put one above the other
// and with what values, or that none could and they share a rank: what a
// reader of a final crosstable needs to check the order. name gives a
// player's name by number (from 1). Nil when no two players tie on points.
func (t Table) TieNotes(name func(player int) string) []string {
	return t.TieNotesIn(EnglishTieWords(), name)
}

// TieWords writes the sentences of the tie notes, in a reader's
// language (TieNotesIn); English is the notes' own words.
type TieWords interface {
	// Above: a and b, both on points, and first stands above on the
	// criterion (Criterion's words) with va to vb.
	Above(a, b, points, first, criterion, va, vb string) string
	// Shared: no criterion separated them; they share rank.
	Shared(a, b, points string, rank int) string
	// Ranked: they are ranked ra and rb.
	Ranked(a, b, points string, ra, rb int) string
	// Criterion names a tie-break as the notes name it ("the number of
	// wins").
	Criterion(c TieBreak) string
}

// EnglishTieWords are the tie notes' English words.
func EnglishTieWords() TieWords { return english{} }

type english struct{}

func (english) Above(a, b, points, first, criterion, va, vb string) string {
	return fmt.Sprintf("%s and %s, both on %s: %s stands above on %s (%s to %s).", a, b, points, first, criterion, va, vb)
}

func (english) Shared(a, b, points string, rank int) string {
	return fmt.Sprintf("%s and %s, both on %s: the tie-breaks could not separate them, and they share rank %d.", a, b, points, rank)
}

func (english) Ranked(a, b, points string, ra, rb int) string {
	return fmt.Sprintf("%s and %s, both on %s: ranked %d and %d.", a, b, points, ra, rb)
}

func (english) Criterion(c TieBreak) string {
	switch c {
	case Wins:
		return "the number of wins"
	case SonnebornBerger:
		return "Sonneborn-Berger"
	}
	return "the direct encounter"
}

// TieNotesIn is TieNotes with the sentences w writes.
func (t Table) TieNotesIn(w TieWords, name func(player int) string) []string {
	st := t.Standings
	var out []string
	for i := 0; i+1 < len(st); i++ {
		a, b := st[i], st[i+1]
		if a.Points != b.Points {
			continue
		}
		out = append(out, t.tieNote(a, b, name, w))
	}
	return out
}

// tieNote explains the order of a and b, neighbours on equal points.
func (t Table) tieNote(a, b Standing, name func(int) string, w TieWords) string {
	an, bn, pts := name(a.Player), name(b.Player), Points(a.Points)
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
		switch c {
		case Wins:
			va, vb = float64(a.Wins), float64(b.Wins)
		case SonnebornBerger:
			va, vb = a.SB, b.SB
		case Direct:
			var group []int
			for p := range tied {
				group = append(group, p-1)
			}
			direct := directScores(group, t.games)
			if direct == nil {
				continue // not every pair met equally often: it says nothing
			}
			va, vb = direct[a.Player-1], direct[b.Player-1]
		}
		if va != vb {
			return w.Above(an, bn, pts, an, w.Criterion(c), Points(va), Points(vb))
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
		return w.Shared(an, bn, pts, a.Rank)
	}
	return w.Ranked(an, bn, pts, a.Rank, b.Rank)
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
