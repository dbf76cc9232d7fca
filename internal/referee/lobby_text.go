package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
	"referee/internal/timecontrol"
)

// The lobby's texts: the mails and answers the lobby's decisions
// (lobby_decide.go) send, and the help outside a game.

// challengeSentLetter tells the challenger, in p's language, that ch is
// on its way to its opponent, or listed as an open challenge; a reply
// "withdraw" to it takes it back.
func (r *Referee) challengeSentLetter(p *lang.Printer, m *reader.Mail, ch *Challenge, v rules.Variant, now time.Time, zone string) Mail {
	reply := addr.Plus(r.cfg.Address, ch.Invite().String())
	title, control := variantTitle(p, v), controlFor(p, ch.TimeControl)
	var b strings.Builder
	if ch.Opponent != "" {
		fmt.Fprintf(&b, "%s\n\n", wrap(p.Sprintf("Your challenge %d is on its way: %s is invited to a game %s (%s) against you.",
			ch.ID, ch.Opponent, ofGame(p, v), control)+" "+youPlay(p, ch.Color)))
		fmt.Fprintf(&b, "%s\n\n", wrap(p.Sprintf("The referee will tell you when %s accepts or declines. The invitation expires on %s.",
			ch.Opponent, dateInFor(p, zone, ch.Expires))))
	} else {
		fmt.Fprintf(&b, "%s\n\n", wrap(openListed(p, ch, ofGame(p, v), control)+" "+
			p.Sprintf("The first player who accepts it gets the game. It stays open until %s.", dateInFor(p, zone, ch.Expires))))
		fmt.Fprintf(&b, "%s\n\n    %s\n\n", wrap(p.Sprintf("Players who send \"open\" to %s see it. To invite a friend, "+
			"give them this address: a mail to it saying \"accept\" takes the challenge.", r.cfg.Address)), reply)
		if need := r.takerNeeds(p); need != "" {
			b.WriteString(wrap(need) + "\n\n")
		}
	}
	b.WriteString(colourDraw(p, ch))
	b.WriteString(wrap(p.Sprintf("To take it back, reply \"withdraw\" to this mail. If you did not send this challenge, someone used "+
		"your address: reply \"withdraw\" to this mail and nobody can accept it.")) + "\n")
	return r.lobbyLetterIn(p, m, now, "challenge-sent", p.Sprintf("Challenge %d: %s", ch.ID, title), b.String(), reply, "")
}

// youPlay is the sentence on the challenger's colour c (random, white,
// black) in p's language.
func youPlay(p *lang.Printer, c string) string {
	switch c {
	case "white":
		return p.Sprintf("You play White.")
	case "black":
		return p.Sprintf("You play Black.")
	}
	return p.Sprintf("You play a colour drawn at random.")
}

// openListed is the first sentence of an open challenge's letter, with
// the challenger's colour; of is the game's name as ofGame writes it.
func openListed(p *lang.Printer, ch *Challenge, of, control string) string {
	switch ch.Color {
	case "white":
		return p.Sprintf("Your open challenge %d is listed: a game %s (%s); you play White.", ch.ID, of, control)
	case "black":
		return p.Sprintf("Your open challenge %d is listed: a game %s (%s); you play Black.", ch.ID, of, control)
	}
	return p.Sprintf("Your open challenge %d is listed: a game %s (%s); you play a colour drawn at random.", ch.ID, of, control)
}

// withdrawnMails tell the challenger (in p's language) that ch is
// withdrawn, and its opponent, if it named one, that there is nothing to
// answer, in the opponent's language (opp).
func (r *Referee) withdrawnMails(p, opp *lang.Printer, m *reader.Mail, ch *Challenge, v rules.Variant, now time.Time) []Mail {
	out := []Mail{r.lobbyLetterIn(p, m, now, "withdrawn", p.Sprintf("Challenge %d withdrawn", ch.ID),
		wrap(p.Sprintf("Your challenge %d (%s) is withdrawn; nobody can accept it any more.", ch.ID, variantTitle(p, v)))+"\n", "", "")}
	if ch.Opponent != "" {
		out = append(out, r.noticeMailIn(opp, ch.Opponent, now, fmt.Sprintf("withdrawn-%d", ch.ID),
			opp.Sprintf("%s withdrew the invitation to %s", ch.Challenger, variantTitle(opp, v)),
			opp.Sprintf("%s withdrew their invitation to a game %s: there is nothing to answer.", ch.Challenger, ofGame(opp, v))))
	}
	return out
}

