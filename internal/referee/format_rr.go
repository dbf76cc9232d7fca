package referee

import (
	"fmt"
	"referee/internal/lang"
	"strings"

	"referee/internal/event"
	"referee/internal/game"
)

// The round robin: every player meets every other once, all games at once
// as in a correspondence section, paired by the FIDE Berger tables; the
// crosstable counts 1 a win and 1/2 a draw and breaks ties by the event's
// chain. ICCF's rules for withdrawals and silence.

// MinRoundRobin and MaxRoundRobin bound a round robin's players.
const (
	MinRoundRobin = 3
	MaxRoundRobin = 16
)

// FormatRR is the name of a single round robin (Event.Format).
const FormatRR = "rr"

// roundRobin is a round robin whose pairings are a Berger table: once
// round (event.Berger), twice with colours swapped (event.DoubleBerger).
type roundRobin struct {
	name, title string
	pairings    func(n int) ([][]event.Pairing, error)
}

// singleRoundRobin is the round robin.
var singleRoundRobin = roundRobin{name: FormatRR, title: "round robin", pairings: event.Berger}

func (f roundRobin) Name() string  { return f.name }
func (f roundRobin) Title() string { return f.title }

func (roundRobin) Fits(n int) bool { return n >= MinRoundRobin && n <= MaxRoundRobin }

func (roundRobin) SizeText() string {
	return fmt.Sprintf("a round robin takes %d to %d players", MinRoundRobin, MaxRoundRobin)
}

func (f roundRobin) Start(e *Event) ([]EventGame, error) {
	return bergerGames(f.pairings, len(e.Players))
}

// bergerGames are the games of the Berger table pairings gives for n
// players, byes left out: the round is the table's, the board its pairing.
func bergerGames(pairings func(int) ([][]event.Pairing, error), n int) ([]EventGame, error) {
	rounds, err := pairings(n)
	if err != nil {
		return nil, err
	}
	var out []EventGame
	for r, round := range rounds {
		for b, p := range round {
			if !p.Bye() {
				out = append(out, EventGame{Round: r + 1, Board: b + 1, Leg: 1, White: p.White, Black: p.Black})
			}
		}
	}
	return out, nil
}

// Next: every game of a round robin starts at once, so nothing follows.
func (roundRobin) Next(*Event) (Step, error) { return Step{}, nil }

// Over: every game has ended.
func (roundRobin) Over(e *Event) bool {
	if len(e.Games) == 0 {
		return false
	}
	for _, g := range e.Games {
		if g.Status == StatusActive {
			return false
		}
	}
	return true
}

// Winners are the crosstable's leaders: those tied on points and on every
// tie-break share first place.
func (roundRobin) Winners(e *Event) []int { return e.Table().Leaders() }

// WithdrawalKind is ICCF's rule: with at least half their games completed
// a player's unfinished games are lost; otherwise all their games are
// annulled.
func (roundRobin) WithdrawalKind(e *Event, seat int) int {
	completed, total := e.SeatGames(seat)
	if 2*completed >= total {
		return WithdrawnLost
	}
	return WithdrawnAnnulled
}

func (roundRobin) WithdrawalRule(p *lang.Printer, e *Event, w Withdrawal, you bool) string {
	completed, total := e.SeatGames(w.Seat)
	switch {
	case w.Kind == WithdrawnLost && you:
		return p.Sprintf("You had completed %d of %d games, at least half: under ICCF's rule the unfinished ones are lost, "+
			"and the results so far stay.", completed, total)
	case w.Kind == WithdrawnLost:
		return p.Sprintf("They had completed %d of %d games, at least half: under ICCF's rule the unfinished ones are lost, "+
			"and the results so far stay.", completed, total)
	case you:
		return p.Sprintf("You had completed %d of %d games, fewer than half: under ICCF's rule all of them are annulled, "+
			"the finished ones too, and count for no one.", completed, total)
	}
	return p.Sprintf("They had completed %d of %d games, fewer than half: under ICCF's rule all of them are annulled, "+
		"the finished ones too, and count for no one.", completed, total)
}

