package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"referee/internal/event"
	mailreader "referee/internal/mail/reader"
	"referee/internal/referee"
	"referee/internal/store"
)

// league players: p01 ... pNN, seeded in that order.
func leaguePlayers(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("p%02d@example.org", i))
	}
	return out
}

// divisionStandings recomputes, from the stored games alone, the standings
// of one division of one season: its players (seats, in seat order) and
// their rank order.
func divisionStandings(t *testing.T, a *App, name string, season, division int) (seats, ranked []int) {
	t.Helper()
	var egs []store.EventGame
	results := map[int64]string{}
	err := a.Store().View(context.Background(), func(tx *store.Tx) error {
		se, err := tx.EventByName(name)
		if err != nil {
			return err
		}
		all, err := tx.EventGames(se.ID)
		if err != nil {
			return err
		}
		for _, eg := range all {
			if eg.Season == season && eg.Division == division {
				egs = append(egs, eg)
				g, err := tx.Game(eg.GameID)
				if err != nil {
					return err
				}
				results[eg.GameID] = g.Result
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, eg := range egs {
		for _, s := range []int{eg.White, eg.Black} {
			if !slices.Contains(seats, s) {
				seats = append(seats, s)
			}
		}
	}
	slices.Sort(seats)
	local := func(s int) int { return slices.Index(seats, s) + 1 }
	var games []event.Game
	for _, eg := range egs {
		v, ok := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[results[eg.GameID]]
		if ok {
			games = append(games, event.Game{White: local(eg.White), Black: local(eg.Black), WhiteScore: v})
		}
	}
	for _, st := range event.Standings(len(seats), games, event.DefaultChain()) {
		ranked = append(ranked, seats[st.Player-1])
	}
	return seats, ranked
}

// Issue 41: a league of 12 in 2 divisions of 6 over 2 seasons. Season 1
// cuts the seeded list in two; each division plays its round robin (the
// lower seat wins every game). A 13th player joins by mail during season
// 1 and enters the lowest division for season 2, which starts on its own
// when the last game of season 1 ends, after the top 2 of division 2
// moved up and the bottom 2 of division 1 down; every player gets a mail
// of their season-2 games saying where they play; the standings keep
// season 1. After season 2 the league is over, and its winner is the
// leader of division 1 as the games alone say.
func TestLeagueOfTwelveOverTwoSeasons(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	ctx := context.Background()
	players := leaguePlayers(12)
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "league", Variant: "chess", Format: "league", Players: players,
		DivisionSize: 6, Promote: 2, Seasons: 2, Entry: "open"}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "league")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Games) != 30 {
		t.Fatalf("season 1: %d games, want 2 divisions of 15", len(e.Games))
	}
	for _, g := range e.Games {
		wantDiv := 1
		if g.White > 6 {
			wantDiv = 2
		}
		if g.Season != 1 || g.Division != wantDiv || (g.White > 6) != (g.Black > 6) {
			t.Fatalf("season 1 game %+v: seats 1-6 play division 1, 7-12 division 2", g)
		}
	}
	list := readMail(t, outboxTo(t, a, "p07@example.org")[0])
	says(t, "p07's season-1 listing", list, "season 1 has started", "You play in division 2")

	// A newcomer joins by mail while season 1 runs.
	n := 0
	if p := joinByMail(t, a, &n, "newcomer@example.org", "league"); p.Verdict != referee.Applied {
		t.Fatalf("join during the season: %+v", p)
	}
	_, m := lastTo(t, a, "newcomer@example.org")
	says(t, "the join's answer", m, "lowest division when its next season starts")

	win := func(e *referee.Event, season int) {
		for _, g := range e.Games {
			if g.Season == season && g.Status == referee.StatusActive {
				finish(t, a, g.GameID, map[bool]string{true: "1-0", false: "0-1"}[g.White < g.Black])
			}
		}
	}
	win(e, 1)
	e, err = a.Event(ctx, "league")
	if err != nil {
		t.Fatal(err)
	}
	var s2 []referee.EventGame
	for _, g := range e.Games {
		if g.Season == 2 {
			s2 = append(s2, g)
		}
	}
	// Season 2: division 1 is seats 1-4 and the top 2 of division 2 (7,
	// 8); division 2 was 5, 6 (down), 9-12 and the newcomer (13): seven,
	// one past the division size, so it is cut in two: 5, 6, 9, 10 and
	// 11, 12, 13. 15 + 6 + 3 games.
	div := map[int][]int{}
	for _, g := range s2 {
		for _, s := range []int{g.White, g.Black} {
			if !slices.Contains(div[g.Division], s) {
				div[g.Division] = append(div[g.Division], s)
			}
		}
	}
	slices.Sort(div[1])
	slices.Sort(div[2])
	slices.Sort(div[3])
	if !slices.Equal(div[1], []int{1, 2, 3, 4, 7, 8}) || !slices.Equal(div[2], []int{5, 6, 9, 10}) || !slices.Equal(div[3], []int{11, 12, 13}) || len(s2) != 24 {
		t.Fatalf("season 2: divisions %v, %v, %v, %d games; want [1 2 3 4 7 8], [5 6 9 10], [11 12 13], 24", div[1], div[2], div[3], len(s2))
	}
	// The moves are computed from the games alone.
	_, r1 := divisionStandings(t, a, "league", 1, 1)
	_, r2 := divisionStandings(t, a, "league", 1, 2)
	if !slices.Equal(r1[4:], []int{5, 6}) || !slices.Equal(r2[:2], []int{7, 8}) {
		t.Errorf("season 1 recomputed: division 1 %v, division 2 %v", r1, r2)
	}
	says(t, "p07's season-2 listing", lastOfKind(t, a, "p07@example.org", referee.KindEventStart), "season 2 has started", "moved up from division 2")
	says(t, "p05's season-2 listing", lastOfKind(t, a, "p05@example.org", referee.KindEventStart), "moved down from division 1")
	says(t, "the newcomer's listing", lastOfKind(t, a, "newcomer@example.org", referee.KindEventStart), "You play in division 3, the lowest, as a newcomer")
	std := e.StandingsText()
	for _, want := range []string{"Season 2 (under way)", "Season 1 (over)", "Division 2"} {
		if !strings.Contains(std, want) {
			t.Errorf("standings lack %q:\n%s", want, std)
		}
	}
	if e.Over() || e.Status != referee.EventRunning {
		t.Fatalf("after season 1: over %v, status %s", e.Over(), e.Status)
	}

	win(e, 2)
	e, err = a.Event(ctx, "league")
	if err != nil {
		t.Fatal(err)
	}
	last := 0
	for _, g := range e.Games {
		last = max(last, g.Season)
	}
	if e.Status != referee.EventFinished || last != 2 {
		t.Fatalf("after season 2: status %s, %d seasons; want finished after 2", e.Status, last)
	}
	_, top := divisionStandings(t, a, "league", 2, 1)
	if w := e.Rules().Winners(e); !slices.Equal(w, top[:1]) || w[0] != 1 {
		t.Errorf("winners %v, the games say %v", w, top[:1])
	}
	says(t, "the final mail", lastOfKind(t, a, "p01@example.org", referee.KindEventEnd), "The winner of league is p01@example.org")
}

// lastOfKind is the newest queued mail of kind to addr, read back.
func lastOfKind(t *testing.T, a *App, addr string, kind referee.MailKind) *mailreader.Mail {
	t.Helper()
	var m *mailreader.Mail
	for _, o := range outboxTo(t, a, addr) {
		if o.Kind == string(kind) {
			m = readMail(t, o)
		}
	}
	if m == nil {
		t.Fatalf("no %s mail to %s", kind, addr)
	}
	return m
}
