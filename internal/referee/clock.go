package referee

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"referee/internal/game"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
)

// Day is the unit of correspondence time controls.
const Day = 24 * time.Hour

// VacationAllowance is how many vacation days a player may take per
// calendar year, over all their games (the app keeps the count per
// address and year).
const VacationAllowance = 30

// Clock is a game's time control and its state. Time is read only from the
// Env the caller passes, so tests run on a fake clock.
type Clock struct {
	Control   string           `json:"control"`             // as given: "3d", "10d+1d", "30d+1d/45d" or "10/50d"
	PerMove   time.Duration    `json:"per_move,omitempty"`  // days per move
	Initial   time.Duration    `json:"initial,omitempty"`   // Fischer: starting time (also the cap, unless Cap); block: the time of each block
	Increment time.Duration    `json:"increment,omitempty"` // Fischer: added after each move
	Cap       time.Duration    `json:"cap,omitempty"`       // capped Fischer: never more than this (0: Initial)
	Block     int              `json:"block,omitempty"`     // block clock: moves per block
	Moved     [2]int           `json:"moved,omitempty"`     // block clock: each side's moves so far
	Left      [2]time.Duration `json:"left,omitempty"`      // Fischer and block: each side's time
	TurnStart time.Time        `json:"turn_start"`          // when the side to act began to think
	Reminded  bool             `json:"reminded,omitempty"`  // this turn's reminder was sent
	Vacation  [2]time.Time     `json:"vacation_until"`      // clocks stopped until then
	// VacUsed and VacYear counted the allowance per game until schema
	// version 4, which carried them into the per-player count; they are
	// kept as old states hold them, and no longer updated.
	VacUsed [2]int `json:"vacation_used"`
	VacYear int    `json:"vacation_year,omitempty"`
	// DaysOff are the weekdays on which the clocks do not run ("3d off
	// sat,sun"), each player's days in their own time zone.
	DaysOff []time.Weekday `json:"days_off,omitempty"`

	loc [2]*time.Location // the players' time zones (Game.clock sets them)
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

// isOff reports whether the clocks stop on weekday d.
func (c *Clock) isOff(d time.Weekday) bool {
	for _, o := range c.DaysOff {
		if o == d {
			return true
		}
	}
	return false
}

// nextMidnight is the start of the calendar day after t's in loc (a day
// is 23 or 25 hours long when summer time begins or ends).
func nextMidnight(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, loc)
}

// running is the clock time that passes from a to b for a player in loc:
// all of it, less the days off.
func (c *Clock) running(a, b time.Time, loc *time.Location) time.Duration {
	if !b.After(a) {
		return 0
	}
	if len(c.DaysOff) == 0 {
		return b.Sub(a)
	}
	var d time.Duration
	for t := a; t.Before(b); {
		end := nextMidnight(t, loc)
		if end.After(b) {
			end = b
		}
		if !c.isOff(t.In(loc).Weekday()) {
			d += end.Sub(t)
		}
		t = end
	}
	return d
}

// after is the moment when d of clock time has run from a, for a player
// in loc: d later, plus the days off on the way.
func (c *Clock) after(a time.Time, d time.Duration, loc *time.Location) time.Time {
	if len(c.DaysOff) == 0 {
		return a.Add(d)
	}
	for t := a; ; {
		next := nextMidnight(t, loc)
		if !c.isOff(t.In(loc).Weekday()) {
			if seg := next.Sub(t); d <= seg {
				return t.Add(d)
			} else {
				d -= seg
			}
		}
		t = next
	}
}

var weekdays = map[string]time.Weekday{"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday}

// parseDaysOff reads "sat,sun": at most 3 weekdays, by their first three
// letters or full English names.
func parseDaysOff(s string) ([]time.Weekday, error) {
	var out []time.Weekday
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(strings.ToLower(w))
		if len(w) >= 3 {
			if d, ok := weekdays[w[:3]]; ok && strings.HasPrefix(strings.ToLower(d.String()), w) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
				continue
			}
		}
		return nil, fmt.Errorf("days off %q: %q is not a weekday; write e.g. \"sat,sun\"", s, w)
	}
	if len(out) == 0 || len(out) > 3 {
		return nil, fmt.Errorf("days off %q: give 1 to 3 weekdays, e.g. \"sat,sun\"", s)
	}
	slices.SortFunc(out, func(a, b time.Weekday) int { return (int(a)+6)%7 - (int(b)+6)%7 }) // Monday first
	return out, nil
}

// TimeControlSyntax says how time controls are written, for errors and
// help texts.
const TimeControlSyntax = `days per move ("3d"), Fischer ("10d+1d"), capped Fischer ("30d+1d/45d": 30 days, 1 more per move, never more than 45) or a block ("10/50d": 10 moves in 50 days, unused time carried over)`