// declinedMails tell the invited player (in p's language) that they
// declined ch, and the challenger (in theirs, chp) when they may invite
// them again.
func (r *Referee) declinedMails(p, chp *lang.Printer, m *reader.Mail, ch *Challenge, v rules.Variant, now time.Time) []Mail {
	return []Mail{
		r.lobbyLetterIn(p, m, now, "declined", p.Sprintf("You declined the game %s", ofGame(p, v)),
			wrap(p.Sprintf("You declined %s's invitation to a game %s. %s is told, and cannot invite you again for a day.",
				ch.Challenger, ofGame(p, v), ch.Challenger))+"\n", "", ""),
		r.noticeMailIn(chp, ch.Challenger, now, fmt.Sprintf("declined-%d", ch.ID),
			chp.Sprintf("%s declined your challenge to %s", ch.Opponent, variantTitle(chp, v)),
			chp.Sprintf("%s declined your challenge %d to a game %s. You can invite them again after %s.",
				ch.Opponent, ch.ID, ofGame(chp, v), dateFor(chp, now.Add(Day), time.UTC))),
	}
}

// invitationMail invites the opponent, in their language (p); its reply
// address and Message-ID carry the invitation token. The lead paragraphs
// come first (a rematch says which game it follows).
func (r *Referee) invitationMail(p *lang.Printer, ch *Challenge, v rules.Variant, now time.Time, zone string, lead ...lang.Text) Mail {
	var b strings.Builder
	for _, l := range lead {
		b.WriteString(wrap(l.In(p)) + "\n\n")
	}
	fmt.Fprintf(&b, "%s\n\n", wrap(p.Sprintf("%s invites you to a game %s by mail, refereed by %s. Time control: %s.",
		ch.Challenger, ofGame(p, v), r.cfg.Address, controlFor(p, ch.TimeControl))+" "+challengerPlays(p, ch)+" "+ratedSentence(p, ch.Rated)))
	b.WriteString(colourDraw(p, ch))
	// The translator breaks the first sentence in two lines, as the
	// English does.
	fmt.Fprintf(&b, "%s\n\n%s\n\n", p.Sprintf("To accept, reply to this mail with \"accept\" on the first line;\nto decline, reply \"decline\"."),
		wrap(p.Sprintf("The invitation expires on %s.", dateInFor(p, zone, ch.Expires))))
	fmt.Fprintf(&b, "%s\n%s\n\n", p.Sprintf("The rules in short:"), wrap(rulesIn(p, v)))
	b.WriteString(wrap(p.Sprintf("If you do not know %s, ignore this mail: nothing happens, and "+
		"the referee will not pass on another invitation from them for a day after this one expires.", ch.Challenger)) + "\n\n")
	b.WriteString(wrap(p.Sprintf("To receive no more invitations through this referee, from anyone, reply \"stop\" "+
		"(at most %d reach one address in a day).", r.lobbyCfg().MaxInvitesPerAddress)) + "\n")
	inv := ch.Invite()
	return Mail{
		Kind:      KindInvitation,
		To:        ch.Opponent,
		Subject:   p.Sprintf("%s invites you to a game %s", ch.Challenger, ofGame(p, v)),
		ReplyTo:   addr.Plus(r.cfg.Address, inv.String()),
		MessageID: inv.MessageID(r.nonce("invite", fmt.Sprint(ch.ID)), r.domain()),
		Text:      b.String() + lobbyFooterIn(p, r.cfg.Address),
		Date:      now,
	}
}

// challengerPlays is the invitation's sentence on the challenger's colour.
func challengerPlays(p *lang.Printer, ch *Challenge) string {
	switch ch.Color {
	case "white":
		return p.Sprintf("%s plays White.", ch.Challenger)
	case "black":
		return p.Sprintf("%s plays Black.", ch.Challenger)
	}
	return p.Sprintf("%s plays a colour drawn at random.", ch.Challenger)
}

// ratedSentence says whether a challenge's game would be rated.
func ratedSentence(p *lang.Printer, rated bool) string {
	if rated {
		return p.Sprintf("The game is rated: its result counts for both players' ratings.")
	}
	return p.Sprintf("The game is casual: its result changes no rating.")
}

