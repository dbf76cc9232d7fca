package referee

import (
	"fmt"
	"strings"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/render"
	"referee/internal/rules"
)

// Spectators: anyone the organiser's policy allows may follow a game by
// mail ("observe 17", "unobserve 17" to the referee's address); a game may
// be shown to spectators some moves late (as ICCF does), and a player may
// ask for a private game that no one may observe. Spectator mails carry the
// board and the moves, never a reply address that could act. The same view
// (SpectatorView) is what the web pages show.

// Observer policies: who may observe games by mail (LobbyConfig.Observers).
const (
	ObserversOpen  = "open"  // anyone
	ObserversKnown = "known" // addresses that played here, or that the organiser added
	ObserversNone  = "none"  // no one: only the organiser adds spectators ("referee watch")
)

// MaxWatchDelay is the longest delay an organiser may set, in moves (each
// side's move, a ply, counts one): ICCF allows 0 to 7.
const MaxWatchDelay = 7

// CheckWatchDelay says what is wrong with n as a delay, or nil.
func CheckWatchDelay(n int) error {
	if n < 0 || n > MaxWatchDelay {
		return fmt.Errorf("the delay %d is not between 0 and %d moves: give 0 (spectators see each move at once) up to %d", n, MaxWatchDelay, MaxWatchDelay)
	}
	return nil
}

// Shown is the number of actions of g a spectator may see: every action of
// a game that is over, and of a running game all but the last
// State.WatchDelay.
func (g *Game) Shown() int {
	if g.Status != StatusActive {
		return g.Ply()
	}
	return max(0, g.Ply()-g.State.WatchDelay)
}

// SpectatorView is g as a spectator may see it: the record cut to Shown()
// actions (and the rolls made up to then), with nothing a spectator may not
// know (secrets, the die seed of a running game, the draw offer and the
// protocol state of a delayed game). It is what spectator mails and the web
// pages are made from.
func (g *Game) SpectatorView() *Game {
	v := g.clone()
	n := g.Shown()
	v.Actions = v.Actions[:n]
	v.Rolls = v.Rolls[:0]
	for _, r := range g.Rolls {
		if r.Ply <= n {
			v.Rolls = append(v.Rolls, r)
		}
	}
	for c := range v.Players {
		v.Players[c].Secret = ""
	}
	if !g.SeedRevealed {
		v.Seed = [32]byte{}
	}
	if n < g.Ply() {
		v.DrawOffer = nil
		v.State.ResignPending, v.State.ResignMessage, v.State.TakebackBy = nil, "", nil
	}
	v.Watchers = nil
	return v
}

// PositionAt is the position after the first n actions and the rolls that
// followed them: at 0, the start with its first roll.
func (g *Game) PositionAt(n int) (rules.Position, error) {
	if n > 0 {
		pos, err := g.Variant.ParsePosition(g.Actions[n-1].Position)
		if err != nil {
			return nil, fmt.Errorf("game #%d: stored position after %d actions: %w", g.ID, n, err)
		}
		return pos, nil
	}
	start := *g
	start.Actions = nil
	start.Rolls = nil
	for _, r := range g.Rolls {
		if r.Ply == 0 {
			start.Rolls = append(start.Rolls, r)
		}
	}
	rep, err := start.Replay()
	if err != nil {
		return nil, err
	}
	return rep.Final, nil
}

// justPlayed reports whether g's last action was made by the outcome being
// decided: the core leaves an action's Time zero, the app stores the time
// with it.
func justPlayed(g *Game) bool {
	n := len(g.Actions)
	return n > 0 && g.Actions[n-1].Time.IsZero()
}

// PublicName is how a player is named to spectators and on web pages: the
// display name the player chose, or the address with its local part masked
// ("al…@example.org"). A spectator never learns a player's address.
func PublicName(p Player) string {
	if n := strings.TrimSpace(p.Name); n != "" && !strings.Contains(n, "@") {
		return n
	}
	return MaskAddress(p.Address)
}