// Silent: a player who lost at least half their games on time is
// treated as withdrawn.
func (roundRobin) Silent(e *Event, seat int) bool {
	lost, total := 0, 0
	for _, g := range e.Games {
		if g.White != seat && g.Black != seat {
			continue
		}
		total++
		if g.Status == StatusFinished && g.Ending == game.EndTime &&
			((g.White == seat && g.Result == "0-1") || (g.Black == seat && g.Result == "1-0")) {
			lost++
		}
	}
	return total > 0 && 2*lost >= total
}

func (f roundRobin) Standings(p *lang.Printer, e *Event) string {
	t := e.Table()
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n", e.summaryIn(p, f.title), crosstableIn(p, t))
	b.WriteString(wrap(p.Sprintf("Points: 1 a win, 1/2 a draw (\"=\" in the table, \".\" a game not yet over, \"-\" a game that counts "+
		"for no one: annulled or aborted). Ties are broken by %s. (w) marks a player who withdrew.", chainIn(p, t.Chain))) + "\n")
	if f.Over(e) {
		b.WriteString("\n" + e.winnerIn(p, f.Winners(e)) + "\n")
	}
	return b.String()
}

func (f roundRobin) StandingsHTML(p *lang.Printer, e *Event) string {
	t := e.Table()
	var b strings.Builder
	if p.Code() != lang.English {
		// The table with its words in p's language.
		fmt.Fprintf(&b, "<p>%s</p>\n%s<p>%s</p>\n", escapeHTML(e.summaryIn(p, f.title)), t.HTMLIn(headingsIn(p)),
			escapeHTML(p.Sprintf("Points: 1 a win, ½ a draw (“.” a game not yet over, “–” a game that counts for no one: annulled or aborted). "+
				"Ties are broken by %s. %s marks a player who withdrew.", chainIn(p, t.Chain), p.Sprintf("(withdrew)"))))
		if f.Over(e) {
			fmt.Fprintf(&b, "<p><b>%s</b></p>\n", escapeHTML(e.winnerIn(p, f.Winners(e))))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "<p>%s</p>\n%s<p>Points: 1 a win, &frac12; a draw (&ldquo;.&rdquo; a game not yet over, &ldquo;&ndash;&rdquo; a game "+
		"that counts for no one: annulled or aborted). Ties are broken by %s. "+
		"(withdrew) marks a player who withdrew.</p>\n", escapeHTML(e.summaryAs(f.title)), t.HTML(), escapeHTML(chainText(t.Chain)))
	if f.Over(e) {
		fmt.Fprintf(&b, "<p><b>%s</b></p>\n", escapeHTML(e.winnerText(f.Winners(e))))
	}
	return b.String()
}

func (roundRobin) TieNotes(e *Event, w event.TieWords, name func(int) string) []string {
	return e.Table().TieNotesIn(w, name)
}

func (roundRobin) Layout() Layout { return LayoutTable }

func (roundRobin) TakesEntries() bool { return false }

func (f roundRobin) Announce(p *lang.Printer, e *Event, _ int, _ EventGame, _ int) Announcement {
	a := Announcement{
		Subject: p.Sprintf("[%s] The event has started: your games", e.Name),
		Head: wrap(p.Sprintf("%s (%s) has started.", e.Name, e.describeIn(p, f.title))) + "\n\n" +
			wrap(p.Sprintf("Your games are below, all under way at once, as in a correspondence section. Each game's opening mail "+
				"follows; reply to it (or to the address below) with your moves.")) + "\n\n",
	}
	if len(e.Players)%2 == 1 {
		a.Tail = wrap(p.Sprintf("With an odd number of players, each player sits out one pairing of the table."))
	}
	return a
}

func (roundRobin) Where(p *lang.Printer, g EventGame) string {
	return p.Sprintf("Round %d, board %d", g.Round, g.Board)
}

func (roundRobin) Place(ge *GameEvent) lang.Text {
	return lang.M("%s, round %d, board %d", ge.Name, ge.Round, ge.Board)
}

func (roundRobin) PGNRound(ge *GameEvent) string { return fmt.Sprint(ge.Round) }

func (roundRobin) ResultNote(*lang.Printer, *Event, int64) string { return "" }

func (roundRobin) DrawsLots(*Event) bool { return false }
