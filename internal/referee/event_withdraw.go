package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/lang"
	"referee/internal/mail/addr"
	"referee/internal/rules"
)

// A withdrawal from an event (issue 37): the games it ends change without
// a board mail each; instead every person concerned gets one mail that
// says who withdrew, under which rule, and what became of each of their
// games with that player.

// AnnulledPrefix starts the abort reason of a game annulled by a
// withdrawal: its end is then told as an annulment, not as the
// organiser's abort.
const AnnulledPrefix = "annulled: "

// why is what happened to the player, after their name (or "You").
func (w Withdrawal) why(you bool) string {
	switch {
	case w.How == ByOrganiser && you:
		return "were withdrawn by the organiser"
	case w.How == ByOrganiser:
		return "was withdrawn by the organiser"
	case w.How == BySilence && you:
		return "lost half your games on time and are withdrawn"
	case w.How == BySilence:
		return "lost half their games on time and is withdrawn"
	}
	return "withdrew"
}

// WithdrawalReason is the reason stored with each game w ends: "X withdrew
// from autumn", after AnnulledPrefix for an annulled game.
func (e *Event) WithdrawalReason(w Withdrawal) string {
	r := fmt.Sprintf("%s %s from %s", e.Players[w.Seat-1].playing(), w.why(false), e.Name)
	if w.Kind == WithdrawnAnnulled {
		return AnnulledPrefix + r
	}
	return r
}

// gameFate is what w does to game g, told to the player who left (mine)
// or to their opponent, in p's language (nil: English).
func gameFate(p *lang.Printer, g EventGame, w Withdrawal, mine bool) string {
	switch {
	case w.Kind == WithdrawnAnnulled && g.Status == StatusFinished:
		return p.Sprintf("finished %s, now annulled: it counts for no one", g.Result)
	case w.Kind == WithdrawnAnnulled && g.Status == StatusActive:
		return p.Sprintf("annulled: it ends now and counts for no one")
	case g.Status == StatusActive && mine:
		return p.Sprintf("lost by forfeit")
	case g.Status == StatusActive:
		return p.Sprintf("won by you, by forfeit")
	}
	return p.Sprintf("finished %s: the result stands", g.Result)
}

// fateLine is one game of a withdrawal's mail: the game, the opponent
// ("" when the mail is about them), the reader's colour c, then what
// became of the game on a line of its own.
func fateLine(p *lang.Printer, g EventGame, against string, c rules.Color, fate string) string {
	var head string
	switch {
	case against == "" && c == rules.White:
		head = p.Sprintf("game #%d, you played White", g.GameID)
	case against == "":
		head = p.Sprintf("game #%d, you played Black", g.GameID)
	case c == rules.White:
		head = p.Sprintf("game #%d against %s, you played White", g.GameID, against)
	default:
		head = p.Sprintf("game #%d against %s, you played Black", g.GameID, against)
	}
	return "  " + head + ":\n" + indent(wrapAt(fate, 66), "    ")
}

// withdrewText says who left e and how (w.How), in p's language: "X
// withdrew from autumn." or, to the player (you), "You were withdrawn
// by the organiser from autumn."
func withdrewText(p *lang.Printer, w Withdrawal, who, name string, you bool) string {
	switch {
	case w.How == ByOrganiser && you:
		return p.Sprintf("You were withdrawn by the organiser from %s.", name)
	case w.How == ByOrganiser:
		return p.Sprintf("%s was withdrawn by the organiser from %s.", who, name)
	case w.How == BySilence && you:
		return p.Sprintf("You lost half your games on time and are withdrawn from %s.", name)
	case w.How == BySilence:
		return p.Sprintf("%s lost half their games on time and is withdrawn from %s.", who, name)
	case you:
		return p.Sprintf("You withdrew from %s.", name)
	}
	return p.Sprintf("%s withdrew from %s.", who, name)
}

// withdrawalSubject is the subject of the mail to an opponent of the
// player who left, with games of theirs that change.
func withdrawalSubject(p *lang.Printer, w Withdrawal, who, name string, games int) string {
	switch {
	case w.How == ByMail && games == 1:
		return p.Sprintf("[%s] %s withdrew: your game with them", name, who)
	case w.How == ByMail:
		return p.Sprintf("[%s] %s withdrew: your games with them", name, who)
	case games == 1:
		return p.Sprintf("[%s] %s was withdrawn: your game with them", name, who)
	}
	return p.Sprintf("[%s] %s was withdrawn: your games with them", name, who)
}

