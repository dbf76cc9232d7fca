package referee

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/mail/reader"
	"referee/internal/render"
	"referee/internal/rules"
	"referee/internal/timecontrol"
)

// The lobby's decisions: a command outside a game (or a lobby command in a
// reply to a game mail) checked against the organiser's policy and the
// flood limits, and what it changes. The mails it sends are written in
// lobby_text.go.

// lobby answers a mail without a game reference: its first line read
// against the command table (commands.go). A reply to an invitation that
// is no command is an answer to the invitation, and refused as one.
func (r *Referee) lobby(m *reader.Mail, env Env) Outcome {
	p := r.parseLine(m.Action, Outside, true)
	c := &call{cmd: p.cmd, args: p.args, m: m, env: env}
	if p.cmd == nil {
		if m.Invite != nil {
			return r.invitation(c, "")
		}
		return r.notACommand(c, "")
	}
	return r.lobbyRun(c)
}

// lobbyRun carries out a lobby command for m.From, outside a game or in a
// reply to a game mail: --require-auth's check, and the cap on answers.
func (r *Referee) lobbyRun(c *call) Outcome {
	m, env := c.m, c.env
	if !c.cmd.noAuth {
		if out, ok := r.lobbyAuth(m, env); !ok {
			return out
		}
	}
	if lb := env.Lobby; c.cmd.answer && lb.RecentAnswers >= r.lobbyCfg().MaxAnswersPerHour {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("lobby %s (not answered: %d answers to %s in the last hour, the limit is %d)",
			c.cmd.Words[0], lb.RecentAnswers, m.From, r.lobbyCfg().MaxAnswersPerHour)}
	}
	return c.cmd.run(r, c)
}

// invitationAnswer is "accept", "decline" or "withdraw": an answer to the
// invitation the mail replies to, or refused when it replies to none.
func (r *Referee) invitationAnswer(c *call) Outcome {
	if c.m.Invite != nil {
		return r.invitation(c, c.cmd.Words[0])
	}
	return r.notACommand(c, c.cmd.Words[0])
}

// notACommand refuses a mail outside a game whose first line is no
// command (word ""), or an invitation's answer without an invitation.
func (r *Referee) notACommand(c *call, word string) Outcome {
	m := c.m
	what := lang.M("Your mail to the referee was read as %q, which is not a command the referee knows.", firstWords(m.Action, 8))
	if strings.TrimSpace(m.Action) == "" {
		what = lang.M("Your mail to the referee had no command on its first line.")
	}
	if word != "" {
		what = lang.M("Your mail said %q, but it is not a reply to an invitation: there is nothing to %s.", word, word)
	}
	return r.refuseIn(c.env, m, "lobby: no command: "+firstWords(m.Action, 6), what,
		lang.M("To play in a game, reply to the referee's latest mail for it with your move. Outside a game, send one of: %s.",
			strings.Join(r.names(Outside, func(c *Command) bool { return !c.inReply }), ", ")))
}

// lobbyAuth applies --require-auth to a lobby command, which acts on From
// alone.
func (r *Referee) lobbyAuth(m *reader.Mail, env Env) (Outcome, bool) {
	if !r.cfg.RequireAuth {
		return Outcome{}, true
	}
	if ok, why := r.authVerdict(m, env); !ok {
		return r.refuseIn(env, m, "lobby: authentication failed: "+why,
			lang.M("Your mail was not accepted because the mail server could not confirm it really comes from %s (%s).", m.From, why),
			lang.M("Send it again from your usual mail account (the one that signs its mail with DKIM).")), false
	}
	return Outcome{}, true
}

// challengeSyntax is how a challenge is written, in the reader's
// language (the command's words stay English).
func challengeSyntax() lang.Text {
	return lang.M("%s, e.g. %q; leave out the ADDRESS for an open challenge that anyone may take",
		"challenge VARIANT ADDRESS [TIME] [random|white|black] [private] [rated|casual]", "challenge toto40 bob@example.org 3d")
}

