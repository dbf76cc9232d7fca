package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
	"referee/internal/timecontrol"
)

// The lobby's texts: the mails and answers the lobby's decisions
// (lobby_decide.go) send, and the help outside a game.

// challengeSentLetter tells the challenger that ch is on its way to its
// opponent, or listed as an open challenge; a reply "withdraw" to it takes
// it back.
func (r *Referee) challengeSentLetter(m *reader.Mail, ch *Challenge, v rules.Variant, now time.Time, zone string) Mail {
	reply := addr.Plus(r.cfg.Address, ch.Invite().String())
	var b strings.Builder
	if ch.Opponent != "" {
		fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("Your challenge %d is on its way: %s is invited to a game of %s (%s) against you. You play %s.",
			ch.ID, ch.Opponent, v.Title(), controlText(ch.TimeControl), colorWord(ch.Color))))
		fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("The referee will tell you when %s accepts or declines. The invitation expires on %s.", ch.Opponent, dateIn(zone, ch.Expires))))
	} else {
		fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("Your open challenge %d is listed: a game of %s (%s); you play %s. "+
			"The first player who accepts it gets the game. It stays open until %s.",
			ch.ID, v.Title(), controlText(ch.TimeControl), colorWord(ch.Color), dateIn(zone, ch.Expires))))
		fmt.Fprintf(&b, "Players who send \"open\" to %s see it. To invite a friend,\ngive them this address: a mail to it saying \"accept\" takes the challenge.\n\n    %s\n\n",
			r.cfg.Address, reply)
		if need := r.takerNeeds(); need != "" {
			b.WriteString(wrap(need) + "\n\n")
		}
	}
	b.WriteString(colourDraw(ch))
	b.WriteString(wrap("To take it back, reply \"withdraw\" to this mail. If you did not send this challenge, someone used "+
		"your address: reply \"withdraw\" to this mail and nobody can accept it.") + "\n")
	return r.lobbyLetter(m, now, "challenge-sent", fmt.Sprintf("Challenge %d: %s", ch.ID, v.Title()), b.String(), reply, "")
}

// withdrawnMails tell the challenger that ch is withdrawn, and its
// opponent, if it named one, that there is nothing to answer.
func (r *Referee) withdrawnMails(m *reader.Mail, ch *Challenge, v rules.Variant, now time.Time) []Mail {
	out := []Mail{r.lobbyLetter(m, now, "withdrawn", fmt.Sprintf("Challenge %d withdrawn", ch.ID),
		wrap(fmt.Sprintf("Your challenge %d (%s) is withdrawn; nobody can accept it any more.", ch.ID, v.Title()))+"\n", "", "")}
	if ch.Opponent != "" {
		out = append(out, r.noticeMail(ch.Opponent, now, fmt.Sprintf("withdrawn-%d", ch.ID),
			fmt.Sprintf("%s withdrew the invitation to %s", ch.Challenger, v.Title()),
			fmt.Sprintf("%s withdrew their invitation to a game of %s: there is nothing to answer.", ch.Challenger, v.Title())))
	}
	return out
}

// declinedMails tell the invited player that they declined ch, and the
// challenger when they may invite them again.
func (r *Referee) declinedMails(m *reader.Mail, ch *Challenge, v rules.Variant, now time.Time) []Mail {
	return []Mail{
		r.lobbyLetter(m, now, "declined", fmt.Sprintf("You declined the game of %s", v.Title()),
			wrap(fmt.Sprintf("You declined %s's invitation to a game of %s. %s is told, and cannot invite you again for a day.",
				ch.Challenger, v.Title(), ch.Challenger))+"\n", "", ""),
		r.noticeMail(ch.Challenger, now, fmt.Sprintf("declined-%d", ch.ID),
			fmt.Sprintf("%s declined your challenge to %s", ch.Opponent, v.Title()),
			fmt.Sprintf("%s declined your challenge %d to a game of %s. You can invite them again after %s.",
				ch.Opponent, ch.ID, v.Title(), dateText(now.Add(Day)))),
	}
}

