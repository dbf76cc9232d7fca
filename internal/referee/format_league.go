package referee

import (
	"fmt"
	"referee/internal/lang"
	"slices"
	"strings"

	"referee/internal/event"
)

// The league (issue 41), as Little Golem's and SchemingMind's leagues run:
// seasons of divisions, each division a round robin (the Berger table, all
// games at once) of at most DivisionSize players with the event's
// tie-breaks. Season 1 cuts the seeded list into as few divisions as
// DivisionSize allows, as evenly as can be. When every game of a season
// has ended, the top Promote of each division move up and the bottom
// Promote of the next division down, players who joined during the season
// enter the lowest division (cut in two when it grows past DivisionSize),
// those who withdrew leave, and the next season starts on its own. Seasons
// ends the league after so many seasons (0: until the organiser closes
// it). Everything is computed from the games: who plays in which division
// of a season is who has games there.

// FormatLeague is the name of a league (Event.Format).
const FormatLeague = "league"

// League settings' defaults and bounds.
const (
	DefaultDivisionSize = 8
	DefaultPromote      = 2
	MaxLeague           = 256 // players in a league
)

type league struct{}

func (league) Name() string  { return FormatLeague }
func (league) Title() string { return "league" }

func (league) Fits(n int) bool { return n >= MinRoundRobin && n <= MaxLeague }

func (league) SizeText() string {
	return fmt.Sprintf("a league takes %d to %d players", MinRoundRobin, MaxLeague)
}

// divisionSize and promote are e's settings, or their defaults.
func divisionSize(e *Event) int {
	if e.DivisionSize >= MinRoundRobin {
		return e.DivisionSize
	}
	return DefaultDivisionSize
}

// promote is how many move up and down between divisions: the setting
// (or its default), never more than half a division.
func promote(e *Event) int {
	t := DefaultPromote
	if e.Promote > 0 {
		t = e.Promote
	}
	return max(1, min(t, divisionSize(e)/2))
}

// cut divides players (best first) into as few divisions of at most size
// as there can be, as evenly as can be: the first divisions take one more
// when they cannot all be equal. No division has fewer than three players
// (a round robin's least): when size would ask for that (4 players in
// divisions of 3), the divisions are fewer and larger than size.
func cut(players []int, size int) [][]int {
	if len(players) == 0 {
		return nil
	}
	k := (len(players) + size - 1) / size
	k = max(1, min(k, len(players)/MinRoundRobin))
	out := make([][]int, k)
	at := 0
	for d := range k {
		n := len(players) / k
		if d < len(players)%k {
			n++
		}
		out[d] = append([]int(nil), players[at:at+n]...)
		at += n
	}
	return out
}

// seasonGames are the games of a season: each division's Berger table,
// with the division's players as its numbers.
func seasonGames(season int, divisions [][]int) ([]EventGame, error) {
	var out []EventGame
	for d, players := range divisions {
		if len(players) < 2 {
			continue
		}
		games, err := bergerGames(event.Berger, len(players))
		if err != nil {
			return nil, err
		}
		for _, g := range games {
			g.Season, g.Division = season, d+1
			g.White, g.Black = players[g.White-1], players[g.Black-1]
			out = append(out, g)
		}
	}
	return out, nil
}

// Start is season 1: the players in entry order (the organiser's seeding),
// cut into divisions.
func (league) Start(e *Event) ([]EventGame, error) {
	var players []int
	for _, p := range e.Players {
		if p.Withdrawn == NotWithdrawn {
			players = append(players, p.Seat)
		}
	}
	return seasonGames(1, cut(players, divisionSize(e)))
}

// season is the league's current season (0 before it starts).
func (e *Event) season() int {
	s := 0
	for _, g := range e.Games {
		s = max(s, g.Season)
	}
	return s
}

// divisionsOf are the players of each division of season s, in seat
// order: those with games there.
func (e *Event) divisionsOf(s int) [][]int {
	var out [][]int
	seen := map[int]bool{}
	for _, g := range e.Games {
		if g.Season != s {
			continue
		}
		for len(out) < g.Division {
			out = append(out, nil)
		}
		for _, seat := range []int{g.White, g.Black} {
			if !seen[seat] {
				seen[seat] = true
				out[g.Division-1] = append(out[g.Division-1], seat)
			}
		}
	}
	for _, d := range out {
		slices.Sort(d)
	}
	return out
}