// refusal refuses a lobby command: detail is the log's, what and todo
// the sender reads.
type refusal func(detail string, what, todo lang.Text) Outcome

// challenge makes a challenge: an invitation mailed to the opponent, or an
// open challenge listed by "open".
func (r *Referee) challenge(c *call) Outcome {
	m, env, args := c.m, c.env, c.args
	lc, lb, now := r.lobbyCfg(), env.Lobby, env.Now
	line := firstWords(m.Action, 8)
	no := func(detail string, what, todo lang.Text) Outcome {
		return r.refuseIn(env, m, "challenge: "+detail, lang.M("Your challenge %q was not sent: %s", line, what), todo)
	}
	if !lb.Allowed {
		return no("sender not allowed under --players "+string(lc.Players), r.policyText(m.From), r.policyTodo())
	}
	if len(args) == 0 {
		return no("no variant", lang.M("it names no game."), lang.M("Write %s. The games: %s.", challengeSyntax(), r.offeredNames()))
	}
	v, err := r.cfg.Variants.Lookup(args[0])
	if err != nil || !r.offers(v) {
		return no("variant "+args[0]+" not offered",
			lang.M("%q is not a game offered here.", args[0]),
			lang.M("Choose one of %s (send \"variants\" for what each is), and write %s.", r.offeredNames(), challengeSyntax()))
	}
	ch := Challenge{ID: lb.NextChallengeID, Challenger: m.From, Variant: v.Name(), TimeControl: lc.DefaultTime, Rated: lc.Rated,
		Color: "random", Secret: lb.NewSecret, Seed: lb.NewSeed, Status: ChallengeOpen, Created: now, Expires: now.Add(lc.InviteTTL)}
	for _, a := range args[1:] {
		switch {
		case strings.Contains(a, "@"):
			if ch.Opponent != "" {
				return no("two addresses", lang.M("it names two opponents."), lang.M("Challenge one player a mail: %s.", challengeSyntax()))
			}
			o, err := addr.Player(strings.Trim(a, "<>,;"))
			if err != nil {
				return no("bad address "+a, lang.M("%q is not a mail address the referee sends invitations to: %s.", a, lang.Why(err)),
					lang.M("Write the opponent's address like bob@example.org: %s.", challengeSyntax()))
			}
			ch.Opponent = o
		case timecontrol.LooksLike(a):
			c, err := ParseTimeControl(a)
			if err != nil {
				return no("bad time "+a, sentenceText{lang.Why(err)}, lang.M("Write the time as %s.", timeSyntax()))
			}
			ch.TimeControl = c.Control
		case a == "random" || a == "white" || a == "black":
			ch.Color = a
		case a == "private":
			ch.Private = true
		case a == "rated" || a == "casual":
			ch.Rated = a == "rated"
		default:
			return no("unknown word "+a, lang.M("the word %q is neither an address, a colour (random, white, black), \"private\", rated or casual, nor a time: %s.", a, timeSyntax()),
				lang.M("Write %s.", challengeSyntax()))
		}
	}
	return r.offer(c, ch, v, no, nil)
}

