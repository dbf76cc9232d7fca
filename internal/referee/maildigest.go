package referee

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/notation"
	"referee/internal/render"
)

// DigestChange is a player's new mail setting: At the local time of day
// ("18:00") of one digest a day, "" for a mail per move.
type DigestChange struct {
	Address string
	At      string
}

// InDigest reports whether a player who takes a digest gets mail of kind
// k in the digest rather than one by one: the opponent's move (KindMove)
// and the confirmation of their own (KindConfirmation). A game's start
// (KindOpening, KindEventOpening) and its end (KindGameEnd, KindAbort),
// reminders (a clock about to run out within a day), refusals, answers
// and notices still come at once.
func (k MailKind) InDigest() bool { return k == KindMove || k == KindConfirmation }

// parseHour reads "18:00" or "18".
func parseHour(s string) (string, error) {
	if !strings.Contains(s, ":") {
		s += ":00"
	}
	t, err := time.Parse("15:04", s)
	if err != nil {
		return "", &lang.Error{Why: lang.M("%q is not a time of day; write it as HH:MM, e.g. \"mail digest 18:00\"", s)}
	}
	return t.Format("15:04"), nil
}

// DigestSlot is the latest moment at or before now when the daily digest
// set for at ("18:00") in loc is due: today's, or yesterday's before that
// hour.
func DigestSlot(at string, loc *time.Location, now time.Time) time.Time {
	h, err := time.Parse("15:04", at)
	if err != nil {
		return time.Time{}
	}
	y, m, d := now.In(loc).Date()
	slot := time.Date(y, m, d, h.Hour(), h.Minute(), 0, 0, loc)
	if slot.After(now) {
		slot = time.Date(y, m, d-1, h.Hour(), h.Minute(), 0, 0, loc)
	}
	return slot
}

// mailSetting answers "mail digest 18:00" and "mail each".
func (r *Referee) mailSetting(c *call) Outcome {
	m, env := c.m, c.env
	p := r.senderPrinter(env)
	var at, text string
	switch {
	case len(c.args) == 1 && c.args[0] == "each":
		text = p.Sprintf("From now on you get a mail for every move in your games, as it happens.")
	case len(c.args) == 2 && c.args[0] == "digest":
		var err error
		if at, err = parseHour(c.args[1]); err != nil {
			return r.refuseIn(env, m, "mail digest: "+c.args[1], sentenceText{lang.Why(err)}, lang.M("Send e.g. \"mail digest 18:00\", or \"mail each\"."))
		}
		zone := env.Zone
		if zone == "" {
			zone = "UTC"
		}
		text = p.Sprintf("From now on you get one mail a day at %s (%s; \"timezone\" changes it) listing every game where it is your move, "+
			"each with its board, its clock and its own reply address, instead of a mail per move. A game's start and its end (a mate, a draw, "+
			"a resignation), and reminders of a clock about to run out, still come at once. "+
			"\"mail each\" goes back to a mail per move.", at, zone)
	default:
		return r.refuseIn(env, m, "mail: "+strings.Join(c.args, " "), lang.M("%q is not a mail setting.", strings.Join(append([]string{"mail"}, c.args...), " ")),
			lang.M("Send \"mail digest 18:00\" for one mail a day at 18:00, or \"mail each\" for a mail per move."))
	}
	out := r.lobbyAnswerIn(p, m, env, "mail-setting", p.Sprintf("Your mail setting"), wrap(text)+"\n")
	out.Verdict = Applied
	out.Detail = fmt.Sprintf("%s: mail %s", m.From, strings.Join(c.args, " "))
	out.Lobby = &LobbyChange{Digest: &DigestChange{Address: m.From, At: at}}
	return out
}

