package referee

import (
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/notation"
	"referee/internal/rules"
	"referee/internal/timecontrol"
)

// Issue 42, the lobby's part: the help, the lobby's letters and answers,
// and the mails to a third party (an invitation to the invited player, a
// notice to the other player of a challenge), each in its reader's
// language. A letter to the sender is in the sender's language
// (Env.Language); a mail to another player in theirs, as the app loads it
// into Lobby.Languages (unknown or unset: English).

// senderPrinter is the printer of the language of the mail's sender.
func (r *Referee) senderPrinter(env Env) *lang.Printer { return r.printer(env.Language) }

// printerOf is the printer of the language of the player at address, as
// the lobby view holds it (English when it holds none).
func (r *Referee) printerOf(env Env, address string) *lang.Printer {
	if env.Lobby == nil {
		return r.english()
	}
	return r.printer(env.Lobby.Languages[addr.Mailbox(address)])
}

// timeSyntax is timecontrol.Syntax, the ways a challenge writes its time,
// in the reader's language (a test keeps the key equal to the constant).
func timeSyntax() lang.Text { return timecontrol.SyntaxText() }

// codesText lists the codes the "language" command takes, each with its
// language's name: in English "en English, de German, ...", in another
// language with each language's own name ("de Deutsch, fr français").
type codesText struct{}

// In is the list for p's reader.
func (codesText) In(p *lang.Printer) string {
	var s []string
	for _, l := range notation.Languages() {
		name := l.Name
		if p.Code() != lang.English {
			name = l.Native
		}
		s = append(s, l.Code+" "+name)
	}
	return strings.Join(s, ", ")
}

// dateFor is a date with its year and time as the lobby's mails write it
// ("Mon 30 Nov 2026 11:00 CET"), in p's language and the zone loc.
func dateFor(p *lang.Printer, t time.Time, loc *time.Location) string {
	t = t.In(loc)
	return p.Sprintf("%[1]s %[2]d %[3]s %[4]d %[5]s", weekday(p, t.Weekday()), t.Day(), month(p, t.Month()), t.Year(), t.Format("15:04 MST"))
}

// dayYearFor is a day with its year, without the time, as the vacation
// bookings write it ("Mon 2 Jan 2006"), in p's language and the zone loc.
func dayYearFor(p *lang.Printer, t time.Time, loc *time.Location) string {
	t = t.In(loc)
	return p.Sprintf("%[1]s %[2]d %[3]s %[4]d", weekday(p, t.Weekday()), t.Day(), month(p, t.Month()), t.Year())
}

// dayYearAt is dayYearFor written later in the reader's language.
type dayYearAt struct {
	t   time.Time
	loc *time.Location
}

// In is the day in p's language.
func (d dayYearAt) In(p *lang.Printer) string { return dayYearFor(p, d.t, d.loc) }

// daysAt is daysText written later in the reader's language.
type daysAt int

// In is the number of days in p's language.
func (n daysAt) In(p *lang.Printer) string { return daysText(p, int(n)) }

// dateInFor is dateIn (a reader's zone by name, "" for UTC) in p's
// language.
func dateInFor(p *lang.Printer, zone string, t time.Time) string {
	return dateFor(p, t, zoneLocation(zone))
}

// daysText is "1 day", "3 days" in p's language.
func daysText(p *lang.Printer, n int) string { return p.Sprintf("%d days", n) }

// gamesCount is "1 game", "3 games" in p's language.
func gamesCount(p *lang.Printer, n int) string { return p.Sprintf("%d games", n) }

// controlFor is a challenge's time control in words, in p's language
// (timecontrol.Control.DescribeIn): "3 days per move", "no time limit"
// for none, the control as written when it does not parse.
func controlFor(p *lang.Printer, tc string) string {
	if tc == "" {
		return p.Sprintf("no time limit")
	}
	c, err := timecontrol.Parse(tc)
	if err != nil {
		return tc
	}
	return c.DescribeIn(p)
}