// offer sends the challenge ch of v once the organiser's limits allow it:
// an invitation to its opponent, or an open challenge. no refuses; lead,
// when not nil, opens the invitation mail (a rematch says which game it
// follows).
func (r *Referee) offer(c *call, ch Challenge, v rules.Variant, no refusal, lead []lang.Text) Outcome {
	m, lc, lb, now := c.m, r.lobbyCfg(), c.env.Lobby, c.env.Now
	date := func(t time.Time) lang.Text { return dateAt{t, zoneLocation(c.env.Zone)} }
	if why := lc.outsideLimitsText(lb.Ratings, ch.Variant); why != nil {
		return no("challenger outside the rating limits", lang.Join("", why, lang.Raw(".")), lang.M("\"rating\" shows your ratings; the organiser sets these limits."))
	}
	switch {
	case ch.Opponent != "" && addr.SameMailbox(ch.Opponent, m.From):
		return no("self", lang.M("you cannot challenge yourself."), lang.M("Name another player's address, or leave it out for an open challenge."))
	case ch.Opponent != "" && addr.SameMailbox(ch.Opponent, r.cfg.Address):
		return no("the referee", lang.M("the referee does not play."), lang.M("Name another player's address, or leave it out for an open challenge."))
	case ch.Opponent != "" && lb.OpponentBarred:
		return no("opponent barred", lang.M("%s cannot be invited by mail here.", ch.Opponent), lang.M("Challenge someone else, or ask the organiser."))
	case ch.Opponent != "" && lb.OpponentStopped:
		return no("opponent stopped invitations", lang.M("%s asked the referee to pass on no invitations to them.", ch.Opponent),
			lang.M("Ask them in person: they can send \"start\" to %s from their address to receive invitations again.", r.cfg.Address))
	case ch.Opponent != "" && lb.OpponentInvites >= lc.MaxInvitesPerAddress:
		since := lb.OpponentInvitesSince
		if since.IsZero() {
			since = now
		}
		return no("opponent invitation cap", lang.M("%s was sent %d invitations in the last 24 hours, the most the referee sends one address in a day.",
			ch.Opponent, lb.OpponentInvites), lang.M("You can invite them after %s.", date(since.Add(Day))))
	}
	if n := lb.Active[addr.Mailbox(m.From)]; n >= lc.MaxGames {
		return no("sender at max games", lang.M("you already play %d games, the most the organiser allows at once.", n),
			lang.M("Finish a game first; \"games\" lists yours."))
	}
	if ch.Opponent != "" && lb.Active[addr.Mailbox(ch.Opponent)] >= lc.MaxGames {
		return no("opponent at max games", lang.M("%s already plays the most games the organiser allows at once.", ch.Opponent),
			lang.M("Challenge them again when one of their games is over."))
	}
	open, today := 0, 0
	for _, s := range lb.Sent {
		if s.Status == ChallengeOpen && now.Before(s.Expires) {
			open++
			if ch.Opponent != "" && addr.SameMailbox(s.Opponent, ch.Opponent) {
				return no("already invited", lang.M("your invitation to %s (challenge %d) is still open, until %s.", s.Opponent, s.ID, date(s.Expires)),
					lang.M("Wait for their answer; \"withdraw\" in a reply to the referee's mail about it takes it back."))
			}
		}
		if !s.Created.Before(now.Add(-Day)) {
			today++
		}
		if ch.Opponent != "" && addr.SameMailbox(s.Opponent, ch.Opponent) && !s.Closed.IsZero() && s.Closed.After(now.Add(-Day)) &&
			(s.Status == ChallengeDeclined || s.Status == ChallengeExpired) {
			what := lang.M("%s declined your invitation of %s.", ch.Opponent, date(s.Created))
			if s.Status == ChallengeExpired {
				what = lang.M("%s did not answer your invitation of %s.", ch.Opponent, date(s.Created))
			}
			return no("opponent refused within a day", what,
				lang.M("You can invite %s again after %s.", ch.Opponent, date(s.Closed.Add(Day))))
		}
	}
	if open >= lc.MaxOpenInvites {
		return no("too many open invitations", lang.M("you have %d open invitations, the most allowed at once.", open),
			lang.M("Wait for answers, or withdraw one by replying \"withdraw\" to the referee's mail about it."))
	}
	if today >= lc.MaxChallengesPerDay {
		return no("too many challenges today", lang.M("you made %d challenges in the last 24 hours, the most allowed.", today),
			lang.M("Try again tomorrow."))
	}
	if ch.ID <= 0 || !ch.secretOK() {
		return Outcome{Verdict: Ignored, Detail: "challenge: the app gave no challenge id or secret"}
	}
	if ch.Color == "random" && ch.seedCommitment() == "" {
		return Outcome{Verdict: Ignored, Detail: "challenge: the app gave no colour seed"}
	}
	if ch.Color != "random" {
		ch.Seed = "" // nothing to draw, nothing to reveal
	}
	out := Outcome{Verdict: Applied, Lobby: &LobbyChange{NewChallenge: &ch}}
	if ch.Opponent != "" {
		out.Detail = fmt.Sprintf("challenge %d: %s invites %s to %s", ch.ID, ch.Challenger, ch.Opponent, ch.Variant)
		out.Mails = append(out.Mails, r.invitationMail(r.printerOf(c.env, ch.Opponent), &ch, v, now, c.env.Lobby.OpponentZone, lead...))
	} else {
		out.Detail = fmt.Sprintf("challenge %d: %s opens a challenge to %s", ch.ID, ch.Challenger, ch.Variant)
	}
	out.Mails = append(out.Mails, r.challengeSentLetter(r.senderPrinter(c.env), m, &ch, v, now, c.env.Zone))
	return out
}

