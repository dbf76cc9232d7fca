package referee

import (
	"fmt"
	"slices"
	"strings"

	"referee/internal/dice"
	"referee/internal/event"
	"referee/internal/lang"
)

// The knockout: each round a two-game match with colours swapped; a tied
// match goes to the decider the organiser chose when creating the event;
// the winners meet in the next round, in bracket order. Everything here is
// computed from the games (and, for a lot, the event's seed), like the
// round robins' crosstable.

// KnockoutSizes are the entrant counts a knockout takes.
var KnockoutSizes = []int{2, 4, 8, 16, 32}

// Match is one knockout match: A is the higher seed of the pairing (White
// in the first game), B the other.
type Match struct {
	Round, Number  int
	A, B           int // seats
	Games          []EventGame
	ScoreA, ScoreB float64
	// Winner is A or B once the match is decided, else 0; How says how
	// ("on points", "more wins with Black", "by lot: roll 3", ...).
	Winner int
	How    string
	// how is How's kind, blackWins the winner's and loser's wins with
	// Black and roll the lot's roll where How names them: How in the
	// reader's language (howIn) without parsing it.
	how       howKind
	blackWins [2]int
	roll      int
	// MoreGames: the match is tied after all its games and the decider is
	// another two-game match, not yet started.
	MoreGames bool
}

// Matches are the knockout's matches by round, computed from its games.
func (e *Event) Matches() [][]Match {
	var rounds [][]Match
	for _, g := range e.Games {
		for len(rounds) < g.Round {
			rounds = append(rounds, nil)
		}
		r := rounds[g.Round-1]
		for len(r) < g.Board {
			r = append(r, Match{Round: g.Round, Number: len(r) + 1})
		}
		m := &r[g.Board-1]
		if g.Leg == 1 {
			m.A, m.B = g.White, g.Black
		}
		m.Games = append(m.Games, g)
		rounds[g.Round-1] = r
	}
	// A withdrawal decides the withdrawn player's last match only: the
	// matches they played before stay as they were played.
	last := map[int]int{}
	for _, g := range e.Games {
		last[g.White], last[g.Black] = max(last[g.White], g.Round), max(last[g.Black], g.Round)
	}
	for r := range rounds {
		for i := range rounds[r] {
			m := &rounds[r][i]
			withdrawn := map[int]bool{}
			for _, p := range e.Players {
				if p.Withdrawn != NotWithdrawn && last[p.Seat] == m.Round {
					withdrawn[p.Seat] = true
				}
			}
			e.decide(m, withdrawn)
		}
	}
	return rounds
}

func (e *Event) decide(m *Match, withdrawn map[int]bool) {
	over := true
	blackWins := map[int]int{}
	for _, g := range m.Games {
		if g.Status == StatusActive {
			over = false
			continue
		}
		if g.Status != StatusFinished {
			continue
		}
		var w float64
		switch g.Result {
		case "1-0":
			w = 1
		case "0-1":
			w = 0
			blackWins[g.Black]++
		case "1/2-1/2":
			w = 0.5
		default:
			continue
		}
		if g.White == m.A {
			m.ScoreA, m.ScoreB = m.ScoreA+w, m.ScoreB+1-w
		} else {
			m.ScoreA, m.ScoreB = m.ScoreA+1-w, m.ScoreB+w
		}
	}
	switch {
	case withdrawn[m.A] && !withdrawn[m.B]:
		m.Winner, m.How, m.how = m.B, "by withdrawal", byWithdrawal
		return
	case withdrawn[m.B] && !withdrawn[m.A]:
		m.Winner, m.How, m.how = m.A, "by withdrawal", byWithdrawal
		return
	}
	if !over {
		return
	}
	// How never repeats the score: every text shows it beside.
	switch {
	case m.ScoreA > m.ScoreB:
		m.Winner, m.How, m.how = m.A, "on points", onPoints
		return
	case m.ScoreB > m.ScoreA:
		m.Winner, m.How, m.how = m.B, "on points", onPoints
		return
	}
	switch e.Decider {
	case DeciderMatch:
		m.MoreGames = true
		return
	case DeciderBlack:
		// In one two-game match with colours swapped a tie always has
		// equal Black wins, so they are counted over all the players'
		// games of the event up to this match.
		blackWins = map[int]int{}
		for _, g := range e.Games {
			if g.Round <= m.Round && g.Status == StatusFinished && g.Result == "0-1" {
				blackWins[g.Black]++
			}
		}
		if a, b := blackWins[m.A], blackWins[m.B]; a != b {
			m.Winner = m.A
			if b > a {
				m.Winner = m.B
			}
			m.How = fmt.Sprintf("tied, more wins with Black: %d to %d", max(a, b), min(a, b))
			m.how, m.blackWins = moreBlackWins, [2]int{max(a, b), min(a, b)}
			return
		}
	}
	roll := e.Lot(m.Round, m.Number)
	m.Winner = m.A
	if roll%2 == 0 {
		m.Winner = m.B
	}
	m.How = fmt.Sprintf("tied, by lot: roll %d of %s, odd for the first-named player", roll, LotName(e.Name, m.Round, m.Number))
	m.how, m.roll = byLot, roll
}

