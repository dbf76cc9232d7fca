package referee

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/render"
	"referee/internal/rules"
)

// MaxBookings is how many periods of leave a player may have booked ahead
// (not yet begun) at a time.
const MaxBookings = 3

// Booking is a leave a player booked ahead ("vacation from 2026-12-20
// 10"): from Start (the player's local midnight) for Days days. The tick
// stops the player's clocks when it begins (StartBooking).
type Booking struct {
	ID    int64
	Start time.Time
	Days  int
	Began bool
}

// End is when the leave is over.
func (b Booking) End() time.Time { return b.Start.Add(time.Duration(b.Days) * Day) }

// BookingChange is a leave to book (LobbyChange.Book) or, with ID set and
// Days 0, one to cancel (LobbyChange.Cancel).
type BookingChange struct {
	Address string
	ID      int64
	Start   time.Time
	Days    int
}

// daysByYear splits a leave of days from start into calendar years of
// loc: a leave from 28 December for 10 days is 4 days of one year and 6
// of the next.
func daysByYear(start time.Time, days int, loc *time.Location) map[int]int {
	out := map[int]int{}
	y, m, d := start.In(loc).Date()
	for i := range days {
		out[time.Date(y, m, d+i, 12, 0, 0, 0, loc).Year()]++
	}
	return out
}

// allowanceProblem says why a new leave of days from start does not fit
// the yearly allowance (nil when it does): per year it touches, the days
// taken (Env.VacationByYear), those booked and not begun, and the new
// ones, at most VacationAllowance.
func allowanceProblem(env Env, start time.Time, days int, loc *time.Location) lang.Text {
	need := daysByYear(start, days, loc)
	for _, b := range env.Bookings {
		if b.Began {
			continue
		}
		for y, n := range daysByYear(b.Start, b.Days, loc) {
			if _, ok := need[y]; ok {
				need[y] += n
			}
		}
	}
	for y, n := range need {
		used := env.VacationByYear[y]
		if used+n > VacationAllowance {
			return lang.M("In %d you have taken %d vacation days and booked or asked for %d more, over the %d a year.", y, used, n, VacationAllowance)
		}
	}
	return nil
}

