package referee

import (
	"strings"
	"testing"

	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// TestChallengeColourFromTheSeed: issue 28, the "random" colour of a
// challenge must not come from a secret the challenger sees (the
// invitation's secret is in the challenger's own mail). It is drawn from a
// per-challenge seed as docs/dice.md says: with the worked example's
// seed, HMAC-SHA256(seed, "challenge:41:colour") begins with 204 (even:
// the challenger plays White) and "challenge:17:colour" with 21 (odd:
// Black), whatever the secret. The invitation commits to the seed and the
// game's first mails reveal it.
func TestChallengeColourFromTheSeed(t *testing.T) {
	const commitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd" // docs/dice.md
	for _, tt := range []struct {
		id   int64
		want rules.Color
	}{{41, rules.White}, {17, rules.Black}} {
		for _, secret := range []string{"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"} {
			ch := Challenge{ID: tt.id, Color: "random", Secret: secret, Seed: testSeed}
			if got := ch.ChallengerColor(); got != tt.want {
				t.Errorf("challenge %d, secret %s: challenger plays %s, want %s", tt.id, secret, got, tt.want)
			}
		}
	}

	r := lobbyReferee(t, LobbyConfig{})
	lb := &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 41, NewSecret: "nnnnnnnnnn", NewSeed: testSeed}
	m := &reader.Mail{From: "carol@example.org", MessageID: "<c1@example.org>", Subject: "x", Action: "challenge chess bob@example.org"}
	out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
	if out.Verdict != Applied || out.Lobby.NewChallenge.Seed != testSeed {
		t.Fatalf("challenge: %v %s", out.Verdict, out.Detail)
	}
	for _, ml := range out.Mails {
		text := norm(ml.Text)
		if !strings.Contains(text, "The colour is drawn from a random seed fixed now, whose SHA-256 is: "+commitment) {
			t.Errorf("the mail to %s does not commit to the seed:\n%s", ml.To, ml.Text)
		}
		if strings.Contains(text, testSeed) {
			t.Errorf("the mail to %s reveals the seed before the game:\n%s", ml.To, ml.Text)
		}
	}

	// Bob accepts: carol plays White, and the opening mails reveal why.
	ch := *out.Lobby.NewChallenge
	_, g := newGame(t, rules.Chess())
	g.Players[0].Address, g.Players[1].Address = "carol@example.org", "bob@example.org"
	g2, _, mails, err := r.Start(g, lobbyNow)
	if err != nil {
		t.Fatal(err)
	}
	all := r.ChallengeStarted(ch, g2, lobbyNow, mails)
	if len(all) != 1+len(mails) || all[0].To != "carol@example.org" {
		t.Fatalf("%d mails, want the notice and %d opening mails", len(all), len(mails))
	}
	want := "The colours were drawn at random. The seed is " + testSeed + "; its SHA-256 is " + commitment +
		", as the invitation said. HMAC-SHA256(seed, \"challenge:41:colour\") begins with the byte 204, which is even, " +
		"so the challenger, carol@example.org, plays White"
	for _, ml := range all[1:] {
		if text := norm(textOf(t, ml)); !strings.Contains(text, want) {
			t.Errorf("the opening mail to %s does not reveal the draw:\n%s", ml.To, textOf(t, ml))
		}
	}
}