// invitationMail invites the opponent; its reply address and Message-ID
// carry the invitation token.
func (r *Referee) invitationMail(ch *Challenge, v rules.Variant, now time.Time, zone string, lead ...string) Mail {
	var b strings.Builder
	for _, p := range lead {
		b.WriteString(wrap(p) + "\n\n")
	}
	fmt.Fprintf(&b, "%s\n\n", wrap(fmt.Sprintf("%s invites you to a game of %s by mail, refereed by %s. "+
		"Time control: %s. %s plays %s. %s", ch.Challenger, v.Title(), r.cfg.Address, controlText(ch.TimeControl), ch.Challenger, colorWord(ch.Color),
		ratedSentence(ch.Rated))))
	b.WriteString(colourDraw(ch))
	fmt.Fprintf(&b, "To accept, reply to this mail with \"accept\" on the first line;\nto decline, reply \"decline\".\n\n%s\n\n", wrap("The invitation expires on "+dateIn(zone, ch.Expires)+"."))
	fmt.Fprintf(&b, "The rules in short:\n%s\n\n", wrap(render.Summary(v)))
	b.WriteString(wrap("If you do not know "+ch.Challenger+", ignore this mail: nothing happens, and "+
		"the referee will not pass on another invitation from them for a day after this one expires.") + "\n\n")
	b.WriteString(wrap(fmt.Sprintf("To receive no more invitations through this referee, from anyone, reply \"stop\" "+
		"(at most %d reach one address in a day).", r.lobbyCfg().MaxInvitesPerAddress)) + "\n")
	inv := ch.Invite()
	return Mail{
		Kind:      KindInvitation,
		To:        ch.Opponent,
		Subject:   fmt.Sprintf("%s invites you to a game of %s", ch.Challenger, v.Title()),
		ReplyTo:   addr.Plus(r.cfg.Address, inv.String()),
		MessageID: inv.MessageID(r.nonce("invite", fmt.Sprint(ch.ID)), r.domain()),
		Text:      b.String() + lobbyFooter(r.cfg.Address),
		Date:      now,
	}
}

// ratedSentence says whether a challenge's game would be rated.
func ratedSentence(rated bool) string {
	if rated {
		return "The game is rated: its result counts for both players' ratings."
	}
	return "The game is casual: its result changes no rating."
}

// colourDraw is the paragraph of a challenge's mails that commits to the
// seed its random colour is drawn from ("" for a chosen colour).
func colourDraw(ch *Challenge) string {
	com := ch.seedCommitment()
	if com == "" {
		return ""
	}
	return wrap("The colour is drawn from a random seed fixed now, whose SHA-256 is:") + "\n\n    " + com + "\n\n" +
		wrap("The game's first mail reveals the seed, so that either player can check the draw (the referee's docs/dice.md, "+
			"\"The colour of a challenge\").") + "\n\n"
}

// colourReveal says how the colours of ch were drawn, with the seed: the
// game's first mails carry it ("" for a chosen colour).
func colourReveal(ch *Challenge) string {
	com := ch.seedCommitment()
	if com == "" {
		return ""
	}
	seed, _ := dice.ParseSeed(ch.Seed)
	_, first := dice.ChallengeColour(seed, ch.ID)
	parity, col := "even", rules.White
	if first&1 == 1 {
		parity, col = "odd", rules.Black
	}
	return fmt.Sprintf("The colours were drawn at random. The seed is %s; its SHA-256 is %s, as the invitation said. "+
		"HMAC-SHA256(seed, \"%s\") begins with the byte %d, which is %s, so the challenger, %s, plays %s "+
		"(the referee's docs/dice.md, \"The colour of a challenge\").",
		seed.Hex(), com, dice.ChallengeColourMessage(ch.ID), first, parity, ch.Challenger, col)
}

