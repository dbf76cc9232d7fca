package referee

import (
	"fmt"
	"strings"

	"referee/internal/event"
	"referee/internal/mail/addr"
)

// The players' event commands by mail: events, join, leave, standings,
// withdraw. A stranger learns nothing about an event they may not join:
// the refusal for it is the refusal for an event that does not exist.

const eventsTodo = "Send \"events\" to the referee for the events you may join."

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
		return r.refuse(c.env, c.m, "event: "+word+" without a name",
			fmt.Sprintf("Your mail said %q without the event's name.", word),
			fmt.Sprintf("Write \"%s NAME\", e.g. \"%s autumn\". %s", word, word, eventsTodo))
	}
	return r.refuse(c.env, c.m, fmt.Sprintf("event: %s %s: no such event for %s", word, name, c.m.From),
		fmt.Sprintf("Your mail said \"%s %s\", but there is no event %q that you play in or may join.", word, name, name),
		eventsTodo)
}

// visible says whether the sender may see e: they play in it, or may
// still join it.
func (c *call) visible(e *Event) bool {
	return e.Seat(c.m.From) != 0 || (e.TakesEntries() && c.env.Lobby.EventAllowed)
}

func (r *Referee) eventsList(c *call) Outcome {
	var open, others, mine strings.Builder
	for i := range c.env.Lobby.Events {
		e := &c.env.Lobby.Events[i]
		line := indent(wrapAt(e.summary(), 70), "  ") + "\n"
		switch {
		case e.Seat(c.m.From) != 0:
			mine.WriteString(line)
		case !e.TakesEntries():
		case c.env.Lobby.MayJoin[e.Name]:
			open.WriteString(line)
		default:
			// Open, but not to the sender: say who may join, so that a
			// "join" is not sent to be refused.
			others.WriteString(line + indent(wrapAt("Only "+entryWords(e.Entry)+" may join it; you are not among them: "+
				"ask the organiser to add you.", 68), "    ") + "\n")
		}
	}
	var b strings.Builder
	if open.Len() == 0 {
		b.WriteString("No event you may join is taking entries now.\n")
	} else {
		b.WriteString("Events you may join (send \"join NAME\" to enter one):\n\n" + open.String())
	}
	if others.Len() > 0 {
		b.WriteString("\nEvents taking entries from others:\n\n" + others.String())
	}
	if mine.Len() > 0 {
		b.WriteString("\nYour events (send \"standings NAME\" for the crosstable):\n\n" + mine.String())
	}
	return r.lobbyAnswer(c.m, c.env, "events", "Events", b.String())
}

