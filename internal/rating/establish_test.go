package rating

import "testing"

// TestGamesToEstablish: with the referee's constants a new player's
// deviation falls from 350 to 110 or less after a number of games that
// grows with the opponents' uncertainty: fewer against established
// players (deviation 60) than between two new players (350). The counts
// are Glicko-2's arithmetic, checked here against the rule that defines
// them: one game fewer still leaves the rating provisional.
func TestGamesToEstablish(t *testing.T) {
	p := Default()
	prev := 0
	for _, rd := range []float64{60, 110, 350} {
		n := p.GamesToEstablish(rd)
		r := p.Initial
		for i := 1; i <= n; i++ {
			r = p.Update(r, []Game{{Opponent: Rating{R: r.R, RD: rd, Sigma: p.Initial.Sigma}, Score: 0.5}})
			if i == n-1 && !r.Provisional() {
				t.Errorf("opponents at deviation %.0f: established after %d games, not %d", rd, i, n)
			}
		}
		if r.Provisional() {
			t.Errorf("opponents at deviation %.0f: still provisional (%.0f) after %d games", rd, r.RD, n)
		}
		if n < prev {
			t.Errorf("opponents at deviation %.0f: %d games, fewer than against surer opponents (%d)", rd, n, prev)
		}
		prev = n
		t.Logf("opponents at deviation %.0f: %d games", rd, n)
	}
}