// secretOK reports whether the challenge's secret makes a valid token.
func (c *Challenge) secretOK() bool {
	_, ok := reader.ParseInvite(reader.Invite{ChallengeID: max(c.ID, 1), Secret: c.Secret}.String())
	return ok
}

// invitation answers a reply to an invitation: accept, decline, withdraw.
func (r *Referee) invitation(c *call, word string) Outcome {
	m, env := c.m, c.env
	lb, now, lc := env.Lobby, env.Now, r.lobbyCfg()
	ch := lb.Challenge
	// Whatever is wrong with the invitation, a stranger learns nothing.
	unknown := func(detail string) Outcome {
		return r.refuseIn(env, m, "invitation: "+detail,
			lang.M("Your mail could not be tied to an invitation for you. The referee acts only on a reply to its "+
				"invitation, sent from the address the invitation was sent to."),
			lang.M("Reply to the invitation mail itself (your mail program keeps the reference). Send \"help\" to %s for how to play.", r.cfg.Address))
	}
	if ch == nil || ch.ID != m.Invite.ChallengeID {
		return unknown(fmt.Sprintf("unknown challenge %d", m.Invite.ChallengeID))
	}
	if !strings.EqualFold(ch.Secret, m.Invite.Secret) {
		return unknown(fmt.Sprintf("challenge %d: wrong secret", ch.ID))
	}
	isChallenger := addr.SameMailbox(m.From, ch.Challenger)
	if ch.Opponent != "" && !isChallenger && !addr.SameMailbox(m.From, ch.Opponent) {
		return unknown(fmt.Sprintf("challenge %d: %s's invitation used from %s", ch.ID, ch.Opponent, m.From))
	}
	if word == "stop" {
		// The invitation's token shows the sender received it: enough to
		// ask for no more, with or without --require-auth.
		return r.stopInvites(c, ch, isChallenger)
	}
	if out, ok := r.lobbyAuth(m, env); !ok {
		return out
	}
	v, err := r.cfg.Variants.Lookup(ch.Variant)
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("challenge %d: %v", ch.ID, err)}
	}
	no := func(detail string, what, todo lang.Text) Outcome {
		return r.refuseIn(env, m, fmt.Sprintf("challenge %d: %s", ch.ID, detail), what, todo)
	}
	title := titleText{v}
	expires := dateAt{ch.Expires, zoneLocation(c.env.Zone)}
	if ch.Status != ChallengeOpen {
		return no("not open: "+string(ch.Status), closedText(ch, title, isChallenger || addr.SameMailbox(m.From, ch.ClosedBy)),
			lang.M("Send \"open\" for the open challenges, or \"games\" for your games."))
	}
	if !now.Before(ch.Expires) {
		return no("expired", lang.M("Challenge %d (%s, from %s) expired on %s.", ch.ID, title, ch.Challenger, expires),
			lang.M("Send a challenge of your own: %s.", challengeSyntax()))
	}
	if word == "" {
		what := lang.M("Your reply to the invitation to %s was read as %q, which is neither \"accept\" nor \"decline\".", title, firstWords(m.Action, 6))
		if strings.TrimSpace(m.Action) == "" {
			what = lang.M("Your reply to the invitation to %s had no answer on its first line.", title)
		}
		return no("no answer: "+firstWords(m.Action, 6), what, lang.M("Reply \"accept\" or \"decline\" on the first line."))
	}
	if isChallenger {
		if word != "withdraw" {
			return no("own challenge", lang.M("Challenge %d is your own: you cannot %s it.", ch.ID, word),
				lang.M("Wait for an answer, or reply \"withdraw\" to take it back."))
		}
		out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("challenge %d: withdrawn by %s", ch.ID, m.From),
			Lobby: &LobbyChange{Close: &ChallengeClose{ID: ch.ID, Status: ChallengeWithdrawn, By: m.From}}}
		out.Mails = r.withdrawnMails(r.senderPrinter(env), r.printerOf(env, ch.Opponent), m, ch, v, now)
		return out
	}
	if ch.Opponent == "" && !lb.Allowed {
		return no("taker not allowed under --players "+string(lc.Players), lang.M("You could not take challenge %d: %s", ch.ID, r.policyText(m.From)), r.policyTodo())
	}
	switch word {
	case "withdraw":
		return no("withdraw by the opponent", lang.M("Only the challenger can withdraw a challenge."), lang.M("Reply \"accept\" or \"decline\"."))
	case "decline":
		if ch.Opponent == "" {
			return no("decline an open challenge", lang.M("Challenge %d is open to everyone: there is nothing to decline.", ch.ID),
				lang.M("Just leave it; it expires on its own."))
		}
		out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("challenge %d: declined by %s", ch.ID, m.From),
			Lobby: &LobbyChange{Close: &ChallengeClose{ID: ch.ID, Status: ChallengeDeclined, By: m.From}}}
		out.Mails = r.declinedMails(r.senderPrinter(env), r.printerOf(env, ch.Challenger), m, ch, v, now)
		return out
	}
	// accept
	if why := lc.outsideLimitsText(lb.Ratings, ch.Variant); why != nil {
		return no("taker outside the rating limits", lang.M("You could not take challenge %d: %s.", ch.ID, why),
			lang.M("\"rating\" shows your ratings; challenges in another game may be open to you (\"open\" lists them)."))
	}
	if n := lb.Active[addr.Mailbox(m.From)]; n >= lc.MaxGames {
		return no("taker at max games", lang.M("You already play %d games, the most the organiser allows at once.", n),
			lang.M("Finish a game first, then accept (the invitation is open until %s).", expires))
	}
	if lb.Active[addr.Mailbox(ch.Challenger)] >= lc.MaxGames {
		return no("challenger at max games", lang.M("%s plays the most games the organiser allows at once right now.", ch.Challenger),
			lang.M("Accept again when one of their games is over (the invitation is open until %s).", expires))
	}
	white, black := ch.Challenger, m.From
	if ch.ChallengerColor() == rules.Black {
		white, black = black, white
	}
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("challenge %d: accepted by %s", ch.ID, m.From),
		Lobby: &LobbyChange{Close: &ChallengeClose{ID: ch.ID, Status: ChallengeAccepted, By: m.From},
			Start: &GameStart{Challenge: *ch, White: white, Black: black}}}
}

