package referee

import (
	"fmt"

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
	no := func(detail, what, todo string) Outcome {
		return r.refuse(c.env, m, "rematch: "+detail, fmt.Sprintf("Your rematch of game #%d was not offered: %s", g.ID, what), todo)
	}
	if !lb.Allowed {
		return no("sender not allowed under --players "+string(r.lobbyCfg().Players), r.policyText(m.From), r.policyTodo())
	}
	if !r.offers(g.Variant) {
		return no("variant "+g.Variant.Name()+" not offered", g.Variant.Title()+" is not offered by mail here any more.",
			"Challenge "+opp.Address+" to one of "+r.offeredNames()+": "+challengeSyntax+".")
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
	lead := fmt.Sprintf("After game #%d of %s (%s), %s asks you for a rematch with the colours swapped.",
		g.ID, g.Variant.Title(), resultText(nil, g), me.Address)
	return r.offer(c, ch, g.Variant, no, []string{lead})
}

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