// bookVacation books leave ahead: "vacation from 2026-12-20 10". The
// answers and refusals are in the sender's language, the notice to each
// opponent in theirs.
func (r *Referee) bookVacation(c *call) Outcome {
	m, env := c.m, c.env
	loc := zoneLocation(env.Zone)
	usage := lang.M("Send e.g. \"vacation from 2026-12-20 10\": 10 days from 20 December (in your time zone, see \"timezone\").")
	if len(c.args) != 3 {
		return r.refuseIn(env, m, "vacation from: arguments", lang.M("\"vacation from\" needs a date and a number of days."), usage)
	}
	day, err := time.ParseInLocation("2006-01-02", c.args[1], loc)
	if err != nil {
		return r.refuseIn(env, m, "vacation from: date "+c.args[1], lang.M("%q is not a date written as YYYY-MM-DD.", c.args[1]), usage)
	}
	n, err := strconv.Atoi(c.args[2])
	if err != nil || n < 1 || n > VacationAllowance {
		return r.refuseIn(env, m, "vacation from: days "+c.args[2], lang.M("%q is not a number of days from 1 to %d.", c.args[2], VacationAllowance), usage)
	}
	if !day.After(env.Now) {
		now := textFunc(func(p *lang.Printer) string { return whenFor(p, env.Now, loc) })
		return r.refuseIn(env, m, "vacation from: past", lang.M("%s has begun or is past (it is %s in your time zone).", c.args[1], now),
			lang.M("Book a day from tomorrow on, or send \"vacation %s\" in a game to stop its clock from now.", c.args[2]))
	}
	if day.After(env.Now.Add(366 * Day)) {
		return r.refuseIn(env, m, "vacation from: too far", lang.M("%s is more than a year ahead.", c.args[1]), lang.M("Book leave within the next year."))
	}
	pending := 0
	nb := Booking{Start: day, Days: n}
	for _, b := range env.Bookings {
		if !b.Began {
			pending++
		}
		if b.Start.Before(nb.End()) && nb.Start.Before(b.End()) {
			return r.refuseIn(env, m, "vacation from: overlap",
				lang.M("it overlaps your vacation %d (%s, %s).", b.ID, dayYearAt{b.Start, loc}, daysAt(b.Days)),
				lang.M("Cancel that one first (\"vacation cancel %d\"), or book other days; \"vacation list\" lists yours.", b.ID))
		}
	}
	if pending >= MaxBookings {
		return r.refuseIn(env, m, "vacation from: too many", lang.M("you have %d periods of vacation booked already, the most there may be.", pending),
			lang.M("Wait until one begins, or cancel one (\"vacation list\" lists them)."))
	}
	if why := allowanceProblem(env, day, n, loc); why != nil {
		return r.refuseIn(env, m, "vacation from: allowance", why, lang.M("Book fewer days; \"vacation list\" shows what you booked."))
	}
	p := r.senderPrinter(env)
	when := p.Sprintf("%s for %s, until %s", dayYearFor(p, day, loc), daysText(p, n), dayYearFor(p, nb.End(), loc))
	out := r.lobbyAnswerIn(p, m, env, "vacation-booked", p.Sprintf("Vacation booked: %s", when),
		wrap(p.Sprintf("Your vacation is booked from %s. The clocks of all your timed games stop on their own when it begins, and start again when it ends; your opponents are told now and when it begins.", when))+"\n\n"+
			wrap(cancelHow(p, pending))+"\n")
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("%s booked a vacation from %s for %d days", m.From, day.Format(time.RFC3339), n)
	out.Lobby = &LobbyChange{Book: &BookingChange{Address: m.From, Start: day, Days: n}}
	if env.Lobby != nil {
		for _, g := range env.Lobby.Games {
			color, ok := g.colorOf(m.From)
			if !ok || g.Status != StatusActive || g.State.Clock == nil {
				continue
			}
			opp := g.Players[color.Other()]
			op := r.printer(opp.Language)
			out.Mails = append(out.Mails, r.noticeMailIn(op, opp.Address, env.Now, "vacation-booked-"+fmt.Sprint(g.ID),
				fmt.Sprintf("[%s #%d] %s", g.Variant.Name(), g.ID, op.Sprintf("Your opponent booked a vacation")),
				op.Sprintf("Your opponent in game #%d (%s) will be on vacation from %s for %s: their clock will stop then.",
					g.ID, g.Players[color].displayName(color), whenFor(op, day, opp.Location()), daysText(op, n))))
		}
	}
	return out
}

// cancelHow says how to cancel a new booking, when pending others were
// booked before it, in p's language.
func cancelHow(p *lang.Printer, pending int) string {
	if pending == 0 {
		return p.Sprintf("To cancel it before it begins, send \"vacation cancel\" (it is your only booking).")
	}
	return p.Sprintf("You have %d vacations booked now. To cancel one before it begins, send \"vacation list\" for their numbers, then \"vacation cancel ID\".", pending+1)
}

// listBookings answers "vacation list", in the sender's language.
func (r *Referee) listBookings(c *call) Outcome {
	env := c.env
	p := r.senderPrinter(env)
	loc := zoneLocation(env.Zone)
	var b strings.Builder
	if len(env.Bookings) == 0 {
		b.WriteString(p.Sprintf("You have no vacation booked.") + "\n")
	}
	for _, bk := range env.Bookings {
		state := p.Sprintf("booked")
		if bk.Began {
			state = p.Sprintf("running")
		}
		fmt.Fprintf(&b, "  %d  %s\n", bk.ID, p.Sprintf("%s, %s, until %s (%s)", dayYearFor(p, bk.Start, loc), daysText(p, bk.Days), dayYearFor(p, bk.End(), loc), state))
	}
	year := env.Now.In(loc).Year()
	fmt.Fprintf(&b, "\n%s\n", wrap(p.Sprintf("Taken in %d: %d of %d days. Book with \"vacation from YYYY-MM-DD DAYS\" (at most %d booked at a time); cancel with \"vacation cancel ID\".",
		year, env.VacationByYear[year], VacationAllowance, MaxBookings)))
	return r.lobbyAnswerIn(p, c.m, env, "vacation-list", p.Sprintf("Your vacation"), b.String())
}