// vacationAll stops the clocks of all the sender's timed games.
func (r *Referee) vacationAll(c *call) Outcome {
	m, env, args := c.m, c.env, c.args
	now, lb := env.Now, env.Lobby
	n, err := 0, error(nil)
	if len(args) == 1 {
		n, err = strconv.Atoi(args[0])
	}
	if len(args) == 1 && args[0] == "cancel" {
		return r.vacationCancel(c)
	}
	used := env.VacationUsed
	if len(args) != 1 || err != nil || n < 1 || n > VacationAllowance {
		return r.refuseIn(env, m, "vacation: bad days "+strings.Join(args, " "),
			lang.M("\"vacation\" needs a number of days from 1 to %d, e.g. \"vacation 5\"; you have %d days left this year.", VacationAllowance, max(VacationAllowance-used, 0)),
			lang.M("Send e.g. \"vacation 5\": it stops the clocks of all your timed games for 5 days (\"vacation cancel\" ends a vacation)."))
	}
	if used+n > VacationAllowance {
		return r.refuseIn(env, m, "vacation: allowance",
			lang.M("You asked for %d vacation days, but only %d of your %d this year are left.", n, max(VacationAllowance-used, 0), VacationAllowance),
			lang.M("Ask for fewer days."))
	}
	p := r.senderPrinter(env)
	var changed []*Game
	var mails []Mail
	var list strings.Builder
	for _, g := range lb.Games {
		if g.Status != StatusActive || g.State.Clock == nil {
			continue
		}
		color, ok := g.colorOf(m.From)
		if !ok {
			continue
		}
		pos, err := g.Position()
		if err != nil {
			return Outcome{Verdict: Ignored, Detail: err.Error()}
		}
		ng := g.clone()
		until := ng.applyVacation(color, n, pos, now)
		changed = append(changed, ng)
		headline := onVacation{color, until}
		body := render.Mail{Headline: headline.In(r.printer(ng.Players[color.Other()].Language))}
		mails = append(mails, r.boardMail(ng, pos, color.Other(), body, nil, m, KindVacationAll, fmt.Sprint(n), now))
		mails = append(mails, r.spectatorMails(ng, pos, headline.In(r.english()), now)...)
		fmt.Fprintf(&list, "  #%-5d %s\n", g.ID, p.Sprintf("%s against %s", variantTitle(p, g.Variant), g.Players[color.Other()].Address))
	}
	if len(changed) == 0 {
		return r.refuseIn(env, m, "vacation: no timed game",
			lang.M("You have no game with a clock running, so there is no clock to stop (and no vacation day was counted)."),
			lang.M("Play on at your own pace."))
	}
	year := now.UTC().Year()
	mails = append([]Mail{r.vacationLetter(p, m, now, n, used, len(changed), list.String())}, mails...)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("vacation: %s takes %d days in %d games", m.From, n, len(changed)), Mails: mails,
		Lobby: &LobbyChange{Games: changed, Vacation: &VacationUse{Address: addr.Mailbox(m.From), Year: year, Days: n}}}
}

