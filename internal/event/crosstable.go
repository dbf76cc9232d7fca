package event

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
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
func (t Table) Text() string { return t.TextIn(EnglishHeadings()) }

// Headings are the words of the text crosstable's heading line and the
// mark of a withdrawn player, in a reader's language (TextIn).
type Headings struct {
	Number, Player, Points, Wins, SB, Rank string
	// Withdrawn marks a withdrawn player's name: "(w)"; Withdrew is the
	// mark of the HTML table, which has room for a word: "(withdrew)".
	Withdrawn, Withdrew string
}

// EnglishHeadings are the crosstable's English headings.
func EnglishHeadings() Headings {
	return Headings{Number: "#", Player: "Player", Points: "Pts", Wins: "Wins", SB: "SB", Rank: "Rank", Withdrawn: "(w)", Withdrew: "(withdrew)"}
}

// TextIn is Text with the headings h; each column is as wide as its
// heading needs (counted in characters, not bytes), so that the table
// stays aligned in any language.
func (t Table) TextIn(h Headings) string {
	n := len(t.Players)
	nameW := runes(h.Player)
	for _, p := range t.Players {
		nameW = max(nameW, runes(p.Name)+1+runes(h.Withdrawn))
	}
	cellW := 1
	for i := range t.Cells {
		for _, c := range t.Cells[i] {
			cellW = max(cellW, runes(c))
		}
	}
	ptsW, winsW, sbW, rankW := max(5, runes(h.Points)), max(4, runes(h.Wins)), max(5, runes(h.SB)), max(4, runes(h.Rank))
	var b strings.Builder
	fmt.Fprintf(&b, "%3s  %-*s", h.Number, nameW, h.Player)
	for j := 1; j <= n; j++ {
		fmt.Fprintf(&b, " %*d", cellW, j)
	}
	fmt.Fprintf(&b, " %*s %*s %*s %*s\n", ptsW, h.Points, winsW, h.Wins, sbW, h.SB, rankW, h.Rank)
	for i, p := range t.Players {
		name := p.Name
		if p.Withdrawn {
			name += " " + h.Withdrawn
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
		fmt.Fprintf(&b, " %*s %*d %*s %*d\n", ptsW, Points(s.Points), winsW, s.Wins, sbW, Points(s.SB), rankW, s.Rank)
	}
	return b.String()
}

// runes is the number of characters of s: fmt pads to a width in
// characters.
func runes(s string) int { return utf8.RuneCountInString(s) }

// HTML writes the same table as an HTML table, ready for a phone: it
// scrolls within itself rather than widening the mail, long names wrap
// anywhere, and the points and rank come right after the name, so that a
// 360-pixel screen shows them before the results (which the numbered
// columns give, as in the text table).
func (t Table) HTML() string { return t.HTMLIn(EnglishHeadings()) }

// HTMLIn is HTML with the headings h.
func (t Table) HTMLIn(h Headings) string {
	var b strings.Builder
	b.WriteString("<div style=\"overflow-x:auto;max-width:100%\">\n")
	b.WriteString("<table border=\"1\" cellpadding=\"3\" style=\"border-collapse:collapse\">\n<tr>")
	for _, w := range []string{h.Number, h.Player, h.Points, h.Wins, h.SB, h.Rank} {
		b.WriteString("<th>" + html.EscapeString(w) + "</th>")
	}
	for j := range t.Players {
		fmt.Fprintf(&b, "<th>%d</th>", j+1)
	}
	b.WriteString("</tr>\n")
	for i, p := range t.Players {
		name := html.EscapeString(p.Name)
		if p.Withdrawn {
			name += " " + html.EscapeString(h.Withdrew)
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
