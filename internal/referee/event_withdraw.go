package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/mail/addr"
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

// short is why in a subject.
func (w Withdrawal) short(you bool) string {
	switch {
	case w.How == ByMail:
		return "withdrew"
	case you:
		return "were withdrawn"
	}
	return "was withdrawn"
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
// or to their opponent.
func gameFate(g EventGame, w Withdrawal, mine bool) string {
	switch {
	case w.Kind == WithdrawnAnnulled && g.Status == StatusFinished:
		return "finished " + g.Result + ", now annulled: it counts for no one"
	case w.Kind == WithdrawnAnnulled && g.Status == StatusActive:
		return "annulled: it ends now and counts for no one"
	case g.Status == StatusActive && mine:
		return "lost by forfeit"
	case g.Status == StatusActive:
		return "won by you, by forfeit"
	}
	return "finished " + g.Result + ": the result stands"
}

// fateLine is one game of a withdrawal's mail: the game, the opponent
// ("" when the mail is about them), the reader's colour c, then what
// became of the game on a line of its own.
func fateLine(g EventGame, against, c, fate string) string {
	head := fmt.Sprintf("  game #%d, you played %s", g.GameID, c)
	if against != "" {
		head = fmt.Sprintf("  game #%d against %s, you played %s", g.GameID, against, c)
	}
	return head + ":\n" + indent(wrapAt(fate, 66), "    ")
}

// WithdrawalMails are the mails of withdrawal w from e (e as it was
// before it): one to each opponent whose games with the player change,
// listing them, and one to the player unless they withdrew by mail.
func (r *Referee) WithdrawalMails(e *Event, w Withdrawal, now time.Time) []Mail {
	p := e.Players[w.Seat-1]
	who := p.playing()
	var out []Mail
	byOpp := map[int][]string{}
	var opps []int
	var mine []string
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
		// mc is the colour of the player who left, oc their opponent's.
		opp, mc, oc := g.Black, "White", "Black"
		if g.Black == w.Seat {
			opp, mc, oc = g.White, "Black", "White"
		}
		if _, ok := byOpp[opp]; !ok {
			opps = append(opps, opp)
		}
		byOpp[opp] = append(byOpp[opp], fateLine(g, "", oc, gameFate(g, w, false)))
		mine = append(mine, fateLine(g, e.Players[opp-1].playing(), mc, gameFate(g, w, true)))
	}
	std := wrap(fmt.Sprintf("The crosstable marks an annulled game \"-\" and the player \"(w)\"; send \"standings %s\" to the referee for it.", e.Name))
	if e.Rules().Layout() == LayoutBracket {
		std = wrap(fmt.Sprintf("Send \"standings %s\" to the referee for the rounds.", e.Name))
	}
	for _, o := range opps {
		to := e.Players[o-1].playing()
		games := byOpp[o]
		subject := fmt.Sprintf("[%s] %s %s: your %s with them", e.Name, who, w.short(false), map[bool]string{true: "game", false: "games"}[len(games) == 1])
		text := wrap(fmt.Sprintf("%s %s from %s. %s", who, w.why(false), e.Name, e.withdrawalRule(w, "They"))) + "\n\n" +
			map[bool]string{true: "Your game with them:\n", false: "Your games with them:\n"}[len(games) == 1] + strings.Join(games, "\n") + "\n\n" + std + "\n"
		out = append(out, Mail{Kind: KindNotice, To: to, Subject: subject, Text: text + lobbyFooter(r.cfg.Address), Date: now,
			MessageID: r.messageID("withdrawal", e.Name, fmt.Sprint(w.Seat), addr.Mailbox(to))})
	}
	if w.How != ByMail { // the answer to their own mail told them
		text := wrap(fmt.Sprintf("You %s from %s. %s", w.why(true), e.Name, e.withdrawalRule(w, "You"))) + "\n"
		if len(mine) > 0 {
			text += "\nYour games:\n" + strings.Join(mine, "\n") + "\n"
		}
		text += "\n" + wrap("Your opponents are told, each in one mail.") + "\n"
		out = append(out, Mail{Kind: KindNotice, To: who, Subject: fmt.Sprintf("[%s] You %s", e.Name, w.short(true)),
			Text: text + lobbyFooter(r.cfg.Address), Date: now, MessageID: r.messageID("withdrawal", e.Name, fmt.Sprint(w.Seat), "self")})
	}
	return out
}

// withdrawnGames lists the games of w's player that w changes, for the
// player's own answer to "withdraw EVENT confirm": one line a game.
func (e *Event) withdrawnGames(w Withdrawal) string {
	var lines []string
	season := e.season()
	for _, g := range e.Games {
		if (g.White != w.Seat && g.Black != w.Seat) || g.Season < season || g.Status == StatusAborted || (w.Kind != WithdrawnAnnulled && g.Status != StatusActive) {
			continue
		}
		opp, mc := g.Black, "White"
		if g.Black == w.Seat {
			opp, mc = g.White, "Black"
		}
		lines = append(lines, fateLine(g, e.Players[opp-1].playing(), mc, gameFate(g, w, true)))
	}
	return strings.Join(lines, "\n")
}
