package referee

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/internal/lang"
)

// TestFormatRegistry: every format has a name of its own and a title, is
// found by its name, and an unknown name is refused with the list.
func TestFormatRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Formats() {
		if f.Name() == "" || f.Title() == "" || seen[f.Name()] {
			t.Errorf("format %q (%q): a name of its own and a title, please", f.Name(), f.Title())
		}
		seen[f.Name()] = true
		got, err := LookupFormat(f.Name())
		if err != nil || got.Name() != f.Name() {
			t.Errorf("LookupFormat(%q) = %v, %v", f.Name(), got, err)
		}
		if FormatTitle(f.Name()) != f.Title() {
			t.Errorf("FormatTitle(%q) = %q, want %q", f.Name(), FormatTitle(f.Name()), f.Title())
		}
	}
	_, err := LookupFormat("swiss")
	if err == nil {
		t.Fatal("LookupFormat(swiss) found a format")
	}
	for _, f := range Formats() {
		if !strings.Contains(err.Error(), f.Name()+" ("+f.Title()+")") {
			t.Errorf("refusal %q does not list %s", err, f.Name())
		}
	}
}

// playOut plays e to its end as its format runs it: the format's first
// games, then, each time every game in play has ended, what the format's
// Next asks for. Every game is won by the lower seat (the higher seed).
// It returns the number of steps Next took.
func playOut(t *testing.T, e *Event) int {
	t.Helper()
	f := e.Rules()
	games, err := f.Start(e)
	if err != nil {
		t.Fatalf("%s of %d: Start: %v", f.Name(), len(e.Players), err)
	}
	e.Status = EventRunning
	steps := 0
	for len(games) > 0 {
		for _, g := range games {
			if g.White == g.Black || g.White < 1 || g.Black < 1 || g.White > len(e.Players) || g.Black > len(e.Players) {
				t.Fatalf("%s: a game between seats %d and %d", f.Name(), g.White, g.Black)
			}
			g.GameID = int64(len(e.Games) + 1)
			g.Status = StatusActive
			e.Games = append(e.Games, g)
		}
		if f.Over(e) {
			t.Fatalf("%s: over with games in play", f.Name())
		}
		for i := range e.Games {
			if g := &e.Games[i]; g.Status == StatusActive {
				g.Status, g.Result, g.Reason = StatusFinished, map[bool]string{true: "1-0", false: "0-1"}[g.White < g.Black], "checkmate"
			}
		}
		step, err := f.Next(e)
		if err != nil {
			t.Fatalf("%s: Next: %v", f.Name(), err)
		}
		games = step.Games
		if steps++; steps > 20 {
			t.Fatalf("%s: still going after 20 steps", f.Name())
		}
	}
	return steps
}

// TestFormatsPlayToTheEnd: each registered format, from its smallest field
// of at least four, runs to its end; the higher seed, winning every game,
// wins the event, and the standings and the end mail say so.
func TestFormatsPlayToTheEnd(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f.Name(), func(t *testing.T) {
			if f.Name() == FormatLadder {
				t.Skip("a ladder has no games of its own and runs until closed: TestLadder plays one")
			}
			n := 4
			for !f.Fits(n) {
				if n++; n > 64 {
					t.Fatalf("%s fits no field of 4 to 64", f.Name())
				}
			}
			e := &Event{Name: "club", Variant: "chess", Format: f.Name(), Decider: DeciderMatch, Chain: nil, Seasons: 2}
			for s := 1; s <= n; s++ {
				e.Players = append(e.Players, EventPlayer{Seat: s, Address: fmt.Sprintf("p%d@example.test", s)})
			}
			winners, text := []int{1}, "The winner of club is p1@example.test."
			if f.Name() == FormatTeam { // two teams of two: seats 1 and 2 against 3 and 4
				for i := range e.Players {
					e.Players[i].Team, e.Players[i].Board = map[bool]string{true: "A", false: "B"}[i < 2], i%2+1
				}
				winners, text = []int{1, 2}, "The winner of club is team A: p1@example.test, p2@example.test."
			}
			playOut(t, e)
			// Four players: a round robin's 6 games, twice that for a
			// double one, a knockout's two semi-finals and final of two
			// games each (the higher seed wins each 2-0), a league's
			// one division of 4 for its 2 seasons, two boards of two
			// games in a match of two teams.
			if want := map[string]int{FormatRR: 6, FormatDRR: 12, FormatKO: 6, FormatLeague: 12, FormatTeam: 4}[f.Name()]; len(e.Games) != want {
				t.Errorf("%d games, want %d", len(e.Games), want)
			}
			if !e.Over() || !slices.Equal(f.Winners(e), winners) {
				t.Fatalf("over %v, winners %v; want %v", e.Over(), f.Winners(e), winners)
			}
			if !strings.Contains(e.StandingsText(), text) {
				t.Errorf("standings lack %q:\n%s", text, e.StandingsText())
			}
			r := New(Config{Catalog: testCatalog(), Address: "referee@example.org"})
			for _, m := range r.EventEndMails(e, nil, nil, time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)) {
				if !strings.Contains(m.Subject, "p1@example.test") {
					t.Errorf("end mail to %s: subject %q does not name the winner", m.To, m.Subject)
				}
			}
		})
	}
}