// ChallengeStarted is the notice to the challenger that ch was accepted
// and is game g, followed by the game's opening mails (opening, from
// Start), which reveal the colour seed of a random draw.
func (r *Referee) ChallengeStarted(ch Challenge, g *Game, now time.Time, opening []Mail) []Mail {
	c := rules.White
	if !addr.SameMailbox(g.Players[0].Address, ch.Challenger) {
		c = rules.Black
	}
	opp := g.Players[c.Other()].Address
	n := r.noticeMail(ch.Challenger, now, fmt.Sprintf("accepted-%d", ch.ID),
		fmt.Sprintf("%s accepted your challenge: game #%d", opp, g.ID),
		fmt.Sprintf("%s accepted your challenge %d: game #%d, %s (%s), has started, and you play %s. "+
			"The referee's first mail for the game follows; reply to it with your moves.",
			opp, ch.ID, g.ID, g.Variant.Title(), controlText(ch.TimeControl), c))
	// One of the game's opening mails: the outbox sends it with them,
	// before them (it is queued first).
	n.Kind = KindOpening
	out := []Mail{n}
	reveal := colourReveal(&ch)
	for _, m := range opening {
		if reveal != "" && m.Board != nil {
			b := *m.Board
			b.Sections = append(append([]render.Section(nil), b.Sections...), render.Section{Title: "The colours", Body: reveal})
			m.Board = &b
		}
		out = append(out, m)
	}
	return out
}

// ExpireChallenge is the notice to the challenger that ch expired
// unanswered at now.
func (r *Referee) ExpireChallenge(ch Challenge, now time.Time) []Mail {
	title := ch.Variant
	if v, err := r.cfg.Variants.Lookup(ch.Variant); err == nil {
		title = v.Title()
	}
	text := fmt.Sprintf("Nobody accepted your open challenge %d to a game of %s before it expired on %s. "+
		"Send the challenge again to open a new one.", ch.ID, title, dateText(ch.Expires))
	if ch.Opponent != "" {
		text = fmt.Sprintf("%s did not answer your challenge %d to a game of %s before it expired on %s. "+
			"You can invite them again after %s, or challenge someone else.", ch.Opponent, ch.ID, title, dateText(ch.Expires), dateText(now.Add(Day)))
	}
	return []Mail{r.noticeMail(ch.Challenger, now, fmt.Sprintf("expired-%d", ch.ID), fmt.Sprintf("Your challenge %d expired", ch.ID), text)}
}

// gamesText lists a player's games with a reply address for each: the
// player's own, which holds their secret (this mail goes only to them).
func (r *Referee) gamesText(from string, games []*Game, now time.Time) string {
	var active, others strings.Builder
	for _, g := range games {
		c, ok := g.colorOf(from)
		if !ok {
			continue
		}
		rep, err := g.Replay()
		if err != nil {
			continue
		}
		pos := rep.Final
		w := &others
		state := ""
		switch g.Status {
		case StatusActive:
			w = &active
			if pos.Turn() == c {
				state = fmt.Sprintf("move %d, your move", pos.MoveNumber())
			} else {
				state = fmt.Sprintf("move %d, %s's move", pos.MoveNumber(), g.Players[c.Other()].Address)
			}
			if cl := g.clock(); cl != nil {
				state += "; " + cl.text(pos.Turn(), now)
			}
		default:
			state = gameOverText(nil, g)
		}
		fmt.Fprintf(w, "#%d  %s: you play %s against %s\n    %s\n    reply to: %s\n\n", g.ID, g.Variant.Title(), c,
			g.Players[c.Other()].Address, state, r.ReplyAddress(g, c))
	}
	var b strings.Builder
	if active.Len() == 0 {
		b.WriteString("You have no game running.\n\n")
	} else {
		b.WriteString("Your games in play:\n\n" + active.String())
	}
	if others.Len() > 0 {
		b.WriteString("Your recent games that are over:\n\n" + others.String())
	}
	// Issue 33: an address holds the position it was handed out at (the
	// last number), so that no move is ever played on a board the player
	// has not seen. Say so, and say what always works with it.
	b.WriteString(wrap("Each reply address is good for your next action only: it holds the game as it is now. Once either "+
		"player acts, a move sent to it is not played; the answer shows the current board and brings a new address. "+
		"\"board\" sent to it always works, and brings the current board with the address for your next move. "+
		"The reply addresses are yours alone: do not pass them on.") + "\n")
	return b.String()
}

