package referee

import (
	"fmt"
	"strings"

	"referee/internal/lang"
)

// runningGames ("3 running games": those a spectator observes) and
// gamesRunning ("3 games running": an event's) are counts written later
// in the reader's language.
type (
	runningGames int
	gamesRunning int
)

// In is the count in p's language.
func (n runningGames) In(p *lang.Printer) string { return p.Sprintf("%d running games", int(n)) }

// In is the count in p's language.
func (n gamesRunning) In(p *lang.Printer) string { return p.Sprintf("%d games running", int(n)) }

// observeEvent makes the sender a spectator of every game of the event the
// argument names (Lobby.Event): the running games and those that start
// later, such as a knockout's next rounds. The policy and the limit are
// those of "observe GAME"; a private game of the event stays unobserved
// (spectatorMails sends nothing for one).
func (r *Referee) observeEvent(c *call) Outcome {
	m, env, e := c.m, c.env, c.env.Lobby.Event
	lc := r.lobbyCfg()
	line := firstWords(m.Action, 6)
	no := func(detail string, what, todo lang.Text) Outcome {
		return r.refuseIn(env, m, "observe: "+detail, lang.M("Your request %q was not carried out: %s", line, what), todo)
	}
	if !env.Lobby.MayObserve {
		what, todo := r.observeRefusalIn("")
		return no("sender not allowed under --observers "+lc.Observers, what, todo)
	}
	if e.Status != EventOpen && e.Status != EventRunning {
		what := lang.M("the event %s is %s: it has no games to come.", e.Name, string(e.Status))
		switch e.Status {
		case EventFinished:
			what = lang.M("the event %s is finished: it has no games to come.", e.Name)
		case EventClosed:
			what = lang.M("the event %s is closed: it has no games to come.", e.Name)
		}
		return no(fmt.Sprintf("event %s is %s", e.Name, e.Status), what, lang.M("Send \"standings %s\" for its final table.", e.Name))
	}
	if env.Lobby.EventObserved {
		return no(fmt.Sprintf("already observing event %s", e.Name), lang.M("you observe the event %s already.", e.Name),
			lang.M("Send \"unobserve %s\" to %s to stop.", e.Name, r.cfg.Address))
	}
	var running []string
	for _, g := range e.Games {
		if g.Status == StatusActive {
			running = append(running, fmt.Sprintf("#%d", g.GameID))
		}
	}
	if n := env.Lobby.Observing; n+len(running) > lc.MaxObserved {
		return no("sender would observe more games than allowed",
			lang.M("you observe %s already, and the event %s has %s running: together more than the %d allowed at once.",
				runningGames(n), e.Name, gamesRunning(len(running)), lc.MaxObserved),
			lang.M("Send \"unobserve GAME\" for some of your games first, or observe single games of the event (\"observe 17\")."))
	}
	p := r.senderPrinter(env)
	text := p.Sprintf("You now observe the event %s (%s). You get the board mails of each of its games as it is played, "+
		"of the games that start later too, except of any game its players asked to keep private. Games may be shown some moves late.",
		e.Name, e.describeIn(p, e.Rules().Title()))
	if len(running) > 0 {
		text += " " + p.Sprintf("Its running games: %s; the next move in each brings its board.", strings.Join(running, ", "))
	}
	text += " " + p.Sprintf("Send \"unobserve %s\" to %s to stop.", e.Name, r.cfg.Address)
	out := r.lobbyAnswerIn(p, m, env, "observe", p.Sprintf("You observe the event %s", e.Name), wrap(text))
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("event %s: %s observes", e.Name, m.From)
	out.Lobby = &LobbyChange{WatchEvent: &EventWatchChange{Event: e.Name, Address: m.From}}
	return out
}

// unobserveEvent stops the sender's spectator mails of an event's games.
func (r *Referee) unobserveEvent(c *call) Outcome {
	m, env, e := c.m, c.env, c.env.Lobby.Event
	if !env.Lobby.EventObserved {
		return r.refuseIn(env, m, fmt.Sprintf("unobserve: %s does not observe event %s", m.From, e.Name),
			lang.M("You do not observe the event %s, so there is nothing to stop.", e.Name),
			lang.M("To stop the mails of a single game, send \"unobserve\" and its number (\"[variant #17]\" in the subject is game 17)."))
	}
	p := r.senderPrinter(env)
	out := r.lobbyAnswerIn(p, m, env, "unobserve", p.Sprintf("You no longer observe the event %s", e.Name),
		wrap(p.Sprintf("You will get no more mails about the games of the event %[1]s. Send \"observe %[1]s\" to %[2]s to follow it again.",
			e.Name, r.cfg.Address)))
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("event %s: %s stops observing", e.Name, m.From)
	out.Lobby = &LobbyChange{WatchEvent: &EventWatchChange{Event: e.Name, Address: m.From, Stop: true}}
	return out
}