func (r *Referee) eventJoin(c *call) Outcome {
	e := c.env.Lobby.Event
	if e != nil && e.Seat(c.m.From) == 0 && !e.TakesEntries() && e.Status != EventOpen && e.Places > 0 {
		// An event that took entries by mail is public: say it is too late.
		return r.refuse(c.env, c.m, fmt.Sprintf("event: join %s: %s", e.Name, e.Status),
			fmt.Sprintf("You cannot join %s any more: it is %s.", e.Name, e.Status), eventsTodo)
	}
	if e == nil || (e.Seat(c.m.From) == 0 && !c.visible(e)) {
		if e != nil && e.TakesEntries() {
			// It exists and takes entries, but not from this sender.
			return r.refuse(c.env, c.m, fmt.Sprintf("event: join %s: %s may not join", e.Name, c.m.From),
				fmt.Sprintf("You cannot join %s: its organiser takes entries only from %s.", e.Name, entryWords(e.Entry)),
				"Ask the organiser to add you, or send \"events\" for the events you may join.")
		}
		return r.noEvent(c, "join")
	}
	if e.Seat(c.m.From) != 0 {
		if e.Status == EventOpen {
			return r.lobbyAnswer(c.m, c.env, "join", "You are in "+e.Name, wrap(fmt.Sprintf("You are already entered in %s (%s). %s",
				e.Name, e.describe(), startWords(e))))
		}
		// Not "no such event": they play in it.
		return r.refuse(c.env, c.m, fmt.Sprintf("event: join %s: %s plays in it, %s", e.Name, c.m.From, e.Status),
			fmt.Sprintf("You already play in %s, which is %s.", e.Name, e.Status),
			fmt.Sprintf("Send \"standings %s\" for where it stands.", e.Name))
	}
	if why := e.Limits.outside(c.env.Lobby.Ratings, e.Variant, "event "+e.Name); why != "" {
		return r.refuse(c.env, c.m, fmt.Sprintf("event: join %s: %s outside its rating limits", e.Name, c.m.From),
			fmt.Sprintf("You cannot join %s: %s.", e.Name, why),
			fmt.Sprintf("Its organiser takes entries by mail only from players with %s in its game. \"rating\" shows your ratings; "+
				"\"events\" lists the events you may join.", e.Limits.Text()))
	}
	if !c.env.Lobby.Seen {
		if _, err := addr.Player(c.m.From); err != nil {
			return Outcome{Verdict: Ignored, Detail: fmt.Sprintf("event: join %s: %s is no player's address (%v): not answered", e.Name, c.m.From, err)}
		}
		if !r.proved(c.m, joinProof(e)...) {
			return r.askProof(c, "join", fmt.Sprintf("event %s: join from %s, an address not seen here, waits for its proof", e.Name, c.m.From),
				"Confirm your entry to "+e.Name,
				fmt.Sprintf("The referee at %s received a request to enter %s (%s) for this address, which has not played here before. "+
					"The entry counts once you confirm it.", r.cfg.Address, e.Name, e.describe()),
				"join "+e.Name, "nothing happens, and you are not entered.", joinProof(e)...)
		}
	}
	if e.hasTeams() {
		return r.teamJoin(c, e)
	}
	left := e.Places - len(e.Players) - 1
	text := fmt.Sprintf("You have joined %s (%s). ", e.Name, e.describe())
	if e.Status == EventRunning {
		text += fmt.Sprintf("It is under way: you enter the lowest division when its next season starts, and a mail lists your games then. "+
			"\"standings %s\" shows where it stands.", e.Name)
	} else if left <= 0 {
		text += "You took the last place: the event starts now. One mail lists your games, then each game's opening mail follows."
	} else {
		text += fmt.Sprintf("%s to fill. %s Until then, \"leave %s\" takes you out again.", map[bool]string{true: "1 place is", false: fmt.Sprintf("%d places are", left)}[left == 1]+" still", startWords(e), e.Name)
	}
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s joined", e.Name, c.m.From),
		Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Join: addr.Mailbox(c.m.From)}},
		Mails: []Mail{r.lobbyLetter(c.m, c.env.Now, "join", "You joined "+e.Name, wrap(text), "", "")}}
}

func startWords(e *Event) string {
	if !e.Starts.IsZero() {
		return "It starts when it is full, or on " + dateText(e.Starts) + "."
	}
	return "It starts when it is full."
}

func entryWords(entry Players) string {
	switch entry {
	case "open":
		return "anyone"
	case "known":
		return "players who have played here or whom the organiser added"
	}
	return "the players on its list"
}

func (r *Referee) eventLeave(c *call) Outcome {
	e := c.env.Lobby.Event
	if e == nil || e.Seat(c.m.From) == 0 {
		return r.noEvent(c, "leave")
	}
	if e.Status != EventOpen {
		return r.refuse(c.env, c.m, fmt.Sprintf("event: leave %s: already %s", e.Name, e.Status),
			fmt.Sprintf("You cannot leave %s: it has %s.", e.Name, map[bool]string{true: "started", false: "ended"}[e.Status == EventRunning]),
			fmt.Sprintf("To stop playing in an event under way, send \"withdraw %s\".", e.Name))
	}
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s left", e.Name, c.m.From),
		Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Leave: e.Players[e.Seat(c.m.From)-1].Address}},
		Mails: []Mail{r.lobbyLetter(c.m, c.env.Now, "leave", "You left "+e.Name,
			wrap(fmt.Sprintf("You have left %s. \"join %s\" enters you again while it takes entries.", e.Name, e.Name)), "", "")}}
}

