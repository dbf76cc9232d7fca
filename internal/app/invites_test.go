package app

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/internal/dice"
	"referee/internal/referee"
)

// TestHundredForgedChallengersOneVictim: issue 28. Under --players open,
// 100 challenges from 100 forged senders to one address put at most
// referee.DefaultMaxInvitesPerAddress invitations into its mailbox; its
// "stop" in a reply to one of them stops the rest for good, the
// organiser sees it in the stop list, and its "start" undoes it.
func TestHundredForgedChallengersOneVictim(t *testing.T) {
	ctx := context.Background()
	a, clk := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	n := 0
	invitations := func() int {
		t.Helper()
		out, err := a.Store().Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for _, o := range out {
			if o.To == "victim@example.org" {
				k++
			}
		}
		return k
	}
	applied := 0
	for i := range 100 {
		p := send(t, a, &n, fmt.Sprintf("forged%d@evil.test", i), "", "challenge chess victim@example.org")
		if p.Verdict == referee.Applied {
			applied++
		}
	}
	if got, want := invitations(), referee.DefaultMaxInvitesPerAddress; got != want || applied != want {
		t.Fatalf("100 forged challengers: %d invitations in the victim's mailbox (%d challenges made), want %d", got, applied, want)
	}
	inv, _ := lastTo(t, a, "victim@example.org")

	// A day later the cap allows more; the victim answers "stop" first.
	clk.now = clk.now.Add(25 * time.Hour)
	if p := send(t, a, &n, "victim@example.org", replyAddress(t, inv), "stop", "In-Reply-To: "+inv.MessageID+"\r\n"); p.Verdict != referee.Applied {
		t.Fatalf("stop: %+v", p)
	}
	_, answer := lastTo(t, a, "victim@example.org")
	says(t, "the answer to stop", answer, "will pass on no more invitations to victim@example.org")
	before := invitations()
	for i := range 10 {
		if p := send(t, a, &n, fmt.Sprintf("later%d@evil.test", i), "", "challenge chess Victim@example.org"); p.Verdict != referee.Rejected {
			t.Errorf("a challenge to a stopped address: %+v", p)
		}
	}
	if got := invitations(); got != before {
		t.Errorf("%d mails to the victim after its stop, want none", got-before)
	}
	list, err := a.StoppedList(ctx)
	if err != nil || len(list) != 1 || list[0].Address != "victim@example.org" {
		t.Errorf("the organiser's stop list: %+v, %v", list, err)
	}

	// "start" from the address (forged or not) changes nothing: the
	// referee asks the address itself (issue 38). Its reply to that
	// request takes it off the stop list: invitations reach it again.
	if p := send(t, a, &n, "victim@example.org", "", "start"); p.Verdict != referee.Answered {
		t.Fatalf("start: %+v", p)
	}
	if list, _ := a.StoppedList(ctx); len(list) != 1 {
		t.Errorf("a start by From alone undid the stop: the stop list is %+v", list)
	}
	ask, askMail := lastTo(t, a, "victim@example.org")
	says(t, "the request for proof", askMail, `reply to it with "start" on the first line`)
	if p := send(t, a, &n, "victim@example.org", replyAddress(t, ask), "start", "In-Reply-To: "+askMail.MessageID+"\r\n"); p.Verdict != referee.Applied {
		t.Fatalf("start in a reply to the request: %+v", p)
	}
	if list, _ := a.StoppedList(ctx); len(list) != 0 {
		t.Errorf("the stop list after start: %+v", list)
	}
	if p := send(t, a, &n, "friend@example.org", "", "challenge chess victim@example.org"); p.Verdict != referee.Applied {
		t.Errorf("a challenge after start: %+v", p)
	}
}

// TestRandomColourThroughTheStore: a challenge's colour seed is stored
// with it; the invitation commits to it, the invited player's opening mail
// reveals it, and the game's colours follow dice.ChallengeColour.
func TestRandomColourThroughTheStore(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{Players: referee.PlayersOpen})
	n := 0
	if p := send(t, a, &n, "carol@example.org", "", "challenge chess bob@example.org"); p.Verdict != referee.Applied {
		t.Fatalf("challenge: %+v", p)
	}
	inv, invText := lastTo(t, a, "bob@example.org")
	text := strings.Join(strings.Fields(invText.Text), " ")
	_, after, ok := strings.Cut(text, "whose SHA-256 is: ")
	if !ok || len(after) < 64 {
		t.Fatalf("no commitment in the invitation:\n%s", invText.Text)
	}
	commitment := after[:64]
	p := send(t, a, &n, "bob@example.org", replyAddress(t, inv), "accept", "In-Reply-To: "+inv.MessageID+"\r\n")
	if p.Verdict != referee.Applied || p.GameID == 0 {
		t.Fatalf("accept: %+v", p)
	}
	opening, _ := lastTo(t, a, "bob@example.org")
	body := strings.Join(strings.Fields(string(opening.Raw)), " ")
	_, after, ok = strings.Cut(body, "The seed is ")
	if !ok || len(after) < 64 {
		t.Fatalf("bob's opening mail does not reveal the seed")
	}
	seed, err := dice.ParseSeed(after[:64])
	if err != nil || seed.Commitment() != commitment {
		t.Fatalf("revealed seed %q (%v) does not match the commitment %s", after[:64], err, commitment)
	}
	col, _ := dice.ChallengeColour(seed, 1)
	g, err := a.Game(ctx, p.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"carol@example.org", "bob@example.org"}[col]; g.Players[0].Address != want {
		t.Errorf("White is %s; the seed gives the challenger colour %d, so White should be %s", g.Players[0].Address, col, want)
	}
}
