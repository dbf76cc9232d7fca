package referee

import (
	"strings"
	"testing"
	"time"

	"referee/internal/mail/reader"
)

// TestInvitationsPerInvitedAddress: issue 28, "no one is mailed without
// limit". The invitations to one address are capped over all challengers
// (a forged From is a new challenger each time), and an address that
// answered "stop" gets none.
func TestInvitationsPerInvitedAddress(t *testing.T) {
	tests := []struct {
		name   string
		lobby  func(lb *Lobby)
		want   Verdict
		says   string
		invite bool
	}{
		{name: "two invitations today: a third goes out", lobby: func(lb *Lobby) { lb.OpponentInvites = 2 }, want: Applied, invite: true,
			says: "bob@example.org is invited"},
		{name: "three today, from anyone: refused until a day after the oldest",
			lobby: func(lb *Lobby) { lb.OpponentInvites, lb.OpponentInvitesSince = 3, lobbyNow.Add(-5*time.Hour) }, want: Rejected,
			says: "bob@example.org was sent 3 invitations in the last 24 hours, the most the referee sends one address in a day. " +
				"You can invite them after Tue 24 Nov 2026 05:00 UTC."},
		{name: "stopped", lobby: func(lb *Lobby) { lb.OpponentStopped = true }, want: Rejected,
			says: "bob@example.org asked the referee to pass on no invitations to them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{Players: PlayersOpen})
			lb := &Lobby{Allowed: true, Active: map[string]int{}, NextChallengeID: 41, NewSecret: "nnnnnnnnnn", NewSeed: testSeed}
			tt.lobby(lb)
			m := &reader.Mail{From: "forged@evil.test", MessageID: "<c1@evil.test>", Subject: "x", Action: "challenge chess bob@example.org"}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			invited := false
			for _, ml := range out.Mails {
				if ml.To == "bob@example.org" {
					invited = true
					if !strings.Contains(norm(ml.Text), `To receive no more invitations through this referee, from anyone, reply "stop" (at most 3 reach one address in a day).`) {
						t.Errorf("the invitation does not offer \"stop\":\n%s", ml.Text)
					}
				}
				if ml.To == "forged@evil.test" && !strings.Contains(norm(ml.Text), norm(tt.says)) {
					t.Errorf("the challenger's mail lacks %q:\n%s", tt.says, ml.Text)
				}
			}
			if invited != tt.invite {
				t.Errorf("invitation sent: %v, want %v", invited, tt.invite)
			}
		})
	}
}

