package referee

import (
	"fmt"
	"referee/internal/lang"
	"slices"
	"strings"
	"time"

	"referee/internal/event"
)

// The ladder (issue 41), as SchemingMind's, GameKnot's and Little Golem's
// ladders run: players join at the bottom; a player challenges someone at
// most Reach places above by mail ("ladder NAME ADDRESS"); the challenged
// accepts ("ladder NAME accept") within AcceptDays days, or loses the
// challenge as if beaten; the challenge is one game, or two with colours
// swapped (Games), with the event's time control. A challenger who scores
// more takes the challenged's place and everyone between moves down one.
// A player has at most MaxGames challenges pending or in play; one without
// a ladder game for IdleWeeks weeks drops to the bottom. The order is never
// stored: it is recomputed from the joins, the challenges and the drops,
// in the order they happened (LadderOrder). A ladder runs until the
// organiser closes it.

// FormatLadder is the name of a ladder (Event.Format).
const FormatLadder = "ladder"

// ladderOf is e's ladder record (an empty one for an event without).
func (e *Event) ladderOf() *Ladder {
	if e.Ladder == nil {
		return &Ladder{Settings: LadderSettings{}.WithDefaults()}
	}
	return e.Ladder
}

// challengeGames are the games of challenge id (the event's games of round
// id).
func (e *Event) challengeGames(id int64) []EventGame {
	var out []EventGame
	for _, g := range e.Games {
		if int64(g.Round) == id {
			out = append(out, g)
		}
	}
	return out
}

// gamesOver says whether every game of accepted challenge c has ended.
func (e *Event) gamesOver(c LadderChallenge) bool {
	games := e.challengeGames(c.ID)
	for _, g := range games {
		if g.Status == StatusActive {
			return false
		}
	}
	return c.Accepted != nil && len(games) > 0
}

// challengeResult says whether challenge c is decided, when, and whether
// the challenger won it: an expired challenge is the challenger's at its
// expiry; an accepted one when its last game ended (Decided), won by the
// challenger with more points.
func (e *Event) challengeResult(c LadderChallenge) (decided bool, at time.Time, won bool) {
	if c.Expired != nil {
		return true, *c.Expired, true
	}
	if c.Decided == nil {
		return false, time.Time{}, false
	}
	at = *c.Decided
	var mine, theirs float64
	for _, g := range e.challengeGames(c.ID) {
		s, ok := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[g.Result]
		if !ok {
			continue // aborted: counts for no one
		}
		if g.White == c.Challenger {
			mine, theirs = mine+s, theirs+1-s
		} else {
			mine, theirs = mine+1-s, theirs+s
		}
	}
	return true, at, mine > theirs
}

// LadderOrder is the ladder from the top: every player who has not
// withdrawn, as the joins, decided challenges and drops placed them, in
// the order they happened.
func (e *Event) LadderOrder() []int {
	type happening struct {
		at   time.Time
		kind int // 0 join, 1 challenge decided, 2 drop
		seat int
		c    LadderChallenge
		won  bool
	}
	var hs []happening
	for _, p := range e.Players {
		hs = append(hs, happening{at: p.Joined, kind: 0, seat: p.Seat})
	}
	l := e.ladderOf()
	for _, c := range l.Challenges {
		if decided, at, won := e.challengeResult(c); decided {
			hs = append(hs, happening{at: at, kind: 1, c: c, won: won})
		}
	}
	for _, d := range l.Drops {
		hs = append(hs, happening{at: d.At, kind: 2, seat: d.Seat})
	}
	slices.SortStableFunc(hs, func(a, b happening) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return a.kind - b.kind
	})
	var order []int
	for _, h := range hs {
		switch h.kind {
		case 0:
			order = append(order, h.seat)
		case 1:
			i, j := slices.Index(order, h.c.Challenged), slices.Index(order, h.c.Challenger)
			if h.won && i >= 0 && j > i {
				order = slices.Insert(slices.Delete(order, j, j+1), i, h.c.Challenger)
			}
		case 2:
			if i := slices.Index(order, h.seat); i >= 0 {
				order = append(slices.Delete(order, i, i+1), h.seat)
			}
		}
	}
	return slices.DeleteFunc(order, func(s int) bool { return e.Players[s-1].Withdrawn != NotWithdrawn })
}

// LadderBusy counts seat's challenges pending or in play.
func (e *Event) LadderBusy(seat int) int {
	n := 0
	for _, c := range e.ladderOf().Challenges {
		if c.Challenger != seat && c.Challenged != seat {
			continue
		}
		if decided, _, _ := e.challengeResult(c); !decided {
			n++
		}
	}
	return n
}

// LadderLastPlayed is when seat last had a ladder game (a challenge's
// acceptance or the end of its games), joined the ladder, or was dropped:
// the start of their idle time.
func (e *Event) LadderLastPlayed(seat int) time.Time {
	last := e.Players[seat-1].Joined
	for _, c := range e.ladderOf().Challenges {
		if c.Challenger != seat && c.Challenged != seat {
			continue
		}
		for _, t := range []*time.Time{c.Accepted, c.Decided} {
			if t != nil && t.After(last) {
				last = *t
			}
		}
	}
	for _, d := range e.ladderOf().Drops {
		if d.Seat == seat && d.At.After(last) {
			last = d.At
		}
	}
	return last
}

