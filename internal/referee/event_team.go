package referee

import (
	"fmt"
	"strings"
	"time"

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
	usage := fmt.Sprintf("Send \"replace %s OLD NEW\": OLD the address of a player of your team who has not started, NEW the address that takes their board.", e.Name)
	if e.Format != FormatTeam {
		return r.refuse(c.env, c.m, "replace: not a team event", fmt.Sprintf("%s is a %s: only a team's captain replaces a player by mail.", e.Name, e.Rules().Title()),
			"Ask the organiser (\"referee event replace\").")
	}
	if len(c.args) < 3 {
		return r.refuse(c.env, c.m, "replace: two addresses needed", "\"replace\" needs the player who leaves and the one who comes.", usage)
	}
	me, old := e.Seat(c.m.From), e.Seat(c.args[1])
	newcomer := strings.ToLower(strings.TrimSpace(c.args[2]))
	switch {
	case me == 0 || e.captainOf(me) != me:
		return r.refuse(c.env, c.m, fmt.Sprintf("replace %s: %s is no captain", e.Name, c.m.From),
			fmt.Sprintf("Only a team's captain (the first player named for it) may replace a player of %s by mail.", e.Name), "Ask your captain.")
	case e.Status != EventRunning:
		return r.refuse(c.env, c.m, fmt.Sprintf("replace %s: %s", e.Name, e.Status), fmt.Sprintf("%s is %s.", e.Name, e.Status), "Nothing to replace.")
	case old == 0 || e.Players[old-1].Team != e.Players[me-1].Team:
		return r.refuse(c.env, c.m, fmt.Sprintf("replace %s: %s not in the team", e.Name, c.args[1]),
			fmt.Sprintf("%s plays for no board of your team.", c.args[1]), usage)
	case e.Named(newcomer):
		return r.refuse(c.env, c.m, fmt.Sprintf("replace %s: %s not new", e.Name, newcomer),
			fmt.Sprintf("%s cannot take the board: give the address of someone new to %s.", newcomer, e.Name), usage)
	}
	// The organiser's "event replace" takes only a player's address; so
	// does the captain's (issue 38: no host, no IP address, not the
	// referee's own).
	if a, err := addr.Player(newcomer); err != nil {
		return r.refuse(c.env, c.m, fmt.Sprintf("replace %s: %s is no player's address", e.Name, newcomer),
			fmt.Sprintf("%q cannot take the board: %s.", newcomer, err), usage)
	} else if addr.SameMailbox(a, r.cfg.Address) {
		return r.refuse(c.env, c.m, fmt.Sprintf("replace %s: the referee's address", e.Name),
			"The referee does not play: it cannot take the board.", usage)
	}
	for _, g := range e.Games {
		// White's first move is ply 1, Black's ply 2.
		if (g.White == old && g.Ply >= 1) || (g.Black == old && g.Ply >= 2) {
			return r.refuse(c.env, c.m, fmt.Sprintf("replace %s: %s has started", e.Name, c.args[1]),
				fmt.Sprintf("%s has started playing (game #%d): a board is handed on only before its first move.", c.args[1], g.GameID),
				"Ask the organiser (\"referee event replace\") if they must leave.")
		}
	}
	p := e.Players[old-1]
	return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: captain %s replaces %s with %s", e.Name, c.m.From, p.Address, newcomer),
		Lobby: &LobbyChange{Replace: &ReplaceChange{Event: e.Name, Seat: old, New: newcomer}},
		Mails: []Mail{r.lobbyLetter(c.m, c.env.Now, "replace", "You replaced "+p.Address,
			wrap(fmt.Sprintf("%s takes board %d of team %s from %s; both are told, and the opponents too, each game with its board.",
				newcomer, p.Board, p.Team, p.Address)), "", "")}}
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
			text := fmt.Sprintf("Your request to play for team %s in %s (%s) waits for the organiser's approval: a mail tells you "+
				"when they decide. Its games start when the organiser starts the event.", n, e.Name, e.describe())
			return Outcome{Verdict: Applied, Detail: fmt.Sprintf("event %s: %s asks to play for %s", e.Name, c.m.From, n),
				Lobby: &LobbyChange{Event: &EventChange{Name: e.Name, Join: addr.Mailbox(c.m.From), Team: n}},
				Mails: []Mail{r.lobbyLetter(c.m, c.env.Now, "join", "Your request to join team "+n, wrap(text), "", "")}}
		}
	}
	return r.refuse(c.env, c.m, fmt.Sprintf("event: join %s: no team %q", e.Name, want),
		fmt.Sprintf("%s is played by teams (%s): say which one you want to play for.", e.Name, strings.Join(names, ", ")),
		fmt.Sprintf("Send \"join %s TEAM\", e.g. \"join %s %s\".", e.Name, e.Name, names[0]))
}

// Notice is a short mail of the organiser's decision to a player (a team
// request approved or declined): text, then the footer.
func (r *Referee) Notice(to, subject, text string, now time.Time) Mail {
	return Mail{Kind: KindNotice, To: to, Subject: subject, Text: wrap(text) + "\n" + lobbyFooter(r.cfg.Address), Date: now,
		MessageID: r.messageID("notice", addr.Mailbox(to), subject, now.UTC().String())}
}
