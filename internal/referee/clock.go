package referee

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"referee/internal/game"
	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
	"referee/internal/timecontrol"
)

// Day is the unit of correspondence time controls.
const Day = timecontrol.Day

// VacationAllowance is how many vacation days a player may take per
// calendar year, over all their games (the app keeps the count per
// address and year).
const VacationAllowance = 30

// Clock is a game's time control and its state, stored as JSON in the
// game's state. The control's own fields (per_move, initial, increment,
// cap, block, days_off) come from the embedded timecontrol.Control, which
// also does the arithmetic; the clock adds what a game needs: whose turn
// began when, vacations, the players' time zones. Time is read only from
// the Env the caller passes, so tests run on a fake clock.
type Clock struct {
	// Control is the control as the organiser or a player wrote it (lower
	// case, single spaces): "3d", "10d+1d", "30d+1d/45d", "10/50d", "3d off
	// sat,sun". Challenges and the games table keep it so.
	Control string `json:"control"`
	// timeControl is what Control says.
	timeControl
	Moved     [2]int           `json:"moved,omitempty"`    // block clock: each side's moves so far
	Left      [2]time.Duration `json:"left,omitempty"`     // Fischer and block: each side's time
	TurnStart time.Time        `json:"turn_start"`         // when the side to act began to think
	Reminded  bool             `json:"reminded,omitempty"` // this turn's reminder was sent
	Vacation  [2]time.Time     `json:"vacation_until"`     // clocks stopped until then
	// VacUsed and VacYear counted the allowance per game until schema
	// version 4, which carried them into the per-player count; they are
	// kept as old states hold them, and no longer updated.
	VacUsed [2]int `json:"vacation_used"`
	VacYear int    `json:"vacation_year,omitempty"`

	loc [2]*time.Location // the players' time zones (Game.clock sets them)
}

// timeControl is the control a Clock embeds, under a name of its own: the
// name Control is the stored text's.
type timeControl = timecontrol.Control

// ParseTimeControl reads a time control as timecontrol.Parse does (its
// errors are Parse's) and returns a clock under it with both sides' time
// at the start; the caller sets TurnStart.
func ParseTimeControl(s string) (*Clock, error) {
	tc, err := timecontrol.Parse(s)
	if err != nil {
		return nil, err
	}
	start := tc.Start()
	return &Clock{Control: strings.Join(strings.Fields(strings.ToLower(s)), " "), timeControl: tc,
		Left: [2]time.Duration{start.Left, start.Left}}, nil
}

// clock is g's clock with its players' time zones, which its days off
// follow; nil for an untimed game.
func (g *Game) clock() *Clock {
	c := g.State.Clock
	if c != nil {
		for i := range g.Players {
			c.loc[i] = g.Players[i].Location()
		}
	}
	return c
}

// zone is side's time zone (UTC when unknown).
func (c *Clock) zone(side rules.Color) *time.Location {
	if l := c.loc[side]; l != nil {
		return l
	}
	return time.UTC
}

// side is side's own clock: its time left and its moves.
func (c *Clock) side(side rules.Color) timecontrol.Side {
	return timecontrol.Side{Left: c.Left[side], Moved: c.Moved[side]}
}

// running is the clock time that passes from a to b for a player in loc:
// all of it, less the days off.
func (c *Clock) running(a, b time.Time, loc *time.Location) time.Duration {
	return c.Running(a, b, loc)
}

// Explain is the opening mail's paragraph on the clock: the control, and
// how time is counted, warned of and stopped.
func (c *Clock) Explain() string { return c.ExplainIn(nil) }

// ExplainIn is Explain in p's language.
func (c *Clock) ExplainIn(p *lang.Printer) string {
	return p.Sprintf("%s. Your time runs from the mail that gives you the move until your reply is read; the first line of every mail shows "+
		"the time each side has left, and the mail that asks for your move gives your deadline. %s You are reminded once when a quarter of your time, or a day, is left; "+
		"whoever runs out of time loses (a draw when the opponent could not win). \"vacation N\" stops your clock for N days.",
		c.DescribeIn(p), c.CarryIn(p))
}

