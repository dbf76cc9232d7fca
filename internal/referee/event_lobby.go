package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/event"
	"referee/internal/lang"
	"referee/internal/mail/addr"
)

// The players' event commands by mail: events, join, leave, standings,
// withdraw. A stranger learns nothing about an event they may not join:
// the refusal for it is the refusal for an event that does not exist.

// eventsTodoText tells the sender how to list the events they may join.
func eventsTodoText() lang.Text {
	return lang.M("Send \"events\" to the referee for the events you may join.")
}

// eventArg is the event a command names, or "".
func eventArg(c *call) string {
	if len(c.args) == 0 {
		return ""
	}
	return c.args[0]
}

// noEvent refuses a command naming an event the sender cannot see.
func (r *Referee) noEvent(c *call, word string) Outcome {
	name := eventArg(c)
	if name == "" {
		return r.refuseIn(c.env, c.m, "event: "+word+" without a name",
			lang.M("Your mail said %q without the event's name.", word),
			lang.M("Write \"%[1]s NAME\", e.g. \"%[1]s autumn\". %[2]s", word, eventsTodoText()))
	}
	return r.refuseIn(c.env, c.m, fmt.Sprintf("event: %s %s: no such event for %s", word, name, c.m.From),
		lang.M("Your mail said \"%[1]s %[2]s\", but there is no event %[3]q that you play in or may join.", word, name, name),
		eventsTodoText())
}

// visible says whether the sender may see e: they play in it, or may
// still join it.
func (c *call) visible(e *Event) bool {
	return e.Seat(c.m.From) != 0 || (e.TakesEntries() && c.env.Lobby.EventAllowed)
}

func (r *Referee) eventsList(c *call) Outcome {
	p := r.senderPrinter(c.env)
	var open, others, mine strings.Builder
	for i := range c.env.Lobby.Events {
		e := &c.env.Lobby.Events[i]
		line := indent(wrapAt(e.summaryIn(p, e.Rules().Title()), 70), "  ") + "\n"
		switch {
		case e.Seat(c.m.From) != 0:
			mine.WriteString(line)
		case !e.TakesEntries():
		case c.env.Lobby.MayJoin[e.Name]:
			open.WriteString(line)
		default:
			// Open, but not to the sender: say who may join, so that a
			// "join" is not sent to be refused.
			others.WriteString(line + indent(wrapAt(p.Sprintf("Only %s may join it; you are not among them: "+
				"ask the organiser to add you.", entryIn(p, e.Entry)), 68), "    ") + "\n")
		}
	}
	var b strings.Builder
	if open.Len() == 0 {
		b.WriteString(p.Sprintf("No event you may join is taking entries now.") + "\n")
	} else {
		b.WriteString(p.Sprintf("Events you may join (send \"join NAME\" to enter one):") + "\n\n" + open.String())
	}
	if others.Len() > 0 {
		b.WriteString("\n" + p.Sprintf("Events taking entries from others:") + "\n\n" + others.String())
	}
	if mine.Len() > 0 {
		b.WriteString("\n" + p.Sprintf("Your events (send \"standings NAME\" for the crosstable):") + "\n\n" + mine.String())
	}
	return r.lobbyAnswerIn(p, c.m, c.env, "events", p.Sprintf("Events"), b.String())
}