// dateAt is a date with its year, in the zone loc, written later in the
// reader's language (dateFor).
type dateAt struct {
	t   time.Time
	loc *time.Location
}

// In is the date in p's language.
func (d dateAt) In(p *lang.Printer) string { return dateFor(p, d.t, d.loc) }

// titleText is a variant's title written later in the reader's language
// (variantTitle).
type titleText struct{ v rules.Variant }

// In is the title in p's language.
func (t titleText) In(p *lang.Printer) string { return variantTitle(p, t.v) }

// ofGame is a variant's name as "a game of Chess" has it, after "a game"
// in p's language, with the preposition the language needs there: German
// "Schach" (eine Partie Schach), French "d'échecs", Russian "в шахматы"
// (партия в шахматы). Where the sentence names the variant alone, it
// has its title (variantTitle).
func ofGame(p *lang.Printer, v rules.Variant) string {
	switch v.Title() {
	case "Chess":
		return p.Sprintf("of Chess")
	case "Toroidal chess":
		return p.Sprintf("of Toroidal chess")
	case "Cylindrical chess":
		return p.Sprintf("of Cylindrical chess")
	case "Klein chess":
		return p.Sprintf("of Klein chess")
	}
	return p.Sprintf("of %s", v.Title())
}

// ofVariant is ofGame of the variant named name, or of the name itself
// when the catalog has no such variant.
func (r *Referee) ofVariant(p *lang.Printer, name string) string {
	if v, err := r.cfg.Variants.Lookup(name); err == nil {
		return ofGame(p, v)
	}
	return p.Sprintf("of %s", name)
}

// ofGameText is ofGame written later in the reader's language.
type ofGameText struct{ v rules.Variant }

// In is the name in p's language.
func (t ofGameText) In(p *lang.Printer) string { return ofGame(p, t.v) }

// closedText says that the challenge ch, a game of title, is closed and
// how; showGame adds the game it became (to its two players).
func closedText(ch *Challenge, title lang.Text, showGame bool) lang.Text {
	switch ch.Status {
	case ChallengeAccepted:
		if showGame && ch.GameID != 0 {
			return lang.M("Challenge %d (%s, from %s) is no longer open: it was accepted and is game #%d.", ch.ID, title, ch.Challenger, ch.GameID)
		}
		return lang.M("Challenge %d (%s, from %s) is no longer open: it was accepted.", ch.ID, title, ch.Challenger)
	case ChallengeDeclined:
		return lang.M("Challenge %d (%s, from %s) is no longer open: it was declined.", ch.ID, title, ch.Challenger)
	case ChallengeExpired:
		return lang.M("Challenge %d (%s, from %s) is no longer open: it was expired.", ch.ID, title, ch.Challenger)
	case ChallengeWithdrawn:
		return lang.M("Challenge %d (%s, from %s) is no longer open: it was withdrawn.", ch.ID, title, ch.Challenger)
	}
	return lang.M("Challenge %d (%s, from %s) is no longer open: it was %s.", ch.ID, title, ch.Challenger, string(ch.Status))
}

// onVacation is the headline that tells the opponent (and spectators) of
// side c that c's clock is stopped until until.
type onVacation struct {
	c     rules.Color
	until time.Time
}

// In is the headline in p's language.
func (v onVacation) In(p *lang.Printer) string {
	if v.c == rules.White {
		return p.Sprintf("White is on vacation until %s: their clock is stopped.", dayFor(p, v.until))
	}
	return p.Sprintf("Black is on vacation until %s: their clock is stopped.", dayFor(p, v.until))
}

// vacationOver is the headline that tells the opponent (and spectators)
// of a side that its vacation is cancelled.
type vacationOver rules.Color

// In is the headline in p's language.
func (v vacationOver) In(p *lang.Printer) string {
	if rules.Color(v) == rules.White {
		return p.Sprintf("White's vacation is cancelled: their clock runs again.")
	}
	return p.Sprintf("Black's vacation is cancelled: their clock runs again.")
}