func (r *Referee) variantsText() string {
	var b strings.Builder
	b.WriteString("The games offered here (use the short name in a challenge):\n\n")
	for _, v := range r.Offered() {
		fmt.Fprintf(&b, "%s (%s)\n%s\n\n", v.Name(), v.Title(), indent(wrap(v.Summary()), "    "))
	}
	b.WriteString(wrap("Send \"challenge NAME ADDRESS\" to invite someone, e.g. \"challenge toto40 bob@example.org 3d\".") + "\n")
	return b.String()
}

func (r *Referee) lobbyHelp() string {
	var b strings.Builder
	b.WriteString(wrap("Games here are played by mail. Send a command on the FIRST line of a mail to "+r.cfg.Address+
		" (anything after it is ignored), or as a reply to any mail of the referee's.") + "\n\n")
	b.WriteString("To start a game, challenge someone:\n\n    challenge toto40 bob@example.org 3d\n\n")
	b.WriteString(wrap("The referee invites them; when they reply \"accept\", the game starts and you both get its first mail. "+
		"From then on, reply to the referee's latest mail for the game with your move.") + "\n\n")
	b.WriteString(wrap("To join a game, send \"open\" for the open challenges and accept one.") + "\n\n")
	b.WriteString("Commands:\n")
	for _, c := range r.cmds {
		if c.Where&Outside != 0 {
			fmt.Fprintf(&b, "  %s\n%s\n", c.Name(), indent(wrapAt(c.Help, 66), "      "))
		}
	}
	b.WriteString("\n" + wrap("The games: "+r.offeredNames()+".") + "\n")
	b.WriteString(wrap(r.policySentence()) + "\n")
	return b.String()
}

func (r *Referee) policySentence() string {
	switch r.lobbyCfg().Players {
	case PlayersOpen:
		return "Anyone may challenge here."
	case PlayersList:
		return "Only the players on the organiser's list may challenge here; anyone may accept an invitation sent to them."
	}
	return "Players who have played here before, or whom the organiser added, may challenge; anyone may accept an invitation sent to them."
}

// takerNeeds says, under a policy that does not let everyone take an open
// challenge, what a friend given its address needs ("" under --players
// open): issue 33, the advice failed for a friend who never played here.
func (r *Referee) takerNeeds() string {
	byName := "A friend who is not can still play you: challenge them by name (\"challenge VARIANT their@address\"), " +
		"since anyone may accept an invitation sent to them."
	switch r.lobbyCfg().Players {
	case PlayersOpen:
		return ""
	case PlayersList:
		return "Only players on the organiser's list can take an open challenge here. " + byName
	}
	return "Only players who have played here before, or whom the organiser added, can take an open challenge here. " + byName
}

func (r *Referee) policyText(from string) string {
	switch r.lobbyCfg().Players {
	case PlayersList:
		return "the organiser lets only the players on their list start games by mail, and " + from + " is not on it."
	}
	return "the organiser lets only known players (who have played here before, or whom the organiser added) start games by mail, and " +
		from + " is not one of them yet."
}

func (r *Referee) policyTodo() string {
	return "Ask the organiser to add you, or ask a player you know here to challenge you: anyone may accept an invitation."
}

// lobbyAnswer answers a command that changes nothing.
func (r *Referee) lobbyAnswer(m *reader.Mail, env Env, kind, subject, text string) Outcome {
	return Outcome{Verdict: Answered, Detail: fmt.Sprintf("lobby: %s sent %q", m.From, kind),
		Mails: []Mail{r.lobbyLetter(m, env.Now, kind, subject, text, "", "")}}
}

// lobbyLetter writes a plain-text mail to the sender of m, and only to
// them: lobby answers never go to any other address.
func (r *Referee) lobbyLetter(m *reader.Mail, now time.Time, kind, subject, text, replyTo, salt string) Mail {
	l := Mail{Kind: KindLobby, To: m.From, Subject: subject, ReplyTo: replyTo, InReplyTo: m.MessageID,
		MessageID: r.messageID("lobby", kind, m.MessageID, m.From, now.UTC().Format(time.RFC3339), salt),
		Text:      text + lobbyFooter(r.cfg.Address), Date: now}
	if m.MessageID != "" {
		l.References = []string{m.MessageID}
	}
	return l
}