// division is the event of one division of season s: its players as seats
// 1, 2, ... (in seat order) and its games, for its crosstable and the
// round robin's rules. seats maps its numbers back to the league's.
func (e *Event) division(s, d int) (sub *Event, seats []int) {
	divs := e.divisionsOf(s)
	if d < 1 || d > len(divs) {
		return &Event{Name: e.Name, Chain: e.Chain}, nil
	}
	seats = divs[d-1]
	local := map[int]int{}
	sub = &Event{Name: e.Name, Variant: e.Variant, Format: FormatRR, TimeControl: e.TimeControl, Status: e.Status,
		Chain: e.Chain, Rated: e.Rated}
	later := map[int]bool{} // seats with games after season s
	for _, g := range e.Games {
		if g.Season > s {
			later[g.White], later[g.Black] = true, true
		}
	}
	for i, seat := range seats {
		local[seat] = i + 1
		p := e.Players[seat-1]
		p.Seat = i + 1
		if later[seat] {
			// They withdrew in a later season (a withdrawal ends a
			// player's seasons): this season's games stand, and its
			// crosstable does not mark them.
			p.Withdrawn = NotWithdrawn
		}
		sub.Players = append(sub.Players, p)
	}
	for _, g := range e.Games {
		if g.Season == s && g.Division == d {
			g.White, g.Black = local[g.White], local[g.Black]
			sub.Games = append(sub.Games, g)
		}
	}
	return sub, seats
}

// seasonOver says whether every game of season s has ended.
func (e *Event) seasonOver(s int) bool {
	played := false
	for _, g := range e.Games {
		if g.Season == s {
			played = true
			if g.Status == StatusActive {
				return false
			}
		}
	}
	return played
}

// move is a player's change of division between two seasons.
type move struct {
	seat, from, to int
}

// nextSeason is the divisions of the season after s (each best first)
// once the top promote of each division moved up and the bottom promote
// down, the withdrawn left and the newcomers entered the lowest division;
// with the moves, for the mails and the audit. The upper divisions keep
// their players; the lowest is cut again when it has grown past the
// division size (a new division below), and one left with fewer than
// three players joins the one above it.
func (e *Event) nextSeason(s int) (next [][]int, moves []move) {
	var divs [][]int
	in := map[int]bool{}
	for d := range e.divisionsOf(s) {
		sub, seats := e.division(s, d+1)
		var ranked []int
		for _, st := range sub.Table().Standings {
			seat := seats[st.Player-1]
			in[seat] = true
			if e.Players[seat-1].Withdrawn == NotWithdrawn {
				ranked = append(ranked, seat)
			}
		}
		divs = append(divs, ranked)
	}
	t := promote(e)
	for d := 0; d+1 < len(divs); d++ {
		n := min(t, len(divs[d])/2, len(divs[d+1])/2)
		if n == 0 {
			continue
		}
		up := append([]int(nil), divs[d+1][:n]...)
		down := append([]int(nil), divs[d][len(divs[d])-n:]...)
		divs[d] = append(divs[d][:len(divs[d])-n], up...)
		divs[d+1] = append(down, divs[d+1][n:]...)
		for _, seat := range up {
			moves = append(moves, move{seat, d + 2, d + 1})
		}
		for _, seat := range down {
			moves = append(moves, move{seat, d + 1, d + 2})
		}
	}
	for _, p := range e.Players {
		if !in[p.Seat] && p.Withdrawn == NotWithdrawn {
			if len(divs) == 0 {
				divs = append(divs, nil)
			}
			divs[len(divs)-1] = append(divs[len(divs)-1], p.Seat) // joined during the season
		}
	}
	for len(divs) > 1 && len(divs[len(divs)-1]) < MinRoundRobin {
		last := divs[len(divs)-1]
		divs = divs[:len(divs)-1]
		divs[len(divs)-1] = append(divs[len(divs)-1], last...)
	}
	for _, d := range divs {
		if len(d) > 0 {
			next = append(next, d)
		}
	}
	if len(next) > 0 {
		lowest := next[len(next)-1]
		next = append(next[:len(next)-1], cut(lowest, divisionSize(e))...)
	}
	return next, moves
}

// players counts the players of divisions.
func players(divisions [][]int) int {
	n := 0
	for _, d := range divisions {
		n += len(d)
	}
	return n
}

