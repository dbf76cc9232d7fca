package referee

import (
	"fmt"
	"strings"
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

// TestLeagueWithdrawalKeepsEarlierSeasons: a player who withdraws in the
// second season under the annulment rule (0 of 2 games of the season
// completed) has that season's games annulled, and only those: the
// mails list the season's games, and the first season's crosstable keeps
// their results and does not mark them withdrawn ("The games of earlier
// seasons stand").
func TestLeagueWithdrawalKeepsEarlierSeasons(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := rrEvent(FormatLeague, 3, numbered(fin(1, 2, "1-0", "checkmate"), fin(3, 1, "0-1", "resigned"), fin(2, 3, "1-0", "checkmate"),
		running(2, 1), running(1, 3), running(3, 2))...)
	for i := range e.Games {
		e.Games[i].Season, e.Games[i].Division = 1+i/3, 1
	}
	w := Withdrawal{Seat: 1, Kind: WithdrawnAnnulled, How: ByOrganiser}
	if got := e.WithdrawalKind(1); got != WithdrawnAnnulled {
		t.Fatalf("withdrawal kind %d; want annulled (0 of the season's 2 games completed)", got)
	}
	want := map[string]string{
		"b@example.test": "Your game with them:\n  game #4, you played White:\n    annulled: it ends now and counts for no one\n",
		"c@example.test": "Your game with them:\n  game #5, you played Black:\n    annulled: it ends now and counts for no one\n",
		"a@example.test": "Your games:\n  game #4 against b@example.test, you played Black:\n    annulled: it ends now and counts for no one\n" +
			"  game #5 against c@example.test, you played White:\n    annulled: it ends now and counts for no one\n",
	}
	mails := r.WithdrawalMails(e, w, lobbyNow)
	if len(mails) != len(want) {
		t.Errorf("%d mails; want %d", len(mails), len(want))
	}
	for _, m := range mails {
		if games, ok := want[m.To]; !ok || !strings.Contains(m.Text, games) {
			t.Errorf("mail to %s:\n%s\nwant its games exactly:\n%s", m.To, m.Text, games)
		}
		if strings.Contains(m.Text, "now annulled") {
			t.Errorf("mail to %s calls a first season's game annulled:\n%s", m.To, m.Text)
		}
	}

	e.Players[0].Withdrawn = WithdrawnAnnulled
	first, _ := e.division(1, 1)
	tab := first.Table()
	if tab.Players[0].Withdrawn {
		t.Errorf("season 1's crosstable marks a@ withdrawn; they withdrew in season 2")
	}
	for _, st := range tab.Standings {
		if st.Player == 1 && st.Points != 2 {
			t.Errorf("season 1: a@ has %v points; want 2 (both games won, they stand)", st.Points)
		}
	}
	second, _ := e.division(2, 1)
	if tab := second.Table(); !tab.Players[0].Withdrawn {
		t.Errorf("season 2's crosstable does not mark a@ withdrawn")
	}
}