// noticeMail writes a short plain-text notice to to (a challenger or an
// opponent, about their own challenge).
func (r *Referee) noticeMail(to string, now time.Time, kind, subject, text string) Mail {
	return Mail{Kind: KindNotice, To: to, Subject: subject, Text: wrap(text) + "\n" + lobbyFooter(r.cfg.Address),
		MessageID: r.messageID("notice", kind, to, now.UTC().Format(time.RFC3339)), Date: now}
}

func lobbyFooter(address string) string {
	return "\n-- \nThe referee at " + address + ". Send \"help\" to it for how to play.\n"
}

func controlText(tc string) string {
	if tc == "" {
		return "no time limit"
	}
	c, err := timecontrol.Parse(tc)
	if err != nil {
		return tc
	}
	return c.Describe()
}

func colorWord(c string) string {
	switch c {
	case "white":
		return "White"
	case "black":
		return "Black"
	}
	return "a colour drawn at random"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func dateText(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") }

// dateIn writes t for a reader in zone (their "timezone"; "" for UTC).
func dateIn(zone string, t time.Time) string {
	return t.In(zoneLocation(zone)).Format("Mon 2 Jan 2006 15:04 MST")
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// openText lists the open challenges, each with the address that takes
// it, for from.
func (r *Referee) openText(from, zone string, open []Challenge) string {
	var b strings.Builder
	for _, ch := range open {
		title := ch.Variant
		if v, err := r.cfg.Variants.Lookup(ch.Variant); err == nil {
			title = v.Title()
		}
		fmt.Fprintf(&b, "%s\n", wrap(fmt.Sprintf("Challenge %d: %s, %s, by %s (who plays %s), open until %s.", ch.ID, title,
			controlText(ch.TimeControl), ch.Challenger, colorWord(ch.Color), dateIn(zone, ch.Expires))))
		if addr.SameMailbox(ch.Challenger, from) {
			b.WriteString("  This is your own challenge.\n\n")
			continue
		}
		fmt.Fprintf(&b, "  To take it, send \"accept\" to\n    %s\n\n", addr.Plus(r.cfg.Address, ch.Invite().String()))
	}
	if len(open) == 0 {
		b.WriteString(wrap("There are no open challenges right now. Open one yourself: send \"challenge VARIANT\" (e.g. \"challenge toto40 3d\"); "+
			"\"variants\" lists the games.") + "\n")
	} else {
		b.WriteString(wrap("The first player to accept a challenge gets the game.") + "\n")
	}
	return b.String()
}

// recordText is the record of g as "record GAME" sends it.
func (r *Referee) recordText(g *Game) (string, error) {
	rec, err := r.Record(g)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	rec.Width = mailWidth
	rec.WriteTo(&b)
	text := fmt.Sprintf("The record of game #%d, %s (%s v %s):\n\n%s\n", g.ID, g.Variant.Title(), g.Players[0].Address, g.Players[1].Address, b.String())
	if g.Commitment != "" && !g.SeedRevealed {
		text += wrap("The die seed stays secret until the game ends; the record shows it then.") + "\n"
	}
	return text, nil
}

// vacationLetter tells the player which of their games' clocks stop
// (list, one line each) and how much of the year's allowance is used.
func (r *Referee) vacationLetter(m *reader.Mail, now time.Time, n, used, games int, list string) Mail {
	text := wrap(fmt.Sprintf("Your clocks are stopped for %d days, until %s, in these games; each opponent is told:",
		n, now.Add(time.Duration(n)*Day).UTC().Format("Mon 2 Jan"))) + "\n\n" + list + "\n" +
		wrap(fmt.Sprintf("You have used %d of your %d vacation days in %d.", used+n, VacationAllowance, now.UTC().Year())) + "\n\n" +
		wrap("If you did not ask for this, someone used your address: reply \"vacation cancel\" to this mail and your clocks "+
			"run again, with the days not yet begun given back.") + "\n"
	return r.lobbyLetter(m, now, "vacation", fmt.Sprintf("Vacation: %d days in %s", n, plural(games, "game")), text, "", "")
}