// colourDraw is the paragraph of a challenge's mails that commits to the
// seed its random colour is drawn from ("" for a chosen colour).
func colourDraw(p *lang.Printer, ch *Challenge) string {
	com := ch.seedCommitment()
	if com == "" {
		return ""
	}
	return wrap(p.Sprintf("The colour is drawn from a random seed fixed now, whose SHA-256 is:")) + "\n\n    " + com + "\n\n" +
		wrap(p.Sprintf("The game's first mail reveals the seed, so that either player can check the draw (the referee's docs/dice.md, "+
			"\"The colour of a challenge\").")) + "\n\n"
}

// colourReveal says how the colours of ch were drawn, with the seed, in
// p's language: the game's first mails carry it ("" for a chosen colour).
func colourReveal(p *lang.Printer, ch *Challenge) string {
	com := ch.seedCommitment()
	if com == "" {
		return ""
	}
	seed, _ := dice.ParseSeed(ch.Seed)
	_, first := dice.ChallengeColour(seed, ch.ID)
	if first&1 == 1 {
		return p.Sprintf("The colours were drawn at random. The seed is %s; its SHA-256 is %s, as the invitation said. "+
			"HMAC-SHA256(seed, \"%s\") begins with the byte %d, which is odd, so the challenger, %s, plays Black "+
			"(the referee's docs/dice.md, \"The colour of a challenge\").",
			seed.Hex(), com, dice.ChallengeColourMessage(ch.ID), first, ch.Challenger)
	}
	return p.Sprintf("The colours were drawn at random. The seed is %s; its SHA-256 is %s, as the invitation said. "+
		"HMAC-SHA256(seed, \"%s\") begins with the byte %d, which is even, so the challenger, %s, plays White "+
		"(the referee's docs/dice.md, \"The colour of a challenge\").",
		seed.Hex(), com, dice.ChallengeColourMessage(ch.ID), first, ch.Challenger)
}

// ChallengeStarted is the notice to the challenger that ch was accepted
// and is game g, followed by the game's opening mails (opening, from
// Start), which reveal the colour seed of a random draw. The notice is in
// the challenger's language (g's player's), the reveal in each opening
// mail's reader's.
func (r *Referee) ChallengeStarted(ch Challenge, g *Game, now time.Time, opening []Mail) []Mail {
	c := rules.White
	if !addr.SameMailbox(g.Players[0].Address, ch.Challenger) {
		c = rules.Black
	}
	p := r.printer(g.Players[c].Language)
	opp := g.Players[c.Other()].Address
	text := p.Sprintf("%s accepted your challenge %d: game #%d, %s (%s), has started, and you play White. "+
		"The referee's first mail for the game follows; reply to it with your moves.",
		opp, ch.ID, g.ID, variantTitle(p, g.Variant), controlFor(p, ch.TimeControl))
	if c == rules.Black {
		text = p.Sprintf("%s accepted your challenge %d: game #%d, %s (%s), has started, and you play Black. "+
			"The referee's first mail for the game follows; reply to it with your moves.",
			opp, ch.ID, g.ID, variantTitle(p, g.Variant), controlFor(p, ch.TimeControl))
	}
	n := r.noticeMailIn(p, ch.Challenger, now, fmt.Sprintf("accepted-%d", ch.ID),
		p.Sprintf("%s accepted your challenge: game #%d", opp, g.ID), text)
	// One of the game's opening mails: the outbox sends it with them,
	// before them (it is queued first).
	n.Kind = KindOpening
	out := []Mail{n}
	for _, m := range opening {
		if m.Board != nil && ch.seedCommitment() != "" {
			b := *m.Board
			b.Sections = append(append([]render.Section(nil), b.Sections...),
				render.Section{Title: b.Lang.Sprintf("The colours"), Body: colourReveal(b.Lang, &ch)})
			m.Board = &b
		}
		out = append(out, m)
	}
	return out
}

// ExpireChallenge is the notice to the challenger that ch expired
// unanswered at now, in the challenger's language (its code; "" for
// English).
func (r *Referee) ExpireChallenge(ch Challenge, language string, now time.Time) []Mail {
	p := r.printer(language)
	of := r.ofVariant(p, ch.Variant)
	text := p.Sprintf("Nobody accepted your open challenge %d to a game %s before it expired on %s. "+
		"Send the challenge again to open a new one.", ch.ID, of, dateFor(p, ch.Expires, time.UTC))
	if ch.Opponent != "" {
		text = p.Sprintf("%s did not answer your challenge %d to a game %s before it expired on %s. "+
			"You can invite them again after %s, or challenge someone else.", ch.Opponent, ch.ID, of,
			dateFor(p, ch.Expires, time.UTC), dateFor(p, now.Add(Day), time.UTC))
	}
	return []Mail{r.noticeMailIn(p, ch.Challenger, now, fmt.Sprintf("expired-%d", ch.ID), p.Sprintf("Your challenge %d expired", ch.ID), text)}
}