// ParseTimeControl reads "3d" (three days per move), "10d+1d" (Fischer:
// ten days, one more per move, never more than ten), "30d+1d/45d" (capped
// Fischer: thirty days, one more per move, never more than forty-five) or
// "10/50d" (a block clock, as ICCF plays: ten moves in fifty days, then
// the next ten in fifty more, unused time carried over).
func ParseTimeControl(s string) (*Clock, error) {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	if ctl, off, ok := strings.Cut(s, " off "); ok {
		days, err := parseDaysOff(off)
		if err != nil {
			return nil, err
		}
		c, err := ParseTimeControl(ctl)
		if err != nil {
			return nil, err
		}
		c.Control, c.DaysOff = s, days
		return c, nil
	}
	days := func(x string) (time.Duration, error) {
		n, err := strconv.Atoi(strings.TrimSuffix(x, "d"))
		if err != nil || n < 0 || n > 365 || !strings.HasSuffix(x, "d") {
			return 0, fmt.Errorf("time control %q: write days as a number with d; the controls are %s", s, TimeControlSyntax)
		}
		return time.Duration(n) * Day, nil
	}
	c := &Clock{Control: s}
	if a, b, ok := strings.Cut(s, "+"); ok {
		ini, err := days(a)
		if err != nil {
			return nil, err
		}
		inc, capText, capped := strings.Cut(b, "/")
		incd, err := days(inc)
		if err != nil {
			return nil, err
		}
		if ini == 0 {
			return nil, fmt.Errorf("time control %q: the initial time must be at least 1d", s)
		}
		c.Initial, c.Increment, c.Left = ini, incd, [2]time.Duration{ini, ini}
		if capped {
			cp, err := days(capText)
			if err != nil {
				return nil, err
			}
			if cp < ini {
				return nil, fmt.Errorf("time control %q: the cap %s is less than the initial time %s; give a cap of at least %dd", s, capText, a, ini/Day)
			}
			c.Cap = cp
		}
		return c, nil
	}
	if n, d, ok := strings.Cut(s, "/"); ok {
		moves, err := strconv.Atoi(n)
		if err != nil || moves < 1 || moves > 200 {
			return nil, fmt.Errorf("time control %q: %q is not a number of moves from 1 to 200; write a block as e.g. 10/50d (10 moves in 50 days)", s, n)
		}
		per, err := days(d)
		if err != nil {
			return nil, err
		}
		if per == 0 {
			return nil, fmt.Errorf("time control %q: give the block at least 1d", s)
		}
		c.Block, c.Initial, c.Left = moves, per, [2]time.Duration{per, per}
		return c, nil
	}
	per, err := days(s)
	if err != nil {
		return nil, err
	}
	if per == 0 {
		return nil, fmt.Errorf("time control %q: give at least 1d per move", s)
	}
	c.PerMove = per
	return c, nil
}

// capOf is the most time a Fischer clock may hold.
func (c *Clock) capOf() time.Duration {
	if c.Cap > 0 {
		return c.Cap
	}
	return c.Initial
}

// Describe says the control in words: "3 days per move", "10 moves in 50
// days (unused time carried over)", ...
func (c *Clock) Describe() string { return c.describeDaysOff(c.describe()) }

func (c *Clock) describe() string {
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	d := func(x time.Duration) int { return int(x / Day) }
	switch {
	case c.PerMove > 0:
		return plural(d(c.PerMove), "day") + " per move"
	case c.Block > 0:
		return fmt.Sprintf("%s in %s, unused time carried over (%s)", plural(c.Block, "move"), plural(d(c.Initial), "day"), c.control())
	case c.Cap > 0:
		return fmt.Sprintf("%s + %s a move, at most %s (%s)", plural(d(c.Initial), "day"), plural(d(c.Increment), "day"), plural(d(c.Cap), "day"), c.control())
	}
	return fmt.Sprintf("%s + %s a move, at most %s (%s)", plural(d(c.Initial), "day"), plural(d(c.Increment), "day"), plural(d(c.Initial), "day"), c.control())
}

// control is the control as written, without its days off (Describe
// says those in words).
func (c *Clock) control() string {
	ctl, _, _ := strings.Cut(c.Control, " off ")
	return ctl
}

