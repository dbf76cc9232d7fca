package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
)

// TestForgedVacationCanBeUndone: issue 28. Without --require-auth a forged
// From can take a vacation in a player's name; the player's notice says
// how to undo it, and "vacation cancel" does: the clocks run again as
// before, the opponents are told, and the days not yet begun go back.
func TestForgedVacationCanBeUndone(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	games := []*Game{carolsGame(t, 5, "bob@example.org", true), carolsGame(t, 4, "dan@example.org", false)}
	m := &reader.Mail{From: "carol@example.org", MessageID: "<forged@evil.test>", Subject: "away", Action: "vacation 3"}
	out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: &Lobby{Allowed: true, Active: map[string]int{}, Games: games}})
	if out.Verdict != Applied {
		t.Fatalf("vacation: %v %s", out.Verdict, out.Detail)
	}
	notice := norm(out.Mails[0].Text)
	if want := `If you did not ask for this, someone used your address: reply "vacation cancel" to this mail and your clocks run again`; !strings.Contains(notice, want) {
		t.Errorf("the notice does not say how to undo it (%q):\n%s", want, out.Mails[0].Text)
	}
	before := games[0].State.Clock.Deadline(0).Sub(lobbyNow) // carol's time left, White to move in #5

	later := lobbyNow.Add(time.Hour)
	m = &reader.Mail{From: "carol@example.org", MessageID: "<c@example.org>", Subject: "Re: Vacation", Action: "vacation cancel"}
	out = r.Handle(Inbound{Mail: m}, nil, Env{Now: later, Lobby: &Lobby{Allowed: true, Active: map[string]int{}, Games: out.Lobby.Games}})
	if out.Verdict != Applied || out.Lobby == nil {
		t.Fatalf("vacation cancel: %v %s", out.Verdict, out.Detail)
	}
	lc := out.Lobby
	if lc.Vacation == nil || *lc.Vacation != (VacationUse{Address: "carol@example.org", Year: 2026, Days: -2}) {
		t.Errorf("allowance change %+v; want 2 days back (3 taken, 2 whole days not begun)", lc.Vacation)
	}
	if len(lc.Games) != 2 {
		t.Fatalf("%d games changed, want 2", len(lc.Games))
	}
	for _, g := range lc.Games {
		c, _ := g.colorOf("carol@example.org")
		if g.State.Clock.Vacation[c].After(later) {
			t.Errorf("game #%d: still on vacation until %v", g.ID, g.State.Clock.Vacation[c])
		}
	}
	// Game #5: carol is to move; her clock was stopped for the hour of
	// vacation, and runs again with the time she had.
	if got, want := lc.Games[0].State.Clock.Deadline(0).Sub(later), before; got != want {
		t.Errorf("game #5: %v left after the cancel, want %v", got, want)
	}
	if got := strings.Join(mailsTo(out), " "); got != "carol@example.org bob@example.org dan@example.org" {
		t.Errorf("mails to %s; want carol's and one to each opponent", got)
	}
	if text := norm(textOf(t, out.Mails[1])); !strings.Contains(text, "White's vacation is cancelled: their clock runs again.") {
		t.Errorf("bob's mail:\n%s", text)
	}
	if text := norm(out.Mails[0].Text); !strings.Contains(text, "2 vacation days not yet begun went back to your allowance") {
		t.Errorf("carol's mail:\n%s", text)
	}
	// Nothing to cancel any more.
	out = r.Handle(Inbound{Mail: m}, nil, Env{Now: later, Lobby: &Lobby{Allowed: true, Active: map[string]int{}, Games: lc.Games}})
	if out.Verdict != Rejected || !strings.Contains(norm(out.Mails[0].Text), "nothing to cancel") {
		t.Errorf("a second cancel: %v %s", out.Verdict, out.Detail)
	}
}

// TestForgedChallengeNoticeSaysHowToUndo: the "challenge sent" notice goes
// to the From address, the player a forger named: it says how to take the
// challenge back.
func TestForgedChallengeNoticeSaysHowToUndo(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	lb := &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 41, NewSecret: "nnnnnnnnnn", NewSeed: testSeed}
	m := &reader.Mail{From: "carol@example.org", MessageID: "<forged@evil.test>", Subject: "x", Action: "challenge chess bob@example.org"}
	out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
	if out.Verdict != Applied {
		t.Fatalf("challenge: %v %s", out.Verdict, out.Detail)
	}
	for _, ml := range out.Mails {
		if ml.To == "carol@example.org" {
			if want := `If you did not send this challenge, someone used your address: reply "withdraw" to this mail and nobody can accept it.`; !strings.Contains(norm(ml.Text), want) {
				t.Errorf("carol's notice lacks %q:\n%s", want, ml.Text)
			}
			if !strings.Contains(ml.ReplyTo, "referee+i41.nnnnnnnnnn@") {
				t.Errorf("a reply to carol's notice does not reach the challenge: Reply-To %q", ml.ReplyTo)
			}
			return
		}
	}
	t.Fatal("no notice to carol")
}