// WithdrawalMails are the mails of withdrawal w from e (e as it was
// before it): one to each opponent whose games with the player change,
// listing them, and one to the player unless they withdrew by mail. Each
// is in its reader's language.
func (r *Referee) WithdrawalMails(e *Event, w Withdrawal, now time.Time) []Mail {
	pl := e.Players[w.Seat-1]
	who := pl.playing()
	var out []Mail
	byOpp := map[int][]EventGame{}
	var opps []int
	var mine []EventGame
	season := e.season()
	for _, g := range e.Games {
		if g.White != w.Seat && g.Black != w.Seat {
			continue
		}
		if g.Season < season {
			continue // a league's earlier season: its games stand
		}
		if w.Kind != WithdrawnAnnulled && g.Status != StatusActive {
			continue // a result that stands: nothing changes for it
		}
		if g.Status == StatusAborted {
			continue
		}
		opp := g.Black
		if g.Black == w.Seat {
			opp = g.White
		}
		if _, ok := byOpp[opp]; !ok {
			opps = append(opps, opp)
		}
		byOpp[opp] = append(byOpp[opp], g)
		mine = append(mine, g)
	}
	std := func(p *lang.Printer) string {
		if e.Rules().Layout() == LayoutBracket {
			return wrap(p.Sprintf("Send \"standings %s\" to the referee for the rounds.", e.Name))
		}
		return wrap(p.Sprintf("The crosstable marks an annulled game \"-\" and the player \"(w)\"; send \"standings %s\" to the referee for it.", e.Name))
	}
	for _, o := range opps {
		to := e.Players[o-1].playing()
		p := r.printerOfSeat(e, o)
		var games []string
		for _, g := range byOpp[o] {
			oc := rules.Black // the opponent's colour
			if g.Black == w.Seat {
				oc = rules.White
			}
			games = append(games, fateLine(p, g, "", oc, gameFate(p, g, w, false)))
		}
		head := p.Sprintf("Your games with them:")
		if len(games) == 1 {
			head = p.Sprintf("Your game with them:")
		}
		text := wrap(withdrewText(p, w, who, e.Name, false)+" "+e.withdrawalRule(p, w, false)) + "\n\n" +
			head + "\n" + strings.Join(games, "\n") + "\n\n" + std(p) + "\n"
		out = append(out, Mail{Kind: KindNotice, To: to, Subject: withdrawalSubject(p, w, who, e.Name, len(games)), Text: text + lobbyFooterIn(p, r.cfg.Address), Date: now,
			MessageID: r.messageID("withdrawal", e.Name, fmt.Sprint(w.Seat), addr.Mailbox(to))})
	}
	if w.How != ByMail { // the answer to their own mail told them
		p := r.printerOfSeat(e, w.Seat)
		text := wrap(withdrewText(p, w, who, e.Name, true)+" "+e.withdrawalRule(p, w, true)) + "\n"
		if len(mine) > 0 {
			var lines []string
			for _, g := range mine {
				opp, mc := g.Black, rules.White
				if g.Black == w.Seat {
					opp, mc = g.White, rules.Black
				}
				lines = append(lines, fateLine(p, g, e.Players[opp-1].playing(), mc, gameFate(p, g, w, true)))
			}
			text += "\n" + p.Sprintf("Your games:") + "\n" + strings.Join(lines, "\n") + "\n"
		}
		text += "\n" + wrap(p.Sprintf("Your opponents are told, each in one mail.")) + "\n"
		out = append(out, Mail{Kind: KindNotice, To: who, Subject: p.Sprintf("[%s] You were withdrawn", e.Name),
			Text: text + lobbyFooterIn(p, r.cfg.Address), Date: now, MessageID: r.messageID("withdrawal", e.Name, fmt.Sprint(w.Seat), "self")})
	}
	return out
}

// withdrawnGamesIn lists the games of w's player that w changes, for the
// player's own answer to "withdraw EVENT confirm": one line a game, in
// p's language.
func (e *Event) withdrawnGamesIn(p *lang.Printer, w Withdrawal) string {
	var lines []string
	season := e.season()
	for _, g := range e.Games {
		if (g.White != w.Seat && g.Black != w.Seat) || g.Season < season || g.Status == StatusAborted || (w.Kind != WithdrawnAnnulled && g.Status != StatusActive) {
			continue
		}
		opp, mc := g.Black, rules.White
		if g.Black == w.Seat {
			opp, mc = g.White, rules.Black
		}
		lines = append(lines, fateLine(p, g, e.Players[opp-1].playing(), mc, gameFate(p, g, w, true)))
	}
	return strings.Join(lines, "\n")
}