// describeDaysOff adds the days off to a description.
func (c *Clock) describeDaysOff(s string) string {
	if len(c.DaysOff) == 0 {
		return s
	}
	names := make([]string, len(c.DaysOff))
	for i, d := range c.DaysOff {
		names[i] = d.String() + "s"
	}
	list := strings.Join(names, " and ")
	if n := len(names); n > 2 {
		list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return s + "; the clock stops on " + list + " (each player's own, in their time zone)"
}

// Explain is the opening mail's paragraph on the clock: the control, and
// how time is counted, warned of and stopped.
func (c *Clock) Explain() string {
	how := "Your time runs from the mail that gives you the move until your reply is read; the first line of every mail shows " +
		"the time each side has left, and the mail that asks for your move gives your deadline."
	switch {
	case c.PerMove > 0:
		how += " Time not used on a move is not kept."
	case c.Block > 0:
		how += fmt.Sprintf(" After every %s a side has played, %d more days are added to what is left.", plural(c.Block, "move"), int(c.Initial/Day))
	default:
		how += " Each move adds the increment, up to the most a clock may hold."
	}
	return c.Describe() + ". " + how + " You are reminded once when a quarter of your time, or a day, is left; " +
		"whoever runs out of time loses (a draw when the opponent could not win). \"vacation N\" stops your clock for N days."
}

// allowance is the thinking time of side c for the current turn.
func (c *Clock) allowance(side rules.Color) time.Duration {
	if c.PerMove > 0 {
		return c.PerMove
	}
	return c.Left[side]
}

// Deadline is when the side to act loses on time.
func (c *Clock) Deadline(side rules.Color) time.Time {
	return c.after(c.TurnStart, c.allowance(side), c.zone(side))
}

// moved updates the clock after side moved at now.
func (c *Clock) moved(side rules.Color, now time.Time) {
	if c.PerMove == 0 {
		used := c.running(c.TurnStart, now, c.zone(side))
		left := c.Left[side] - used
		if c.Block > 0 {
			// A block done: the next block's time is added to what is
			// left of this one.
			c.Moved[side]++
			if c.Moved[side]%c.Block == 0 {
				left += c.Initial
			}
		} else {
			left = min(left+c.Increment, c.capOf())
		}
		c.Left[side] = left
	}
	c.TurnStart = now
	if v := c.Vacation[side.Other()]; v.After(now) {
		c.TurnStart = v // the opponent's clock starts when their vacation ends
	}
	c.Reminded = false
}

// text describes the clocks for a status line. A side on vacation has its
// clock stopped: it shows the time left as frozen (what it will have when
// the vacation ends) and says until when.
func (c *Clock) text(turn rules.Color, now time.Time) string {
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
		out := fmt.Sprintf("%s %s", s, span(left))
		if c.Block > 0 {
			out += fmt.Sprintf(" for %d moves", c.Block-c.Moved[s]%c.Block)
		}
		if vac {
			out += fmt.Sprintf(" (stopped until %s)", c.Vacation[s].UTC().Format("Mon 2 Jan"))
		}
		return out
	}
	return fmt.Sprintf("time left: %s, %s", side(rules.White), side(rules.Black))
}

func span(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	days, hours := int(d/Day), int((d%Day)/time.Hour)
	if days == 0 {
		return fmt.Sprintf("%dh", max(hours, 1))
	}
	return fmt.Sprintf("%dd %dh", days, hours)
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
		return r.finish(g, side, pos, nil, now, res, game.EndTime, fmt.Sprintf("%s's time ran out.", side))
	}
	if c.Reminded || now.Before(c.reminderAt(side)) {
		return Outcome{Verdict: Ignored}
	}
	ng := g.clone()
	ng.State.Clock.Reminded = true
	body := render.Mail{Headline: fmt.Sprintf("Reminder: it is your move in game #%d, and your time runs out in %s (%s).",
		g.ID, span(deadline.Sub(now)), whenIn(deadline, g.Players[side].Location()))}
	mail := r.boardMail(ng, pos, side, body, "Reminder: your move", nil, KindReminder, fmt.Sprint(g.Ply()), now)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: reminded %s", g.ID, side), Game: ng, Mails: []Mail{mail}}
}

// reminderAt is when side, to act, is reminded: when a quarter of its
// time or a day is left, whichever is less.
func (c *Clock) reminderAt(side rules.Color) time.Time {
	return c.Deadline(side).Add(-min(c.allowance(side)/4, Day))
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
		return r.rejectAction(g, color, pos, m, env, "no clock", "This game has no time control, so there is no clock to stop.", "Play on at your own pace.")
	}
	n := 0
	if len(words) >= 2 {
		n, _ = strconv.Atoi(words[1])
	}
	year := now.UTC().Year()
	used := env.VacationUsed // the allowance is the player's, over all their games
	if n < 1 || n > VacationAllowance {
		return r.rejectAction(g, color, pos, m, env, "bad vacation",
			fmt.Sprintf("\"vacation\" needs a number of days from 1 to %d, e.g. \"vacation 5\"; you have %d days left this year.", VacationAllowance, max(VacationAllowance-used, 0)), "Reply e.g. \"vacation 5\".")
	}
	if used+n > VacationAllowance {
		return r.rejectAction(g, color, pos, m, env, "vacation allowance",
			fmt.Sprintf("You asked for %d vacation days, but only %d of your %d this year (over all your games) are left.", n, max(VacationAllowance-used, 0), VacationAllowance), "Ask for fewer days.")
	}
	ng := g.clone()
	until := ng.applyVacation(color, n, pos, now)
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s takes %d vacation days", g.ID, color, n), Game: ng,
		Lobby: &LobbyChange{Vacation: &VacationUse{Address: addr.Mailbox(g.Players[color].Address), Year: year, Days: n}}}
	out.Mails = r.boardMails(ng, pos, fmt.Sprintf("%s is on vacation until %s: their clock is stopped.", color, until.UTC().Format("Mon 2 Jan")), color, m, nil, now)
	return out
}
