package rating

// GamesToEstablish is how many rated games a new player needs for their
// rating to stop being provisional (deviation ProvisionalRD or less), each
// drawn against an opponent of their own rating whose deviation is
// opponentRD, in periods of one game as the referee rates them. Results
// other than draws move the rating but barely the deviation; the count is
// what "top" and "rating" tell a player to expect. It gives up at 1000.
func (p Params) GamesToEstablish(opponentRD float64) int {
	r := p.Initial
	for n := 1; n <= 1000; n++ {
		r = p.Update(r, []Game{{Opponent: Rating{R: r.R, RD: opponentRD, Sigma: p.Initial.Sigma}, Score: 0.5}})
		if !r.Provisional() {
			return n
		}
	}
	return 1000
}