func (r *Referee) eventStandings(c *call) Outcome {
	e := c.env.Lobby.Event
	if e == nil || !c.visible(e) {
		return r.noEvent(c, "standings")
	}
	p := r.senderPrinter(c.env)
	out := r.lobbyAnswerIn(p, c.m, c.env, "standings", p.Sprintf("Standings of %s", e.Name), e.StandingsIn(p))
	out.Mails[0].HTML = e.StandingsHTML()
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
	p := e.Players[seat-1]
	switch {
	case e.Status == EventOpen:
		return r.refuse(c.env, c.m, fmt.Sprintf("event: withdraw %s: not started", e.Name),
			fmt.Sprintf("%s has not started yet: there is nothing to withdraw from.", e.Name),
			fmt.Sprintf("Send \"leave %s\" to leave it before it starts.", e.Name))
	case e.Status != EventRunning:
		return r.refuse(c.env, c.m, fmt.Sprintf("event: withdraw %s: %s", e.Name, e.Status),
			fmt.Sprintf("%s is over: there is nothing to withdraw from.", e.Name), "Send \"standings "+e.Name+"\" for its crosstable.")
	case p.Withdrawn != NotWithdrawn:
		return r.refuse(c.env, c.m, fmt.Sprintf("event: withdraw %s: already withdrawn", e.Name),
			fmt.Sprintf("You have already withdrawn from %s.", e.Name), "Send \"standings "+e.Name+"\" for its crosstable.")
	}
	completed, total := e.SeatGames(seat)
	kind := e.WithdrawalKind(seat)
	var rule, done string
	switch {
	case kind == WithdrawnAnnulled && 2*completed < total:
		rule = fmt.Sprintf("You have completed %d of your %d games, fewer than half: all your games would be annulled and "+
			"removed from the scores.", completed, total)
	case kind == WithdrawnLost && 2*completed >= total:
		rule = fmt.Sprintf("You have completed %d of your %d games, at least half: your unfinished games would be lost, "+
			"and your results so far stay.", completed, total)
	default:
		// Not ICCF's half rule over all the event's games (a knockout
		// match is lost whatever its games, a league counts its
		// season's): the format's rule, in its words.
		done = e.withdrawalRule(Withdrawal{Seat: seat, Kind: kind, How: ByMail}, "You")
		rule = "If you withdraw now, this rule applies: " + done
	}
	if done == "" {
		done = strings.NewReplacer(" would be ", " are ").Replace(rule)
	}
	if len(c.args) < 2 || c.args[1] != "confirm" {
		return r.lobbyAnswer(c.m, c.env, "withdraw", "Withdraw from "+e.Name+"?", wrap(rule)+"\n\n"+
			wrap(fmt.Sprintf("To withdraw, send \"withdraw %s confirm\". Anything else keeps you in the event.", e.Name)))
	}
	text := wrap(done) + "\n"
	if games := e.withdrawnGames(Withdrawal{Seat: seat, Kind: kind, How: ByMail}); games != "" {
		text += "\nYour games:\n" + games + "\n"
	}
	text += "\n" + wrap("Your opponents are told, each in one mail.") + "\n"
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s withdrew", e.Name, c.m.From),
		Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Withdraw: p.playing()}},
		Mails: []Mail{r.lobbyLetter(c.m, c.env.Now, "withdraw", "You withdrew from "+e.Name, text, "", "")}}
}

// Summary is the event in one line: name, variant, format, time, places.
func (e *Event) Summary() string { return e.summary() }

// TieBreakText names a tie-break chain in words: "the number of wins, then
// Sonneborn-Berger".
func TieBreakText(chain []event.TieBreak) string { return chainText(chain) }