// howKind is how a knockout match was won (Match.How).
type howKind int

// The ways a match is won.
const (
	byWithdrawal howKind = iota + 1
	onPoints
	moreBlackWins
	byLot
)

// howIn is m.How in p's language (nil: English).
func (e *Event) howIn(p *lang.Printer, m Match) string {
	switch m.how {
	case byWithdrawal:
		return p.Sprintf("by withdrawal")
	case onPoints:
		return p.Sprintf("on points")
	case moreBlackWins:
		return p.Sprintf("tied, more wins with Black: %d to %d", m.blackWins[0], m.blackWins[1])
	case byLot:
		return p.Sprintf("tied, by lot: roll %d of %s, odd for the first-named player", m.roll, LotName(e.Name, m.Round, m.Number))
	}
	return m.How
}

// DrawsLots: only the deciders black and lot may draw a lot.
func (knockout) DrawsLots(e *Event) bool { return e.Decider == DeciderBlack || e.Decider == DeciderLot }

// matchOf is the knockout match holding game id.
func (e *Event) matchOf(id int64) (Match, bool) {
	for _, round := range e.Matches() {
		for _, m := range round {
			for _, g := range m.Games {
				if g.GameID == id {
					return m, true
				}
			}
		}
	}
	return Match{}, false
}

// ResultNote is what the end of game id means for its match: the match's
// score, and whether it goes on, is tied and goes to its decider, or is
// won.
func (knockout) ResultNote(p *lang.Printer, e *Event, id int64) string {
	m, ok := e.matchOf(id)
	if !ok {
		return ""
	}
	name := func(s int) string { return e.Players[s-1].playing() }
	what := p.Sprintf("Round %d, match %d of %s: %s %s, %s %s.", m.Round, m.Number, e.Name,
		name(m.A), event.Points(m.ScoreA), name(m.B), event.Points(m.ScoreB))
	switch {
	case m.Winner != 0:
		if len(e.Players) == 2<<(m.Round-1) && len(e.Matches()[m.Round-1]) == 1 {
			what += " " + p.Sprintf("%s wins the match (%s) and with it %s.", name(m.Winner), e.howIn(p, m), e.Name)
		} else {
			what += " " + p.Sprintf("%s wins the match (%s) and goes through to round %d.", name(m.Winner), e.howIn(p, m), m.Round+1)
		}
	case m.MoreGames:
		if p == nil { // English without the catalog's plural forms
			what += fmt.Sprintf(" The match is tied after %s: two more games, colours swapped, decide it. "+
				"Their mails follow, each with its own reply address.", plural(len(m.Games), "game"))
			break
		}
		what += " " + p.Sprintf("The match is tied after %d games: two more games, colours swapped, decide it. "+
			"Their mails follow, each with its own reply address.", len(m.Games))
	default:
		left := 0
		for _, g := range m.Games {
			if g.Status == StatusActive {
				left++
			}
		}
		if p == nil {
			what += fmt.Sprintf(" The match goes on: %s still in play.", plural(left, "game"))
			break
		}
		what += " " + p.Sprintf("The match goes on: %d games still in play.", left)
	}
	return what
}

// LotName is the "game" of a knockout lot in the die witness's
// construction (docs/dice.md): EVENT/ROUND/MATCH, e.g. "autumn/2/3".
func LotName(event string, round, match int) string {
	return fmt.Sprintf("%s/%d/%d", event, round, match)
}

// Lot is the die roll deciding a tied match: roll 1 of the "game"
// LotName, from the event's seed (dice.Roll).
func (e *Event) Lot(round, match int) int { return dice.Roll(e.Seed, LotName(e.Name, round, match), 1) }

// Champion is the knockout's winner, or 0 while the final is undecided.
func (e *Event) Champion() int {
	ms := e.Matches()
	if len(ms) == 0 {
		return 0
	}
	last := ms[len(ms)-1]
	if len(last) == 1 && 2<<(len(ms)-1) == len(e.Players) {
		return last[0].Winner
	}
	return 0
}

// BracketText is a knockout's state: each round's matches with their
// scores and winners.
func (e *Event) BracketText() string { return e.BracketTextIn(nil) }

