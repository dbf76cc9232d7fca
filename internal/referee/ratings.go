package referee

import (
	"fmt"
	"strings"

	"referee/internal/rating"
	"referee/internal/render"
)

// GameRating is one player's rating in a rated game: Before is the rating
// the game started from (the player's current rating while it runs);
// After is the rating it gave, once it was counted (nil before).
type GameRating struct {
	Before rating.Rating
	After  *rating.Rating
}

// ratingsAfter returns both players' ratings after g, a finished rated
// game with its ratings loaded: the counted values, or, in the transaction
// that ends it, the values the store counts from the same ratings
// (rating.Params.Pair), so the final mail says what is stored.
func ratingsAfter(g *Game) (before, after [2]rating.Rating, ok bool) {
	if !g.Rated || g.Ratings[0] == nil || g.Ratings[1] == nil || g.Status != StatusFinished {
		return before, after, false
	}
	before = [2]rating.Rating{g.Ratings[0].Before, g.Ratings[1].Before}
	if g.Ratings[0].After != nil && g.Ratings[1].After != nil {
		return before, [2]rating.Rating{*g.Ratings[0].After, *g.Ratings[1].After}, true
	}
	var score float64
	switch g.Result {
	case "1-0":
		score = 1
	case "0-1":
		score = 0
	case "1/2-1/2":
		score = 0.5
	default:
		return before, after, false
	}
	after[0], after[1] = rating.Default().Pair(before[0], before[1], score)
	return before, after, true
}

// signed writes a rating change with its sign: "+12", "-3", "+0".
func signed(d int) string {
	if d < 0 {
		return fmt.Sprint(d)
	}
	return fmt.Sprintf("+%d", d)
}

// openingRatingSection tells both players whether the game is rated, and
// with it their ratings in the variant.
func openingRatingSection(g *Game) (render.Section, bool) {
	if !g.Rated {
		return render.Section{Title: "Casual game", Body: "This game is casual: its result changes no rating."}, true
	}
	if g.Ratings[0] == nil || g.Ratings[1] == nil {
		return render.Section{}, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "This game is rated (%s). Ratings now:\n", g.Variant.Title())
	for c, p := range g.Players {
		fmt.Fprintf(&b, "%s %s: %s\n", colorName(c), p.Address, g.Ratings[c].Before)
	}
	b.WriteString(fmt.Sprintf("A \"?\" marks a provisional rating (deviation above %d). Reply \"rating\" for yours in full.", rating.ProvisionalRD))
	return render.Section{Title: "Ratings", Body: b.String()}, true
}

// finalRatingSection tells both players what a rated game did to each
// player's rating.
func finalRatingSection(g *Game) (render.Section, bool) {
	before, after, ok := ratingsAfter(g)
	if !ok {
		return render.Section{}, false
	}
	var b strings.Builder
	for c, p := range g.Players {
		fmt.Fprintf(&b, "%s %s: %s -> %s (%s)\n", colorName(c), p.Address, before[c], after[c], signed(rating.Diff(before[c], after[c])))
	}
	return render.Section{Title: "Ratings", Body: strings.TrimRight(b.String(), "\n")}, true
}

func colorName(c int) string {
	if c == 0 {
		return "White"
	}
	return "Black"
}
