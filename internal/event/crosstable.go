package event

import (
	"fmt"
	"html"
	"strconv"
	"strings"
)

// Entrant is one row of a crosstable: the player's name as shown, and
// whether they withdrew.
type Entrant struct {
	Name      string
	Withdrawn bool
}

// Table is an event's crosstable: every player's results against every
// other, with points, tie-breaks and rank. It is computed from the games
// alone (Crosstable), so it can always be recomputed.
type Table struct {
	Players []Entrant
	// Cells[i][j] are the results of player i+1 against player j+1, in the
	// order the games were given: "1" a win, "=" a draw, "0" a loss.
	Cells [][]string
	// Standings in rank order (see Standings).
	Standings []Standing
	// Chain is the tie-break chain applied.
	Chain []TieBreak
	// games are the games the standings were computed from (TieNotes).
	games []Game
}

// Crosstable computes the table of players from the finished games (seats
// from 1, in the order of players).
func Crosstable(players []Entrant, games []Game, chain []TieBreak) Table {
	n := len(players)
	cells := make([][]string, n)
	for i := range cells {
		cells[i] = make([]string, n)
	}
	for _, g := range games {
		w, b := g.White-1, g.Black-1
		cells[w][b] += scoreMark(g.WhiteScore)
		cells[b][w] += scoreMark(1 - g.WhiteScore)
	}
	return Table{Players: players, Cells: cells, Standings: Standings(n, games, chain), Chain: chain, games: games}
}

// MarkVoid marks a game between white and black (seats from 1) that
// counts for no one, annulled by a withdrawal or aborted: "-" in the text
// table (VoidMark), "–" in the HTML one. Its players' scores never held
// it.
func (t Table) MarkVoid(white, black int) {
	t.Cells[white-1][black-1] += VoidMark
	t.Cells[black-1][white-1] += VoidMark
}

// VoidMark is a void game's mark in the text crosstable (the web page and
// the HTML table write "–").
const VoidMark = "-"

func scoreMark(s float64) string {
	switch s {
	case 1:
		return "1"
	case 0:
		return "0"
	}
	return "="
}

// Points writes a score with a half as ".5": 2, 2.5.
func Points(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// standingOf returns the standing of player p (from 1).
func (t Table) standingOf(p int) Standing {
	for _, s := range t.Standings {
		if s.Player == p {
			return s
		}
	}
	return Standing{Player: p}
}

// Leaders are the players ranked first (more than one when the chain
// could not separate them).
func (t Table) Leaders() []int {
	var out []int
	for _, s := range t.Standings {
		if s.Rank == 1 {
			out = append(out, s.Player)
		}
	}
	return out
}

// Text writes the table in fixed width, one row a player in seat order,
// ASCII only: "=" is a draw, "." a game not yet finished, "-" a game that
// counts for no one (VoidMark), "X" the diagonal; "(w)" marks a player who
// withdrew.
func (t Table) Text() string {
	n := len(t.Players)
	nameW := len("Player")
	for _, p := range t.Players {
		nameW = max(nameW, len(p.Name)+4)
	}
	cellW := 1
	for i := range t.Cells {
		for _, c := range t.Cells[i] {
			cellW = max(cellW, len(c))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%3s  %-*s", "#", nameW, "Player")
	for j := 1; j <= n; j++ {
		fmt.Fprintf(&b, " %*d", cellW, j)
	}
	b.WriteString("   Pts Wins    SB Rank\n")
	for i, p := range t.Players {
		name := p.Name
		if p.Withdrawn {
			name += " (w)"
		}
		fmt.Fprintf(&b, "%3d  %-*s", i+1, nameW, name)
		for j := range n {
			c := t.Cells[i][j]
			switch {
			case i == j:
				c = "X"
			case c == "":
				c = "."
			}
			fmt.Fprintf(&b, " %*s", cellW, c)
		}
		s := t.standingOf(i + 1)
		fmt.Fprintf(&b, " %5s %4d %5s %4d\n", Points(s.Points), s.Wins, Points(s.SB), s.Rank)
	}
	return b.String()
}

// HTML writes the same table as an HTML table, ready for a phone: it
// scrolls within itself rather than widening the mail, long names wrap
// anywhere, and the points and rank come right after the name, so that a
// 360-pixel screen shows them before the results (which the numbered
// columns give, as in the text table).
func (t Table) HTML() string {
	var b strings.Builder
	b.WriteString("<div style=\"overflow-x:auto;max-width:100%\">\n")
	b.WriteString("<table border=\"1\" cellpadding=\"3\" style=\"border-collapse:collapse\">\n<tr><th>#</th><th>Player</th><th>Pts</th><th>Wins</th><th>SB</th><th>Rank</th>")
	for j := range t.Players {
		fmt.Fprintf(&b, "<th>%d</th>", j+1)
	}
	b.WriteString("</tr>\n")
	for i, p := range t.Players {
		name := html.EscapeString(p.Name)
		if p.Withdrawn {
			name += " (withdrew)"
		}
		s := t.standingOf(i + 1)
		fmt.Fprintf(&b, "<tr><td>%d</td><td style=\"overflow-wrap:anywhere;min-width:6em\">%s</td><td align=\"right\"><b>%s</b></td><td align=\"right\">%d</td><td align=\"right\">%s</td><td align=\"right\">%d</td>",
			i+1, name, Points(s.Points), s.Wins, Points(s.SB), s.Rank)
		for j := range t.Players {
			c := t.Cells[i][j]
			switch {
			case i == j:
				c = "X"
			case c == "":
				c = "."
			}
			fmt.Fprintf(&b, "<td align=\"center\" style=\"font-family:monospace\">%s</td>", strings.NewReplacer("=", "&frac12;", VoidMark, "&ndash;").Replace(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n</div>\n")
	return b.String()
}