// cancelBooked answers "vacation cancel" when no vacation is running: it
// cancels the only booking not begun, or names the bookings and how to
// cancel each.
func (r *Referee) cancelBooked(c *call) Outcome {
	m, env := c.m, c.env
	p := r.senderPrinter(env)
	loc := zoneLocation(env.Zone)
	var booked []Booking
	for _, b := range env.Bookings {
		if !b.Began {
			booked = append(booked, b)
		}
	}
	switch len(booked) {
	case 0:
		return r.refuseIn(env, m, "vacation cancel: no vacation",
			lang.M("You are not on vacation in any game with a clock, and you have no vacation booked, so there is nothing to cancel."),
			lang.M("Play on; \"games\" lists your games and their clocks."))
	case 1:
		return r.cancelBookingID(c, booked[0].ID)
	}
	var b strings.Builder
	for _, bk := range booked {
		b.WriteString("  " + p.Sprintf("\"vacation cancel %d\" cancels the one from %s, %s", bk.ID, dayYearFor(p, bk.Start, loc), daysText(p, bk.Days)) + "\n")
	}
	// Nothing is cancelled: the answer names the bookings and the
	// command that cancels each.
	return r.lobbyAnswerIn(p, m, env, "vacation-which", p.Sprintf("Which vacation to cancel?"),
		wrap(p.Sprintf("You are not on vacation now, and you have %d vacations booked, so \"vacation cancel\" did not say which to cancel: nothing was cancelled. Send one of these:", len(booked)))+
			"\n\n"+b.String())
}

// cancelBooking answers "vacation cancel ID".
func (r *Referee) cancelBooking(c *call) Outcome {
	var id int64
	if len(c.args) == 2 {
		id, _ = strconv.ParseInt(c.args[1], 10, 64)
	}
	return r.cancelBookingID(c, id)
}

// cancelBookingID cancels the sender's booking id, before it begins.
func (r *Referee) cancelBookingID(c *call, id int64) Outcome {
	m, env := c.m, c.env
	for _, b := range env.Bookings {
		if b.ID != id {
			continue
		}
		if b.Began {
			return r.refuseIn(env, m, "vacation cancel: running", lang.M("your vacation %d has begun.", id),
				lang.M("It ends on its own; a booking can be cancelled only before it begins."))
		}
		p := r.senderPrinter(env)
		out := r.lobbyAnswerIn(p, m, env, "vacation-cancelled", p.Sprintf("Vacation %d cancelled", id),
			wrap(p.Sprintf("Your vacation %d (from %s, %s) is cancelled; its days are free again.", id, dayYearFor(p, b.Start, zoneLocation(env.Zone)), daysText(p, b.Days)))+"\n")
		out.Verdict = Applied
		out.Detail = fmt.Sprintf("%s cancelled booked vacation %d", m.From, id)
		out.Lobby = &LobbyChange{Cancel: &BookingChange{Address: m.From, ID: id}}
		return out
	}
	return r.refuseIn(env, m, "vacation cancel: unknown", lang.M("%q names none of your booked vacations.", strings.Join(append([]string{"vacation"}, c.args...), " ")),
		lang.M("Send \"vacation list\" for their numbers, then e.g. \"vacation cancel 3\"."))
}

// StartBooking stops the clock of player color in g for a booked leave
// that begins at start (the tick calls it for each of the player's timed
// games), and tells the opponent. It returns nil when g has no running
// clock.
func (r *Referee) StartBooking(g *Game, color rules.Color, b Booking, now time.Time) (*Game, []Mail) {
	if g.Status != StatusActive || g.State.Clock == nil {
		return nil, nil
	}
	pos, err := g.Position()
	if err != nil {
		return nil, nil
	}
	ng := g.clone()
	// The leave counts from its start, even if the tick comes late.
	until := ng.applyVacation(color, b.Days, pos, b.Start)
	opp := color.Other()
	// The date in the opponent's zone, for the spectators too, as before.
	day := textFunc(func(p *lang.Printer) string { return whenFor(p, until, g.Players[opp].Location()) })
	headline := bySideText(color,
		lang.M("White's booked vacation has begun: their clock is stopped until %s.", day),
		lang.M("Black's booked vacation has begun: their clock is stopped until %s.", day))
	body := render.Mail{Headline: headline.In(r.printer(g.Players[opp].Language))}
	mails := []Mail{r.boardMail(ng, pos, opp, body, nil, nil, "vacation-begins", fmt.Sprint(b.ID), now)}
	return ng, append(mails, r.spectatorMailsIn(ng, pos, headline, now)...)
}
