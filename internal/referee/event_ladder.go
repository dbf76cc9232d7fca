package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/addr"
)

// ladderCommand answers "ladder NAME ADDRESS" (a challenge) and "ladder
// NAME accept" (the oldest challenge to the sender).
func (r *Referee) ladderCommand(c *call) Outcome {
	e := c.env.Lobby.Event
	if e == nil || !c.visible(e) {
		return r.noEvent(c, "ladder")
	}
	if e.Format != FormatLadder {
		return r.refuseIn(c.env, c.m, fmt.Sprintf("ladder: %s is a %s", e.Name, e.Rules().Title()),
			lang.M("%s is a %s, not a ladder: there is no one to challenge in it.", e.Name, formatTitleText(e.Rules().Title())),
			lang.M("Send \"standings %s\" for where it stands.", e.Name))
	}
	seat := e.Seat(c.m.From)
	if seat == 0 || e.Status != EventRunning {
		return r.refuseIn(c.env, c.m, fmt.Sprintf("ladder %s: %s not on it", e.Name, c.m.From),
			lang.M("You are not on the ladder %s, or it is not running.", e.Name),
			lang.M("Send \"join %s\" to join it at the bottom, then challenge.", e.Name))
	}
	if len(c.args) < 2 {
		return r.refuseIn(c.env, c.m, "ladder: no address", lang.M("\"ladder %s\" needs whom you challenge, or \"accept\".", e.Name),
			lang.M("Send \"ladder %[1]s their@address\" to challenge, or \"ladder %[1]s accept\" to take a challenge to you; "+
				"\"standings %[1]s\" shows the ladder.", e.Name))
	}
	s := e.ladderOf().Settings.WithDefaults()
	sp := r.senderPrinter(c.env)
	if strings.EqualFold(c.args[1], "accept") {
		for _, ch := range e.ladderOf().Challenges {
			if ch.Challenged == seat && ch.Pending() {
				text := sp.Sprintf("You accepted %s's challenge on %s. One mail lists the two games, then each game's opening mail follows.",
					e.Players[ch.Challenger-1].playing(), e.Name)
				if s.Games == 1 {
					text = sp.Sprintf("You accepted %s's challenge on %s. One mail lists the game, then each game's opening mail follows.",
						e.Players[ch.Challenger-1].playing(), e.Name)
				}
				return Outcome{Verdict: Applied, Detail: fmt.Sprintf("ladder %s: %s accepts challenge %d", e.Name, c.m.From, ch.ID),
					Lobby: &LobbyChange{Ladder: &LadderChange{Event: e.Name, Accept: ch.ID}},
					Mails: []Mail{r.lobbyLetterIn(sp, c.m, c.env.Now, "ladder", sp.Sprintf("You accepted the challenge"), wrap(text), "", "")}}
			}
		}
		return r.refuseIn(c.env, c.m, fmt.Sprintf("ladder %s: nothing to accept", e.Name),
			lang.M("No challenge to you on %s waits for your answer.", e.Name), lang.M("\"standings %s\" shows the ladder.", e.Name))
	}
	target := e.Seat(c.args[1])
	if target == 0 {
		return r.refuseIn(c.env, c.m, fmt.Sprintf("ladder %s: %s not on it", e.Name, c.args[1]),
			lang.M("%s is not on the ladder %s.", c.args[1], e.Name), lang.M("\"standings %s\" shows who is.", e.Name))
	}
	if why := e.LadderChallengeRefusal(seat, target); why != nil {
		return r.refuseIn(c.env, c.m, "ladder "+e.Name+": "+why.In(nil), lang.M("You cannot challenge %s now: %s.", c.args[1], why),
			lang.M("\"standings %s\" shows the ladder and who is playing whom.", e.Name))
	}
	opp := e.Players[target-1].playing()
	deadline := LadderChallenge{Created: c.env.Now}.Deadline(s)
	mine := sp.Sprintf("You challenged %s on %s. They have until %s to accept; if they do not, you take their place as if you had won.",
		opp, e.Name, dateFor(sp, deadline, time.UTC))
	// The challenged is told in their language.
	p := r.printerOfSeat(e, target)
	follow := p.Sprintf("two games, colours swapped, follow")
	if s.Games == 1 {
		follow = p.Sprintf("one game follows")
	}
	theirs := p.Sprintf("%[1]s challenges you on the ladder %[2]s. To accept, send \"ladder %[2]s accept\" to %[3]s by %[4]s: %[5]s, "+
		"with the event's time control. If you do not accept in time you lose the challenge, and %[1]s takes your place.",
		e.Players[seat-1].playing(), e.Name, r.cfg.Address, dateFor(p, deadline, time.UTC), follow)
	notice := Mail{Kind: KindNotice, To: opp, Subject: p.Sprintf("[%s] %s challenges you", e.Name, e.Players[seat-1].playing()),
		Text: wrap(theirs) + "\n" + lobbyFooterIn(p, r.cfg.Address), Date: c.env.Now,
		MessageID: r.messageID("ladder-challenge", e.Name, addr.Mailbox(opp), fmt.Sprint(seat), c.env.Now.UTC().String())}
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("ladder %s: %s challenges %s", e.Name, c.m.From, opp),
		Lobby: &LobbyChange{Ladder: &LadderChange{Event: e.Name, Challenger: seat, Challenged: target}},
		Mails: []Mail{r.lobbyLetterIn(sp, c.m, c.env.Now, "ladder", sp.Sprintf("You challenged %s", opp), wrap(mine), "", ""), notice}}
}