// Next starts the next season once every game of the current one has
// ended, unless the league is over.
func (f league) Next(e *Event) (Step, error) {
	s := e.season()
	if s == 0 || !e.seasonOver(s) || f.Over(e) {
		return Step{}, nil
	}
	divisions, moves := e.nextSeason(s)
	games, err := seasonGames(s+1, divisions)
	if err != nil {
		return Step{}, err
	}
	var audit []string
	for _, m := range moves {
		way := "up"
		if m.to > m.from {
			way = "down"
		}
		audit = append(audit, fmt.Sprintf("event %s season %d: %s moves %s from division %d to %d", e.Name, s+1,
			e.Players[m.seat-1].Address, way, m.from, m.to))
	}
	return Step{Games: games, Audit: audit, Why: fmt.Sprintf("event %s season %d started", e.Name, s+1)}, nil
}

// Over: the last season has ended (Seasons), or the next one could not be
// paired (fewer than three players left).
func (league) Over(e *Event) bool {
	s := e.season()
	if s == 0 || !e.seasonOver(s) {
		return false
	}
	if e.Seasons > 0 && s >= e.Seasons {
		return true
	}
	divisions, _ := e.nextSeason(s)
	return players(divisions) < MinRoundRobin
}

// Winners are the leaders of the top division of the last season.
func (league) Winners(e *Event) []int {
	s := e.season()
	if s == 0 {
		return nil
	}
	sub, seats := e.division(s, 1)
	var out []int
	for _, p := range sub.Table().Leaders() {
		out = append(out, seats[p-1])
	}
	return out
}

// current is seat's division of the current season, as an event of its
// own, and seat's number in it (0 for a player without games this season).
func (e *Event) current(seat int) (*Event, int) {
	s := e.season()
	for d := range e.divisionsOf(s) {
		sub, seats := e.division(s, d+1)
		for i, x := range seats {
			if x == seat {
				return sub, i + 1
			}
		}
	}
	return nil, 0
}

// WithdrawalKind is the round robin's rule over the player's games of the
// current season: the games of earlier seasons stand whatever happens.
func (league) WithdrawalKind(e *Event, seat int) int {
	sub, local := e.current(seat)
	if sub == nil {
		return WithdrawnLost // nothing to annul: they leave before the next season
	}
	return singleRoundRobin.WithdrawalKind(sub, local)
}

func (league) WithdrawalRule(p *lang.Printer, e *Event, w Withdrawal, you bool) string {
	sub, local := e.current(w.Seat)
	switch {
	case sub == nil && you:
		return p.Sprintf("You had no game this season: nothing changes but the next season's divisions.")
	case sub == nil:
		return p.Sprintf("They had no game this season: nothing changes but the next season's divisions.")
	}
	w.Seat = local
	return p.Sprintf("%s The games of earlier seasons stand.", singleRoundRobin.WithdrawalRule(p, sub, w, you))
}

// Silent is the round robin's rule over the current season's games.
func (league) Silent(e *Event, seat int) bool {
	sub, local := e.current(seat)
	return sub != nil && singleRoundRobin.Silent(sub, local)
}

// Standings are every season's divisions, the latest first, each a
// crosstable, with the moves between seasons.
func (f league) Standings(p *lang.Printer, e *Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", e.summaryIn(p, f.Title()))
	for s := e.season(); s >= 1; s-- {
		if e.seasonOver(s) {
			b.WriteString("\n" + p.Sprintf("Season %d (over)", s) + "\n")
		} else {
			b.WriteString("\n" + p.Sprintf("Season %d (under way)", s) + "\n")
		}
		for d := range e.divisionsOf(s) {
			sub, _ := e.division(s, d+1)
			fmt.Fprintf(&b, "\n%s\n\n%s", p.Sprintf("Division %d", d+1), crosstableIn(p, sub.Table()))
		}
	}
	b.WriteString("\n" + wrap(p.Sprintf("Each division is a round robin: 1 a win, 1/2 a draw (\"=\"), \".\" a game not yet over, "+
		"\"-\" a game that counts for no one. Ties are broken by %[1]s. After each season the top %[2]d of each division "+
		"move up and the bottom %[3]d down; players who joined meanwhile enter the lowest division.",
		chainIn(p, e.Chain), promote(e), promote(e))) + "\n")
	if f.Over(e) {
		b.WriteString("\n" + e.winnerIn(p, f.Winners(e)) + "\n")
	}
	return b.String()
}