// MaskAddress keeps the first two characters of an address's local part
// and its domain: "alice@example.org" is "al…@example.org".
func MaskAddress(a string) string {
	local, domain, ok := strings.Cut(addr.Mailbox(a), "@")
	if !ok {
		return "a player"
	}
	keep := min(2, len(local))
	if len(local) <= 2 {
		keep = 1
	}
	return local[:keep] + "…@" + domain
}

// observeRefusalIn says why the organiser's policy (--observers) refuses
// the sender's "observe", and what to do: the command that lets them in,
// written in the reader's language. game is the game's number, or "" for
// an event (which the organiser's "referee watch" does not take).
func (r *Referee) observeRefusalIn(game string) (what, todo lang.Text) {
	switch r.lobbyCfg().Observers {
	case ObserversNone:
		what = lang.M("the organiser lets no one observe games by mail (--observers none).")
		todo = lang.M("Ask the organiser, or a player, for the game's record instead.")
		if game != "" {
			todo = lang.M("Ask the organiser: \"referee watch %s ADDRESS\" makes you a spectator of this game whatever the policy.", game)
		}
		return what, todo
	case ObserversOpen:
		what = lang.M("the organiser removed your address from those who may play or observe here by mail.")
		return what, lang.M("Ask the organiser (\"referee player add ADDRESS\" lets you in again).")
	}
	what = lang.M("the organiser lets only known players observe games by mail (--observers known): those who have played here, " +
		"and those the organiser added; you are not one of them yet.")
	todo = lang.M("Ask the organiser to add you (\"referee player add ADDRESS\").")
	if game != "" {
		todo = lang.M("Ask the organiser to add you (\"referee player add ADDRESS\"), or to make you a spectator of this game alone (\"referee watch %s ADDRESS\").", game)
	}
	return what, todo
}

// observe makes the sender a spectator of the game the argument names.
func (r *Referee) observe(c *call) Outcome {
	m, env, id := c.m, c.env, gameArg(c.args)
	if id == 0 && env.Lobby.Event != nil {
		return r.observeEvent(c)
	}
	lc := r.lobbyCfg()
	line := firstWords(m.Action, 6)
	no := func(detail string, what, todo lang.Text) Outcome {
		return r.refuseIn(env, m, "observe: "+detail, lang.M("Your request %q was not carried out: %s", line, what), todo)
	}
	if id == 0 {
		return no("no game id or event", lang.M("it names no game and no event."),
			lang.M("Write \"observe\" and the game's number, e.g. \"observe 17\", or an event's name, e.g. \"observe autumn\" (\"events\" lists them)."))
	}
	if !env.Lobby.MayObserve {
		what, todo := r.observeRefusalIn(fmt.Sprint(id))
		return no("sender not allowed under --observers "+lc.Observers, what, todo)
	}
	g := env.Lobby.Named
	if g == nil || g.ID != id || g.Status != StatusActive || g.State.Private {
		// The same answer whether the game exists, is over or is private:
		// a stranger learns nothing about games they may not see.
		return no(fmt.Sprintf("game #%d not observable", id),
			lang.M("game #%d is not a running game that can be observed (it does not exist, is over, or its players asked for a private game).", id),
			lang.M("Check the game's number with its players or the organiser."))
	}
	if _, plays := g.colorOf(m.From); plays {
		return no(fmt.Sprintf("sender plays in game #%d", id), lang.M("you play in game #%d: its board mails come to you already.", id),
			lang.M("Reply \"board\" to the game's latest mail for the board again."))
	}
	for _, w := range g.Watchers {
		if addr.SameMailbox(w, m.From) {
			return no(fmt.Sprintf("already observing game #%d", id), lang.M("you observe game #%d already.", id),
				lang.M("Send \"unobserve %d\" to %s to stop.", id, r.cfg.Address))
		}
	}
	if n := env.Lobby.Observing; n >= lc.MaxObserved {
		return no("sender observes the most games allowed", lang.M("you observe %d running games already, the most allowed at once.", n),
			lang.M("Send \"unobserve GAME\" for one of them first."))
	}
	ng := g.clone()
	ng.Watchers = []string{m.From}
	// The new spectator's first mail in their language, as the ones that
	// follow (the app loads it into WatcherLanguages).
	ng.WatcherLanguages = map[string]string{m.From: env.Language}
	view := ng.SpectatorView()
	pos, err := view.Position()
	if err != nil {
		return Outcome{Verdict: Ignored, Detail: err.Error()}
	}
	headline := lang.M("You now observe game #%d.", id)
	if d := g.State.WatchDelay; d > 0 {
		headline = lang.Join(" ", headline, lang.M("It is shown %s late: the board below is not the newest.", lang.M("%d moves", d)))
	}
	out := Outcome{Verdict: Applied, Detail: fmt.Sprintf("game #%d: %s observes", id, m.From),
		Lobby: &LobbyChange{Watch: &WatchChange{GameID: id, Address: m.From}}}
	out.Mails = r.spectatorMailsOf(ng, view, pos, headline, env.Now)
	return out
}