// LadderExpiredMails tell both players that challenge c was not accepted
// in time: the challenger takes the challenged's place.
func (r *Referee) LadderExpiredMails(e *Event, c LadderChallenge, now time.Time) []Mail {
	er, ed := e.Players[c.Challenger-1].playing(), e.Players[c.Challenged-1].playing()
	pr, pd := r.printerOfSeat(e, c.Challenger), r.printerOfSeat(e, c.Challenged)
	var out []Mail
	for _, m := range []struct {
		to   string
		p    *lang.Printer
		text string
	}{
		{er, pr, pr.Sprintf("%s did not accept your challenge on %s in time: you take their place, as if you had won.", ed, e.Name)},
		{ed, pd, pd.Sprintf("You did not accept %s's challenge on %s in time: they take your place, and you and everyone between "+
			"move down one.", er, e.Name)},
	} {
		out = append(out, Mail{Kind: KindNotice, To: m.to, Subject: m.p.Sprintf("[%s] Challenge %d not accepted in time", e.Name, c.ID),
			Text: wrap(m.text) + "\n\n" + wrap(m.p.Sprintf("Send \"standings %s\" for the ladder.", e.Name)) + "\n" + lobbyFooterIn(m.p, r.cfg.Address),
			Date: now, MessageID: r.messageID("ladder-expired", e.Name, fmt.Sprint(c.ID), addr.Mailbox(m.to))})
	}
	return out
}

// LadderDropMail tells a player they dropped to the bottom for idleness.
func (r *Referee) LadderDropMail(e *Event, seat int, now time.Time) Mail {
	to := e.Players[seat-1].playing()
	p := r.printerOfSeat(e, seat)
	text := p.Sprintf("You have had no game on the ladder %[2]s for %[1]d weeks: you drop to the bottom, as its rules say. "+
		"Challenge someone above you (\"ladder %[2]s ADDRESS\") to climb again.", e.ladderOf().Settings.IdleWeeks, e.Name)
	return Mail{Kind: KindNotice, To: to, Subject: p.Sprintf("[%s] You drop to the bottom of the ladder", e.Name),
		Text: wrap(text) + "\n" + lobbyFooterIn(p, r.cfg.Address), Date: now,
		MessageID: r.messageID("ladder-drop", e.Name, fmt.Sprint(seat), now.UTC().String())}
}
