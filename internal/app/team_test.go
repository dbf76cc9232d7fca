package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"referee/internal/referee"
	"referee/internal/rules"
)

// teamOf4 is a team's four players: NAME1 ... NAME4 at example.org.
func teamOf4(name string) Team {
	t := Team{Name: name}
	for i := 1; i <= 4; i++ {
		t.Players = append(t.Players, fmt.Sprintf("%s%d@example.org", strings.ToLower(name), i))
	}
	return t
}

// Issue 41: a match of two teams of four, boards by rating in the
// variant (a player with a rated win sits above the unrated), two games a
// board with colours swapped, all at once; the match score is the sum of
// the game points, recomputed here from the stored games; the winner is
// the team, and each player's listing says their board and opponents.
func TestTeamMatchOfTwoTeamsOfFour(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{})
	ctx := context.Background()
	// lions4 has a rated win in chess: they take board 1.
	g, err := a.NewRatedGame(ctx, "chess", "lions4@example.org", "someone@example.org", nil, "", true)
	if err != nil {
		t.Fatal(err)
	}
	finish(t, a, g.ID, "1-0")
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "friendly", Variant: "chess", Format: "team",
		Teams: []Team{teamOf4("Lions"), teamOf4("Tigers")}}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "friendly")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Games) != 8 {
		t.Fatalf("%d games, want 8: 4 boards, 2 games each", len(e.Games))
	}
	board := map[string]int{}
	for _, p := range e.Players {
		board[p.Address] = p.Board
	}
	if board["lions4@example.org"] != 1 || board["lions1@example.org"] != 2 || board["tigers1@example.org"] != 1 {
		t.Errorf("boards %v: lions4 (rated win) on 1, then the list's order", board)
	}
	for _, g := range e.Games {
		w, b := e.Players[g.White-1], e.Players[g.Black-1]
		if w.Team == b.Team || w.Board != b.Board || w.Board != g.Board {
			t.Errorf("game %+v: %s (%s, board %d) v %s (%s, board %d)", g, w.Address, w.Team, w.Board, b.Address, b.Team, b.Board)
		}
	}
	says(t, "lions4's listing", lastOfKind(t, a, "lions4@example.org", referee.KindEventStart),
		"You play board 1 for team Lions against team Tigers", "two games against each opponent on your board")
	// Lions win boards 1 and 2 twice, draw board 3 twice, lose board 4
	// twice: 2+2+1+0 = 5 to 3.
	for _, g := range e.Games {
		lion := e.Players[g.White-1].Team == "Lions"
		res := map[int]string{1: "L", 2: "L", 3: "=", 4: "T"}[g.Board]
		switch {
		case res == "=":
			finish(t, a, g.GameID, "1/2-1/2")
		case (res == "L") == lion:
			finish(t, a, g.GameID, "1-0")
		default:
			finish(t, a, g.GameID, "0-1")
		}
	}
	e, err = a.Event(ctx, "friendly")
	if err != nil {
		t.Fatal(err)
	}
	var lions, tigers float64
	for _, eg := range e.Games {
		sg, err := a.Game(ctx, eg.GameID)
		if err != nil {
			t.Fatal(err)
		}
		w := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[sg.Result]
		if e.Players[eg.White-1].Team == "Lions" {
			lions, tigers = lions+w, tigers+1-w
		} else {
			lions, tigers = lions+1-w, tigers+w
		}
	}
	std := e.StandingsText()
	if lions != 5 || tigers != 3 || !strings.Contains(std, "Lions 5 - 3 Tigers") || e.Status != referee.EventFinished {
		t.Errorf("the games say Lions %v, Tigers %v; status %s; standings:\n%s", lions, tigers, e.Status, std)
	}
	says(t, "the final mail", lastOfKind(t, a, "tigers2@example.org", referee.KindEventEnd), "The winner of friendly is team Lions")
}

// Issue 41: three teams of two play a round robin of matches (Olympiad
// style), all at once: 3 matches of 4 games. A and B draw their match 2-2,
// A beats C 3-1, B beats C 4-0: A and B have 3 match points each and B
// more game points (6 to 5), so B wins; C has none.
func TestTeamRoundRobinOfMatches(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{})
	ctx := context.Background()
	two := func(name string) Team {
		n := strings.ToLower(name)
		return Team{Name: name, Players: []string{n + "1@example.org", n + "2@example.org"}}
	}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "olympiad", Variant: "chess", Format: "team", FixedBoards: true,
		Teams: []Team{two("A"), two("B"), two("C")}}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "olympiad")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Games) != 12 {
		t.Fatalf("%d games, want 3 matches of 4", len(e.Games))
	}
	// score[x][y]: how many of x's games against y x wins (the rest drawn
	// or lost as below).
	for _, g := range e.Games {
		wt, bt := e.Players[g.White-1].Team, e.Players[g.Black-1].Team
		pair := wt + bt
		var res string
		switch pair {
		case "AB", "BA":
			res = "1/2-1/2"
		case "AC":
			res = map[bool]string{true: "1-0", false: "1/2-1/2"}[g.Board == 1]
		case "CA":
			res = map[bool]string{true: "0-1", false: "1/2-1/2"}[g.Board == 1]
		case "BC":
			res = "1-0"
		case "CB":
			res = "0-1"
		}
		finish(t, a, g.GameID, res)
	}
	e, err = a.Event(ctx, "olympiad")
	if err != nil {
		t.Fatal(err)
	}
	std := e.StandingsText()
	for _, want := range []string{"1  B                        3       6  2", "2  A                        3       5  2",
		"3  C                        0       1  2", "The winner of olympiad is team B"} {
		if !strings.Contains(std, want) {
			t.Errorf("standings lack %q:\n%s", want, std)
		}
	}
}

