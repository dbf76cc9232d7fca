// Package rating computes Glicko-2 ratings, as Mark Glickman describes the
// system in "Example of the Glicko-2 system" (Boston University, 2013): a
// rating, a rating deviation (how uncertain the rating is) and a volatility
// (how erratic the player's results are) per player, updated once a rating
// period from the games played in it.
//
// The package is pure arithmetic: it knows nothing of games, variants or
// storage, so every rating can be recomputed from the records.
package rating

import "math"

// Rating is one player's standing on the Glicko scale.
type Rating struct {
	R     float64 // rating, 1500 for a new player
	RD    float64 // rating deviation, 350 for a new player
	Sigma float64 // volatility
}

// Game is one game of a rating period, from the rated player's side.
type Game struct {
	Opponent Rating  // the opponent's rating before the period
	Score    float64 // 1 a win, 0.5 a draw, 0 a loss
}

// Params are the system's constants.
type Params struct {
	// Tau constrains how fast the volatility may change; Glickman suggests
	// 0.3 to 1.2. The worked example uses 0.5.
	Tau float64
	// Initial is the rating of a player who has not played yet.
	Initial Rating
	// MaxRD caps the deviation: a player absent for a long time becomes as
	// uncertain as a new one, never more.
	MaxRD float64
}

// Default returns the constants the referee uses: τ = 0.5 as in Glickman's
// example, a new player at 1500 ± 350 with volatility 0.06, and the
// deviation never above a new player's.
func Default() Params {
	return Params{Tau: 0.5, Initial: Rating{R: 1500, RD: 350, Sigma: 0.06}, MaxRD: 350}
}

// scale converts between the Glicko and Glicko-2 scales (step 2 of the paper).
const scale = 173.7178

// convergence is the paper's ε for the volatility iteration (step 5).
const convergence = 0.000001

// Update returns r after a rating period in which the player played games
// (steps 1 to 8 of the paper). A period without games leaves the rating and
// volatility alone and only widens the deviation (the paper's rule for a
// player who did not compete).
func (p Params) Update(r Rating, games []Game) Rating {
	mu, phi := (r.R-1500)/scale, r.RD/scale
	if len(games) == 0 {
		phiStar := math.Sqrt(phi*phi + r.Sigma*r.Sigma)
		return p.capped(Rating{R: r.R, RD: phiStar * scale, Sigma: r.Sigma})
	}

	// Step 3 and 4: the estimated variance v of the rating from the game
	// outcomes alone, and the estimated improvement delta.
	var vInv, sum float64
	for _, gm := range games {
		muJ, phiJ := (gm.Opponent.R-1500)/scale, gm.Opponent.RD/scale
		gj := g(phiJ)
		e := expected(mu, muJ, gj)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (gm.Score - e)
	}
	v := 1 / vInv
	delta := v * sum

	// Step 5: the new volatility.
	sigma := p.volatility(phi, r.Sigma, v, delta)

	// Step 6 to 8: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return p.capped(Rating{R: muNew*scale + 1500, RD: phiNew * scale, Sigma: sigma})
}

func (p Params) capped(r Rating) Rating {
	if p.MaxRD > 0 && r.RD > p.MaxRD {
		r.RD = p.MaxRD
	}
	return r
}

// g weighs a game by how certain the opponent's rating is.
func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// expected is the expected score against an opponent at muJ weighted gj.
func expected(mu, muJ, gj float64) float64 { return 1 / (1 + math.Exp(-gj*(mu-muJ))) }

// volatility is step 5 of the paper: the Illinois algorithm on f.
func (p Params) volatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	tau2 := p.Tau * p.Tau
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/tau2
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*p.Tau) < 0 {
			k++
		}
		B = a - k*p.Tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > convergence {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
