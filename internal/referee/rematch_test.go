package referee

import (
	"slices"
	"strings"
	"testing"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// TestRematch: after a finished game either player's "rematch", in a
// reply to the game's mail, invites the opponent to a new game of the same
// variant and time control with the colours swapped (issue 33); the
// opponent's "accept" to that invitation starts it. Before the end, after
// an abort, or over the lobby's limits it is refused and offers nothing.
func TestRematch(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	finished := func(t *testing.T) *Game {
		g := carolsGame(t, 9, "dave@example.org", true) // carol White, dave Black, 3 days a move
		g.Status, g.Result, g.ResultReason = StatusFinished, "1-0", "Black resigned"
		return g
	}
	lobby := func() *Lobby {
		return &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 12, NewSecret: "rrrrrrrrr2"}
	}
	send := func(g *Game, c rules.Color, line string, lb *Lobby) Outcome {
		m := &reader.Mail{From: g.Players[c].Address, MessageID: "<rm@x>", Action: line,
			Token: &reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}}
		if n := r.Needs(m, g); !n.Lobby || !n.Challenge || n.Opponent != g.Players[c.Other()].Address {
			t.Errorf("%s: the app is asked to load %+v", line, n)
		}
		return r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow, Lobby: lb})
	}

	for _, tt := range []struct {
		by         rules.Color
		challenger string
		opponent   string
		color      string // the challenger's colour in the new game
	}{
		{rules.White, "carol@example.org", "dave@example.org", "black"},
		{rules.Black, "dave@example.org", "carol@example.org", "white"},
	} {
		g := finished(t)
		out := send(g, tt.by, "Rematch!", lobby())
		if out.Verdict != Applied || out.Lobby == nil || out.Lobby.NewChallenge == nil {
			t.Fatalf("rematch by %s: %s %s", tt.by, out.Verdict, out.Detail)
		}
		ch := out.Lobby.NewChallenge
		if ch.Challenger != tt.challenger || ch.Opponent != tt.opponent || ch.Variant != "chess" || ch.TimeControl != "3d" || ch.Color != tt.color {
			t.Errorf("rematch by %s: challenge %+v", tt.by, ch)
		}
		if got, want := mailsTo(out), []string{tt.opponent, tt.challenger}; !slices.Equal(got, want) {
			t.Errorf("rematch by %s: mails to %q, want the invitation to %q", tt.by, got, want)
		}
		if body := norm(out.Mails[0].Text); !strings.Contains(body, "After game #9 of Chess (White won, Black resigned), "+tt.challenger+" asks you for a rematch with the colours swapped.") ||
			!strings.Contains(body, "reply to this mail with \"accept\"") {
			t.Errorf("the invitation:\n%s", out.Mails[0].Text)
		}
		// The opponent accepts the invitation: the new game starts with
		// the colours of game #9 swapped.
		acc := &reader.Mail{From: tt.opponent, MessageID: "<acc@x>", Action: "accept", Invite: &reader.Invite{ChallengeID: ch.ID, Secret: ch.Secret}}
		started := r.Handle(Inbound{Mail: acc}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Allowed: true, Active: map[string]int{}, Challenge: ch}})
		if started.Lobby == nil || started.Lobby.Start == nil {
			t.Fatalf("accepting the rematch: %s %s", started.Verdict, started.Detail)
		}
		if st := started.Lobby.Start; st.White != g.Players[rules.Black].Address || st.Black != g.Players[rules.White].Address {
			t.Errorf("the rematch of %s v %s starts as %s v %s", g.Players[0].Address, g.Players[1].Address, st.White, st.Black)
		}
	}

	// Refused: nothing is offered, and the refusal says why.
	active := carolsGame(t, 9, "dave@example.org", true)
	aborted := finished(t)
	aborted.Status, aborted.Result, aborted.AbortReason = StatusAborted, "", "a test"
	invited := lobby()
	invited.Sent = []Challenge{{ID: 3, Challenger: "carol@example.org", Opponent: "dave@example.org", Status: ChallengeOpen,
		Created: lobbyNow.Add(-Day / 2), Expires: lobbyNow.Add(6 * Day)}}
	barred := lobby()
	barred.OpponentBarred = true
	for _, tt := range []struct {
		name string
		g    *Game
		lb   *Lobby
		says string
	}{
		{"game still running", active, lobby(), "game #9 is still being played"},
		{"game aborted", aborted, lobby(), "was aborted by the organiser: a test, and has no result"},
		{"already invited", finished(t), invited, "your invitation to dave@example.org (challenge 3) is still open"},
		{"opponent barred", finished(t), barred, "dave@example.org cannot be invited by mail here"},
		{"sender not allowed", finished(t), &Lobby{Active: map[string]int{}, NextChallengeID: 12, NewSecret: "rrrrrrrrr2"}, "start games by mail"},
	} {
		out := send(tt.g, rules.White, "rematch", tt.lb)
		if out.Verdict != Rejected || out.Lobby != nil || len(out.Mails) != 1 || !strings.Contains(norm(textOf(t, out.Mails[0])), tt.says) {
			t.Errorf("%s: %s %s, %d mails:\n%s", tt.name, out.Verdict, out.Detail, len(out.Mails), textOf(t, out.Mails[0]))
		}
	}
}

// TestFinishedGameFooterOffersRematch: a finished game's mails offer
// "rematch"; an aborted game's do not (it has no result to answer).
func TestFinishedGameFooterOffersRematch(t *testing.T) {
	r, g := newGame(t, rules.Chess())
	act(t, r, g, rules.White, "resign")
	out := act(t, r, g, rules.White, "confirm")
	if got := out.Mails[0].Board.Commands; !slices.Contains(got, "rematch") {
		t.Errorf("finished game's footer %q", got)
	}
	_, g = newGame(t, rules.Chess())
	ng, mails, err := r.Abort(g, "a test", lobbyNow)
	if err != nil || ng.Status != StatusAborted {
		t.Fatal(err)
	}
	if got := mails[0].Board.Commands; slices.Contains(got, "rematch") {
		t.Errorf("aborted game's footer %q", got)
	}
}