// allowance is the thinking time of side c for the current turn.
func (c *Clock) allowance(side rules.Color) time.Duration {
	return c.Allowance(c.side(side))
}

// Deadline is when the side to act loses on time.
func (c *Clock) Deadline(side rules.Color) time.Time {
	return c.timeControl.Deadline(c.TurnStart, c.side(side), c.zone(side))
}

// moved updates the clock after side moved at now.
func (c *Clock) moved(side rules.Color, now time.Time) {
	s := c.Advance(c.side(side), c.running(c.TurnStart, now, c.zone(side)))
	c.Left[side], c.Moved[side] = s.Left, s.Moved
	c.TurnStart = now
	if v := c.Vacation[side.Other()]; v.After(now) {
		c.TurnStart = v // the opponent's clock starts when their vacation ends
	}
	c.Reminded = false
}

// text describes the clocks for a status line. A side on vacation has its
// clock stopped: it shows the time left as frozen (what it will have when
// the vacation ends) and says until when.
func (c *Clock) text(turn rules.Color, now time.Time) string { return c.textIn(nil, turn, now) }

// textIn is text in p's language.
func (c *Clock) textIn(p *lang.Printer, turn rules.Color, now time.Time) string {
	side := func(s rules.Color) string {
		left, from := c.allowance(s), now
		vac := c.Vacation[s].After(now)
		if vac {
			from = c.Vacation[s]
		}
		if s == turn {
			// Clock time for both sides: the days off and the time before
			// the turn began are not counted (the deadline, in the
			// reader's calendar, is given beside it).
			left -= c.running(c.TurnStart, from, c.zone(s))
		}
		out := fmt.Sprintf("%s %s", sideName(p, s), spanFor(p, left))
		if c.Block > 0 {
			out += p.Sprintf(" for %d moves", c.MovesLeft(c.side(s)))
		}
		if vac {
			out += p.Sprintf(" (stopped until %s)", dayFor(p, c.Vacation[s]))
		}
		return out
	}
	return p.Sprintf("time left: %s, %s", side(rules.White), side(rules.Black))
}

// Tick applies what is due on g's clock at now: a reminder to the side to
// act (once, when a quarter of its time or a day is left, whichever is
// less), or the loss on time. It returns an outcome with Game nil when
// nothing is due.
func (r *Referee) Tick(g *Game, now time.Time) Outcome {
	c := g.clock()
	if g.Status != StatusActive || c == nil {
		return Outcome{Verdict: Ignored}
	}
	pos, err := g.Position()
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: err.Error()}
	}
	side := pos.Turn()
	deadline := c.Deadline(side)
	if !now.Before(deadline) {
		res := rules.Result{Over: true, Winner: side.Other(), Reason: side.String() + " lost on time"}
		if bareKing(pos, side.Other()) {
			res = rules.Result{Over: true, Draw: true, Reason: fmt.Sprintf("%s ran out of time, but %s has no way to win", side, side.Other())}
		}
		return r.finish(g, side, pos, nil, now, res, game.EndTime, bySideText(side, lang.M("White's time ran out."), lang.M("Black's time ran out.")))
	}
	if c.Reminded || now.Before(c.reminderAt(side)) {
		return Outcome{Verdict: Ignored}
	}
	ng := g.clone()
	ng.State.Clock.Reminded = true
	p := r.printer(g.Players[side].Language)
	body := render.Mail{Headline: p.Sprintf("Reminder: it is your move in game #%d, and your time runs out in %s (%s).",
		g.ID, spanFor(p, deadline.Sub(now)), whenFor(p, deadline, g.Players[side].Location()))}
	mail := r.boardMail(ng, pos, side, body, lang.M("Reminder: your move"), nil, KindReminder, fmt.Sprint(g.Ply()), now)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: reminded %s", g.ID, side), Game: ng, Mails: []Mail{mail}}
}

// reminderAt is when side, to act, is reminded: when a quarter of its
// time or a day is left, whichever is less.
func (c *Clock) reminderAt(side rules.Color) time.Time {
	return c.ReminderAt(c.TurnStart, c.side(side), c.zone(side))
}