func (r *Referee) eventJoin(c *call) Outcome {
	e := c.env.Lobby.Event
	if e != nil && e.Seat(c.m.From) == 0 && !e.TakesEntries() && e.Status != EventOpen && e.Places > 0 {
		// An event that took entries by mail is public: say it is too late.
		return r.refuseIn(c.env, c.m, fmt.Sprintf("event: join %s: %s", e.Name, e.Status),
			statusSentence(e), eventsTodoText())
	}
	if e == nil || (e.Seat(c.m.From) == 0 && !c.visible(e)) {
		if e != nil && e.TakesEntries() {
			// It exists and takes entries, but not from this sender.
			return r.refuseIn(c.env, c.m, fmt.Sprintf("event: join %s: %s may not join", e.Name, c.m.From),
				entryRefusal{e.Name, e.Entry},
				lang.M("Ask the organiser to add you, or send \"events\" for the events you may join."))
		}
		return r.noEvent(c, "join")
	}
	if e.Seat(c.m.From) != 0 {
		if e.Status == EventOpen {
			p := r.senderPrinter(c.env)
			return r.lobbyAnswerIn(p, c.m, c.env, "join", p.Sprintf("You are in %s", e.Name), wrap(p.Sprintf("You are already entered in %s (%s). %s",
				e.Name, e.describeIn(p, e.Rules().Title()), startIn(p, e))))
		}
		// Not "no such event": they play in it.
		what := lang.M("You already play in %s, which is %s.", e.Name, string(e.Status))
		switch e.Status {
		case EventRunning:
			what = lang.M("You already play in %s, which is running.", e.Name)
		case EventFinished:
			what = lang.M("You already play in %s, which is finished.", e.Name)
		case EventClosed:
			what = lang.M("You already play in %s, which is closed.", e.Name)
		}
		return r.refuseIn(c.env, c.m, fmt.Sprintf("event: join %s: %s plays in it, %s", e.Name, c.m.From, e.Status),
			what, lang.M("Send \"standings %s\" for where it stands.", e.Name))
	}
	if why := e.Limits.outsideText(c.env.Lobby.Ratings, e.Variant, lang.M("event %s", e.Name)); why != nil {
		return r.refuseIn(c.env, c.m, fmt.Sprintf("event: join %s: %s outside its rating limits", e.Name, c.m.From),
			lang.M("You cannot join %s: %s.", e.Name, why),
			lang.M("Its organiser takes entries by mail only from players with %s in its game. \"rating\" shows your ratings; "+
				"\"events\" lists the events you may join.", limitsText(e.Limits)))
	}
	if !c.env.Lobby.Seen {
		if _, err := addr.Player(c.m.From); err != nil {
			return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("event: join %s: %s is no player's address (%v): not answered", e.Name, c.m.From, err)}
		}
		if !r.proved(c.m, joinProof(e)...) {
			p := r.senderPrinter(c.env)
			return r.askProofIn(p, c, "join", fmt.Sprintf("event %s: join from %s, an address not seen here, waits for its proof", e.Name, c.m.From),
				p.Sprintf("Confirm your entry to %s", e.Name),
				p.Sprintf("The referee at %s received a request to enter %s (%s) for this address, which has not played here before. "+
					"The entry counts once you confirm it.", r.cfg.Address, e.Name, e.describeIn(p, e.Rules().Title())),
				"join "+e.Name, p.Sprintf("nothing happens, and you are not entered."), joinProof(e)...)
		}
	}
	if e.hasTeams() {
		return r.teamJoin(c, e)
	}
	left := e.Places - len(e.Players) - 1
	p := r.senderPrinter(c.env)
	text := p.Sprintf("You have joined %s (%s).", e.Name, e.describeIn(p, e.Rules().Title())) + " "
	if e.Status == EventRunning {
		text += p.Sprintf("It is under way: you enter the lowest division when its next season starts, and a mail lists your games then. "+
			"\"standings %s\" shows where it stands.", e.Name)
	} else if left <= 0 {
		text += p.Sprintf("You took the last place: the event starts now. One mail lists your games, then each game's opening mail follows.")
	} else {
		text += p.Sprintf("%[1]d places are still to fill. %[2]s Until then, \"leave %[3]s\" takes you out again.", left, startIn(p, e), e.Name)
	}
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s joined", e.Name, c.m.From),
		Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Join: addr.Mailbox(c.m.From)}},
		Mails: []Mail{r.lobbyLetterIn(p, c.m, c.env.Now, "join", p.Sprintf("You joined %s", e.Name), wrap(text), "", "")}}
}

func startWords(e *Event) string { return startIn(nil, e) }

// startIn says when e starts, in p's language (nil: English).
func startIn(p *lang.Printer, e *Event) string {
	if !e.Starts.IsZero() {
		return p.Sprintf("It starts when it is full, or on %s.", dateFor(p, e.Starts, time.UTC))
	}
	return p.Sprintf("It starts when it is full.")
}

func entryWords(entry Players) string { return entryIn(nil, entry) }

// entryIn names who may join by the entry rule, in p's language (nil:
// English).
func entryIn(p *lang.Printer, entry Players) string {
	switch entry {
	case "open":
		return p.Sprintf("anyone")
	case "known":
		return p.Sprintf("players who have played here or whom the organiser added")
	}
	return p.Sprintf("the players on its list")
}

func (r *Referee) eventLeave(c *call) Outcome {
	e := c.env.Lobby.Event
	if e == nil || e.Seat(c.m.From) == 0 {
		return r.noEvent(c, "leave")
	}
	if e.Status != EventOpen {
		what := lang.M("You cannot leave %s: it has ended.", e.Name)
		if e.Status == EventRunning {
			what = lang.M("You cannot leave %s: it has started.", e.Name)
		}
		return r.refuseIn(c.env, c.m, fmt.Sprintf("event: leave %s: already %s", e.Name, e.Status), what,
			lang.M("To stop playing in an event under way, send \"withdraw %s\".", e.Name))
	}
	p := r.senderPrinter(c.env)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s left", e.Name, c.m.From),
		Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Leave: e.Players[e.Seat(c.m.From)-1].Address}},
		Mails: []Mail{r.lobbyLetterIn(p, c.m, c.env.Now, "leave", p.Sprintf("You left %s", e.Name),
			wrap(p.Sprintf("You have left %[1]s. \"join %[1]s\" enters you again while it takes entries.", e.Name)), "", "")}}
}

func (r *Referee) eventStandings(c *call) Outcome {
	e := c.env.Lobby.Event
	if e == nil || !c.visible(e) {
		return r.noEvent(c, "standings")
	}
	p := r.senderPrinter(c.env)
	out := r.lobbyAnswerIn(p, c.m, c.env, "standings", p.Sprintf("Standings of %s", e.Name), e.StandingsIn(p))
	out.Mails[0].HTML = e.StandingsHTMLIn(p)
	return out
}

