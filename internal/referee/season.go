package referee

import (
	"fmt"
	"slices"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/addr"
)

// watchesViaEvent reports whether the spectator at address gets g's mails
// through its event.
func (g *Game) watchesViaEvent(address string) bool {
	return g.Event != nil && slices.ContainsFunc(g.Event.Watchers, func(w string) bool { return addr.SameMailbox(w, address) })
}

// unobserveWord is what a spectator at address sends to stop g's mails:
// "unobserve EVENT" when they follow the game through its event (the game
// alone cannot be dropped then), else "unobserve GAME".
func (g *Game) unobserveWord(address string) string {
	if g.watchesViaEvent(address) {
		return "unobserve " + g.Event.Name
	}
	return fmt.Sprintf("unobserve %d", g.ID)
}

// eventOver is what a game-over mail of an event game adds: where the
// event's standings are.
func (r *Referee) eventOver(p *lang.Printer, g *Game) string {
	if g.Event == nil {
		return ""
	}
	return " " + p.Sprintf("This was a game of the event %s: reply \"standings %s\" for its crosstable.", g.Event.Name, g.Event.Name)
}

// TimeControlText is g's time control in words, with its days off, or
// "none" for a game without a clock.
func (g *Game) TimeControlText() string {
	if c := g.clock(); c != nil {
		return c.Describe()
	}
	return "none (no clock)"
}

// ClockText is what g's clocks stand at now, as the players' mails say
// it, and the deadline of the side to act in UTC; "" for a game without a
// clock or over.
func (g *Game) ClockText(now time.Time) (string, error) {
	c := g.clock()
	if c == nil || g.Status != StatusActive {
		return "", nil
	}
	side, err := g.turn()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s; %s's time runs out %s", c.text(side, now), side, whenIn(c.Deadline(side), time.UTC)), nil
}

// earlyResignNote is what the game-over mails of a game resigned before
// both players had moved add: the game is not rated.
func earlyResignNote() lang.Text {
	return lang.M("The game ends before both players had moved, so it is not rated (as lichess aborts such games): no rating changes.")
}

// unratedEarly is g made casual when it is rated and is resigned before
// both players have made a move, or nil when it stays as it is: a result
// no board decided changes no rating (lichess lets such a game be
// aborted).
func unratedEarly(g *Game) *Game {
	if !g.Rated || g.Ply() >= 2 {
		return nil
	}
	ng := g.clone()
	ng.Rated = false
	ng.Ratings = [2]*GameRating{}
	return ng
}