// nextCheck is the next moment Tick acts on this clock with side to act:
// the reminder, or once it was sent, the loss on time.
func (c *Clock) nextCheck(side rules.Color) time.Time {
	if c.Reminded {
		return c.Deadline(side)
	}
	return c.reminderAt(side)
}

// NextCheck is the next moment Tick has something to do on g's clock at
// the latest: before it, Tick(g, now) changes nothing, and from it on
// Tick reminds the side to act or ends the game on time. ok is false when
// Tick never acts on g (no clock, or the game is over). The store keeps
// it as the game's deadline, so that the minute's tick loads only the
// games that are due. It reads whose turn it is from the position after
// the last action, without replaying the record.
func (g *Game) NextCheck() (at time.Time, ok bool, err error) {
	c := g.clock()
	if g.Status != StatusActive || c == nil {
		return time.Time{}, false, nil
	}
	side, err := g.turn()
	if err != nil {
		return time.Time{}, false, err
	}
	return c.nextCheck(side), true, nil
}

// turn is the side to act: read from the position string stored after the
// last action (it includes the rolls after it), or at the start from the
// position after the start's rolls.
func (g *Game) turn() (rules.Color, error) {
	if n := len(g.Actions); n > 0 {
		pos, err := g.Variant.ParsePosition(g.Actions[n-1].Position)
		if err != nil {
			return 0, fmt.Errorf("game #%d: stored position after action %d: %w", g.ID, n, err)
		}
		return pos.Turn(), nil
	}
	pos, err := g.Position()
	if err != nil {
		return 0, err
	}
	return pos.Turn(), nil
}

// bareKing reports whether side c has nothing but its king: it cannot win,
// so its opponent's running out of time is a draw (games with check).
func bareKing(pos rules.Position, c rules.Color) bool {
	if !pos.Variant().HasCheck() {
		return false
	}
	b := pos.Variant().Board()
	n := 0
	for _, s := range b.Squares() {
		if p := pos.At(s); p != rules.NoPiece && p.Color() == c {
			n++
		}
	}
	return n == 1 && len(pos.Hand(c)) == 0
}

// vacation stops the player's clock for n days, within the yearly allowance.
func (r *Referee) vacation(g *Game, color rules.Color, pos rules.Position, m *reader.Mail, words []string, env Env) Outcome {
	now := env.Now
	c := g.State.Clock
	if c == nil {
		return r.rejectActionIn(g, color, pos, m, env, "no clock", lang.M("This game has no time control, so there is no clock to stop."), lang.M("Play on at your own pace."))
	}
	n := 0
	if len(words) >= 2 {
		n, _ = strconv.Atoi(words[1])
	}
	year := now.UTC().Year()
	used := env.VacationUsed // the allowance is the player's, over all their games
	if n < 1 || n > VacationAllowance {
		return r.rejectActionIn(g, color, pos, m, env, "bad vacation",
			lang.M("\"vacation\" needs a number of days from 1 to %d, e.g. \"vacation 5\"; %s.", VacationAllowance, lang.M("you have %d days left this year", max(VacationAllowance-used, 0))),
			lang.M("Reply e.g. \"vacation 5\"."))
	}
	if used+n > VacationAllowance {
		return r.rejectActionIn(g, color, pos, m, env, "vacation allowance",
			lang.M("You asked for %s, but only %d of your %d this year (over all your games) are left.", lang.M("%d vacation days", n), max(VacationAllowance-used, 0), VacationAllowance),
			lang.M("Ask for fewer days."))
	}
	ng := g.clone()
	until := ng.applyVacation(color, n, pos, now)
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s takes %d vacation days", g.ID, color, n), Game: ng,
		Lobby: &LobbyChange{Vacation: &VacationUse{Address: addr.Mailbox(g.Players[color].Address), Year: year, Days: n}}}
	day := textFunc(func(p *lang.Printer) string { return dayFor(p, until) })
	h := bySideText(color, lang.M("White is on vacation until %s: their clock is stopped.", day), lang.M("Black is on vacation until %s: their clock is stopped.", day))
	out.Mails = r.boardMailsIn(ng, pos, h, h, color, m, nil, now)
	return out
}
