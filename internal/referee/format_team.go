package referee

import (
	"fmt"
	"referee/internal/lang"
	"slices"
	"strings"
	"unicode/utf8"

	"referee/internal/event"
)

// The team match (issue 41), as ICCF's friendly matches and Olympiads and
// chess.com's club matches are played: teams of equal size, each player
// on a board (ordered by rating in the event's variant unless the
// organiser fixed the order); when two teams meet, each board plays two
// games, colours swapped, all at once. The match score is the sum of game
// points; with more than two teams every team meets every other (the
// Berger table over the teams, every match at once), ranked by match
// points (2 a match won, 1 drawn) then game points. A withdrawn player's
// games are lost, as a board's must be; silence on the clock is the round
// robin's rule. In the store a game's Division is its match in the round.

// FormatTeam is the name of a team event (Event.Format).
const FormatTeam = "team"

// MaxTeams bounds a team event's teams, MaxBoards a team's players.
const (
	MaxTeams  = 16
	MaxBoards = 32
)

type teamMatch struct{}

func (teamMatch) Name() string  { return FormatTeam }
func (teamMatch) Title() string { return "team match" }

func (teamMatch) Fits(n int) bool { return n >= 2 && n <= MaxTeams*MaxBoards }

func (teamMatch) SizeText() string {
	return fmt.Sprintf("a team event takes 2 to %d teams of the same size, 1 to %d boards each, named with --team NAME=a,b,c", MaxTeams, MaxBoards)
}

// team is one team of an event: its name and its seats by board.
type team struct {
	name  string
	seats []int
}

// teams are e's teams in the order of their first seat, each with its
// seats by board.
func (e *Event) teams() []team {
	var out []team
	at := map[string]int{}
	for _, p := range e.Players {
		i, ok := at[p.Team]
		if !ok {
			i = len(out)
			at[p.Team] = i
			out = append(out, team{name: p.Team})
		}
		out[i].seats = append(out[i].seats, p.Seat)
	}
	for _, t := range out {
		slices.SortFunc(t.seats, func(a, b int) int { return e.Players[a-1].Board - e.Players[b-1].Board })
	}
	return out
}

// checkTeams says why e's teams cannot play, or "".
func (e *Event) checkTeams() string {
	ts := e.teams()
	switch {
	case len(ts) < 2 || len(ts) > MaxTeams:
		return fmt.Sprintf("a team event takes 2 to %d teams, not %d", MaxTeams, len(ts))
	case ts[0].name == "":
		return "a player of a team event has no team"
	}
	for _, t := range ts[1:] {
		if len(t.seats) != len(ts[0].seats) {
			return fmt.Sprintf("team %s has %d players and team %s %d: teams play board against board, so they must be the same size",
				ts[0].name, len(ts[0].seats), t.name, len(t.seats))
		}
	}
	return ""
}

// Start is every match at once: the Berger table over the teams, and in
// each match two games a board, colours swapped (the first-named team
// White on odd boards in the first game, as board order alternates in
// team play).
func (teamMatch) Start(e *Event) ([]EventGame, error) {
	if why := e.checkTeams(); why != "" {
		return nil, fmt.Errorf("%s", why)
	}
	ts := e.teams()
	rounds, err := event.Berger(len(ts))
	if err != nil {
		return nil, err
	}
	var out []EventGame
	for r, round := range rounds {
		match := 0
		for _, p := range round {
			if p.Bye() {
				continue
			}
			match++
			a, b := ts[p.White-1], ts[p.Black-1]
			for i := range a.seats {
				w, bl := a.seats[i], b.seats[i]
				if i%2 == 1 {
					w, bl = bl, w
				}
				out = append(out,
					EventGame{Round: r + 1, Division: match, Board: i + 1, Leg: 1, White: w, Black: bl},
					EventGame{Round: r + 1, Division: match, Board: i + 1, Leg: 2, White: bl, Black: w})
			}
		}
	}
	return out, nil
}