// BracketTextIn is BracketText in p's language (nil: English).
func (e *Event) BracketTextIn(p *lang.Printer) string {
	var b strings.Builder
	for r, round := range e.Matches() {
		b.WriteString(p.Sprintf("Round %d:", r+1) + "\n")
		for _, m := range round {
			name := func(s int) string {
				pl := e.Players[s-1]
				n := pl.playing()
				if pl.Withdrawn != NotWithdrawn {
					n += " " + p.Sprintf("(w)")
				}
				return n
			}
			b.WriteString("  " + p.Sprintf("match %d: %s v %s  %s-%s", m.Number, name(m.A), name(m.B), event.Points(m.ScoreA), event.Points(m.ScoreB)))
			b.WriteString("\n")
			// The outcome on a line of its own: the lines stay within a
			// mail's width whatever the addresses.
			switch {
			case m.Winner != 0:
				b.WriteString(indent(wrapAt("-> "+p.Sprintf("%s (%s)", e.Players[m.Winner-1].playing(), e.howIn(p, m)), 66), "           ") + "\n")
			case m.MoreGames:
				b.WriteString("           -> " + p.Sprintf("tied: two more games") + "\n")
			}
		}
	}
	return b.String()
}

// Standings is a knockout's standings: the bracket, the decider, the
// lots' commitment, the winner and, once it is over, the seed.
func (knockout) Standings(p *lang.Printer, e *Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n", e.summaryIn(p, knockout{}.Title()), e.BracketTextIn(p))
	b.WriteString(wrap(p.Sprintf("Each match is two games, colours swapped; a tied match goes to %s.", deciderIn(p, e.Decider))) + "\n")
	if e.Commitment != "" && (knockout{}).DrawsLots(e) {
		b.WriteString("\n" + p.Sprintf("Lots are drawn as die rolls (docs/dice.md) from a seed whose SHA-256\ncommitment is\n%s", e.Commitment) + "\n")
	}
	if c := e.Champion(); c != 0 {
		b.WriteString("\n" + p.Sprintf("The winner of %s is %s.", e.Name, e.Players[c-1].playing()) + "\n")
		if e.Commitment != "" && (knockout{}).DrawsLots(e) {
			b.WriteString(p.Sprintf("The lots' seed, now revealed:\n%s", e.Seed.Hex()) + "\n")
		}
	}
	return b.String()
}

// deciderIn is deciderText in p's language.
func deciderIn(p *lang.Printer, d Decider) string {
	switch d {
	case DeciderBlack:
		return p.Sprintf("the player with more wins with Black in the event so far (still tied: a lot)")
	case DeciderLot:
		return p.Sprintf("a lot drawn by the die witness")
	}
	return p.Sprintf("another two-game match, as often as needed")
}

func deciderText(d Decider) string {
	switch d {
	case DeciderBlack:
		return "the player with more wins with Black in the event so far (still tied: a lot)"
	case DeciderLot:
		return "a lot drawn by the die witness"
	}
	return "another two-game match, as often as needed"
}

// FormatKO is the name of a knockout (Event.Format).
const FormatKO = "ko"

type knockout struct{}

func (knockout) Name() string  { return FormatKO }
func (knockout) Title() string { return "knockout" }

func (knockout) Fits(n int) bool { return slices.Contains(KnockoutSizes, n) }

func (knockout) SizeText() string { return "a knockout takes 2, 4, 8, 16 or 32 entrants" }

// Start is the first round: the bracket's seeded matches.
func (knockout) Start(e *Event) ([]EventGame, error) {
	matches, err := event.Bracket(len(e.Players))
	if err != nil {
		return nil, err
	}
	return matchGames(1, matches, 1), nil
}

// matchGames are the games of knockout matches from leg on: two a match,
// colours swapped; the match's number is its board.
func matchGames(round int, matches []event.Pairing, leg int) []EventGame {
	var out []EventGame
	for i, m := range matches {
		out = append(out,
			EventGame{Round: round, Board: i + 1, Leg: leg, White: m.White, Black: m.Black},
			EventGame{Round: round, Board: i + 1, Leg: leg + 1, White: m.Black, Black: m.White})
	}
	return out
}

// Next is what the current round calls for: two more games for each tied
// match whose decider is another match, or, once every match of the round
// is decided, the next round (winners in bracket order), with each match's
// winner for the audit log.
func (knockout) Next(e *Event) (Step, error) {
	rounds := e.Matches()
	if len(rounds) == 0 {
		return Step{}, nil
	}
	cur := rounds[len(rounds)-1]
	var more []EventGame
	for _, m := range cur {
		if m.MoreGames {
			leg := len(m.Games) + 1
			more = append(more,
				EventGame{Round: m.Round, Board: m.Number, Leg: leg, White: m.A, Black: m.B},
				EventGame{Round: m.Round, Board: m.Number, Leg: leg + 1, White: m.B, Black: m.A})
		}
	}
	if len(more) > 0 {
		return Step{Games: more, Why: fmt.Sprintf("event %s round %d: tied matches go to two more games", e.Name, len(rounds))}, nil
	}
	var winners []int
	var audit []string
	for _, m := range cur {
		if m.Winner == 0 {
			return Step{}, nil
		}
		winners = append(winners, m.Winner)
		audit = append(audit, fmt.Sprintf("event %s round %d match %d: %s wins (%s)", e.Name, m.Round, m.Number,
			e.Players[m.Winner-1].Address, m.How))
	}
	if len(cur) == 1 {
		return Step{Audit: audit}, nil // the final: the event is over
	}
	next, err := event.NextRound(winners)
	if err != nil {
		return Step{}, err
	}
	return Step{Games: matchGames(len(rounds)+1, next, 1), Audit: audit,
		Why: fmt.Sprintf("event %s round %d started", e.Name, len(rounds)+1)}, nil
}

