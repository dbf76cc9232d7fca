package rating

import (
	"math"
	"testing"
)

// TestGlickmanExample reproduces the worked example of Mark Glickman,
// "Example of the Glicko-2 system" (2013), section "Example calculation": a
// player rated 1500, RD 200, volatility 0.06 plays three games with τ = 0.5,
// winning against 1400 (RD 30) and losing against 1550 (RD 100) and 1700
// (RD 300). The paper's results: rating 1464.06, RD 151.52, volatility
// 0.05999. The paper rounds its intermediate values to four decimals
// (μ' = −0.2069, φ' = 0.8722), so its rating is 1464.06 where the exact
// arithmetic gives 1464.0507: the test checks the Glicko-2 scale values to
// the paper's four decimals, and the Glicko scale to within that rounding
// (0.0001 on the μ scale is 0.017 rating points).
func TestGlickmanExample(t *testing.T) {
	p := Params{Tau: 0.5}
	got := p.Update(Rating{R: 1500, RD: 200, Sigma: 0.06}, []Game{
		{Opponent: Rating{R: 1400, RD: 30}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300}, Score: 0},
	})
	check := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, the paper gives %v", what, got, want)
		}
	}
	check("μ'", (got.R-1500)/scale, -0.2069, 0.00005)
	check("φ'", got.RD/scale, 0.8722, 0.00005)
	check("rating", got.R, 1464.06, 0.017)
	check("RD", got.RD, 151.52, 0.005)
	check("volatility", got.Sigma, 0.05999, 0.00001)
}

// TestNoGamesWidensTheDeviation is the paper's rule for a player who did not
// compete: rating and volatility stay, φ' = sqrt(φ² + σ²).
func TestNoGamesWidensTheDeviation(t *testing.T) {
	r := Rating{R: 1500, RD: 200, Sigma: 0.06}
	got := Params{Tau: 0.5}.Update(r, nil)
	phi := 200 / scale
	want := math.Sqrt(phi*phi+0.06*0.06) * scale
	if got.R != 1500 || got.Sigma != 0.06 || math.Abs(got.RD-want) > 1e-9 {
		t.Fatalf("after an empty period: %+v, want 1500 / %.4f / 0.06", got, want)
	}
	if got.RD <= 200 {
		t.Fatalf("RD %.2f did not grow", got.RD)
	}
}

// TestDeviationCapped: a long absence never makes a player more uncertain
// than a new one.
func TestDeviationCapped(t *testing.T) {
	r := Rating{R: 1800, RD: 340, Sigma: 0.2}
	for range 50 {
		r = Default().Update(r, nil)
	}
	if r.RD != 350 {
		t.Fatalf("RD after 50 empty periods = %v, want the cap 350", r.RD)
	}
}

// TestSymmetry: two equal players, one game; the winner gains exactly what
// the loser loses, and a draw changes neither rating.
func TestSymmetry(t *testing.T) {
	a := Default().Initial
	tests := []struct {
		name  string
		score float64
	}{{"win", 1}, {"draw", 0.5}, {"loss", 0}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Default().Update(a, []Game{{Opponent: a, Score: tt.score}})
			l := Default().Update(a, []Game{{Opponent: a, Score: 1 - tt.score}})
			if math.Abs((w.R-1500)+(l.R-1500)) > 1e-9 {
				t.Fatalf("changes %.4f and %.4f do not cancel", w.R-1500, l.R-1500)
			}
			if tt.score == 0.5 && math.Abs(w.R-1500) > 1e-9 {
				t.Fatalf("a draw between equals moved the rating to %.4f", w.R)
			}
			if tt.score == 1 && w.R <= 1500 {
				t.Fatalf("a win gave %.2f", w.R)
			}
		})
	}
}

// TestPair: one game rates both sides, each against the other's rating
// before it, symmetric in colour, and provisional until the deviation falls
// to ProvisionalRD.
func TestPair(t *testing.T) {
	p := Default()
	a := Rating{R: 1600, RD: 80, Sigma: 0.06}
	b := Rating{R: 1500, RD: 200, Sigma: 0.06}
	for _, tc := range []struct {
		name  string
		score float64
	}{{"white wins", 1}, {"draw", 0.5}, {"black wins", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			w, bl := p.Pair(a, b, tc.score)
			if want := p.Update(a, []Game{{Opponent: b, Score: tc.score}}); w != want {
				t.Errorf("White %+v, want %+v", w, want)
			}
			if want := p.Update(b, []Game{{Opponent: a, Score: 1 - tc.score}}); bl != want {
				t.Errorf("Black %+v, want %+v", bl, want)
			}
			bl2, w2 := p.Pair(b, a, 1-tc.score)
			if w2 != w || bl2 != bl {
				t.Errorf("colours swapped: %+v %+v, want %+v %+v", w2, bl2, w, bl)
			}
		})
	}
	for _, tc := range []struct {
		r    Rating
		want string
	}{{Rating{R: 1500, RD: 350}, "1500?"}, {Rating{R: 1623.6, RD: 110.01}, "1624?"}, {Rating{R: 1623.4, RD: 110}, "1623"}} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v shown as %q, want %q", tc.r, got, tc.want)
		}
	}
}