// Next: every game starts at once.
func (teamMatch) Next(*Event) (Step, error) { return Step{}, nil }

// Over: every game has ended.
func (teamMatch) Over(e *Event) bool { return singleRoundRobin.Over(e) }

// teamMatchScore is one match between two teams.
type teamMatchScore struct {
	round, number  int
	a, b           string // team names
	scoreA, scoreB float64
	over           bool
}

// teamStanding is a team's line of the table.
type teamStanding struct {
	team       string
	mp, played int
	gp         float64
	rank       int
}

// teamTable are e's matches and the teams ranked by match points, then
// game points (teams equal on both share a rank).
func (e *Event) teamTable() ([]teamMatchScore, []teamStanding) {
	teamOf := func(seat int) string { return e.Players[seat-1].Team }
	byKey := map[[2]int]*teamMatchScore{}
	var matches []*teamMatchScore
	for _, g := range e.Games {
		k := [2]int{g.Round, g.Division}
		m := byKey[k]
		if m == nil {
			m = &teamMatchScore{round: g.Round, number: g.Division, over: true}
			byKey[k] = m
			matches = append(matches, m)
		}
		if g.Board == 1 && g.Leg == 1 { // the first-named team is White there
			m.a, m.b = teamOf(g.White), teamOf(g.Black)
		}
		if g.Status == StatusActive {
			m.over = false
		}
	}
	for _, g := range e.Games {
		m := byKey[[2]int{g.Round, g.Division}]
		if g.Status != StatusFinished {
			continue // a game in play, or aborted: no points
		}
		s, ok := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[g.Result]
		if !ok {
			continue
		}
		if teamOf(g.White) == m.a {
			m.scoreA, m.scoreB = m.scoreA+s, m.scoreB+1-s
		} else {
			m.scoreA, m.scoreB = m.scoreA+1-s, m.scoreB+s
		}
	}
	st := map[string]*teamStanding{}
	var order []string
	for _, t := range e.teams() {
		st[t.name] = &teamStanding{team: t.name}
		order = append(order, t.name)
	}
	var out []teamMatchScore
	for _, m := range matches {
		out = append(out, *m)
		a, b := st[m.a], st[m.b]
		if a == nil || b == nil {
			continue
		}
		a.gp, b.gp = a.gp+m.scoreA, b.gp+m.scoreB
		if !m.over {
			continue
		}
		a.played, b.played = a.played+1, b.played+1
		switch {
		case m.scoreA > m.scoreB:
			a.mp += 2
		case m.scoreB > m.scoreA:
			b.mp += 2
		default:
			a.mp, b.mp = a.mp+1, b.mp+1
		}
	}
	var table []teamStanding
	for _, name := range order {
		table = append(table, *st[name])
	}
	slices.SortStableFunc(table, func(x, y teamStanding) int {
		if x.mp != y.mp {
			return y.mp - x.mp
		}
		switch {
		case x.gp > y.gp:
			return -1
		case x.gp < y.gp:
			return 1
		}
		return 0
	})
	for i := range table {
		table[i].rank = i + 1
		if i > 0 && table[i].mp == table[i-1].mp && table[i].gp == table[i-1].gp {
			table[i].rank = table[i-1].rank
		}
	}
	return out, table
}

// Winners are the players of the team ranked first alone; none while
// teams share first place.
func (teamMatch) Winners(e *Event) []int {
	_, table := e.teamTable()
	if len(table) == 0 || (len(table) > 1 && table[1].rank == 1) {
		return nil
	}
	for _, t := range e.teams() {
		if t.name == table[0].team {
			return t.seats
		}
	}
	return nil
}

// WithdrawalKind: a board's games are lost, whatever was played.
func (teamMatch) WithdrawalKind(*Event, int) int { return WithdrawnLost }

func (teamMatch) WithdrawalRule(p *lang.Printer, _ *Event, _ Withdrawal, _ bool) string {
	return p.Sprintf("In a team event a board that leaves loses its unfinished games, so that the matches keep their scores; its results so far stay.")
}