// Over: the final is decided.
func (knockout) Over(e *Event) bool { return e.Champion() != 0 }

func (knockout) Winners(e *Event) []int {
	if c := e.Champion(); c != 0 {
		return []int{c}
	}
	return nil
}

// WithdrawalKind: a player who withdraws loses the match.
func (knockout) WithdrawalKind(*Event, int) int { return WithdrawnLost }

func (knockout) WithdrawalRule(p *lang.Printer, _ *Event, _ Withdrawal, _ bool) string {
	return p.Sprintf("In a knockout a player who withdraws loses the match: its unfinished games are lost.")
}

// Silent: never; a loss on time loses the game, and with it maybe the
// match.
func (knockout) Silent(*Event, int) bool { return false }

func (k knockout) StandingsHTML(p *lang.Printer, e *Event) string { return standingsPre(p, k, e) }

// TieNotes: none; a tied match goes to its decider, which its line says.
func (knockout) TieNotes(*Event, event.TieWords, func(int) string) []string { return nil }

func (knockout) Layout() Layout { return LayoutBracket }

func (knockout) TakesEntries() bool { return false }

func (knockout) Announce(p *lang.Printer, e *Event, seat int, first EventGame, games int) Announcement {
	round := first.Round
	switch {
	case first.Leg > 2: // a tied match's further games
		m, _ := e.matchOf(first.GameID)
		opp := m.A
		if opp == seat {
			opp = m.B
		}
		return Announcement{
			Subject: p.Sprintf("[%s] Round %d, match %d tied %s-%s: two more games", e.Name, round, first.Board, event.Points(m.ScoreA), event.Points(m.ScoreB)),
			Head: p.Sprintf("%s: round %d, match %d is tied.", e.Name, round, first.Board) + "\n\n" +
				wrap(p.Sprintf("Your match against %[1]s stands at %[2]s-%[3]s after %[4]s, so it goes on: two more games, "+
					"colours swapped, as %[5]s's decider says (another two-game match, as often as needed). Each game's opening mail follows.",
					e.Players[opp-1].playing(), event.Points(m.ScoreA), event.Points(m.ScoreB), gamesCount(p, len(m.Games)-games), e.Name)) + "\n\n",
		}
	case round == 1:
		head := wrap(p.Sprintf("%s (%s) has started.", e.Name, e.describeIn(p, knockout{}.Title()))) + "\n\n" +
			wrap(p.Sprintf("Your first-round match is below: two games at once, colours swapped; a tied match goes to %s. "+
				"Each game's opening mail follows.", deciderIn(p, e.Decider))) + "\n\n"
		if e.Commitment != "" && (knockout{}).DrawsLots(e) {
			head += p.Sprintf("Lots are drawn from a seed whose SHA-256 commitment is\n%s\n(it is revealed at the end; docs/dice.md "+
				"says how to check every lot).", e.Commitment) + "\n\n"
		}
		return Announcement{Subject: p.Sprintf("[%s] The event has started: your games", e.Name), Head: head}
	}
	return Announcement{Subject: p.Sprintf("[%s] Round %d: your games", e.Name, round),
		Head: p.Sprintf("%s: your match in round %d.", e.Name, round) + "\n\n" + wrap(p.Sprintf("Your games are below; each game's opening mail follows.")) + "\n\n"}
}

func (knockout) Where(p *lang.Printer, g EventGame) string {
	return p.Sprintf("Round %d, match %d, game %d", g.Round, g.Board, g.Leg)
}

func (knockout) Place(ge *GameEvent) lang.Text {
	return lang.M("%s, round %d, match %d, game %d", ge.Name, ge.Round, ge.Board, max(ge.Leg, 1))
}

// PGNRound numbers a knockout's games as the FIDE World Cup numbers them,
// ROUND.GAME, so that a match's deciding games (3, 4, ...) stand apart
// from its first two; Board is the match.
func (knockout) PGNRound(ge *GameEvent) string { return fmt.Sprintf("%d.%d", ge.Round, max(ge.Leg, 1)) }
