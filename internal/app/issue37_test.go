package app

import (
	"context"
	"testing"

	"referee/internal/referee"
	"referee/internal/rules"
)

// Issue 37: a club's season by mail, what went wrong.

// TestAcceptWithNothingPending: "accept" with no draw offer and no
// takeback request pending is refused, to its sender alone, as "confirm"
// without "resign" is; it offers nothing in their name (before, it was
// "Your draw offer was sent to White", and White and the spectators read
// "Black offers a draw"). With the player's own offer pending the answer
// says the offer is theirs.
func TestAcceptWithNothingPending(t *testing.T) {
	ctx := context.Background()
	a, _ := openLobby(t, referee.LobbyConfig{})
	g, err := a.NewGame(ctx, "chess", "white@example.org", "black@example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPlay(t, a, g.ID, rules.White, "e4")
	for _, tc := range []struct {
		name  string
		setup string // what White sends first
		file  string
	}{
		{"nothing pending", "", "accept-nothing.txt"},
		{"own offer pending", "draw", "accept-own-offer.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := rules.Black
			if tc.setup != "" {
				mustPlay(t, a, g.ID, rules.Black, tc.setup)
			}
			before := mailCount(t, a)
			p, err := a.Process(ctx, moveMail(a, after0(t, a, g.ID), c, "Mon, 23 Nov 2026 11:00:00 +0000", "accept\r\n("+tc.name+")"), 0, 0)
			if err != nil || p.Verdict != referee.Rejected {
				t.Fatalf("accept: %+v, %v; want it refused", p, err)
			}
			after, err := a.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if after.Status != referee.StatusActive || (tc.setup == "" && after.DrawOffer != nil) {
				t.Errorf("after accept: status %s, draw offer %+v; want the game going on, no offer made", after.Status, after.DrawOffer)
			}
			mails := sentSince(t, a, before)
			if len(mails) != 1 || mails[0].To != "black@example.org" {
				t.Fatalf("%d mails after accept (first to %v); want one, to Black alone", len(mails), mails)
			}
			golden(t, tc.file, mailText(t, mails[0]))
		})
	}
}

// after0 is game id as stored now.
func after0(t *testing.T, a *App, id int64) *referee.Game {
	t.Helper()
	g, err := a.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