func (r *Referee) eventWithdraw(c *call) Outcome {
	e := c.env.Lobby.Event
	if e == nil && c.m.Invite != nil {
		return r.invitation(c, "withdraw") // "withdraw now" in a reply to an invitation
	}
	seat := 0
	if e != nil {
		seat = e.Seat(c.m.From)
	}
	if seat == 0 {
		return r.noEvent(c, "withdraw")
	}
	pl := e.Players[seat-1]
	switch {
	case e.Status == EventOpen:
		return r.refuseIn(c.env, c.m, fmt.Sprintf("event: withdraw %s: not started", e.Name),
			lang.M("%s has not started yet: there is nothing to withdraw from.", e.Name),
			lang.M("Send \"leave %s\" to leave it before it starts.", e.Name))
	case e.Status != EventRunning:
		return r.refuseIn(c.env, c.m, fmt.Sprintf("event: withdraw %s: %s", e.Name, e.Status),
			lang.M("%s is over: there is nothing to withdraw from.", e.Name), lang.M("Send \"standings %s\" for its crosstable.", e.Name))
	case pl.Withdrawn != NotWithdrawn:
		return r.refuseIn(c.env, c.m, fmt.Sprintf("event: withdraw %s: already withdrawn", e.Name),
			lang.M("You have already withdrawn from %s.", e.Name), lang.M("Send \"standings %s\" for its crosstable.", e.Name))
	}
	p := r.senderPrinter(c.env)
	completed, total := e.SeatGames(seat)
	kind := e.WithdrawalKind(seat)
	var rule, done string
	switch {
	case kind == WithdrawnAnnulled && 2*completed < total:
		rule = p.Sprintf("You have completed %d of your %d games, fewer than half: all your games would be annulled and "+
			"removed from the scores.", completed, total)
		done = p.Sprintf("You have completed %d of your %d games, fewer than half: all your games are annulled and "+
			"removed from the scores.", completed, total)
	case kind == WithdrawnLost && 2*completed >= total:
		rule = p.Sprintf("You have completed %d of your %d games, at least half: your unfinished games would be lost, "+
			"and your results so far stay.", completed, total)
		done = p.Sprintf("You have completed %d of your %d games, at least half: your unfinished games are lost, "+
			"and your results so far stay.", completed, total)
	default:
		// Not ICCF's half rule over all the event's games (a knockout
		// match is lost whatever its games, a league counts its
		// season's): the format's rule, in its words.
		done = e.withdrawalRule(p, Withdrawal{Seat: seat, Kind: kind, How: ByMail}, true)
		rule = p.Sprintf("If you withdraw now, this rule applies: %s", done)
	}
	if len(c.args) < 2 || c.args[1] != "confirm" {
		return r.lobbyAnswerIn(p, c.m, c.env, "withdraw", p.Sprintf("Withdraw from %s?", e.Name), wrap(rule)+"\n\n"+
			wrap(p.Sprintf("To withdraw, send \"withdraw %s confirm\". Anything else keeps you in the event.", e.Name)))
	}
	text := wrap(done) + "\n"
	if games := e.withdrawnGamesIn(p, Withdrawal{Seat: seat, Kind: kind, How: ByMail}); games != "" {
		text += "\n" + p.Sprintf("Your games:") + "\n" + games + "\n"
	}
	text += "\n" + wrap(p.Sprintf("Your opponents are told, each in one mail.")) + "\n"
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s withdrew", e.Name, c.m.From),
		Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Withdraw: pl.playing()}},
		Mails: []Mail{r.lobbyLetterIn(p, c.m, c.env.Now, "withdraw", p.Sprintf("You withdrew from %s", e.Name), text, "", "")}}
}

// Summary is the event in one line: name, variant, format, time, places.
func (e *Event) Summary() string { return e.summary() }

// TieBreakText names a tie-break chain in words: "the number of wins, then
// Sonneborn-Berger".
func TieBreakText(chain []event.TieBreak) string { return chainText(chain) }

// statusSentence says that an event that took entries by mail does not
// any more, and why: "You cannot join autumn any more: it is running."
func statusSentence(e *Event) lang.Text {
	switch e.Status {
	case EventRunning:
		return lang.M("You cannot join %s any more: it is running.", e.Name)
	case EventFinished:
		return lang.M("You cannot join %s any more: it is finished.", e.Name)
	case EventClosed:
		return lang.M("You cannot join %s any more: it is closed.", e.Name)
	}
	return lang.M("You cannot join %s any more: it is %s.", e.Name, string(e.Status))
}

// entryRefusal says that e's organiser takes entries only from others.
type entryRefusal struct {
	name  string
	entry Players
}

// In is the sentence in p's language.
func (t entryRefusal) In(p *lang.Printer) string {
	return p.Sprintf("You cannot join %s: its organiser takes entries only from %s.", t.name, entryIn(p, t.entry))
}
