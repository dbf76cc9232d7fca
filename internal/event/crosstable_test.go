package event

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A 4-player round robin: the text crosstable shows each result once from
// each side, a draw as "=", an unplayed game as ".", marks the withdrawn
// player, and ranks by points, then wins (Baumbach).
func TestCrosstableText(t *testing.T) {
	players := []Entrant{{Name: "alice@x.test"}, {Name: "bob@x.test"}, {Name: "carol@x.test", Withdrawn: true}, {Name: "dave@x.test"}}
	games := []Game{
		{White: 1, Black: 4, WhiteScore: 1},
		{White: 2, Black: 3, WhiteScore: 0.5},
		{White: 4, Black: 3, WhiteScore: 0},
		{White: 1, Black: 2, WhiteScore: 0.5},
		{White: 2, Black: 4, WhiteScore: 1},
	}
	tab := Crosstable(players, games, DefaultChain())
	// By hand: bob 2 points; alice and carol 1.5 with one win each and
	// SB 1 (alice: 1 x dave's 0 + 1/2 x bob's 2; carol: 1/2 x bob's 2 +
	// 1 x dave's 0), and they never met, so the direct encounter says
	// nothing: both share rank 2.
	want := "" +
		"  #  Player           1 2 3 4   Pts Wins    SB Rank\n" +
		"  1  alice@x.test     X = . 1   1.5    1     1    2\n" +
		"  2  bob@x.test       = X = 1     2    1   1.5    1\n" +
		"  3  carol@x.test (w) . = X 1   1.5    1     1    2\n" +
		"  4  dave@x.test      0 0 0 X     0    0     0    4\n"
	if got := tab.Text(); got != want {
		t.Errorf("crosstable:\n%s\nwant:\n%s", got, want)
	}
	if l := tab.Leaders(); len(l) != 1 || l[0] != 2 {
		t.Errorf("leaders %v, want [2]", l)
	}
	h := tab.HTML()
	for _, s := range []string{">carol@x.test (withdrew)</td>", "&frac12;", "<th>Rank</th>", "<b>2</b>"} {
		if !strings.Contains(h, s) {
			t.Errorf("HTML table lacks %q:\n%s", s, h)
		}
	}
}

// The HTML crosstable holds what the text one does, in its own column
// order (points and rank right after the name): each row starts with the
// player's seat number and carries that player's own points, wins,
// Sonneborn-Berger and rank, and the result columns are headed by seat
// numbers 1 to n, so "the 1 under 4" reads as a win over player 4.
func TestCrosstableHTMLRows(t *testing.T) {
	players := []Entrant{{Name: "alice@x.test"}, {Name: "bob@x.test"}, {Name: "carol@x.test", Withdrawn: true}, {Name: "dave@x.test"}}
	games := []Game{
		{White: 1, Black: 4, WhiteScore: 1},
		{White: 2, Black: 3, WhiteScore: 0.5},
		{White: 4, Black: 3, WhiteScore: 0},
		{White: 1, Black: 2, WhiteScore: 0.5},
		{White: 2, Black: 4, WhiteScore: 1},
	}
	tab := Crosstable(players, games, DefaultChain())
	tab.MarkVoid(1, 3)
	// The same standings as TestCrosstableText, with alice-carol void.
	want := []string{
		"# | Player | Pts | Wins | SB | Rank | 1 | 2 | 3 | 4",
		"1 | alice@x.test | 1.5 | 1 | 1 | 2 | X | &frac12; | &ndash; | 1",
		"2 | bob@x.test | 2 | 1 | 1.5 | 1 | &frac12; | X | &frac12; | 1",
		"3 | carol@x.test (withdrew) | 1.5 | 1 | 1 | 2 | &ndash; | &frac12; | X | 1",
		"4 | dave@x.test | 0 | 0 | 0 | 4 | 0 | 0 | 0 | X",
	}
	got := htmlRows(tab.HTML())
	if !slices.Equal(got, want) {
		t.Errorf("HTML table rows:\n%s\nwant:\n%s\nHTML:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), tab.HTML())
	}
}

// htmlRows gives each <tr> of an HTML table as its cells' text (tags
// dropped) joined by " | ".
func htmlRows(h string) []string {
	cell := regexp.MustCompile(`<t[hd][^>]*>(.*?)</t[hd]>`)
	tag := regexp.MustCompile(`<[^>]*>`)
	var rows []string
	for _, tr := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(h, -1) {
		var cells []string
		for _, c := range cell.FindAllStringSubmatch(tr[1], -1) {
			cells = append(cells, tag.ReplaceAllString(c[1], ""))
		}
		rows = append(rows, strings.Join(cells, " | "))
	}
	return rows
}