// gamesText lists a player's games with a reply address for each, in
// p's language: the player's own, which holds their secret (this mail
// goes only to them).
func (r *Referee) gamesText(p *lang.Printer, from string, games []*Game, now time.Time) string {
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
				state = p.Sprintf("move %d, your move", pos.MoveNumber())
			} else {
				state = p.Sprintf("move %d, %s's move", pos.MoveNumber(), g.Players[c.Other()].Address)
			}
			if cl := g.clock(); cl != nil {
				state += "; " + cl.textIn(p, pos.Turn(), now)
			}
		default:
			state = gameOverText(p, g)
		}
		fmt.Fprintf(w, "#%d  %s\n    %s\n    %s\n\n", g.ID, youPlayAgainst(p, g, c), state, p.Sprintf("reply to: %s", r.ReplyAddress(g, c)))
	}
	var b strings.Builder
	if active.Len() == 0 {
		b.WriteString(p.Sprintf("You have no game running.") + "\n\n")
	} else {
		b.WriteString(p.Sprintf("Your games in play:") + "\n\n" + active.String())
	}
	if others.Len() > 0 {
		b.WriteString(p.Sprintf("Your recent games that are over:") + "\n\n" + others.String())
	}
	// Issue 33: an address holds the position it was handed out at (the
	// last number), so that no move is ever played on a board the player
	// has not seen. Say so, and say what always works with it.
	b.WriteString(wrap(p.Sprintf("Each reply address is good for your next action only: it holds the game as it is now. Once either "+
		"player acts, a move sent to it is not played; the answer shows the current board and brings a new address. "+
		"\"board\" sent to it always works, and brings the current board with the address for your next move. "+
		"The reply addresses are yours alone: do not pass them on.")) + "\n")
	return b.String()
}

// youPlayAgainst is a line of "games": the variant, the reader's colour c
// and the opponent.
func youPlayAgainst(p *lang.Printer, g *Game, c rules.Color) string {
	title, opp := variantTitle(p, g.Variant), g.Players[c.Other()].Address
	if c == rules.White {
		return p.Sprintf("%s: you play White against %s", title, opp)
	}
	return p.Sprintf("%s: you play Black against %s", title, opp)
}

func (r *Referee) variantsText(p *lang.Printer) string {
	var b strings.Builder
	b.WriteString(p.Sprintf("The games offered here (use the short name in a challenge):") + "\n\n")
	for _, v := range r.Offered() {
		fmt.Fprintf(&b, "%s (%s)\n%s\n\n", v.Name(), variantTitle(p, v), indent(wrap(rules.SummaryText(v).In(p)), "    "))
	}
	b.WriteString(wrap(p.Sprintf("Send %q to invite someone, e.g. %q.", "challenge NAME ADDRESS", "challenge toto40 bob@example.org 3d")) + "\n")
	return b.String()
}

// lobbyHelp is the help outside a game, in p's language: how to start
// and join games, and the commands of the table valid outside a game.
func (r *Referee) lobbyHelp(p *lang.Printer) string {
	var b strings.Builder
	b.WriteString(wrap(p.Sprintf("Games here are played by mail. Send a command on the FIRST line of a mail to %s "+
		"(anything after it is ignored), or as a reply to any mail of the referee's.", r.cfg.Address)) + "\n\n")
	b.WriteString(p.Sprintf("To start a game, challenge someone:") + "\n\n    challenge toto40 bob@example.org 3d\n\n")
	b.WriteString(wrap(p.Sprintf("The referee invites them; when they reply \"accept\", the game starts and you both get its first mail. "+
		"From then on, reply to the referee's latest mail for the game with your move.")) + "\n\n")
	b.WriteString(wrap(p.Sprintf("To join a game, send \"open\" for the open challenges and accept one.")) + "\n\n")
	b.WriteString(p.Sprintf("Commands:") + "\n")
	for _, c := range r.cmds {
		if c.Where&Outside != 0 {
			fmt.Fprintf(&b, "  %s\n%s\n", c.Name(), indent(wrapAt(c.Help.In(p), 66), "      "))
		}
	}
	b.WriteString("\n" + wrap(p.Sprintf("The games: %s.", r.offeredNames())) + "\n")
	b.WriteString(wrap(r.policySentence(p)) + "\n")
	return b.String()
}

