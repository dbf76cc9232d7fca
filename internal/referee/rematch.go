package referee

import (
	"referee/internal/lang"
	"referee/internal/mail/reader"
	"referee/internal/rules"
)

// rematch offers the opponent of a finished game a new game of the same
// variant and time control, with the colours swapped: a challenge to them
// through the lobby's machinery (offer, with its limits), which they take
// by replying "accept" to its invitation.
func (r *Referee) rematch(c *call) Outcome {
	g, m, lb, now := c.g, c.m, c.env.Lobby, c.env.Now
	me, opp := g.Players[c.color], g.Players[c.color.Other()]
	no := func(detail string, what, todo lang.Text) Outcome {
		return r.refuseIn(c.env, m, "rematch: "+detail, lang.M("Your rematch of game #%d was not offered: %s", g.ID, what), todo)
	}
	if !lb.Allowed {
		return no("sender not allowed under --players "+string(r.lobbyCfg().Players), r.policyText(m.From), r.policyTodo())
	}
	if !r.offers(g.Variant) {
		return no("variant "+g.Variant.Name()+" not offered", lang.M("%s is not offered by mail here any more.", titleText{g.Variant}),
			lang.M("Challenge %s to one of %s: %s.", opp.Address, r.offeredNames(), challengeSyntax()))
	}
	ch := Challenge{ID: lb.NextChallengeID, Challenger: me.Address, Opponent: opp.Address, Variant: g.Variant.Name(), Rated: g.Rated,
		Color: "white", Secret: lb.NewSecret, Status: ChallengeOpen, Created: now, Expires: now.Add(r.lobbyCfg().InviteTTL),
		Private: g.State.Private}
	if c.color == rules.White {
		ch.Color = "black"
	}
	if g.State.Clock != nil {
		ch.TimeControl = g.State.Clock.Control
	}
	lead := lang.M("After game #%d %s (%s), %s asks you for a rematch with the colours swapped.",
		g.ID, ofGameText{g.Variant}, resultWordsOf{g}, me.Address)
	return r.offer(c, ch, g.Variant, no, []lang.Text{lead})
}

// resultWordsOf is how g ended (resultText), written later in the
// reader's language.
type resultWordsOf struct{ g *Game }

// In is the result in p's language.
func (t resultWordsOf) In(p *lang.Printer) string { return resultText(p, t.g) }

// rematchOpponent is the other player of the game m replies to.
func rematchOpponent(_ []string, g *Game, m *reader.Mail) string {
	if g == nil || m == nil || m.Token == nil {
		return ""
	}
	c, ok := g.PlayerOf(m.Token.Secret)
	if !ok {
		return ""
	}
	return g.Players[c.Other()].Address
}