// LadderChallengeRefusal says why seat may not challenge target now, in
// the reader's language, or nil: both on the ladder, target at most Reach
// places above, neither with MaxGames challenges pending or in play, no
// challenge between them undecided.
func (e *Event) LadderChallengeRefusal(seat, target int) lang.Text {
	s := e.ladderOf().Settings.WithDefaults()
	order := e.LadderOrder()
	i, j := slices.Index(order, target), slices.Index(order, seat)
	switch {
	case j < 0:
		return lang.M("you are not on the ladder")
	case i < 0:
		return lang.M("%s is not on the ladder", e.Players[target-1].playing())
	case seat == target:
		return lang.M("you cannot challenge yourself")
	case i > j:
		return lang.M("%s is below you (place %d, you are %d): challenge players above you", e.Players[target-1].playing(), i+1, j+1)
	case j-i > s.Reach:
		return lang.M("%s is %d places above you (place %d, you are %d), and this ladder lets you challenge at most %d places up",
			e.Players[target-1].playing(), j-i, i+1, j+1, s.Reach)
	case e.LadderBusy(seat) >= s.MaxGames:
		return lang.M("you have %d challenges pending or in play, the most this ladder allows", e.LadderBusy(seat))
	case e.LadderBusy(target) >= s.MaxGames:
		return lang.M("%s has %d challenges pending or in play, the most this ladder allows", e.Players[target-1].playing(), e.LadderBusy(target))
	}
	for _, c := range e.ladderOf().Challenges {
		if decided, _, _ := e.challengeResult(c); !decided && (c.Challenger == seat && c.Challenged == target || c.Challenger == target && c.Challenged == seat) {
			return lang.M("a challenge between you and %s is not decided yet", e.Players[target-1].playing())
		}
	}
	return nil
}

type ladder struct{}

func (ladder) Name() string  { return FormatLadder }
func (ladder) Title() string { return "ladder" }

func (ladder) Fits(n int) bool  { return n >= 2 && n <= MaxLeague }
func (ladder) SizeText() string { return fmt.Sprintf("a ladder takes 2 to %d players", MaxLeague) }

// Start: the ladder is open; its games are the challenges'.
func (ladder) Start(*Event) ([]EventGame, error) { return nil, nil }

// Next: the challenges whose last game has just ended are decided now (a
// challenge's games start when it is accepted, not here).
func (ladder) Next(e *Event) (Step, error) {
	var st Step
	for _, c := range e.ladderOf().Challenges {
		if c.Decided == nil && e.gamesOver(c) {
			st.Decided = append(st.Decided, c.ID)
		}
	}
	return st, nil
}

// Over: never; a ladder runs until the organiser closes it.
func (ladder) Over(*Event) bool { return false }

// Winners: the top of the ladder.
func (ladder) Winners(e *Event) []int {
	if o := e.LadderOrder(); len(o) > 0 {
		return o[:1]
	}
	return nil
}

// WithdrawalKind: the player leaves the ladder; their unfinished games are
// lost.
func (ladder) WithdrawalKind(*Event, int) int { return WithdrawnLost }

func (ladder) WithdrawalRule(p *lang.Printer, _ *Event, _ Withdrawal, _ bool) string {
	return p.Sprintf("A player who leaves a ladder loses their unfinished ladder games, and everyone below moves up one place.")
}

// Silent is the round robin's rule over the player's ladder games.
func (ladder) Silent(e *Event, seat int) bool { return singleRoundRobin.Silent(e, seat) }

// Standings are the ladder from the top, who is playing whom, and the
// challenges waiting for their acceptance.
func (f ladder) Standings(p *lang.Printer, e *Event) string {
	var b strings.Builder
	s := e.ladderOf().Settings.WithDefaults()
	fmt.Fprintf(&b, "%s\n\n", e.summaryIn(p, f.Title()))
	for i, seat := range e.LadderOrder() {
		fmt.Fprintf(&b, "%3d  %s%s\n", i+1, e.Players[seat-1].label(), e.ladderBusyIn(p, seat))
	}
	games := p.Sprintf("two games, colours swapped")
	if s.Games == 1 {
		games = p.Sprintf("one game")
	}
	rule := p.Sprintf("Challenge a player at most %d places above you with \"ladder %s ADDRESS\"; the challenged "+
		"accepts with \"ladder %s accept\" %s, or loses the challenge. A challenge is %s. A challenger who scores more "+
		"takes the place, and everyone between moves down one.", s.Reach, e.Name, e.Name, p.Sprintf("within %d days", s.AcceptDays), games)
	if s.IdleWeeks != 0 {
		rule += " " + p.Sprintf("A player without a ladder game for %d weeks drops to the bottom.", s.IdleWeeks)
	}
	b.WriteString("\n" + wrap(rule) + "\n")
	return b.String()
}