// Silent is the round robin's rule: half the player's games lost on time.
func (teamMatch) Silent(e *Event, seat int) bool { return singleRoundRobin.Silent(e, seat) }

// Standings are the teams' table, each match's score, and each board's
// games.
func (f teamMatch) Standings(p *lang.Printer, e *Event) string {
	matches, table := e.teamTable()
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", e.summaryIn(p, f.Title()))
	// The headings in the reader's language; a column is as wide as its
	// heading where that is wider than the English widths (fmt counts
	// runes, not bytes).
	rank, name, mp, gp, played := p.Sprintf("Rank"), p.Sprintf("Team"), p.Sprintf("MP"), p.Sprintf("GP"), p.Sprintf("Matches")
	wr, wn, wm, wg := max(4, utf8.RuneCountInString(rank)), max(20, utf8.RuneCountInString(name)),
		max(4, utf8.RuneCountInString(mp)), max(6, utf8.RuneCountInString(gp))
	fmt.Fprintf(&b, "  %-*s  %-*s  %*s  %*s  %s\n", wr, rank, wn, name, wm, mp, wg, gp, played)
	for _, t := range table {
		fmt.Fprintf(&b, "  %*d  %-*s  %*d  %*s  %d\n", wr, t.rank, wn, t.team, wm, t.mp, wg, event.Points(t.gp), t.played)
	}
	b.WriteString("\n")
	for _, m := range matches {
		line := p.Sprintf("Round %d, match %d: %s %s - %s %s", m.round, m.number, m.a, event.Points(m.scoreA), event.Points(m.scoreB), m.b)
		if !m.over {
			line = p.Sprintf("Round %d, match %d: %s %s - %s %s (under way)", m.round, m.number, m.a, event.Points(m.scoreA), event.Points(m.scoreB), m.b)
		}
		b.WriteString(line + "\n")
		for _, g := range e.Games {
			if g.Round != m.round || g.Division != m.number {
				continue
			}
			res := g.Result
			switch {
			case g.Status == StatusActive:
				res = p.Sprintf("running")
			case g.Status == StatusAborted:
				res = p.Sprintf("aborted")
			}
			b.WriteString("  " + p.Sprintf("board %d, game %d: %s - %s  %s", g.Board, g.Leg, e.Players[g.White-1].label(), e.Players[g.Black-1].label(), res) + "\n")
		}
	}
	b.WriteString("\n" + wrap(p.Sprintf("Each board plays two games, colours swapped. A match's score is its game points; a match won counts "+
		"2 match points (MP), a drawn one 1; teams are ranked by match points, then game points (GP).")) + "\n")
	if f.Over(e) {
		if w := f.Winners(e); len(w) > 0 {
			b.WriteString("\n" + wrap(e.winnerIn(p, w)) + "\n")
		} else {
			b.WriteString("\n" + p.Sprintf("The first place is shared: %s.", sharedFirst(p, table)) + "\n")
		}
	}
	return b.String()
}

// sharedFirst names the teams that share the first place: "team A and
// team B", in p's language.
func sharedFirst(p *lang.Printer, table []teamStanding) string {
	s := ""
	for _, t := range table {
		if t.rank != 1 {
			continue
		}
		if s == "" {
			s = p.Sprintf("team %s", t.team)
		} else {
			s = p.Sprintf("%s and %s", s, p.Sprintf("team %s", t.team))
		}
	}
	return s
}