// Issue 41: a team's captain (the first named) replaces by mail a player
// of the team who has not made a move: the games go to the newcomer. A
// player who is no captain cannot, nor can the captain replace a player
// who has started.
func TestTeamCaptainReplaces(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{})
	ctx := context.Background()
	two := func(name string) Team {
		n := strings.ToLower(name)
		return Team{Name: name, Players: []string{n + "1@example.org", n + "2@example.org", n + "3@example.org"}}
	}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "derby", Variant: "chess", Format: "team", FixedBoards: true,
		Teams: []Team{two("Kings"), two("Queens")}}); err != nil {
		t.Fatal(err)
	}
	e, err := a.StartEvent(ctx, "derby")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if p := send(t, a, &n, "kings2@example.org", "", "replace derby kings3@example.org sub@example.org"); p.Verdict == referee.Applied {
		t.Fatal("kings2, no captain, replaced a player")
	}
	// queens3 makes a move: no longer replaceable.
	for _, g := range e.Games {
		if e.Players[g.White-1].Address == "queens3@example.org" {
			mustPlay(t, a, g.GameID, rules.White, "e4")
			break
		}
	}
	if p := send(t, a, &n, "queens1@example.org", "", "replace derby queens3@example.org sub@example.org"); p.Verdict == referee.Applied {
		t.Fatal("the captain replaced a player who has moved")
	}
	_, m := lastTo(t, a, "queens1@example.org")
	says(t, "the refusal", m, "has started playing")
	if p := send(t, a, &n, "kings1@example.org", "", "replace derby kings3@example.org sub@example.org"); p.Verdict != referee.Applied {
		t.Fatalf("the captain's replace: %+v", p)
	}
	e, err = a.Event(ctx, "derby")
	if err != nil {
		t.Fatal(err)
	}
	seat := e.Seat("sub@example.org")
	if seat == 0 || e.Players[seat-1].Address != "kings3@example.org" {
		t.Fatalf("sub@example.org holds seat %d", seat)
	}
	for _, g := range e.Games {
		if g.White != seat && g.Black != seat {
			continue
		}
		rg, err := a.Game(ctx, g.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if rg.Players[0].Address != "sub@example.org" && rg.Players[1].Address != "sub@example.org" {
			t.Errorf("game #%d is still kings3's: %v", g.GameID, rg.Players)
		}
	}
}

// Issue 41: a player asks by mail to join a team of an open team event
// ("join derby Tigers"); the request waits, a wrong team name is refused
// with the teams; the organiser approves: the player enters the team on
// its next board, is told, and the match can start with equal teams. A
// declined request tells the player and enters no one.
func TestTeamJoinByMailApproved(t *testing.T) {
	a, _ := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	ctx := context.Background()
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "derby", Variant: "chess", Format: "team", FixedBoards: true, Entry: "open",
		Teams: []Team{{Name: "Lions", Players: []string{"l1@example.org", "l2@example.org"}}, {Name: "Tigers", Players: []string{"t1@example.org"}}}}); err == nil {
		t.Fatal("teams of 2 and 1 were taken")
	}
	if _, err := a.CreateEvent(ctx, EventSpec{Name: "derby", Variant: "chess", Format: "team", FixedBoards: true, Entry: "open",
		Teams: []Team{{Name: "Lions", Players: []string{"l1@example.org"}}, {Name: "Tigers", Players: []string{"t1@example.org"}}}}); err != nil {
		t.Fatal(err)
	}
	n := 0
	if p := joinByMail(t, a, &n, "nobody@example.org", "derby Pumas"); p.Verdict == referee.Applied {
		t.Fatal("a request for a team that does not exist was taken")
	}
	_, m := lastTo(t, a, "nobody@example.org")
	says(t, "the refusal", m, "Lions, Tigers")
	for _, who := range []string{"l2@example.org", "t2@example.org", "t3@example.org"} {
		team := map[bool]string{true: "Lions", false: "tigers"}[strings.HasPrefix(who, "l")]
		if p := joinByMail(t, a, &n, who, "derby "+team); p.Verdict != referee.Applied {
			t.Fatalf("%s asks to join: %+v", who, p)
		}
	}
	reqs, err := a.JoinRequests(ctx, "derby")
	if err != nil || len(reqs) != 3 || reqs[1].Team != "Tigers" {
		t.Fatalf("requests %+v, %v", reqs, err)
	}
	e, _ := a.Event(ctx, "derby")
	if len(e.Players) != 2 {
		t.Fatalf("%d players before any approval, want 2", len(e.Players))
	}
	for _, who := range []string{"l2@example.org", "t2@example.org"} {
		if err := a.DecideJoin(ctx, "derby", who, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.DecideJoin(ctx, "derby", "t3@example.org", false); err != nil {
		t.Fatal(err)
	}
	_, m = lastTo(t, a, "t2@example.org")
	says(t, "the approval", m, "took you into team Tigers, on board 2")
	_, m = lastTo(t, a, "t3@example.org")
	says(t, "the refusal", m, "did not take you into team Tigers")
	e, err = a.StartEvent(ctx, "derby")
	if err != nil || len(e.Games) != 4 {
		t.Fatalf("the match of two teams of two: %d games, %v", len(e.Games), err)
	}
	if s := e.Seat("t2@example.org"); s == 0 || e.Players[s-1].Team != "Tigers" || e.Players[s-1].Board != 2 {
		t.Errorf("t2 holds seat %d: %+v", s, e.Players)
	}
}
