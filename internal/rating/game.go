package rating

import (
	"fmt"
	"math"
)

// ProvisionalRD is the deviation above which a rating is provisional (shown
// with "?"), as lichess does: below it, the rating is known to within about
// ±220 points at 95%.
const ProvisionalRD = 110

// Provisional reports whether r is still provisional.
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// String writes the rating rounded to a whole number, with "?" when it is
// provisional: "1532", "1500?".
func (r Rating) String() string {
	if r.Provisional() {
		return fmt.Sprintf("%d?", r.Rounded())
	}
	return fmt.Sprint(r.Rounded())
}

// Rounded is the rating as it is shown: to the nearest whole number,
// halves away from zero.
func (r Rating) Rounded() int { return int(math.Round(r.R)) }

// Diff is the change from before to after as the ratings are shown: the
// difference of the rounded values, so that "1500 +12" reads "1512".
func Diff(before, after Rating) int { return after.Rounded() - before.Rounded() }

// Pair rates one game between white and black as a rating period of its
// own for each player (the referee's period is one game, as lichess's):
// score is White's, 1 a win, 0.5 a draw, 0 a loss. Each side is rated
// against the other's rating before the game.
func (p Params) Pair(white, black Rating, score float64) (Rating, Rating) {
	w := p.Update(white, []Game{{Opponent: black, Score: score}})
	b := p.Update(black, []Game{{Opponent: white, Score: 1 - score}})
	return w, b
}

// Standing is one player's rating in one variant with the counts shown
// beside it.
type Standing struct {
	Address string
	Variant string
	Rating
	Games, Wins, Draws, Losses int
	// LostOnTime counts the games lost on time after a move of the
	// player's own; Abandoned those lost on time without one.
	LostOnTime, Abandoned int
}

// Reliability is the share of the player's finished rated games that were
// neither lost on time nor abandoned, 1 for a player without games.
func (s Standing) Reliability() float64 {
	if s.Games == 0 {
		return 1
	}
	return 1 - float64(s.LostOnTime+s.Abandoned)/float64(s.Games)
}
