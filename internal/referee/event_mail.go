package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/game"
	"referee/internal/mail/addr"
	"referee/internal/render"
	"referee/internal/rules"
)

// The mails of an event: the start of a player's games, the end of the
// event, and the games a withdrawal or a substitute changes. What they say
// of the event's format they ask the format (Event.Rules).

// EventStartMail is the one mail each player of a starting event gets
// before the games' opening mails: their games, each with its reply
// address (theirs alone).
func (r *Referee) EventStartMail(e *Event, seat int, games []*Game, now time.Time) Mail {
	p := e.Players[seat-1]
	pr := r.printerOfSeat(e, seat)
	f := e.Rules()
	var b strings.Builder
	first := EventGame{}
	if len(games) > 0 {
		first = e.gameOf(games[0].ID)
	}
	a := f.Announce(pr, e, seat, first, len(games))
	b.WriteString(a.Head)
	for _, g := range games {
		eg := e.gameOf(g.ID)
		c := rules.White
		if eg.Black == seat {
			c = rules.Black
		}
		opp := g.Players[c.Other()].Address
		if c == rules.White {
			b.WriteString(pr.Sprintf("%s: game #%d, you play White against %s", f.Where(pr, eg), g.ID, opp))
		} else {
			b.WriteString(pr.Sprintf("%s: game #%d, you play Black against %s", f.Where(pr, eg), g.ID, opp))
		}
		b.WriteString("\n    " + pr.Sprintf("reply to: %s", r.ReplyAddress(g, c)) + "\n")
	}
	if a.Tail != "" {
		b.WriteString("\n" + a.Tail + "\n")
	}
	b.WriteString("\n" + wrap(pr.Sprintf("Send \"standings %s\" to the referee for the crosstable at any time. The reply "+
		"addresses are yours alone: do not pass them on.", e.Name)) + "\n")
	return Mail{Kind: KindEventStart, To: p.Playing(), Subject: a.Subject,
		Text: b.String() + lobbyFooterIn(pr, r.cfg.Address), Date: now,
		MessageID: r.messageID("event-start", e.Name, p.Playing(), fmt.Sprint(first.Round), fmt.Sprint(firstID(games)), now.UTC().Format(time.RFC3339))}
}

// EventEndMails are the final crosstable and the winner, to every player
// (and substitute) of a finished event, then to each of its observers
// (watchers, "observe EVENT") who is not a player. The crosstable comes
// with how each tie on points was broken. Each mail is in its reader's
// language: a player's as the event holds it, an observer's from
// languages (by mailbox; none: English).
func (r *Referee) EventEndMails(e *Event, watchers []string, languages map[string]string, now time.Time) []Mail {
	var out []Mail
	seen := map[string]bool{}
	winners := e.Rules().Winners(e)
	send := func(to, code string, observer bool) {
		if to == "" || seen[addr.Mailbox(to)] {
			return
		}
		seen[addr.Mailbox(to)] = true
		p := r.printer(code)
		text, html := e.StandingsIn(p), e.StandingsHTMLIn(p)
		if notes := e.tieNotesIn(p); len(notes) > 0 {
			text += "\n" + p.Sprintf("How the ties on points were broken:") + "\n"
			html += "<p>" + escapeHTML(p.Sprintf("How the ties on points were broken:")) + "</p>\n<ul>\n"
			for _, n := range notes {
				text += indent(wrapAt(n, 68), "    ")[2:] + "\n"
				html += "<li>" + escapeHTML(n) + "</li>\n"
			}
			html += "</ul>\n"
		}
		intro := p.Sprintf("The last game of %s has ended.", e.Name)
		if observer {
			intro = p.Sprintf("The last game of %s, which you observe, has ended.", e.Name)
		}
		winner := e.winnerIn(p, winners)
		out = append(out, Mail{Kind: KindEventEnd, To: to, Subject: p.Sprintf("[%s] Final crosstable: %s", e.Name, winner),
			Text: wrap(intro+" "+winner) + "\n\n" + text + lobbyFooterIn(p, r.cfg.Address),
			HTML: html, Date: now,
			MessageID: r.messageID("event-end", e.Name, to)})
	}
	for _, p := range e.Players {
		send(p.Address, p.Language, false)
		send(p.ReplacedBy, p.SubLanguage, false)
	}
	for _, w := range watchers {
		send(w, languages[addr.Mailbox(w)], true)
	}
	return out
}

// Forfeit ends an active game as lost by loser, for reason (an event's
// withdrawal rule), and writes the notices to both players.
func (r *Referee) Forfeit(g *Game, loser rules.Color, reason string, now time.Time) (*Game, []Mail, error) {
	if g.Status != StatusActive {
		return nil, nil, fmt.Errorf("game #%d is %s already: it cannot be forfeited", g.ID, g.Status)
	}
	rep, err := g.Replay()
	if err != nil {
		return nil, nil, err
	}
	ng := g.clone()
	ng.Status = StatusFinished
	ng.Result = map[rules.Color]string{rules.White: "0-1", rules.Black: "1-0"}[loser]
	ng.ResultReason = reason
	ng.Ending = game.EndForfeit
	ng.DrawOffer = nil
	ng.SeedRevealed = true
	var out []Mail
	for _, c := range []rules.Color{rules.White, rules.Black} {
		p := r.printer(ng.Players[c].Language)
		body := render.Mail{Headline: p.Sprintf("This game is over: %s.", resultText(p, ng))}
		if ng.Commitment != "" {
			body.Sections = append(body.Sections, r.revealSection(p, ng))
		}
		out = append(out, r.boardMail(ng, rep.Final, c, body, nil, nil, "abort", reason, now))
	}
	return ng, out, nil
}

// Substituted writes the mails of a game whose player c was replaced by a
// substitute (already in g.Players[c]): the substitute gets the board with
// their own reply address, the opponent the news; old is the player who
// left.
func (r *Referee) Substituted(g *Game, c rules.Color, old string, now time.Time) ([]Mail, error) {
	rep, err := g.Replay()
	if err != nil {
		return nil, err
	}
	var out []Mail
	for _, x := range []rules.Color{c, c.Other()} {
		p := r.printer(g.Players[x].Language)
		var body render.Mail
		switch {
		case x == c && c == rules.White:
			body.Headline = p.Sprintf("You take over %s's place in this game: you play White against %s. Reply to this mail with your moves.",
				old, g.Players[c.Other()].Address)
		case x == c:
			body.Headline = p.Sprintf("You take over %s's place in this game: you play Black against %s. Reply to this mail with your moves.",
				old, g.Players[c.Other()].Address)
		case c == rules.White:
			body.Headline = p.Sprintf("%[1]s takes over White's place (%[2]s) in this game from %[2]s.", g.Players[c].Address, old)
		default:
			body.Headline = p.Sprintf("%[1]s takes over Black's place (%[2]s) in this game from %[2]s.", g.Players[c].Address, old)
		}
		out = append(out, r.boardMail(g, rep.Final, x, body, nil, nil, "board", "substitute "+old, now))
	}
	return out, nil
}

func firstID(games []*Game) int64 {
	if len(games) == 0 {
		return 0
	}
	return games[0].ID
}