func (f league) StandingsHTML(p *lang.Printer, e *Event) string {
	if p.Code() != lang.English {
		return standingsPre(p, f, e)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%s</p>\n", escapeHTML(e.summaryAs(f.Title())))
	for s := e.season(); s >= 1; s-- {
		fmt.Fprintf(&b, "<h2>Season %d</h2>\n", s)
		for d := range e.divisionsOf(s) {
			sub, _ := e.division(s, d+1)
			fmt.Fprintf(&b, "<h3>Division %d</h3>\n<div class=\"wide\">%s</div>\n", d+1, sub.Table().HTML())
		}
	}
	fmt.Fprintf(&b, "<p>Each division is a round robin; ties are broken by %s. After each season the top %d of each division "+
		"move up and the bottom %d down.</p>\n", escapeHTML(chainText(e.Chain)), promote(e), promote(e))
	if f.Over(e) {
		fmt.Fprintf(&b, "<p><b>%s</b></p>\n", escapeHTML(e.winnerText(f.Winners(e))))
	}
	return b.String()
}

// TieNotes are those of the top division of the last season.
func (league) TieNotes(e *Event, w event.TieWords, name func(int) string) []string {
	sub, seats := e.division(e.season(), 1)
	if seats == nil {
		return nil
	}
	return sub.Table().TieNotesIn(w, func(p int) string { return name(seats[p-1]) })
}

func (league) Layout() Layout { return LayoutDivisions }

// LeagueDivision is one division of one season of a league: an event of
// its own (its players numbered 1, 2, ... in seat order, its games, the
// league's tie-breaks) and the league's seats of those numbers.
type LeagueDivision struct {
	Season, Number int
	Event          *Event
	Seats          []int
}

// Divisions are a league's divisions, the latest season first (none for
// another format).
func (e *Event) Divisions() []LeagueDivision {
	var out []LeagueDivision
	for s := e.season(); s >= 1; s-- {
		for d := range e.divisionsOf(s) {
			sub, seats := e.division(s, d+1)
			out = append(out, LeagueDivision{Season: s, Number: d + 1, Event: sub, Seats: seats})
		}
	}
	return out
}

// TakesEntries: players join a running league, for its next season.
func (league) TakesEntries() bool { return true }

func (f league) Announce(p *lang.Printer, e *Event, seat int, first EventGame, _ int) Announcement {
	s, d := max(first.Season, 1), max(first.Division, 1)
	head := wrap(p.Sprintf("%s (%s): season %d has started.", e.Name, e.describeIn(p, f.Title()), s)) + "\n\n"
	where := p.Sprintf("You play in division %d", d)
	if s > 1 {
		from := 0
		for i, div := range e.divisionsOf(s - 1) {
			if slices.Contains(div, seat) {
				from = i + 1
			}
		}
		switch {
		case from == 0:
			where = p.Sprintf("You play in division %d, the lowest, as a newcomer", d)
		case from > d:
			where = p.Sprintf("You play in division %d (you moved up from division %d)", d, from)
		case from < d:
			where = p.Sprintf("You play in division %d (you moved down from division %d)", d, from)
		default:
			where = p.Sprintf("You play in division %d, as last season", d)
		}
	}
	sub, _ := e.division(s, d)
	divisions, t := len(e.divisionsOf(s)), promote(e)
	after := ""
	switch {
	case divisions == 1:
	case d == 1:
		after = " " + p.Sprintf("After the season the bottom %d move down.", t)
	case d == divisions:
		after = " " + p.Sprintf("After the season the top %d move up.", t)
	default:
		after = " " + p.Sprintf("After the season the top %d move up and the bottom %d down.", t, t)
	}
	head += wrap(p.Sprintf("%[1]s: a round robin of %[2]d players, all games at once.%[3]s Each game's opening mail follows; "+
		"reply to it with your moves.", where, len(sub.Players), after)) + "\n\n"
	return Announcement{Subject: p.Sprintf("[%s] Season %d: your games in division %d", e.Name, s, d), Head: head}
}

func (league) Where(p *lang.Printer, g EventGame) string {
	return p.Sprintf("Season %d, division %d, round %d, board %d", g.Season, g.Division, g.Round, g.Board)
}

func (league) Place(ge *GameEvent) lang.Text {
	return lang.M("%s, season %d, division %d, round %d, board %d", ge.Name, max(ge.Season, 1), max(ge.Division, 1), ge.Round, ge.Board)
}

// PGNRound is SEASON.ROUND: a league's rounds start again each season.
func (league) PGNRound(ge *GameEvent) string {
	return fmt.Sprintf("%d.%d", max(ge.Season, 1), ge.Round)
}

func (league) ResultNote(*lang.Printer, *Event, int64) string { return "" }

func (league) DrawsLots(*Event) bool { return false }
