package app

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/internal/referee"
)

// ladderOrder is the ladder's order as addresses' local parts.
func ladderOrder(t *testing.T, a *App, name string) string {
	t.Helper()
	e, err := a.Event(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range e.LadderOrder() {
		out = append(out, strings.TrimSuffix(e.Players[s-1].Address, "@example.org"))
	}
	return strings.Join(out, " ")
}

// Issue 41: a ladder of 8 over several weeks on the fake clock, by mail.
// p8 challenges p5 (3 places up, the reach) and wins: p8 takes place 5 and
// p5, p6, p7 move down one. p4 challenging p1 (3 up) is allowed, p8 (now
// 5th) challenging p1 (4 up) is refused with the reason. p4's challenge to
// p1 is not accepted within the 7 days: p4 takes p1's place. A ninth
// player joins at the bottom. After the idle weeks, the players without a
// ladder game drop to the bottom in their order. The order is recomputed
// from the stored records each time.
func TestLadderOfEightOverWeeks(t *testing.T) {
	a, clk := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	ctx := context.Background()
	var players []string
	for i := 1; i <= 8; i++ {
		players = append(players, fmt.Sprintf("p%d@example.org", i))
	}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "ladder", Variant: "chess", Format: "ladder", Players: players, Entry: "open",
		Ladder: referee.LadderSettings{Reach: 3, Games: 1, MaxGames: 2, AcceptDays: 7, IdleWeeks: 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.StartEvent(ctx, "ladder"); err != nil {
		t.Fatal(err)
	}
	if got := ladderOrder(t, a, "ladder"); got != "p1 p2 p3 p4 p5 p6 p7 p8" {
		t.Fatalf("the start: %s", got)
	}
	n := 0
	if p := send(t, a, &n, "p8@example.org", "", "ladder ladder p5@example.org"); p.Verdict != referee.Applied {
		t.Fatalf("p8 challenges p5: %+v", p)
	}
	_, m := lastTo(t, a, "p5@example.org")
	says(t, "the challenge to p5", m, "p8@example.org challenges you on the ladder ladder", `"ladder ladder accept"`)
	clk.now = clk.now.Add(24 * time.Hour)
	if p := send(t, a, &n, "p5@example.org", "", "ladder ladder accept"); p.Verdict != referee.Applied {
		t.Fatalf("p5 accepts: %+v", p)
	}
	e, err := a.Event(ctx, "ladder")
	if err != nil || len(e.Games) != 1 {
		t.Fatalf("after the acceptance: %d games, %v; want 1", len(e.Games), err)
	}
	says(t, "p8's listing", lastOfKind(t, a, "p8@example.org", referee.KindEventStart), "challenge 1 is accepted", "One game")
	clk.now = clk.now.Add(24 * time.Hour)
	g := e.Games[0]
	finish(t, a, g.GameID, map[bool]string{true: "1-0", false: "0-1"}[e.Players[g.White-1].Address == "p8@example.org"])
	if got := ladderOrder(t, a, "ladder"); got != "p1 p2 p3 p4 p8 p5 p6 p7" {
		t.Fatalf("after p8 beat p5: %s, want p1 p2 p3 p4 p8 p5 p6 p7", got)
	}
	_, m = lastTo(t, a, "p5@example.org")
	says(t, "the game's end to p5", m, "p8@example.org won the challenge and takes place 5 of ladder")
	// Reach: p8 is 5th now; p1 is 4 places up.
	if p := send(t, a, &n, "p8@example.org", "", "ladder ladder p1@example.org"); p.Verdict == referee.Applied {
		t.Fatal("p8 challenged p1, 4 places up, with a reach of 3")
	}
	_, m = lastTo(t, a, "p8@example.org")
	says(t, "the refusal", m, "4 places above you", "at most 3 places up")
	// A refusal by silence: p4 challenges p1, who never answers.
	if p := send(t, a, &n, "p4@example.org", "", "ladder ladder p1@example.org"); p.Verdict != referee.Applied {
		t.Fatalf("p4 challenges p1: %+v", p)
	}
	clk.now = clk.now.Add(6 * 24 * time.Hour)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ladderOrder(t, a, "ladder"); got != "p1 p2 p3 p4 p8 p5 p6 p7" {
		t.Fatalf("6 days after the challenge: %s", got)
	}
	clk.now = clk.now.Add(25 * time.Hour)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ladderOrder(t, a, "ladder"); got != "p4 p1 p2 p3 p8 p5 p6 p7" {
		t.Fatalf("after p1 let the challenge expire: %s, want p4 p1 p2 p3 p8 p5 p6 p7", got)
	}
	_, m = lastTo(t, a, "p1@example.org")
	says(t, "p1's notice", m, "You did not accept p4@example.org's challenge")
	// A newcomer joins at the bottom.
	if p := joinByMail(t, a, &n, "p9@example.org", "ladder"); p.Verdict != referee.Applied {
		t.Fatalf("p9 joins: %+v", p)
	}
	if got := ladderOrder(t, a, "ladder"); !strings.HasSuffix(got, " p7 p9") {
		t.Fatalf("after p9 joined: %s", got)
	}
	// Day 22: everyone without a game since the start (p4's challenge
	// was never accepted: no game) has been idle three weeks and drops to
	// the bottom, in their order; p8 and p5 (their game ended on day 2)
	// and p9 (joined on day 9) stay.
	clk.now = clk.now.Add(13 * 24 * time.Hour)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ladderOrder(t, a, "ladder"); got != "p8 p5 p9 p4 p1 p2 p3 p6 p7" {
		t.Fatalf("after three idle weeks: %s, want p8 p5 p9 p4 p1 p2 p3 p6 p7", got)
	}
	// A day later p8 and p5 are idle three weeks too.
	clk.now = clk.now.Add(24 * time.Hour)
	if _, err := a.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ladderOrder(t, a, "ladder"); got != "p9 p4 p1 p2 p3 p6 p7 p8 p5" {
		t.Fatalf("a day later: %s, want p9 p4 p1 p2 p3 p6 p7 p8 p5", got)
	}
	_, m = lastTo(t, a, "p1@example.org")
	says(t, "p1's drop", m, "drop to the bottom")
	e, err = a.Event(ctx, "ladder")
	if err != nil {
		t.Fatal(err)
	}
	if std := e.StandingsText(); !strings.Contains(std, "  1  p9@example.org") || !strings.Contains(std, "at most 3 places above you") {
		t.Errorf("standings:\n%s", std)
	}
}

// Issue 41: a ladder seeded by rating (--seed-by-rating): the players with
// rated wins in the variant start above the unrated, the list's order kept
// between equal ratings.
func TestLadderSeededByRating(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{})
	ctx := context.Background()
	for _, w := range []string{"p3@example.org", "p4@example.org", "p4@example.org"} {
		g, err := a.NewRatedGame(ctx, "chess", w, "someone@example.org", nil, "", true)
		if err != nil {
			t.Fatal(err)
		}
		finish(t, a, g.ID, "1-0")
	}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "seeded", Variant: "chess", Format: "ladder", SeedByRating: true,
		Players: []string{"p1@example.org", "p2@example.org", "p3@example.org", "p4@example.org"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.StartEvent(ctx, "seeded"); err != nil {
		t.Fatal(err)
	}
	if got := ladderOrder(t, a, "seeded"); got != "p4 p3 p1 p2" {
		t.Errorf("seeded by rating: %s, want p4 (two wins) p3 (one) p1 p2", got)
	}
}
