package referee

import (
	"strings"
	"testing"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// TestOpenChallengeSaysWhatAFriendNeeds: issue 33, "To invite a friend,
// give them this address" failed under --players known for a friend who
// never played. Under known and list the mail says who can take it and
// how to play a friend who cannot; under open it says nothing more.
func TestOpenChallengeSaysWhatAFriendNeeds(t *testing.T) {
	tests := []struct {
		players Players
		want    string // "" for no note
	}{
		{PlayersKnown, "Only players who have played here before, or whom the organiser added, can take an open challenge here. " +
			"A friend who is not can still play you: challenge them by name (\"challenge VARIANT their@address\"), " +
			"since anyone may accept an invitation sent to them."},
		{PlayersList, "Only players on the organiser's list can take an open challenge here. A friend who is not"},
		{PlayersOpen, ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.players), func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{Players: tt.players})
			lb := &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 41, NewSecret: "nnnnnnnnnn", NewSeed: testSeed}
			m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Subject: "challenge", Action: "challenge toto40 3d"}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
			if out.Verdict != Applied || len(out.Mails) != 1 {
				t.Fatalf("verdict %s (%s), %d mails", out.Verdict, out.Detail, len(out.Mails))
			}
			text := norm(out.Mails[0].Text)
			if !strings.Contains(text, "To invite a friend, give them this address") {
				t.Errorf("the advice is gone:\n%s", out.Mails[0].Text)
			}
			if tt.want == "" {
				if strings.Contains(text, "can take an open challenge here") {
					t.Errorf("under --players open the mail limits who can take it:\n%s", out.Mails[0].Text)
				}
				return
			}
			if !strings.Contains(text, norm(tt.want)) {
				t.Errorf("the mail lacks %q:\n%s", tt.want, out.Mails[0].Text)
			}
		})
	}
}

// TestGamesAddressIsForTheNextAction: issue 33, "games" handed out an
// address that a move was refused at after the opponent's next move. The
// list says so plainly, and what it says holds: "board" to an address
// from before the opponent's move is answered with the current board and
// a current address, a move to it is refused with the same.
func TestGamesAddressIsForTheNextAction(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	g := carolsGame(t, 5, "bob@example.org", true)
	text := norm(r.gamesText(r.english(), "carol@example.org", []*Game{g}, lobbyNow))
	for _, want := range []string{"reply to: referee+5.cccccccccc.0@example.test",
		"Each reply address is good for your next action only",
		"\"board\" sent to it always works, and brings the current board with the address for your next move"} {
		if !strings.Contains(text, want) {
			t.Errorf("games lacks %q:\n%s", want, text)
		}
	}
	// Carol moves and bob answers; carol then uses the address from the list.
	for i, mv := range []string{"e4", "e5"} {
		c := rules.Color(i)
		m := &reader.Mail{From: g.Players[c].Address, MessageID: "<m@x>", Action: mv,
			Token: &reader.Token{GameID: g.ID, Secret: g.Players[c].Secret, Ply: g.Ply()}}
		out := r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow})
		if out.Verdict != Applied {
			t.Fatalf("%s: %v %s", mv, out.Verdict, out.Detail)
		}
		*g = *out.Game
	}
	old := &reader.Token{GameID: 5, Secret: "cccccccccc", Ply: 0}
	for _, tt := range []struct {
		line string
		want Verdict
	}{{"board", Answered}, {"Nf3", Rejected}} {
		m := &reader.Mail{From: "carol@example.org", MessageID: "<old@x>", Action: tt.line, Token: old}
		out := r.Handle(Inbound{Mail: m}, g, Env{Now: lobbyNow})
		if out.Verdict != tt.want || len(out.Mails) != 1 {
			t.Fatalf("%q to the listed address: %v (%s), %d mails; want %v and one mail", tt.line, out.Verdict, out.Detail, len(out.Mails), tt.want)
		}
		if got, want := out.Mails[0].ReplyTo, r.ReplyAddress(g, rules.White); !strings.Contains(got, want) {
			t.Errorf("%q: the answer's reply address %q, want the current one %q", tt.line, got, want)
		}
		if body := textOf(t, out.Mails[0]); !strings.Contains(body, "1. e4 e5") {
			t.Errorf("%q: the answer does not show the current board:\n%s", tt.line, body)
		}
	}
}
