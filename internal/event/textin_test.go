package event

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTextInAligns: the text crosstable in other headings (a reader's
// language) keeps every line's columns where the heading line has them,
// counted in characters: a heading longer than its column widens it, and
// a name or heading with letters outside ASCII takes one column each.
// English headings give Text exactly.
func TestTextInAligns(t *testing.T) {
	players := []Entrant{{Name: "Łukasz"}, {Name: "ann@example.org", Withdrawn: true}, {Name: "Зоя"}}
	tab := Crosstable(players, []Game{{White: 1, Black: 2, WhiteScore: 1}, {White: 2, Black: 3, WhiteScore: 0.5}}, DefaultChain())
	tests := []struct {
		name string
		h    Headings
	}{
		{"English", EnglishHeadings()},
		{"Russian", Headings{Number: "#", Player: "Игрок", Points: "Очки", Wins: "Поб", SB: "Берг", Rank: "Место", Withdrawn: "(в)"}},
		{"long headings", Headings{Number: "#", Player: "Teilnehmerin oder Teilnehmer", Points: "Punkte", Wins: "Siege", SB: "Sonneborn", Rank: "Platz", Withdrawn: "(zurückgezogen)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tab.TextIn(tt.h)
			if tt.name == "English" && text != tab.Text() {
				t.Errorf("English headings:\n%s\nwant Text:\n%s", text, tab.Text())
			}
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if len(lines) != 4 {
				t.Fatalf("%d lines:\n%s", len(lines), text)
			}
			width := utf8.RuneCountInString(lines[0])
			for _, l := range lines[1:] {
				if n := utf8.RuneCountInString(l); n != width {
					t.Errorf("a line of %d characters, the heading's %d:\n%s", n, width, text)
				}
			}
			// Each heading word ends where its column's values end.
			for _, w := range []string{tt.h.Points, tt.h.Wins, tt.h.SB, tt.h.Rank} {
				if !strings.Contains(lines[0], " "+w) {
					t.Errorf("the heading line lacks %q: %s", w, lines[0])
				}
			}
			if !strings.Contains(text, "ann@example.org "+tt.h.Withdrawn) {
				t.Errorf("the withdrawn player is not marked %q:\n%s", tt.h.Withdrawn, text)
			}
		})
	}
}