// policySentence says who may challenge here, in p's language.
func (r *Referee) policySentence(p *lang.Printer) string {
	switch r.lobbyCfg().Players {
	case PlayersOpen:
		return p.Sprintf("Anyone may challenge here.")
	case PlayersList:
		return p.Sprintf("Only the players on the organiser's list may challenge here; anyone may accept an invitation sent to them.")
	}
	return p.Sprintf("Players who have played here before, or whom the organiser added, may challenge; anyone may accept an invitation sent to them.")
}

// takerNeeds says, under a policy that does not let everyone take an open
// challenge, what a friend given its address needs ("" under --players
// open), in p's language: issue 33, the advice failed for a friend who
// never played here.
func (r *Referee) takerNeeds(p *lang.Printer) string {
	byName := p.Sprintf("A friend who is not can still play you: challenge them by name (%q), "+
		"since anyone may accept an invitation sent to them.", "challenge VARIANT their@address")
	switch r.lobbyCfg().Players {
	case PlayersOpen:
		return ""
	case PlayersList:
		return p.Sprintf("Only players on the organiser's list can take an open challenge here.") + " " + byName
	}
	return p.Sprintf("Only players who have played here before, or whom the organiser added, can take an open challenge here.") + " " + byName
}

// policyText says why from may not start games here (the end of a
// sentence).
func (r *Referee) policyText(from string) lang.Text {
	switch r.lobbyCfg().Players {
	case PlayersList:
		return lang.M("the organiser lets only the players on their list start games by mail, and %s is not on it.", from)
	}
	return lang.M("the organiser lets only known players (who have played here before, or whom the organiser added) start games by mail, and "+
		"%s is not one of them yet.", from)
}

// policyTodo says what a player whom the policy leaves out can do.
func (r *Referee) policyTodo() lang.Text {
	return lang.M("Ask the organiser to add you, or ask a player you know here to challenge you: anyone may accept an invitation.")
}

// lobbyAnswer answers a command that changes nothing.
func (r *Referee) lobbyAnswer(m *reader.Mail, env Env, kind, subject, text string) Outcome {
	return r.lobbyAnswerIn(r.english(), m, env, kind, subject, text)
}

// lobbyAnswerIn is lobbyAnswer written in p's language: subject and text
// come written in it, the footer is.
func (r *Referee) lobbyAnswerIn(p *lang.Printer, m *reader.Mail, env Env, kind, subject, text string) Outcome {
	return Outcome{Verdict: Answered, Detail: fmt.Sprintf("lobby: %s sent %q", m.From, kind),
		Mails: []Mail{r.lobbyLetterIn(p, m, env.Now, kind, subject, text, "", "")}}
}

// lobbyLetter writes a plain-text mail to the sender of m, and only to
// them: lobby answers never go to any other address.
func (r *Referee) lobbyLetter(m *reader.Mail, now time.Time, kind, subject, text, replyTo, salt string) Mail {
	return r.lobbyLetterIn(r.english(), m, now, kind, subject, text, replyTo, salt)
}

// lobbyLetterIn is lobbyLetter with the footer in p's language.
func (r *Referee) lobbyLetterIn(p *lang.Printer, m *reader.Mail, now time.Time, kind, subject, text, replyTo, salt string) Mail {
	l := Mail{Kind: KindLobby, To: m.From, Subject: subject, ReplyTo: replyTo, InReplyTo: m.MessageID,
		MessageID: r.messageID("lobby", kind, m.MessageID, m.From, now.UTC().Format(time.RFC3339), salt),
		Text:      text + lobbyFooterIn(p, r.cfg.Address), Date: now}
	if m.MessageID != "" {
		l.References = []string{m.MessageID}
	}
	return l
}

// noticeMail writes a short plain-text notice to to (a challenger or an
// opponent, about their own challenge).
func (r *Referee) noticeMail(to string, now time.Time, kind, subject, text string) Mail {
	return r.noticeMailIn(r.english(), to, now, kind, subject, text)
}

