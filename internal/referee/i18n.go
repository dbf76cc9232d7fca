package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/notation"
	"referee/internal/rules"
	"referee/internal/timecontrol"
)

// Issue 42: every mail to a player in their own language. The texts are
// lang's catalogs; these helpers write the words the board mails share
// (sides, results, dates, clocks) in the reader's language. What is not
// translated yet is written in English, as before.

// printer is the printer of the language code ("" for English).
func (r *Referee) printer(code string) *lang.Printer { return r.cat.Printer(code) }

// english is the English printer: the texts that also name a mail (its
// Message-ID's salt, the log's detail) are the English ones.
func (r *Referee) english() *lang.Printer { return r.cat.Printer(lang.English) }

// Catalog is the core's message catalog, for writing queued mails.
func (r *Referee) Catalog() *lang.Catalog { return r.cat }

// sideName is "White" or "Black" in p's language, as a word alone (in a
// sentence, the side has its own message: grammar differs by side).
func sideName(p *lang.Printer, c rules.Color) string {
	if c == rules.White {
		return p.Sprintf("White")
	}
	return p.Sprintf("Black")
}

// colorText is sideName for a text written later.
type colorText rules.Color

// In is the side's name in p's language.
func (c colorText) In(p *lang.Printer) string { return sideName(p, rules.Color(c)) }

// sanText is a move as SAN writes it, in the reader's piece letters
// (notation.WriteIn).
type sanText struct {
	v   rules.Variant
	san string
}

// In is the move in p's language's letters.
func (s sanText) In(p *lang.Printer) string { return notation.WriteIn(s.v, s.san, p.ReaderTag()) }

// variantTitle is v's title in p's language: orthodox chess and the
// three chess games named for their board's surface (toroidal,
// cylindrical, Klein); the other variants' names are their own.
func variantTitle(p *lang.Printer, v rules.Variant) string {
	switch v.Title() {
	case "Chess":
		return p.Sprintf("Chess")
	case "Toroidal chess":
		return p.Sprintf("Toroidal chess")
	case "Cylindrical chess":
		return p.Sprintf("Cylindrical chess")
	case "Klein chess":
		return p.Sprintf("Klein chess")
	}
	return v.Title()
}

// reasonText is why a game ended, as rules.Result and the referee write
// it ("checkmate", "50-move rule (claimed)"), in p's language; a reason
// not translated yet is written as it is.
func reasonText(p *lang.Printer, reason string) string {
	if base, ok := strings.CutSuffix(reason, " (claimed)"); ok {
		return p.Sprintf("%s (claimed)", reasonText(p, base))
	}
	var n int
	if _, err := fmt.Sscanf(reason, "%d-move rule", &n); err == nil && fmt.Sprintf("%d-move rule", n) == reason {
		return p.Sprintf("%d-move rule", n)
	}
	switch reason {
	case "checkmate":
		return p.Sprintf("checkmate")
	case "stalemate":
		return p.Sprintf("stalemate")
	case "fivefold repetition":
		return p.Sprintf("fivefold repetition")
	case "threefold repetition":
		return p.Sprintf("threefold repetition")
	case "insufficient material":
		return p.Sprintf("insufficient material")
	case "agreed":
		return p.Sprintf("agreed")
	case "White resigned":
		return p.Sprintf("White resigned")
	case "Black resigned":
		return p.Sprintf("Black resigned")
	case "White lost on time":
		return p.Sprintf("White lost on time")
	case "Black lost on time":
		return p.Sprintf("Black lost on time")
	case "White ran out of time, but Black has no way to win":
		return p.Sprintf("White ran out of time, but Black has no way to win")
	case "Black ran out of time, but White has no way to win":
		return p.Sprintf("Black ran out of time, but White has no way to win")
	}
	return reason
}

// resultSentence is res as the headline of the action that ended the game
// says it: "White wins (checkmate)." (capital(res.String()) + ".").
func resultSentence(res rules.Result) lang.Text { return resultWords(res) }

type resultWords rules.Result

// In is the result in p's language.
func (t resultWords) In(p *lang.Printer) string {
	res := rules.Result(t)
	switch {
	case !res.Over:
		return p.Sprintf("Game in progress.")
	case res.Draw:
		return p.Sprintf("Draw (%s).", reasonText(p, res.Reason))
	case res.Winner == rules.White:
		return p.Sprintf("White wins (%s).", reasonText(p, res.Reason))
	default:
		return p.Sprintf("Black wins (%s).", reasonText(p, res.Reason))
	}
}

// weekday and month are the short names of a date's day and month.
func weekday(p *lang.Printer, d time.Weekday) string {
	switch d {
	case time.Monday:
		return p.Sprintf("Mon")
	case time.Tuesday:
		return p.Sprintf("Tue")
	case time.Wednesday:
		return p.Sprintf("Wed")
	case time.Thursday:
		return p.Sprintf("Thu")
	case time.Friday:
		return p.Sprintf("Fri")
	case time.Saturday:
		return p.Sprintf("Sat")
	}
	return p.Sprintf("Sun")
}

func month(p *lang.Printer, m time.Month) string {
	switch m {
	case time.January:
		return p.Sprintf("Jan")
	case time.February:
		return p.Sprintf("Feb")
	case time.March:
		return p.Sprintf("Mar")
	case time.April:
		return p.Sprintf("Apr")
	case time.May:
		return p.Sprintf("May")
	case time.June:
		return p.Sprintf("Jun")
	case time.July:
		return p.Sprintf("Jul")
	case time.August:
		return p.Sprintf("Aug")
	case time.September:
		return p.Sprintf("Sep")
	case time.October:
		return p.Sprintf("Oct")
	case time.November:
		return p.Sprintf("Nov")
	}
	return p.Sprintf("Dec")
}

// whenFor is whenIn ("Fri 12 Feb 13:00 CET") in p's language; English
// writes exactly what whenIn writes.
func whenFor(p *lang.Printer, t time.Time, loc *time.Location) string {
	t = t.In(loc)
	return p.Sprintf("%[1]s %[2]d %[3]s %[4]s", weekday(p, t.Weekday()), t.Day(), month(p, t.Month()), t.Format("15:04 MST"))
}

// dayFor is a day as the clock's vacation note writes it ("Mon 2 Jan"),
// in p's language.
func dayFor(p *lang.Printer, t time.Time) string {
	t = t.UTC()
	return p.Sprintf("%[1]s %[2]d %[3]s", weekday(p, t.Weekday()), t.Day(), month(p, t.Month()))
}

// spanFor is timecontrol.Span ("3d 4h") in p's language.
func spanFor(p *lang.Printer, d time.Duration) string {
	if d <= 0 {
		return p.Sprintf("none")
	}
	days, hours := int(d/timecontrol.Day), int((d%timecontrol.Day)/time.Hour)
	if days == 0 {
		return p.Sprintf("%dh", max(hours, 1))
	}
	return p.Sprintf("%dd %dh", days, hours)
}