// ladderBusyText is what seat is doing: " (playing b, challenged by c)".
func (e *Event) ladderBusyText(seat int) string { return e.ladderBusyIn(nil, seat) }

// ladderBusyIn is ladderBusyText in p's language (nil: English).
func (e *Event) ladderBusyIn(p *lang.Printer, seat int) string {
	var parts []string
	for _, c := range e.ladderOf().Challenges {
		decided, _, _ := e.challengeResult(c)
		if decided {
			continue
		}
		switch {
		case c.Challenger == seat && c.Pending():
			parts = append(parts, p.Sprintf("challenges %s", e.Players[c.Challenged-1].label()))
		case c.Challenged == seat && c.Pending():
			parts = append(parts, p.Sprintf("challenged by %s", e.Players[c.Challenger-1].label()))
		case c.Challenger == seat:
			parts = append(parts, p.Sprintf("playing %s", e.Players[c.Challenged-1].label()))
		case c.Challenged == seat:
			parts = append(parts, p.Sprintf("playing %s", e.Players[c.Challenger-1].label()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  (" + strings.Join(parts, ", ") + ")"
}

func (f ladder) StandingsHTML(p *lang.Printer, e *Event) string {
	if p.Code() != lang.English {
		return standingsPre(p, f, e)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%s</p>\n<ol class=\"ladder\">\n", escapeHTML(e.summaryAs(f.Title())))
	for _, seat := range e.LadderOrder() {
		fmt.Fprintf(&b, "<li>%s%s</li>\n", escapeHTML(e.Players[seat-1].label()), escapeHTML(e.ladderBusyText(seat)))
	}
	b.WriteString("</ol>\n")
	return b.String()
}

func (ladder) TieNotes(*Event, event.TieWords, func(int) string) []string { return nil }

func (ladder) Layout() Layout { return LayoutFormat }

// TakesEntries: players join a running ladder at the bottom.
func (ladder) TakesEntries() bool { return true }

func (f ladder) Announce(p *lang.Printer, e *Event, seat int, first EventGame, games int) Announcement {
	var c LadderChallenge
	for _, x := range e.ladderOf().Challenges {
		if x.ID == int64(first.Round) {
			c = x
		}
	}
	opp := c.Challenged
	if seat == c.Challenged {
		opp = c.Challenger
	}
	order := e.LadderOrder()
	games1 := p.Sprintf("Two games, colours swapped")
	if games == 1 {
		games1 = p.Sprintf("One game")
	}
	head := p.Sprintf("%s (%s): challenge %d is accepted.", e.Name, e.describeIn(p, f.Title()), c.ID) + "\n\n" +
		wrap(p.Sprintf("%[1]s challenged %[2]s (place %[3]d) from place %[4]d. %[5]s; if the challenger scores more, they take the place and "+
			"everyone between moves down one. Each game's opening mail follows.", e.Players[c.Challenger-1].playing(),
			e.Players[c.Challenged-1].playing(), slices.Index(order, c.Challenged)+1, slices.Index(order, c.Challenger)+1,
			games1)) + "\n\n"
	return Announcement{Subject: p.Sprintf("[%s] Your ladder game against %s", e.Name, e.Players[opp-1].playing()), Head: head}
}

func (ladder) Where(p *lang.Printer, g EventGame) string {
	return p.Sprintf("Challenge %d, game %d", g.Round, g.Leg)
}

func (ladder) Place(ge *GameEvent) lang.Text {
	return lang.M("%s, challenge %d, game %d", ge.Name, ge.Round, max(ge.Leg, 1))
}

// PGNRound is the challenge's number.
func (ladder) PGNRound(ge *GameEvent) string { return fmt.Sprint(ge.Round) }

// ResultNote says what the end of a challenge's last game did to the
// ladder.
func (ladder) ResultNote(p *lang.Printer, e *Event, id int64) string {
	var g EventGame
	for _, x := range e.Games {
		if x.GameID == id {
			g = x
		}
	}
	for _, c := range e.ladderOf().Challenges {
		if c.ID != int64(g.Round) {
			continue
		}
		if !e.gamesOver(c) {
			return ""
		}
		// The game just ended: the order as it is once the challenge is
		// recorded decided, after everything before it.
		if c.Decided == nil {
			l := *e.ladderOf()
			l.Challenges = slices.Clone(l.Challenges)
			for i := range l.Challenges {
				if l.Challenges[i].ID == c.ID {
					end := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
					l.Challenges[i].Decided, c.Decided = &end, &end
				}
			}
			cp := *e
			cp.Ladder = &l
			e = &cp
		}
		_, _, won := e.challengeResult(c)
		order := e.LadderOrder()
		who := e.Players[c.Challenger-1].playing()
		if won {
			return p.Sprintf("%s won the challenge and takes place %d of %s.", who, slices.Index(order, c.Challenger)+1, e.Name)
		}
		return p.Sprintf("%s keeps place %d of %s: the challenger did not score more.", e.Players[c.Challenged-1].playing(),
			slices.Index(order, c.Challenged)+1, e.Name)
	}
	return ""
}

func (ladder) DrawsLots(*Event) bool { return false }