func (f teamMatch) StandingsHTML(p *lang.Printer, e *Event) string {
	if p.Code() != lang.English {
		return standingsPre(p, f, e)
	}
	matches, table := e.teamTable()
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%s</p>\n<div class=\"wide\"><table class=\"cross\">\n<thead><tr><th scope=\"col\">Rank</th>"+
		"<th scope=\"col\" class=\"name\">Team</th><th scope=\"col\"><abbr title=\"Match points\">MP</abbr></th>"+
		"<th scope=\"col\"><abbr title=\"Game points\">GP</abbr></th></tr></thead>\n<tbody>\n", escapeHTML(e.summaryAs(f.Title())))
	for _, t := range table {
		fmt.Fprintf(&b, "<tr><td>%d</td><th scope=\"row\" class=\"name\">%s</th><td>%d</td><td>%s</td></tr>\n", t.rank, escapeHTML(t.team), t.mp, event.Points(t.gp))
	}
	b.WriteString("</tbody>\n</table></div>\n")
	for _, m := range matches {
		fmt.Fprintf(&b, "<h2>Round %d, match %d: %s %s&ndash;%s %s</h2>\n<ul class=\"games\">\n", m.round, m.number,
			escapeHTML(m.a), event.Points(m.scoreA), event.Points(m.scoreB), escapeHTML(m.b))
		for _, g := range e.Games {
			if g.Round == m.round && g.Division == m.number {
				res := g.Result
				if g.Status == StatusActive {
					res = "running"
				}
				fmt.Fprintf(&b, "<li>Board %d, game %d: %s &ndash; %s <b>%s</b></li>\n", g.Board, g.Leg,
					escapeHTML(e.Players[g.White-1].label()), escapeHTML(e.Players[g.Black-1].label()), escapeHTML(res))
			}
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("<p>Each board plays two games, colours swapped; a match won counts 2 match points, a drawn one 1; teams are ranked " +
		"by match points, then game points.</p>\n")
	if f.Over(e) {
		if w := f.Winners(e); len(w) > 0 {
			fmt.Fprintf(&b, "<p><b>%s</b></p>\n", escapeHTML(e.winnerText(w)))
		}
	}
	return b.String()
}

// TieNotes: none; teams level on match and game points share their rank.
func (teamMatch) TieNotes(*Event, event.TieWords, func(int) string) []string { return nil }

func (teamMatch) Layout() Layout { return LayoutFormat }

func (teamMatch) TakesEntries() bool { return false }

func (f teamMatch) Announce(pr *lang.Printer, e *Event, seat int, first EventGame, games int) Announcement {
	p := e.Players[seat-1]
	var opps []string
	for _, t := range e.teams() {
		if t.name != p.Team {
			opps = append(opps, pr.Sprintf("team %s", t.name))
		}
	}
	head := wrap(pr.Sprintf("%s (%s) has started.", e.Name, e.describeIn(pr, f.Title()))) + "\n\n" +
		wrap(pr.Sprintf("You play board %[1]d for team %[2]s against %[3]s: two games against each opponent on your board, colours "+
			"swapped, all at once. Your games are below; each game's opening mail follows.", p.Board, p.Team, strings.Join(opps, ", "))) + "\n\n"
	return Announcement{Subject: pr.Sprintf("[%s] The match has started: your games on board %d", e.Name, p.Board), Head: head}
}

func (teamMatch) Where(p *lang.Printer, g EventGame) string {
	return p.Sprintf("Round %d, match %d, board %d, game %d", g.Round, max(g.Division, 1), g.Board, g.Leg)
}

func (teamMatch) Place(ge *GameEvent) lang.Text {
	return lang.M("%s, round %d, match %d, board %d, game %d", ge.Name, ge.Round, max(ge.Division, 1), ge.Board, max(ge.Leg, 1))
}

// PGNRound is ROUND.MATCH; Board is the board.
func (teamMatch) PGNRound(ge *GameEvent) string {
	return fmt.Sprintf("%d.%d", ge.Round, max(ge.Division, 1))
}

func (teamMatch) ResultNote(*lang.Printer, *Event, int64) string { return "" }

func (teamMatch) DrawsLots(*Event) bool { return false }

// captainOf is the captain of seat's team: the team's player first named
// when the event was made (the lowest seat of the team).
func (e *Event) captainOf(seat int) int {
	for _, t := range e.teams() {
		if slices.Contains(t.seats, seat) {
			return slices.Min(t.seats)
		}
	}
	return 0
}