// vacationCancel ends the sender's vacation in all their timed games now:
// their clocks run again, each opponent is told, and the whole days not
// yet begun go back to the year's allowance. It undoes a "vacation" sent
// in the player's name with a forged From (the notice says how).
func (r *Referee) vacationCancel(c *call) Outcome {
	m, env := c.m, c.env
	now, lb := env.Now, env.Lobby
	p := r.senderPrinter(env)
	var changed []*Game
	var mails []Mail
	var list strings.Builder
	refund := 0
	for _, g := range lb.Games {
		if g.Status != StatusActive || g.State.Clock == nil {
			continue
		}
		color, ok := g.colorOf(m.From)
		if !ok || !g.State.Clock.Vacation[color].After(now) {
			continue
		}
		rep, err := g.Replay()
		if err != nil {
			return Outcome{Verdict: Ignored, Detail: err.Error()}
		}
		ng := g.clone()
		left := ng.cancelVacation(color, rep.Final, now)
		refund = max(refund, int(left/Day))
		changed = append(changed, ng)
		headline := vacationOver(color)
		mails = append(mails, r.boardMail(ng, rep.Final, color.Other(), render.Mail{Headline: headline.In(r.printer(ng.Players[color.Other()].Language))},
			nil, m, KindVacationCancel, "", now))
		mails = append(mails, r.spectatorMails(ng, rep.Final, headline.In(r.english()), now)...)
		fmt.Fprintf(&list, "  #%-5d %s\n", g.ID, p.Sprintf("%s against %s", variantTitle(p, g.Variant), g.Players[color.Other()].Address))
	}
	if len(changed) == 0 {
		return r.cancelBooked(c)
	}
	text := wrap(p.Sprintf("Your vacation is cancelled: your clocks run again from now in these games; each opponent is told:")) + "\n\n" +
		list.String() + "\n" + wrap(p.Sprintf("%d vacation days not yet begun went back to your allowance for %d.", refund, now.UTC().Year())) + "\n"
	mails = append([]Mail{r.lobbyLetterIn(p, m, now, "vacation-cancel", p.Sprintf("Vacation cancelled in %s", gamesCount(p, len(changed))), text, "", "")}, mails...)
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("vacation: %s cancels it in %d games", m.From, len(changed)), Mails: mails,
		Lobby: &LobbyChange{Games: changed}}
	if refund > 0 {
		out.Lobby.Vacation = &VacationUse{Address: addr.Mailbox(m.From), Year: now.UTC().Year(), Days: -refund}
	}
	return out
}

