package rating

import (
	"math"
	"testing"
)

// TestReferenceCases checks Update against values computed independently by
// testdata/glicko2_reference.py: the same paper (Glickman, "Example of the
// Glicko-2 system", 2013) written again in Python, with the new volatility
// (step 5) found by bisection to 1e-13 instead of the Illinois iteration.
// The cases move the volatility visibly (upsets, a collapse, a large τ that
// takes step 5's search for B) and put players far from 1500, where a
// mistake in the scale conversion shows.
func TestReferenceCases(t *testing.T) {
	type g = [3]float64 // opponent's rating, deviation, score
	tests := []struct {
		name  string
		tau   float64
		start Rating
		games []g
		want  Rating
	}{
		{"upset streak: 1400 beats five 2000s", 0.5, Rating{R: 1400, RD: 80, Sigma: 0.06},
			[]g{{2000, 50, 1}, {2010, 60, 1}, {1990, 40, 1}, {2050, 70, 1}, {1980, 30, 1}},
			Rating{R: 1573.589912, RD: 79.430311, Sigma: 0.060291279}},
		{"expected result: 2200 beats three 1700s", 0.5, Rating{R: 2200, RD: 60, Sigma: 0.06},
			[]g{{1700, 50, 1}, {1720, 80, 1}, {1690, 40, 1}},
			Rating{R: 2203.515465, RD: 60.325376, Sigma: 0.059998308}},
		{"collapse: 2100 loses four to 1600s, high volatility", 1.2, Rating{R: 2100, RD: 40, Sigma: 0.09},
			[]g{{1600, 60, 0}, {1620, 50, 0}, {1580, 70, 0}, {1610, 45, 0}},
			Rating{R: 2060.614660, RD: 42.922443, Sigma: 0.093860328}},
		{"draws against a stronger player", 0.3, Rating{R: 1750, RD: 120, Sigma: 0.1},
			[]g{{1900, 90, 0.5}, {1900, 90, 0.5}, {1900, 90, 0.5}},
			Rating{R: 1787.294510, RD: 106.934198, Sigma: 0.099994108}},
		{"new player below 1500 loses to a new player", 0.5, Rating{R: 1320, RD: 350, Sigma: 0.06},
			[]g{{1500, 350, 0}},
			Rating{R: 1207.907059, RD: 295.497225, Sigma: 0.059999384}},
		// δ² lies between φ² + v and 1 + v: step 5 starts B at
		// ln(δ² − φ² − v), and σ barely moves (by 6e-7, well over the
		// tolerance).
		{"small upset: 1500 beats 1535", 0.5, Rating{R: 1500, RD: 50, Sigma: 0.06},
			[]g{{1535, 30, 1}},
			Rating{R: 1508.050848, RD: 50.541877, Sigma: 0.060000638}},
		// Many games keep v under 1, with δ small: step 5 searches B
		// from a − τ.
		{"twelve games, one win more than expected", 0.5, Rating{R: 1500, RD: 60, Sigma: 0.06},
			[]g{{1500, 50, 1}, {1500, 50, 0.5}, {1500, 50, 0.5}, {1500, 50, 0.5}, {1500, 50, 0.5}, {1500, 50, 0.5},
				{1500, 50, 0.5}, {1500, 50, 0.5}, {1500, 50, 0.5}, {1500, 50, 0.5}, {1500, 50, 0.5}, {1500, 50, 0.5}},
			Rating{R: 1507.753777, RD: 52.226864, Sigma: 0.059972756}},
		{"large tau: an expected draw lowers a high volatility", 5.0, Rating{R: 1650, RD: 30, Sigma: 0.8},
			[]g{{1650, 30, 0.5}},
			Rating{R: 1650, RD: 93.660603, Sigma: 0.532375085}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var games []Game
			for _, x := range tt.games {
				games = append(games, Game{Opponent: Rating{R: x[0], RD: x[1]}, Score: x[2]})
			}
			got := Params{Tau: tt.tau}.Update(tt.start, games)
			// The reference prints six decimals for R and RD and nine
			// for σ; the Illinois iteration stops at |B−A| ≤ 1e-6 on
			// ln σ², so σ agrees to about 1e-8.
			if math.Abs(got.R-tt.want.R) > 2e-5 || math.Abs(got.RD-tt.want.RD) > 2e-5 ||
				math.Abs(got.Sigma-tt.want.Sigma) > 5e-8 {
				t.Errorf("Update = %.6f / %.6f / %.9f, the reference gives %.6f / %.6f / %.9f",
					got.R, got.RD, got.Sigma, tt.want.R, tt.want.RD, tt.want.Sigma)
			}
		})
	}
}

// TestSkillratingsCases checks one-game periods against the published tests
// of the Rust crate skillratings (src/glicko2.rs, test_equal_glicko2, MIT
// licence), which round to whole points: a 1520 player beating a 1420 one,
// both at RD 350, and a 1600 (RD 350) drawing a 1500 (RD 50), τ = 0.5.
func TestSkillratingsCases(t *testing.T) {
	p := Params{Tau: 0.5}
	tests := []struct {
		name         string
		white, black Rating
		score        float64
		wantW, wantB [2]float64 // rounded rating and deviation
	}{
		{"1520 beats 1420", Rating{R: 1520, RD: 350, Sigma: 0.06}, Rating{R: 1420, RD: 350, Sigma: 0.06}, 1,
			[2]float64{1653, 292}, [2]float64{1287, 292}},
		{"1600 draws 1500", Rating{R: 1600, RD: 350, Sigma: 0.06}, Rating{R: 1500, RD: 50, Sigma: 0.06}, 0.5,
			[2]float64{1550, 253}, [2]float64{1501, 51}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, b := p.Pair(tt.white, tt.black, tt.score)
			for _, c := range []struct {
				who  string
				got  Rating
				want [2]float64
			}{{"White", w, tt.wantW}, {"Black", b, tt.wantB}} {
				if math.Round(c.got.R) != c.want[0] || math.Round(c.got.RD) != c.want[1] {
					t.Errorf("%s: %.2f / %.2f, skillratings gives %v / %v", c.who, c.got.R, c.got.RD, c.want[0], c.want[1])
				}
			}
		})
	}
}