// TestStopAndStart: "stop" in a reply to an invitation puts the invited
// address on the stop list and declines the invitation; only the invited
// can say it; "start" from the address takes it off.
func TestStopAndStart(t *testing.T) {
	tests := []struct {
		name    string
		from    string
		line    string
		invite  bool // a reply to invitedBob's invitation
		stopped bool // the sender is on the stop list
		want    Verdict
		stop    *StopChange
		closes  bool
		says    string
		// proof: the mail carries the proof token of "start" for this
		// address, made for the stop of proofSince (zero: the stop's).
		proof      string
		proofSince time.Time
	}{
		{name: "bob stops", from: "bob@example.org", line: "stop", invite: true, want: Applied,
			stop: &StopChange{Address: "bob@example.org", Stop: true, ChallengeID: 7}, closes: true,
			says: `will pass on no more invitations to bob@example.org, from anyone; the invitation you replied to is declined. ` +
				`To receive invitations again, send "start" to referee@example.test from this address, then reply "start" to the referee's answer.`},
		{name: "bob's plus-address stops bob", from: "Bob+chess@example.org", line: "unsubscribe", invite: true, want: Applied,
			stop: &StopChange{Address: "bob@example.org", Stop: true, ChallengeID: 7}, closes: true, says: "no more invitations"},
		{name: "the challenger cannot stop", from: "carol@example.org", line: "stop", invite: true, want: Rejected,
			says: "it stops the referee sending you invitations"},
		{name: "someone else with bob's invitation", from: "eve@example.org", line: "stop", invite: true, want: Rejected,
			says: "could not be tied to an invitation for you"},
		{name: "stop without an invitation", from: "bob@example.org", line: "stop", want: Rejected, says: "not a reply to an invitation"},
		// Issue 38: "start" takes only a From, which anyone can forge: the
		// referee asks the address itself, and a reply to that request
		// (its proof token, from the stopped address) takes it off.
		{name: "start after stop asks the address", from: "bob@example.org", line: "start", stopped: true, want: Answered,
			says: `received "start" from this address, which asked on Sun 22 Nov 2026 08:00 UTC to receive no invitations. ` +
				`Anyone can put another's address on a mail, so the referee acts only on a reply to this mail`},
		{name: "start in a reply to the request", from: "bob@example.org", line: "start", stopped: true, proof: "bob@example.org", want: Applied,
			stop: &StopChange{Address: "bob@example.org"}, says: "passes on invitations to bob@example.org again"},
		{name: "start with another address's proof", from: "bob@example.org", line: "start", stopped: true, proof: "eve@example.org", want: Answered,
			says: "acts only on a reply to this mail"},
		{name: "start with the proof of an older stop", from: "bob@example.org", line: "start", stopped: true, proof: "bob@example.org",
			proofSince: lobbyNow.Add(-10 * Day), want: Answered, says: "acts only on a reply to this mail"},
		{name: "start when not stopped", from: "bob@example.org", line: "start", want: Answered, says: "is not on the referee's stop list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lobbyReferee(t, LobbyConfig{})
			since := lobbyNow.Add(-26 * time.Hour)
			lb := &Lobby{Allowed: true, Active: map[string]int{}, SenderStopped: tt.stopped, SenderStoppedSince: since}
			m := &reader.Mail{From: tt.from, MessageID: "<s1@example.org>", Subject: "Re: invitation", Action: tt.line}
			if tt.proof != "" {
				if !tt.proofSince.IsZero() {
					since = tt.proofSince
				}
				m.Proof = r.proofSecret(tt.proof, startProof(since)...)
			}
			if tt.invite {
				ch := invitedBob()
				lb.Challenge = ch
				inv := ch.Invite()
				m.Invite = &inv
			}
			out := r.Handle(Inbound{Mail: m}, nil, Env{Now: lobbyNow, Lobby: lb})
			if out.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", out.Verdict, out.Detail, tt.want)
			}
			if len(out.Mails) == 0 || out.Mails[0].To != tt.from || !strings.Contains(norm(out.Mails[0].Text), norm(tt.says)) {
				t.Fatalf("the first mail does not answer %s with %q: %+v", tt.from, tt.says, out.Mails)
			}
			var got *StopChange
			closes := false
			if out.Lobby != nil {
				got = out.Lobby.Stop
				closes = out.Lobby.Close != nil && out.Lobby.Close.Status == ChallengeDeclined
			}
			if tt.want == Answered && tt.stopped {
				// The request for proof: to the sender alone, a stranger's
				// answer, with the proof in its reply address.
				ml := out.Mails[0]
				want := "referee+" + reader.ProofToken(r.proofSecret(tt.from, startProof(lb.SenderStoppedSince)...)) + "@example.test"
				if len(out.Mails) != 1 || ml.Kind != KindProof || ml.ReplyTo != want {
					t.Errorf("the request for proof: %d mails, kind %s, Reply-To %s; want one %s mail replying to %s", len(out.Mails), ml.Kind, ml.ReplyTo, KindProof, want)
				}
			}
			if (got == nil) != (tt.stop == nil) || got != nil && *got != *tt.stop {
				t.Errorf("stop change %+v, want %+v", got, tt.stop)
			}
			if closes != tt.closes {
				t.Errorf("declines the invitation: %v, want %v", closes, tt.closes)
			}
			if tt.closes && (len(out.Mails) != 2 || out.Mails[1].To != "carol@example.org" || !strings.Contains(out.Mails[1].Text, "declined your challenge 7")) {
				t.Errorf("carol is not told her invitation was declined: %+v", mailsTo(out))
			}
		})
	}
}