// unobserve stops the sender's spectator mails of a game.
func (r *Referee) unobserve(c *call) Outcome {
	m, env, id := c.m, c.env, gameArg(c.args)
	if id == 0 && env.Lobby.Event != nil {
		return r.unobserveEvent(c)
	}
	if id == 0 {
		return r.refuseIn(env, m, "unobserve: no game id or event", lang.M("%q names no game and no event.", firstWords(m.Action, 6)),
			lang.M("Write \"unobserve\" and the game's number, e.g. \"unobserve 17\", or an event's name, e.g. \"unobserve autumn\"."))
	}
	if ev := env.Lobby.NamedVia; ev != "" {
		return r.refuseIn(env, m, fmt.Sprintf("unobserve: %s observes game #%d through event %s", m.From, id, ev),
			lang.M("You observe game #%d as a game of the event %s, so it cannot be stopped alone.", id, ev),
			lang.M("Send \"unobserve %s\" to %s to stop the mails of every game of the event.", ev, r.cfg.Address))
	}
	g := env.Lobby.Named
	watching := ""
	if g != nil && g.ID == id {
		for _, w := range g.Watchers {
			if addr.SameMailbox(w, m.From) {
				watching = w
			}
		}
	}
	if watching == "" {
		return r.refuseIn(env, m, fmt.Sprintf("unobserve: %s does not observe game #%d", m.From, id),
			lang.M("You do not observe game #%d, so there is nothing to stop.", id),
			lang.M("Check the number in the subject of the spectator mails: \"[variant #17]\" is game 17."))
	}
	p := r.senderPrinter(env)
	out := r.lobbyAnswerIn(p, m, env, "unobserve", p.Sprintf("You no longer observe game #%d", id),
		wrap(p.Sprintf("You will get no more mails about game #%[1]d. Send \"observe %[1]d\" to %[2]s to follow it again.", id, r.cfg.Address)))
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("game #%d: %s stops observing", id, m.From)
	out.Lobby = &LobbyChange{Watch: &WatchChange{GameID: id, Address: watching, Stop: true}}
	return out
}

// observers tells a player who observes their game, in their language.
func (r *Referee) observers(c *call) Outcome {
	g := c.g
	p := r.printer(g.Players[c.color].Language)
	var b strings.Builder
	switch {
	case g.State.Private:
		b.WriteString(p.Sprintf("This game is private: no one may observe it."))
	case len(g.Watchers) == 0:
		b.WriteString(p.Sprintf("No one observes this game."))
	default:
		b.WriteString(p.Sprintf("%d spectators observe this game:", len(g.Watchers)) + "\n")
		for _, w := range g.Watchers {
			b.WriteString("  " + w + "\n")
		}
		if d := g.State.WatchDelay; d > 0 {
			b.WriteString("\n" + p.Sprintf("They see the board %s late.", p.Sprintf("%d moves", d)))
		}
	}
	return r.answerIn(g, c.color, c.pos, c.m, c.env.Now, "observers", lang.M("Who observes your game."), lang.M("Observers"),
		[]render.Section{{Title: p.Sprintf("Observers"), Body: b.String()}})
}
