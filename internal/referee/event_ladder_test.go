package referee

import (
	"strings"
	"testing"
	"time"
)

const (
	ann = "ann@example.org"
	ben = "ben@example.org"
)

// club is a running ladder of chess whose players joined one a day in the
// order given, so that the ladder is that order from the top; the
// challenges are its record.
func club(players []string, challenges ...LadderChallenge) *Event {
	e := &Event{Name: "club", Variant: "chess", Format: FormatLadder, TimeControl: "3d", Status: EventRunning, Rated: true, Entry: "open",
		Ladder: &Ladder{Settings: LadderSettings{}.WithDefaults(), Challenges: challenges}}
	for i, p := range players {
		e.Players = append(e.Players, EventPlayer{Seat: i + 1, Address: p, Joined: lobbyNow.Add(time.Duration(i-30) * Day)})
	}
	return e
}

// TestLadderCommand: "ladder NAME ADDRESS" challenges a player at most
// the ladder's reach above the sender, telling both (the challenged with
// the deadline to accept and how many games follow); "ladder NAME accept"
// takes the oldest challenge waiting for the sender's answer. Refused,
// changing nothing: a player below, too far above, the sender themselves,
// anyone not on the ladder or withdrawn from it, a player with as many
// challenges as the ladder allows, a pair with a challenge undecided; an
// accept with nothing to accept; a sender not on a running ladder; an
// event that is no ladder.
func TestLadderCommand(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	five := []string{ann, ben, carol, dan, erin} // places 1 to 5
	const deadline = "Mon 30 Nov 2026 10:00 UTC" // lobbyNow and 7 days
	challenged := func(challenger, target int) *LobbyChange {
		return &LobbyChange{Ladder: &LadderChange{Event: "club", Challenger: challenger, Challenged: target}}
	}
	at := func(d int) *time.Time { t := lobbyNow.Add(time.Duration(d) * Day); return &t }
	pending := func(id int64, challenger, target int) LadderChallenge {
		return LadderChallenge{ID: id, Challenger: challenger, Challenged: target, Created: lobbyNow.Add(time.Duration(id-10) * time.Hour)}
	}
	twoGames := club(five)
	twoGames.Ladder.Settings.Games, twoGames.Ladder.Settings.AcceptDays = 2, 3
	withdrawn := club(five)
	withdrawn.Players[0].Withdrawn = WithdrawnLost
	closed := club(five)
	closed.Status = EventClosed
	// ann has: an accepted challenge of dan's, one of her own to ben,
	// one of erin's that expired, then carol's (7) and erin's (8).
	accepted := pending(5, 4, 1)
	accepted.Accepted = at(-1)
	expired := pending(6, 5, 1)
	expired.Expired = at(-1)
	toAnn := club(five, accepted, pending(4, 1, 2), expired, pending(7, 3, 1), pending(8, 5, 1))
	toAnn.Ladder.Settings.MaxGames = 5
	tests := []eventCase{
		{name: "two places up", line: "ladder club ann@example.org", event: club(five), verdict: Applied,
			detail: "ladder club: carol@example.org challenges ann@example.org", subject: "You challenged ann@example.org",
			change: challenged(3, 1), mails: 2,
			says: []string{"You challenged ann@example.org on club. They have until " + deadline + " to accept; if they do not, " +
				"you take their place as if you had won."}},
		{name: "the reach exactly", from: dan, line: "ladder club ann@example.org", event: club(five), verdict: Applied,
			detail: "ladder club: dan@example.org challenges ann@example.org", change: challenged(4, 1), mails: 2},
		{name: "beyond the reach", from: erin, line: "ladder club ann@example.org", event: club(five), verdict: Rejected,
			detail: "ladder club: ann@example.org is 4 places above you (place 1, you are 5), and this ladder lets you challenge at most 3 places up",
			says: []string{"You cannot challenge ann@example.org now: ann@example.org is 4 places above you (place 1, you are 5), " +
				"and this ladder lets you challenge at most 3 places up.", `"standings club" shows the ladder and who is playing whom.`}},
		{name: "below", line: "ladder club dan@example.org", event: club(five), verdict: Rejected,
			detail: "ladder club: dan@example.org is below you (place 4, you are 3): challenge players above you"},
		{name: "oneself", line: "ladder club carol@example.org", event: club(five), verdict: Rejected,
			detail: "ladder club: you cannot challenge yourself", says: []string{"You cannot challenge carol@example.org now: you cannot challenge yourself."}},
		{name: "a player who withdrew", line: "ladder club ann@example.org", event: withdrawn, verdict: Rejected,
			detail: "ladder club: ann@example.org is not on the ladder"},
		{name: "no one of the ladder", line: "ladder club zed@example.org", event: club(five), verdict: Rejected,
			detail: "ladder club: zed@example.org not on it",
			says:   []string{"zed@example.org is not on the ladder club.", `"standings club" shows who is.`}},
		{name: "the sender at the most challenges", line: "ladder club ann@example.org", event: club(five, pending(1, 3, 2), pending(2, 4, 3)),
			verdict: Rejected, detail: "ladder club: you have 2 challenges pending or in play, the most this ladder allows"},
		{name: "the challenged at the most challenges", line: "ladder club ann@example.org", event: club(five, pending(1, 2, 1), pending(2, 4, 1)),
			verdict: Rejected, detail: "ladder club: ann@example.org has 2 challenges pending or in play, the most this ladder allows"},
		{name: "a challenge between them undecided", line: "ladder club ben@example.org", event: club(five, pending(1, 3, 2)),
			verdict: Rejected, detail: "ladder club: a challenge between you and ben@example.org is not decided yet"},
		{name: "no address", line: "ladder club", event: club(five), verdict: Rejected, detail: "ladder: no address",
			says: []string{`"ladder club" needs whom you challenge, or "accept".`,
				`Send "ladder club their@address" to challenge, or "ladder club accept" to take a challenge to you; "standings club" shows the ladder.`}},
		{name: "accept the oldest challenge waiting", from: ann, line: "ladder club accept", event: toAnn, verdict: Applied,
			detail: "ladder club: ann@example.org accepts challenge 7", subject: "You accepted the challenge",
			change: &LobbyChange{Ladder: &LadderChange{Event: "club", Accept: 7}},
			says:   []string{"You accepted carol@example.org's challenge on club. One mail lists the game, then each game's opening mail follows."}},
		{name: "accept a challenge of two games", from: ann, line: "ladder club accept", event: func() *Event {
			e := club(five, pending(7, 3, 1))
			e.Ladder.Settings.Games = 2
			return e
		}(), verdict: Applied, detail: "ladder club: ann@example.org accepts challenge 7",
			change: &LobbyChange{Ladder: &LadderChange{Event: "club", Accept: 7}}, says: []string{"One mail lists the two games"}},
		{name: "nothing to accept", from: dan, line: "ladder club accept", event: toAnn, verdict: Rejected,
			detail: "ladder club: nothing to accept",
			says:   []string{"No challenge to you on club waits for your answer.", `"standings club" shows the ladder.`}},
		{name: "not on the ladder", from: "gil@example.org", line: "ladder club ann@example.org", event: club(five), verdict: Rejected,
			detail: "ladder club: gil@example.org not on it",
			says:   []string{"You are not on the ladder club, or it is not running.", `Send "join club" to join it at the bottom, then challenge.`}},
		{name: "a closed ladder", line: "ladder club ann@example.org", event: closed, verdict: Rejected,
			detail: "ladder club: carol@example.org not on it"},
		{name: "no ladder", line: "ladder autumn dan@example.org", event: autumn(EventRunning, carol, dan, erin), verdict: Rejected,
			detail: "ladder: autumn is a round robin",
			says:   []string{"autumn is a round robin, not a ladder: there is no one to challenge in it.", `Send "standings autumn" for where it stands.`}},
		{name: "no such event", line: "ladder club ann@example.org", verdict: Rejected,
			detail: "event: ladder club: no such event for carol@example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, r) })
	}

	// The challenged is told who challenges them, by when and where to
	// accept, and what follows; the deadline is the ladder's.
	for _, tt := range []struct {
		name string
		e    *Event
		want string
	}{
		{"one game", club(five), "carol@example.org challenges you on the ladder club. To accept, send \"ladder club accept\" to " +
			"referee@example.test by " + deadline + ": one game follows, with the event's time control. If you do not accept in time " +
			"you lose the challenge, and carol@example.org takes your place."},
		{"two games, three days", twoGames, "by Thu 26 Nov 2026 10:00 UTC: two games, colours swapped, follow, with the event's time control."},
	} {
		t.Run("the notice: "+tt.name, func(t *testing.T) {
			out := eventCase{line: "ladder club ann@example.org", event: tt.e, verdict: Applied,
				detail: "ladder club: carol@example.org challenges ann@example.org", change: challenged(3, 1), mails: 2}.run(t, r)
			m := out.Mails[1]
			if m.Kind != KindNotice || m.To != ann || m.Subject != "[club] carol@example.org challenges you" {
				t.Errorf("the notice: %s to %s, %q", m.Kind, m.To, m.Subject)
			}
			if !strings.Contains(norm(m.Text), norm(tt.want)) {
				t.Errorf("the notice does not say %q:\n%s", tt.want, m.Text)
			}
		})
	}
}

// TestLadderExpiredMails: a challenge not accepted in time is told to
// both players, each in their own words: the challenger takes the place.
// A seat's substitute is told, not the player they replaced.
func TestLadderExpiredMails(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := club([]string{ann, ben, carol})
	e.Players[0].ReplacedBy = "zoe@example.org"
	c := LadderChallenge{ID: 7, Challenger: 3, Challenged: 1, Created: lobbyNow.Add(-8 * Day)}
	mails := r.LadderExpiredMails(e, c, lobbyNow)
	footer := "\n-- \nThe referee at referee@example.test. Send \"help\" to it for how to play.\n"
	want := []struct{ to, text string }{
		{carol, "zoe@example.org did not accept your challenge on club in time: you take\ntheir place, as if you had won.\n\n" +
			"Send \"standings club\" for the ladder.\n" + footer},
		{"zoe@example.org", "You did not accept carol@example.org's challenge on club in time: they\ntake your place, and you and " +
			"everyone between move down one.\n\nSend \"standings club\" for the ladder.\n" + footer},
	}
	if len(mails) != len(want) {
		t.Fatalf("mails to %v, want to carol and zoe", mailsTo(Outcome{Mails: mails}))
	}
	for i, w := range want {
		m := mails[i]
		if m.Kind != KindNotice || m.To != w.to || m.Subject != "[club] Challenge 7 not accepted in time" || !m.Date.Equal(lobbyNow) || m.Text != w.text {
			t.Errorf("mail %d: %s to %s, %q:\n%s\nwant to %s:\n%s", i, m.Kind, m.To, m.Subject, m.Text, w.to, w.text)
		}
	}
	if mails[0].MessageID == mails[1].MessageID {
		t.Error("the two mails share a Message-ID")
	}
}

// TestLadderDropMail: a player idle for the ladder's weeks is told they
// drop to the bottom, and how to climb again.
func TestLadderDropMail(t *testing.T) {
	r := lobbyReferee(t, LobbyConfig{})
	e := club([]string{ann, ben, carol})
	e.Ladder.Settings.IdleWeeks = 6
	m := r.LadderDropMail(e, 2, lobbyNow)
	want := "You have had no game on the ladder club for 6 weeks: you drop to the\nbottom, as its rules say. Challenge someone above you " +
		"(\"ladder club\nADDRESS\") to climb again.\n\n-- \nThe referee at referee@example.test. Send \"help\" to it for how to play.\n"
	if m.Kind != KindNotice || m.To != ben || m.Subject != "[club] You drop to the bottom of the ladder" || !m.Date.Equal(lobbyNow) || m.Text != want {
		t.Errorf("%s to %s, %q:\n%s\nwant to %s:\n%s", m.Kind, m.To, m.Subject, m.Text, ben, want)
	}
}