// cancelVacation ends side c's vacation at now and returns how much of it
// was left. The running clock's turn start had moved on with the vacation
// (applyVacation, or Clock.moved when the turn came during it): it moves
// back by what is left.
func (g *Game) cancelVacation(c rules.Color, pos rules.Position, now time.Time) time.Duration {
	nc := g.State.Clock
	left := nc.Vacation[c].Sub(now)
	nc.Vacation[c] = now
	if pos.Turn() == c {
		nc.TurnStart = nc.TurnStart.Add(-left)
	}
	return left
}

// colorOf returns the colour of the player whose address is a's mailbox.
func (g *Game) colorOf(a string) (rules.Color, bool) {
	for c := range 2 {
		if addr.SameMailbox(g.Players[c].Address, a) {
			return rules.Color(c), true
		}
	}
	return 0, false
}

// applyVacation stops side c's clock for n days from now (or from the end
// of a vacation already running) and returns when it ends.
func (g *Game) applyVacation(c rules.Color, n int, pos rules.Position, now time.Time) time.Time {
	nc := g.State.Clock
	start := now
	if nc.Vacation[c].After(now) {
		start = nc.Vacation[c]
	}
	nc.Vacation[c] = start.Add(time.Duration(n) * Day)
	if pos.Turn() == c {
		nc.TurnStart = nc.TurnStart.Add(time.Duration(n) * Day) // the running clock stops for n days
	}
	return nc.Vacation[c]
}

// lobbyRecord sends a game's record to one of its players.
func (r *Referee) lobbyRecord(c *call) Outcome {
	m, env, id := c.m, c.env, gameArg(c.args)
	g := env.Lobby.Named
	if id == 0 {
		return r.refuseIn(env, m, "record: no game id",
			lang.M("%q names no game.", firstWords(m.Action, 6)),
			lang.M("Write \"record\" and the game's number, e.g. \"record 17\"; \"games\" lists yours."))
	}
	if g == nil || g.ID != id {
		g = nil
	}
	if g != nil {
		if _, ok := g.colorOf(m.From); !ok {
			g = nil
		}
	}
	if g == nil {
		// The same answer whether the game exists or not.
		return r.refuseIn(env, m, fmt.Sprintf("record: game #%d is not %s's", id, m.From),
			lang.M("Game #%d is not one of your games: the referee sends a record only to the game's players, at their own address.", id),
			lang.M("Send \"games\" for the list of your games."))
	}
	p := r.senderPrinter(env)
	text, err := r.recordText(p, g)
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: err.Error()}
	}
	return r.lobbyAnswerIn(p, m, env, "record", fmt.Sprintf("[%s #%d] %s", g.Variant.Name(), g.ID, p.Sprintf("Record")), text)
}

// openList lists the open challenges with their accept addresses.
func (r *Referee) openList(c *call) Outcome {
	m, env := c.m, c.env
	lb := env.Lobby
	if !lb.Allowed {
		return r.refuseIn(env, m, "open: sender not allowed", lang.M("The open challenges are shown only to players who may take them: %s", r.policyText(m.From)), r.policyTodo())
	}
	var open []Challenge
	for _, ch := range lb.Open {
		if ch.Status == ChallengeOpen && env.Now.Before(ch.Expires) {
			open = append(open, ch)
		}
	}
	p := r.senderPrinter(env)
	return r.lobbyAnswerIn(p, m, env, "open", p.Sprintf("Open challenges (%d)", len(open)), r.openText(p, m.From, env.Zone, open))
}

