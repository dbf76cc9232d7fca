package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/addr"
)

// captainReplace answers "replace EVENT OLD NEW" from a team captain: a
// player of their team who has not started (no move in any of their
// games) hands their games to NEW, who is new to the event.
func (r *Referee) captainReplace(c *call) Outcome {
	e := c.env.Lobby.Event
	if e == nil || !c.visible(e) {
		return r.noEvent(c, "replace")
	}
	usage := lang.M("Send \"replace %s OLD NEW\": OLD the address of a player of your team who has not started, NEW the address that takes their board.", e.Name)
	if e.Format != FormatTeam {
		return r.refuseIn(c.env, c.m, "replace: not a team event",
			lang.M("%s is a %s: only a team's captain replaces a player by mail.", e.Name, formatTitleText(e.Rules().Title())),
			lang.M("Ask the organiser (\"referee event replace\")."))
	}
	if len(c.args) < 3 {
		return r.refuseIn(c.env, c.m, "replace: two addresses needed", lang.M("\"replace\" needs the player who leaves and the one who comes."), usage)
	}
	me, old := e.Seat(c.m.From), e.Seat(c.args[1])
	newcomer := strings.ToLower(strings.TrimSpace(c.args[2]))
	switch {
	case me == 0 || e.captainOf(me) != me:
		return r.refuseIn(c.env, c.m, fmt.Sprintf("replace %s: %s is no captain", e.Name, c.m.From),
			lang.M("Only a team's captain (the first player named for it) may replace a player of %s by mail.", e.Name), lang.M("Ask your captain."))
	case e.Status != EventRunning:
		return r.refuseIn(c.env, c.m, fmt.Sprintf("replace %s: %s", e.Name, e.Status), eventStateText(e), lang.M("Nothing to replace."))
	case old == 0 || e.Players[old-1].Team != e.Players[me-1].Team:
		return r.refuseIn(c.env, c.m, fmt.Sprintf("replace %s: %s not in the team", e.Name, c.args[1]),
			lang.M("%s plays for no board of your team.", c.args[1]), usage)
	case e.Named(newcomer):
		return r.refuseIn(c.env, c.m, fmt.Sprintf("replace %s: %s not new", e.Name, newcomer),
			lang.M("%s cannot take the board: give the address of someone new to %s.", newcomer, e.Name), usage)
	}
	// The organiser's "event replace" takes only a player's address; so
	// does the captain's (issue 38: no host, no IP address, not the
	// referee's own).
	if a, err := addr.Player(newcomer); err != nil {
		// The address's fault in English: addr's words.
		return r.refuseIn(c.env, c.m, fmt.Sprintf("replace %s: %s is no player's address", e.Name, newcomer),
			lang.M("%q cannot take the board: %s.", newcomer, lang.Why(err)), usage)
	} else if addr.SameMailbox(a, r.cfg.Address) {
		return r.refuseIn(c.env, c.m, fmt.Sprintf("replace %s: the referee's address", e.Name),
			lang.M("The referee does not play: it cannot take the board."), usage)
	}
	for _, g := range e.Games {
		// White's first move is ply 1, Black's ply 2.
		if (g.White == old && g.Ply >= 1) || (g.Black == old && g.Ply >= 2) {
			return r.refuseIn(c.env, c.m, fmt.Sprintf("replace %s: %s has started", e.Name, c.args[1]),
				lang.M("%s has started playing (game #%d): a board is handed on only before its first move.", c.args[1], g.GameID),
				lang.M("Ask the organiser (\"referee event replace\") if they must leave."))
		}
	}
	p := e.Players[old-1]
	sp := r.senderPrinter(c.env)
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: captain %s replaces %s with %s", e.Name, c.m.From, p.Address, newcomer),
		Lobby: &LobbyChange{Replace: &ReplaceChange{Event: e.Name, Seat: old, New: newcomer}},
		Mails: []Mail{r.lobbyLetterIn(sp, c.m, c.env.Now, "replace", sp.Sprintf("You replaced %s", p.Address),
			wrap(sp.Sprintf("%s takes board %d of team %s from %s; both are told, and the opponents too, each game with its board.",
				newcomer, p.Board, p.Team, p.Address)), "", "")}}
}

// eventStateText says what state e is in: "autumn is finished.".
func eventStateText(e *Event) lang.Text {
	switch e.Status {
	case EventOpen:
		return lang.M("%s is open.", e.Name)
	case EventFinished:
		return lang.M("%s is finished.", e.Name)
	case EventClosed:
		return lang.M("%s is closed.", e.Name)
	}
	return lang.M("%s is %s.", e.Name, string(e.Status))
}

// teamJoin answers "join NAME TEAM" for an open team event: a request to
// play for one of its teams, which waits for the organiser's approval
// ("referee event approve NAME ADDRESS").
func (r *Referee) teamJoin(c *call, e *Event) Outcome {
	var names []string
	for _, t := range e.teams() {
		names = append(names, t.name)
	}
	want := strings.TrimSpace(strings.Join(c.args[1:], " "))
	for _, n := range names {
		if strings.EqualFold(n, want) {
			p := r.senderPrinter(c.env)
			text := p.Sprintf("Your request to play for team %s in %s (%s) waits for the organiser's approval: a mail tells you "+
				"when they decide. Its games start when the organiser starts the event.", n, e.Name, e.describeIn(p, e.Rules().Title()))
			return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s asks to play for %s", e.Name, c.m.From, n),
				Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Join: addr.Mailbox(c.m.From), Team: n}},
				Mails: []Mail{r.lobbyLetterIn(p, c.m, c.env.Now, "join", p.Sprintf("Your request to join team %s", n), wrap(text), "", "")}}
		}
	}
	return r.refuseIn(c.env, c.m, fmt.Sprintf("event: join %s: no team %q", e.Name, want),
		lang.M("%s is played by teams (%s): say which one you want to play for.", e.Name, strings.Join(names, ", ")),
		lang.M("Send \"join %[1]s TEAM\", e.g. \"join %[1]s %[2]s\".", e.Name, names[0]))
}

// notice is a short mail of the organiser's decision to a player (a team
// request approved or declined): text, then the footer.
func (r *Referee) notice(to, subject, text string, now time.Time) Mail {
	return r.noticeIn(r.english(), to, subject, subject, text, now)
}

// noticeIn is notice with the footer in p's language; salt names the mail
// in its Message-ID (the English subject: the same in every language).
func (r *Referee) noticeIn(p *lang.Printer, to, subject, salt, text string, now time.Time) Mail {
	return Mail{Kind: KindNotice, To: to, Subject: subject, Text: wrap(text) + "\n" + lobbyFooterIn(p, r.cfg.Address), Date: now,
		MessageID: r.messageID("notice", addr.Mailbox(to), salt, now.UTC().String())}
}

// TeamRequestNotice tells the player at to, in their language (a code,
// "" for English), the organiser's decision on their request to play for
// team in the event name: taken in on board, or declined.
func (r *Referee) TeamRequestNotice(to, language, name, team string, board int, approved bool, now time.Time) Mail {
	subject := func(p *lang.Printer) string {
		if approved {
			return p.Sprintf("[%s] You play for team %s", name, team)
		}
		return p.Sprintf("[%s] Your request to join team %s is declined", name, team)
	}
	p := r.printer(language)
	text := p.Sprintf("The organiser of %s did not take you into team %s.", name, team)
	if approved {
		text = p.Sprintf("The organiser of %s took you into team %s, on board %d. Your games start when the event starts; "+
			"a mail lists them then.", name, team, board)
	}
	return r.noticeIn(p, to, subject(p), subject(r.english()), text, now)
}