// Digest writes the daily digest of the player at to (in zone, "" for
// UTC) over games, their active games: a section for every game where it
// is their move (the opponent by name, its board, the opponent's last move
// and message, a draw offer waiting, the clock with its deadline or "no
// time limit", and the game's own reply address: a mail to it acts in that
// game), then a line for each of their other games with the opponent's
// deadline. A game's start and end are not here: they come at once
// (InDigest). ok is false when it is their move nowhere: then no digest is
// sent.
func (r *Referee) Digest(to, zone string, games []*Game, now time.Time) (Mail, bool) {
	loc := zoneLocation(zone)
	games = slices.Clone(games)
	slices.SortStableFunc(games, func(a, b *Game) int { return compareUrgency(a, b) })
	// The player's language is theirs in every game (it is stored per
	// player): the first game of theirs says it.
	code := ""
	for _, g := range games {
		if c, ok := g.colorOf(to); ok {
			code = g.Players[c].Language
			break
		}
	}
	p := r.printer(code)
	var turn, other strings.Builder
	n := 0
	for _, g := range games {
		c, ok := g.colorOf(to)
		if !ok || g.Status != StatusActive {
			continue
		}
		pos, err := g.Position()
		if err != nil {
			continue
		}
		opp := g.Players[c.Other()].shownName()
		title := variantTitle(p, g.Variant)
		last := p.Sprintf("no move yet")
		if k := len(g.Actions); k > 0 {
			a := g.Actions[k-1]
			san := notation.WriteIn(g.Variant, a.SAN, p.ReaderTag())
			last = p.Sprintf("%s played %s", opp, san)
			if a.Color == c {
				last = p.Sprintf("your last move was %s", san)
			}
		}
		cl := g.clock()
		if pos.Turn() != c {
			line := p.Sprintf("#%d %s against %s: their move (%s)", g.ID, title, opp, last)
			if cl != nil {
				line = p.Sprintf("%s; their time runs out %s", line, whenFor(p, cl.Deadline(c.Other()), loc))
			}
			other.WriteString("  " + indent(wrapAt(line+".", 68), "    ")[4:] + "\n")
			continue
		}
		n++
		turn.WriteString(p.Sprintf("=== Game #%d - %s - move %d ===", g.ID, title, pos.MoveNumber()) + "\n")
		turn.WriteString(wrap(bySide(c, p.Sprintf("You play White against %s.", opp), p.Sprintf("You play Black against %s.", opp))) + "\n\n")
		turn.WriteString(wrap(sentence(last)) + "\n")
		if k := len(g.Actions); k > 0 && g.Actions[k-1].Color != c && strings.TrimSpace(r.relayable(g.Actions[k-1].Message, g)) != "" {
			turn.WriteString(p.Sprintf("%s writes: \"%s\"", opp, strings.TrimSpace(r.relayable(g.Actions[k-1].Message, g))) + "\n")
		}
		if o := g.DrawOffer; o != nil && o.By == c.Other() {
			turn.WriteString(wrap(p.Sprintf("%s offers a draw: reply \"draw\" to accept it; your move declines it.", opp)) + "\n")
		}
		turn.WriteString("\n" + render.TextIn(p, pos, c) + "\n")
		if cl != nil {
			turn.WriteString(wrap(p.Sprintf("Your clock (%s): %s left; your time runs out %s.", cl.DescribeIn(p), spanFor(p, cl.Deadline(c).Sub(now)), whenFor(p, cl.Deadline(c), loc))) + "\n")
		} else {
			turn.WriteString(p.Sprintf("No time limit in this game.") + "\n")
		}
		turn.WriteString(p.Sprintf("To play in game #%d, write your move on the first line of a mail to", g.ID) + "\n  " + r.ReplyAddress(g, c) + "\n\n")
	}
	if n == 0 {
		return Mail{}, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", wrap(p.Sprintf("Your daily digest of %s: it is your move in %s.", whenFor(p, now, loc), p.Sprintf("%d games", n))))
	b.WriteString(turn.String())
	if other.Len() > 0 {
		b.WriteString(p.Sprintf("Your other games:") + "\n" + other.String() + "\n")
	}
	b.WriteString(wrap(p.Sprintf("Each game has its own reply address above: a mail to it acts in that game only. A game's start and its end "+
		"come in mails of their own, at once. \"mail each\" (to the referee) goes back to a mail per move.")) + "\n")
	subject := p.Sprintf("Your move in %s (daily digest)", p.Sprintf("%d games", n))
	return Mail{Kind: KindDigest, To: to, Subject: subject, Text: b.String() + lobbyFooterIn(p, r.cfg.Address),
		MessageID: r.messageID("digest", to, now.UTC().Format(time.RFC3339)), Date: now}, true
}

// shownName is how a digest names a player: their name, else their
// address.
func (p Player) shownName() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Address
}

// compareUrgency orders a digest's games: the timed ones first, the
// nearest deadline first, then the others by number.
func compareUrgency(a, b *Game) int {
	ca, cb := a.clock(), b.clock()
	switch {
	case ca != nil && cb != nil:
		if c := a.deadline().Compare(b.deadline()); c != 0 {
			return c
		}
	case ca != nil:
		return -1
	case cb != nil:
		return 1
	}
	return cmp.Compare(a.ID, b.ID)
}

// deadline is when the side to move runs out of time (a timed game).
func (g *Game) deadline() time.Time {
	pos, err := g.Position()
	if err != nil {
		return time.Time{}
	}
	return g.clock().Deadline(pos.Turn())
}