// stopInvites answers "stop" in a reply to an invitation: the invited
// address gets no invitation again, from anyone, until it sends "start";
// the invitation, if still open, is declined.
func (r *Referee) stopInvites(c *call, ch *Challenge, isChallenger bool) Outcome {
	m, env, now := c.m, c.env, c.env.Now
	if isChallenger || ch.Opponent == "" {
		return r.refuseIn(env, m, fmt.Sprintf("challenge %d: stop from %s, not the invited", ch.ID, m.From),
			lang.M("\"stop\" answers an invitation sent to you: it stops the referee sending you invitations. This mail replies to a challenge of your own, or to an open one."),
			lang.M("To take back your own challenge, reply \"withdraw\"."))
	}
	mb := addr.Mailbox(m.From)
	lc := &LobbyChange{Stop: &StopChange{Address: mb, Stop: true, ChallengeID: ch.ID}}
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("challenge %d: %s asks for no more invitations", ch.ID, mb), Lobby: lc}
	if ch.Status == ChallengeOpen && now.Before(ch.Expires) {
		lc.Close = &ChallengeClose{ID: ch.ID, Status: ChallengeDeclined, By: m.From}
		out.Detail += ", and declines it"
		chp := r.printerOf(env, ch.Challenger)
		title := ch.Variant
		if v, err := r.cfg.Variants.Lookup(ch.Variant); err == nil {
			title = variantTitle(chp, v)
		}
		out.Mails = append(out.Mails, r.noticeMailIn(chp, ch.Challenger, now, fmt.Sprintf("declined-%d", ch.ID),
			chp.Sprintf("%s declined your challenge to %s", ch.Opponent, title),
			chp.Sprintf("%s declined your challenge %d to a game %s.", ch.Opponent, ch.ID, r.ofVariant(chp, ch.Variant))))
	}
	p := r.senderPrinter(env)
	text := wrap(p.Sprintf("The referee at %s will pass on no more invitations to %s, from anyone; the invitation you "+
		"replied to is declined.", r.cfg.Address, mb)) + "\n\n" +
		wrap(p.Sprintf("To receive invitations again, send \"start\" to %s from this address, then reply \"start\" to the referee's answer.", r.cfg.Address)) + "\n"
	out.Mails = append([]Mail{r.lobbyLetterIn(p, m, now, "stop", p.Sprintf("No more invitations"), text, "", "")}, out.Mails...)
	return out
}

// startInvites answers "start": the sender is taken off the stop list.
func (r *Referee) startInvites(c *call) Outcome {
	m, env, lb := c.m, c.env, c.env.Lobby
	p := r.senderPrinter(env)
	mb := addr.Mailbox(m.From)
	if !lb.SenderStopped {
		return r.lobbyAnswerIn(p, m, env, "start", p.Sprintf("Invitations reach you"),
			wrap(p.Sprintf("%s is not on the referee's stop list: invitations from players here already reach you. "+
				"Reply \"stop\" to an invitation to receive none.", mb))+"\n")
	}
	if !r.proved(m, startProof(lb.SenderStoppedSince)...) {
		// A forged "start" must not undo the stop: the address itself
		// confirms, by replying to the referee's mail (proof.go).
		return r.askProofIn(p, c, "start", fmt.Sprintf("lobby: %s sent \"start\": waits for its proof", mb),
			p.Sprintf("Confirm: receive invitations again"),
			p.Sprintf("The referee at %s received \"start\" from this address, which asked on %s to receive no invitations.",
				r.cfg.Address, dateFor(p, lb.SenderStoppedSince, time.UTC)),
			"start", p.Sprintf("nothing happens, and no invitation reaches you."), startProof(lb.SenderStoppedSince)...)
	}
	out := r.lobbyAnswerIn(p, m, env, "start", p.Sprintf("Invitations reach you again"),
		wrap(p.Sprintf("The referee at %s passes on invitations to %s again. Reply \"stop\" to any of them to receive none.", r.cfg.Address, mb))+"\n")
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("lobby: %s takes back their stop: invitations reach them again", mb)
	out.Lobby = &LobbyChange{Stop: &StopChange{Address: mb}}
	return out
}