// sixGames is a format that exists only in this test: two players meet in
// a match of six games, colours alternating. It shows what a new format
// costs: its type (here reusing the round robin's crosstable, withdrawal
// and silence rules) and one line in the registry.
type sixGames struct{ roundRobin }

func (sixGames) Name() string     { return "six" }
func (sixGames) Title() string    { return "six-game match" }
func (sixGames) Fits(n int) bool  { return n == 2 }
func (sixGames) SizeText() string { return "a six-game match takes 2 players" }
func (sixGames) Layout() Layout   { return LayoutTable }
func (sixGames) Where(_ *lang.Printer, g EventGame) string {
	return fmt.Sprintf("Game %d", g.Round)
}
func (sixGames) Start(*Event) ([]EventGame, error) {
	var out []EventGame
	for r := 1; r <= 6; r++ {
		out = append(out, EventGame{Round: r, Board: 1, Leg: 1, White: 2 - r%2, Black: 1 + r%2})
	}
	return out, nil
}

// TestANewFormatIsOneTypeAndOneLine registers sixGames for the test's
// length, as its line in the registry would, and runs an event of it
// through the core: its pairings, its start mail, its standings and its
// end.
func TestANewFormatIsOneTypeAndOneLine(t *testing.T) {
	saved := formats
	formats = append(slices.Clip(formats), sixGames{roundRobin{name: "six", title: "six-game match"}})
	t.Cleanup(func() { formats = saved })

	if got := FormatList(); !strings.HasSuffix(got, " or six (six-game match)") {
		t.Errorf("FormatList() = %q", got)
	}
	e := &Event{Name: "final", Variant: "chess", Format: "six",
		Players: []EventPlayer{{Seat: 1, Address: "ann@example.test"}, {Seat: 2, Address: "ben@example.test"}}}
	if steps := playOut(t, e); steps != 1 {
		t.Errorf("a six-game match took %d steps, want 1: all games start at once", steps)
	}
	if len(e.Games) != 6 {
		t.Fatalf("%d games, want 6", len(e.Games))
	}
	// The lower seat won every game: 3 with White, 3 with Black.
	if w := e.Rules().Winners(e); !slices.Equal(w, []int{1}) {
		t.Errorf("winners %v, want [1]", w)
	}
	std := e.StandingsText()
	for _, want := range []string{"final: Chess, six-game match", "The winner of final is ann@example.test."} {
		if !strings.Contains(std, want) {
			t.Errorf("standings lack %q:\n%s", want, std)
		}
	}
	r := New(Config{Catalog: testCatalog(), Address: "referee@example.org"})
	g := &Game{ID: 1, Players: [2]Player{{Address: "ann@example.test"}, {Address: "ben@example.test"}}}
	e.Games[0].GameID = 1
	mail := r.EventStartMail(e, 1, []*Game{g}, time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC))
	if !strings.Contains(mail.Text, "Game 1: game #1, you play White against ben@example.test") {
		t.Errorf("start mail:\n%s", mail.Text)
	}
	if ge := (&GameEvent{Name: "final", Format: "six", Round: 3, Board: 1}); ge.Place() != "final, round 3, board 1" {
		t.Errorf("Place() = %q", ge.Place())
	}
}
