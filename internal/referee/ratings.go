package referee

import (
	"fmt"
	"strings"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/rating"
	"referee/internal/render"
	"referee/internal/rules"
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
func openingRatingSection(p *lang.Printer, g *Game) (render.Section, bool) {
	if !g.Rated {
		return render.Section{Title: p.Sprintf("Casual game"), Body: p.Sprintf("This game is casual: its result changes no rating.")}, true
	}
	if g.Ratings[0] == nil || g.Ratings[1] == nil {
		return render.Section{}, false
	}
	var b strings.Builder
	b.WriteString(p.Sprintf("This game is rated (%s). Ratings now:", variantTitle(p, g.Variant)) + "\n")
	for c, pl := range g.Players {
		fmt.Fprintf(&b, "%s %s: %s\n", sideName(p, rules.Color(c)), pl.Address, g.Ratings[c].Before)
	}
	b.WriteString(p.Sprintf("A \"?\" marks a provisional rating (deviation above %d). Reply \"rating\" for yours in full.", rating.ProvisionalRD))
	return render.Section{Title: p.Sprintf("Ratings"), Body: b.String()}, true
}

// finalRatingSection tells both players what a rated game did to each
// player's rating.
func finalRatingSection(p *lang.Printer, g *Game) (render.Section, bool) {
	before, after, ok := ratingsAfter(g)
	if !ok {
		return render.Section{}, false
	}
	var b strings.Builder
	for c, pl := range g.Players {
		fmt.Fprintf(&b, "%s %s: %s -> %s (%s)\n", sideName(p, rules.Color(c)), pl.Address, before[c], after[c], signed(rating.Diff(before[c], after[c])))
	}
	return render.Section{Title: p.Sprintf("Ratings"), Body: strings.TrimRight(b.String(), "\n")}, true
}

// ratingArgs are the words of "rating [ADDRESS] [VARIANT]" and "top
// VARIANT", read.
type ratingArgs struct {
	address string // canonical; the sender's when none is named
	variant string // the variant's name; "" when none is named
	bad     string // the first word that is neither, or a second of a kind
	named   bool   // an address was named
}

func readRatingArgs(args []string, from string, variants *rules.Catalog) ratingArgs {
	q := ratingArgs{address: from}
	for _, a := range args {
		if strings.Contains(a, "@") {
			ca, err := addr.Canonical(strings.Trim(a, "<>,;"))
			if err != nil || q.named {
				q.bad = a
				return q
			}
			q.address, q.named = ca, true
			continue
		}
		v, err := variants.Lookup(a)
		if err != nil || q.variant != "" {
			q.bad = a
			return q
		}
		q.variant = v.Name()
	}
	return q
}

// ratingAnswer answers "rating [ADDRESS] [VARIANT]", in the sender's
// language.
func (r *Referee) ratingAnswer(c *call) Outcome {
	m, env := c.m, c.env
	q := readRatingArgs(c.args, m.From, r.cfg.Variants)
	if q.bad != "" {
		return r.refuseIn(env, m, "rating: unknown word "+q.bad,
			lang.M("In %q, the word %q is neither one mail address nor one game.", firstWords(m.Action, 6), q.bad),
			lang.M("Write \"rating\", \"rating chess\", \"rating bob@example.org\" or \"rating bob@example.org chess\". The games: %s.", r.offeredNames()))
	}
	p := r.printer(env.Language)
	var b strings.Builder
	who := q.address
	if addr.SameMailbox(q.address, m.From) {
		who = p.Sprintf("You (%s)", m.From)
	}
	shown := 0
	for _, s := range env.Lobby.Ratings {
		if q.variant != "" && s.Variant != q.variant {
			continue
		}
		title := s.Variant
		if v, err := r.cfg.Variants.Lookup(s.Variant); err == nil {
			title = variantTitle(p, v)
		}
		b.WriteString(p.Sprintf("%s: %s (deviation %.0f, volatility %.4f)", title, s.Rating, s.RD, s.Sigma) + "\n")
		b.WriteString("  " + p.Sprintf("%s: %d won, %d drawn, %d lost", p.Sprintf("%d rated games", s.Games), s.Wins, s.Draws, s.Losses) + "\n")
		b.WriteString("  " + p.Sprintf("reliability %.0f%%: %d lost on time, %d abandoned (no move made)",
			100*s.Reliability(), s.LostOnTime, s.Abandoned) + "\n\n")
		shown++
	}
	var head string
	var v rules.Variant
	if q.variant != "" {
		v, _ = r.cfg.Variants.Lookup(q.variant)
	}
	switch {
	case shown == 0 && v != nil:
		head = p.Sprintf("%s: no rated game of %s yet. A new player starts at %s.", who, variantTitle(p, v), rating.Default().Initial)
	case shown == 0:
		head = p.Sprintf("%s: no rated game yet. A new player starts at %s.", who, rating.Default().Initial)
	case v != nil:
		head = p.Sprintf("%s: ratings of %s.", who, variantTitle(p, v))
	default:
		head = p.Sprintf("%s: ratings.", who)
	}
	text := wrap(head) + "\n\n" + b.String() + wrap(p.Sprintf("A \"?\" marks a provisional rating (deviation above %d). %s "+
		"Ratings are Glicko-2, one per game, updated when each rated game ends.", rating.ProvisionalRD, establishWords(p))) + "\n"
	return r.lobbyAnswerIn(p, m, env, "rating", p.Sprintf("Ratings"), text)
}

// establishWords says when a rating stops being provisional, in games.
func establishWords(p *lang.Printer) string {
	pr := rating.Default()
	return p.Sprintf("A rating is established, and listed by \"top\", once its deviation is %d or less: "+
		"after about %d rated games against established players, more against new ones (about %d when every opponent is new).",
		rating.ProvisionalRD, pr.GamesToEstablish(60), pr.GamesToEstablish(pr.Initial.RD))
}

// topLength is how many players "top" lists.
const topLength = 20

// topAnswer answers "top VARIANT": the variant's established players.
func (r *Referee) topAnswer(c *call) Outcome {
	m, env := c.m, c.env
	q := readRatingArgs(c.args, m.From, r.cfg.Variants)
	if q.bad != "" || q.variant == "" || q.named {
		return r.refuseIn(env, m, "top: no variant",
			lang.M("%q names no game.", firstWords(m.Action, 6)),
			lang.M("Write \"top\" and one game, e.g. \"top chess\". The games: %s.", r.offeredNames()))
	}
	p := r.printer(env.Language)
	v, _ := r.cfg.Variants.Lookup(q.variant)
	title := variantTitle(p, v)
	var b strings.Builder
	n := 0
	for _, s := range env.Lobby.Top {
		if s.Variant != q.variant || s.Provisional() {
			continue
		}
		n++
		fmt.Fprintf(&b, "%2d. %-6s %-4.0f %3d %s  %s\n", n, s.Rating, s.RD, s.Games, p.Sprintf("games"), s.Address)
		if n == topLength {
			break
		}
	}
	text := wrap(p.Sprintf("The established players of %s, best first (rating, deviation, rated games):", title)) + "\n\n" + b.String()
	if n == 0 {
		text = wrap(p.Sprintf("%s has no established player yet. %s \"rating %s\" shows yours.",
			title, establishWords(p), v.Name())) + "\n"
	}
	return r.lobbyAnswerIn(p, m, env, "top", p.Sprintf("Top players of %s", title), text)
}

// RatingLimits bound who may play: the rating in the variant played, and
// the reliability there; a player without a rated game in the variant
// counts as a new player (1500, reliability 100%). Zero means no bound.
type RatingLimits struct {
	MinRating, MaxRating float64
	MinReliability       float64 // a share, 0 to 1
}

// Any reports whether l bounds anything.
func (l RatingLimits) Any() bool {
	return l.MinRating > 0 || l.MaxRating > 0 || l.MinReliability > 0
}

// Text describes l in words ("rating 1400 to 1800, reliability at least
// 90%"), "" when it bounds nothing.
func (l RatingLimits) Text() string { return l.TextIn(nil) }

// TextIn is Text in p's language (nil: English).
func (l RatingLimits) TextIn(p *lang.Printer) string {
	var parts []string
	switch {
	case l.MinRating > 0 && l.MaxRating > 0:
		parts = append(parts, p.Sprintf("rating %.0f to %.0f", l.MinRating, l.MaxRating))
	case l.MinRating > 0:
		parts = append(parts, p.Sprintf("rating at least %.0f", l.MinRating))
	case l.MaxRating > 0:
		parts = append(parts, p.Sprintf("rating at most %.0f", l.MaxRating))
	}
	if l.MinReliability > 0 {
		parts = append(parts, p.Sprintf("reliability at least %.0f%%", 100*l.MinReliability))
	}
	return strings.Join(parts, ", ")
}

// limitsText is l's Text written later in the reader's language.
type limitsText RatingLimits

// In is the limits in p's language.
func (t limitsText) In(p *lang.Printer) string { return RatingLimits(t).TextIn(p) }

// outsideText says why a player whose ratings are ratings is outside l
// in variant, in the reader's language, or nil when they are within; who
// sets the limits ("the organiser", "event autumn").
func (l RatingLimits) outsideText(ratings []rating.Standing, variant string, who lang.Text) lang.Text {
	if !l.Any() {
		return nil
	}
	s := rating.Standing{Variant: variant, Rating: rating.Default().Initial}
	for _, x := range ratings {
		if x.Variant == variant {
			s = x
		}
	}
	why := limitReason{l: l, s: s, who: who}
	switch {
	case l.MinRating > 0 && s.R < l.MinRating:
		why.kind = belowMin
	case l.MaxRating > 0 && s.R > l.MaxRating:
		why.kind = aboveMax
	case l.MinReliability > 0 && s.Reliability() < l.MinReliability:
		why.kind = unreliable
	default:
		return nil
	}
	return why
}

// The ways a player is outside rating limits.
const (
	belowMin = iota + 1
	aboveMax
	unreliable
)

// limitReason says why a player (standing s) is outside the limits l that
// who sets, in the reader's language.
type limitReason struct {
	l    RatingLimits
	s    rating.Standing
	who  lang.Text
	kind int
}

// In is the reason in p's language (nil: English).
func (w limitReason) In(p *lang.Printer) string {
	title := w.s.Variant
	if v, err := rules.Lookup(w.s.Variant); err == nil {
		title = variantTitle(p, v)
	}
	who := w.who.In(p)
	switch w.kind {
	case belowMin:
		return p.Sprintf("your %s rating is %s, and %s asks for at least %.0f", title, w.s.Rating.String(), who, w.l.MinRating)
	case aboveMax:
		return p.Sprintf("your %s rating is %s, and %s allows at most %.0f", title, w.s.Rating.String(), who, w.l.MaxRating)
	}
	return p.Sprintf("your reliability in %s is %.0f%% (%d of %d rated games lost on time or abandoned), and %s asks for at least %.0f%%",
		title, 100*w.s.Reliability(), w.s.LostOnTime+w.s.Abandoned, w.s.Games, who, 100*w.l.MinReliability)
}

// limits are the organiser's limits on challenges.
func (lc LobbyConfig) limits() RatingLimits {
	return RatingLimits{MinRating: lc.MinRating, MaxRating: lc.MaxRating, MinReliability: lc.MinReliability}
}

// ratingLimits reports whether the organiser limits who may play by rating.
func (lc LobbyConfig) ratingLimits() bool { return lc.limits().Any() }

// outsideLimitsText is outsideLimits written later in the reader's
// language, or nil when the sender may play.
func (lc LobbyConfig) outsideLimitsText(ratings []rating.Standing, variant string) lang.Text {
	return lc.limits().outsideText(ratings, variant, lang.M("the organiser"))
}