// noticeMailIn is noticeMail with the footer in p's language.
func (r *Referee) noticeMailIn(p *lang.Printer, to string, now time.Time, kind, subject, text string) Mail {
	return Mail{Kind: KindNotice, To: to, Subject: subject, Text: wrap(text) + "\n" + lobbyFooterIn(p, r.cfg.Address),
		MessageID: r.messageID("notice", kind, to, now.UTC().Format(time.RFC3339)), Date: now}
}

func lobbyFooter(address string) string { return lobbyFooterIn(nil, address) }

// lobbyFooterIn is the lobby mails' signature in p's language, wrapped
// (the English one fits a line with a short address).
func lobbyFooterIn(p *lang.Printer, address string) string {
	return "\n-- \n" + wrap(p.Sprintf("The referee at %s. Send \"help\" to it for how to play.", address)) + "\n"
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

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// openText lists the open challenges, each with the address that takes
// it, for from, in p's language.
func (r *Referee) openText(p *lang.Printer, from, zone string, open []Challenge) string {
	var b strings.Builder
	for _, ch := range open {
		title := ch.Variant
		if v, err := r.cfg.Variants.Lookup(ch.Variant); err == nil {
			title = variantTitle(p, v)
		}
		fmt.Fprintf(&b, "%s\n", wrap(openLine(p, &ch, title, dateInFor(p, zone, ch.Expires))))
		if addr.SameMailbox(ch.Challenger, from) {
			b.WriteString("  " + p.Sprintf("This is your own challenge.") + "\n\n")
			continue
		}
		fmt.Fprintf(&b, "  %s\n    %s\n\n", p.Sprintf("To take it, send \"accept\" to"), addr.Plus(r.cfg.Address, ch.Invite().String()))
	}
	if len(open) == 0 {
		b.WriteString(wrap(p.Sprintf("There are no open challenges right now. Open one yourself: send %q (e.g. %q); "+
			"\"variants\" lists the games.", "challenge VARIANT", "challenge toto40 3d")) + "\n")
	} else {
		b.WriteString(wrap(p.Sprintf("The first player to accept a challenge gets the game.")) + "\n")
	}
	return b.String()
}

// openLine is an open challenge in the list "open" answers.
func openLine(p *lang.Printer, ch *Challenge, title, until string) string {
	control := controlFor(p, ch.TimeControl)
	switch ch.Color {
	case "white":
		return p.Sprintf("Challenge %d: %s, %s, by %s (who plays White), open until %s.", ch.ID, title, control, ch.Challenger, until)
	case "black":
		return p.Sprintf("Challenge %d: %s, %s, by %s (who plays Black), open until %s.", ch.ID, title, control, ch.Challenger, until)
	}
	return p.Sprintf("Challenge %d: %s, %s, by %s (who plays a colour drawn at random), open until %s.", ch.ID, title, control, ch.Challenger, until)
}

// recordText is the record of g as "record GAME" sends it, its frame in
// p's language (the record itself is PGN's English).
func (r *Referee) recordText(p *lang.Printer, g *Game) (string, error) {
	rec, err := r.Record(g)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	rec.Width = mailWidth
	rec.WriteTo(&b)
	text := p.Sprintf("The record of game #%d, %s (%s v %s):", g.ID, variantTitle(p, g.Variant), g.Players[0].Address, g.Players[1].Address) +
		"\n\n" + b.String() + "\n"
	if g.Commitment != "" && !g.SeedRevealed {
		text += wrap(p.Sprintf("The die seed stays secret until the game ends; the record shows it then.")) + "\n"
	}
	return text, nil
}

// vacationLetter tells the player, in p's language, which of their games'
// clocks stop (list, one line each) and how much of the year's allowance
// is used.
func (r *Referee) vacationLetter(p *lang.Printer, m *reader.Mail, now time.Time, n, used, games int, list string) Mail {
	text := wrap(p.Sprintf("Your clocks are stopped for %d days, until %s, in these games; each opponent is told:",
		n, dayFor(p, now.Add(time.Duration(n)*Day)))) + "\n\n" + list + "\n" +
		wrap(p.Sprintf("You have used %d of your %d vacation days in %d.", used+n, VacationAllowance, now.UTC().Year())) + "\n\n" +
		wrap(p.Sprintf("If you did not ask for this, someone used your address: reply \"vacation cancel\" to this mail and your clocks "+
			"run again, with the days not yet begun given back.")) + "\n"
	return r.lobbyLetterIn(p, m, now, "vacation", p.Sprintf("Vacation: %s in %s", daysText(p, n), gamesCount(p, games)), text, "", "")
}
