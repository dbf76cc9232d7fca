package referee

import (
	"fmt"
	"testing"
)

// TestLeagueCut: the divisions of a season are as few as the size allows,
// as even as can be (the higher ones take one more), never under three
// players.
func TestLeagueCut(t *testing.T) {
	seats := func(n int) []int {
		var out []int
		for i := 1; i <= n; i++ {
			out = append(out, i)
		}
		return out
	}
	tests := []struct {
		n, size int
		want    string
	}{
		{12, 6, "[[1 2 3 4 5 6] [7 8 9 10 11 12]]"},
		{13, 6, "[[1 2 3 4 5] [6 7 8 9] [10 11 12 13]]"},
		{7, 6, "[[1 2 3 4] [5 6 7]]"},
		{6, 6, "[[1 2 3 4 5 6]]"},
		{4, 3, "[[1 2 3 4]]"},   // two divisions of 2 cannot play
		{5, 3, "[[1 2 3 4 5]]"}, // nor 3 and 2
		{6, 3, "[[1 2 3] [4 5 6]]"},
		{3, 8, "[[1 2 3]]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(cut(seats(tt.n), tt.size)); got != tt.want {
			t.Errorf("cut(%d players, size %d) = %s, want %s", tt.n, tt.size, got, tt.want)
		}
	}
}

// TestLeagueNextSeason: after a season of two divisions of 4 (the lower
// seat wins every game), the top 1 of division 2 moves up and the last of
// division 1 down; a player who withdrew leaves; one who joined during the
// season enters the lowest division; the games of the new season are its
// divisions' round robins. Their withdrawal counted only season 1's games.
func TestLeagueNextSeason(t *testing.T) {
	e := &Event{Name: "club", Format: FormatLeague, DivisionSize: 4, Promote: 1, Status: EventRunning}
	for s := 1; s <= 9; s++ {
		e.Players = append(e.Players, EventPlayer{Seat: s, Address: fmt.Sprintf("p%d@example.test", s)})
	}
	games, err := league{}.Start(&Event{Players: e.Players[:8], DivisionSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		g.GameID, g.Status = int64(i+1), StatusFinished
		g.Result = map[bool]string{true: "1-0", false: "0-1"}[g.White < g.Black]
		e.Games = append(e.Games, g)
	}
	e.Players[5].Withdrawn = WithdrawnLost // seat 6, of division 2, withdrew
	divs, moves := e.nextSeason(1)
	if got := fmt.Sprint(divs); got != "[[1 2 3 5] [4 7 8 9]]" {
		t.Errorf("season 2's divisions %s, want [[1 2 3 5] [4 7 8 9]]: 5 up, 4 down, 6 gone, 9 new", got)
	}
	if got := fmt.Sprint(moves); got != "[{5 2 1} {4 1 2}]" {
		t.Errorf("moves %v", moves)
	}
	step, err := league{}.Next(e)
	if err != nil || len(step.Games) != 12 || step.Games[0].Season != 2 {
		t.Fatalf("Next: %d games of season %d, %v; want 12 of season 2", len(step.Games), step.Games[0].Season, err)
	}
	if league.Over(league{}, e) {
		t.Error("a league without a last season is over after season 1")
	}
	e.Seasons = 1
	if !league.Over(league{}, e) {
		t.Error("a league of 1 season is not over after it")
	}
}
