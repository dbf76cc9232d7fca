package referee

import (
	"fmt"
	"strings"
	"time"

	"referee/internal/dice"
	"referee/internal/event"
	"referee/internal/game"
	"referee/internal/mail/addr"
	"referee/internal/render"
	"referee/internal/rules"
)

// Events (issue 29): round robins and double round robins made of ordinary
// games. The app loads an event (Lobby.Event, Lobby.Events) and stores what
// changes (LobbyChange.Event); the scores are never stored: Table computes
// the crosstable from the games each time, so it can always be recomputed.

// EventStatus is where an event stands.
type EventStatus string

// Event statuses.
const (
	EventOpen     EventStatus = "open"     // taking entries
	EventRunning  EventStatus = "running"  // its games are under way
	EventFinished EventStatus = "finished" // its last game ended
	EventClosed   EventStatus = "closed"   // closed by the organiser
)

// Withdrawal kinds (EventPlayer.Withdrawn), ICCF's rule.
const (
	NotWithdrawn = 0
	// WithdrawnLost: the player had completed at least half their games;
	// their unfinished games are lost.
	WithdrawnLost = 1
	// WithdrawnAnnulled: fewer than half were completed; all their games
	// are annulled and removed from the scores.
	WithdrawnAnnulled = 2
)

// Event is a tournament as the core sees it.
type Event struct {
	Name        string
	Variant     string
	Format      string
	TimeControl string
	// Places is the number of players an open event waits for (--open N);
	// 0 for an event with a fixed list of players.
	Places int
	Entry  Players // who may join by mail: known, open, or list
	Status EventStatus
	Starts time.Time // zero for none
	Chain  []event.TieBreak
	// Rated: the event's games are rated (the default), or casual.
	Rated bool
	// Limits bound who may join by mail, by rating and reliability in the
	// event's variant; the organiser's own list is not limited.
	Limits RatingLimits
	// Decider settles a tied knockout match (DeciderMatch, DeciderBlack,
	// DeciderLot); Seed draws its lots (secret until the event ends) and
	// Commitment is the seed's SHA-256, told to the players at the start.
	Decider    Decider
	Seed       dice.Seed
	Commitment string
	Players    []EventPlayer // in seat order
	Games      []EventGame   // by round and board
}

// EventPlayer is one seat of an event.
type EventPlayer struct {
	Seat       int
	Address    string
	Withdrawn  int
	ReplacedBy string // the substitute playing the seat's unfinished games
	// Name and SubName are the display names the player and the
	// substitute chose ("name"; "" for none): crosstables show them
	// instead of the addresses.
	Name, SubName string
}

// EventGame is one game of an event, with its state.
type EventGame struct {
	GameID       int64
	Round, Board int
	Leg          int         // a knockout match's game: 1, 2, then 3, 4 after a tie
	White, Black int         // seats
	Status       GameStatus  // the game's: active, finished, aborted
	Result       string      // "1-0", "0-1", "1/2-1/2" or ""
	Reason       string      // the result's reason, in words
	Ending       game.Ending // how it ended, as a kind
}

// Seat is the seat address plays in e, or 0: the seat's player, or its
// substitute once there is one. A player replaced by a substitute holds
// no seat any more (issue 38): their mails about the event are a
// stranger's, and nothing they send can withdraw the substitute.
func (e *Event) Seat(address string) int {
	for _, p := range e.Players {
		if addr.SameMailbox(p.playing(), address) {
			return p.Seat
		}
	}
	return 0
}

// ReplacedIn returns the seat whose player address was, before a
// substitute took it over.
func (e *Event) ReplacedIn(address string) (EventPlayer, bool) {
	for _, p := range e.Players {
		if p.ReplacedBy != "" && addr.SameMailbox(p.Address, address) {
			return p, true
		}
	}
	return EventPlayer{}, false
}

// Named reports whether address is, or was, a player of e: a seat's
// player or its substitute.
func (e *Event) Named(address string) bool {
	for _, p := range e.Players {
		if addr.SameMailbox(p.Address, address) || (p.ReplacedBy != "" && addr.SameMailbox(p.ReplacedBy, address)) {
			return true
		}
	}
	return false
}

// Playing is the address now playing the seat's games: its substitute
// once there is one, else its player.
func (p EventPlayer) Playing() string { return p.playing() }

// playing is the address now playing seat's games.
func (p EventPlayer) playing() string {
	if p.ReplacedBy != "" {
		return p.ReplacedBy
	}
	return p.Address
}

// Table is the crosstable, computed from the finished games: a player
// withdrawn under the annulment rule has all their games removed from the
// scores, as ICCF does.
func (e *Event) Table() event.Table {
	players := make([]event.Entrant, len(e.Players))
	annulled := map[int]bool{}
	for i, p := range e.Players {
		name := p.label()
		if p.ReplacedBy != "" {
			name += " / " + p.subLabel()
		}
		players[i] = event.Entrant{Name: name, Withdrawn: p.Withdrawn != NotWithdrawn}
		if p.Withdrawn == WithdrawnAnnulled {
			annulled[p.Seat] = true
		}
	}
	var games []event.Game
	var void []EventGame
	for _, g := range e.Games {
		if g.Status == StatusAborted || (g.Status == StatusFinished && (annulled[g.White] || annulled[g.Black])) {
			void = append(void, g) // annulled or aborted: "-", in no score
			continue
		}
		if g.Status != StatusFinished {
			continue
		}
		var s float64
		switch g.Result {
		case "1-0":
			s = 1
		case "0-1":
			s = 0
		case "1/2-1/2":
			s = 0.5
		default:
			continue
		}
		games = append(games, event.Game{White: g.White, Black: g.Black, WhiteScore: s})
	}
	t := event.Crosstable(players, games, e.Chain)
	for _, g := range void {
		t.MarkVoid(g.White, g.Black)
	}
	return t
}

// Over says whether a started event has ended, as its format counts it:
// every game of a round robin, the final of a knockout.
func (e *Event) Over() bool { return e.Rules().Over(e) }

// SeatGames counts the games of seat, and those completed with a result.
func (e *Event) SeatGames(seat int) (completed, total int) {
	for _, g := range e.Games {
		if g.White != seat && g.Black != seat {
			continue
		}
		total++
		if g.Status == StatusFinished && g.Result != "" {
			completed++
		}
	}
	return completed, total
}

// WithdrawalKind is the format's rule for a player of seat who withdraws
// now: WithdrawnLost (their unfinished games are lost) or
// WithdrawnAnnulled (all their games are annulled).
func (e *Event) WithdrawalKind(seat int) int { return e.Rules().WithdrawalKind(e, seat) }

// Silent says whether seat's losses on time make them withdrawn under
// the format's rule (in a round robin: at least half their games).
func (e *Event) Silent(seat int) bool { return e.Rules().Silent(e, seat) }

// describe is the event's game, format, time and whether it is rated:
// "Toto40, round robin, 3 days per move, rated".
func (e *Event) describe() string {
	title := e.Variant
	if v, err := rules.Lookup(e.Variant); err == nil {
		title = v.Title()
	}
	return fmt.Sprintf("%s, %s, %s, %s", title, FormatTitle(e.Format), controlText(e.TimeControl), e.ratedWord())
}

// ratedWord is "rated" or "casual".
func (e *Event) ratedWord() string {
	if e.Rated {
		return "rated"
	}
	return "casual"
}

// summary is one line on the event: variant, format, time, places or state.
func (e *Event) summary() string {
	s := e.Name + ": " + e.describe()
	switch e.Status {
	case EventOpen:
		if e.Places > 0 {
			s += fmt.Sprintf("; %s left of %d", plural(e.Places-len(e.Players), "place"), e.Places)
			if e.Limits.Any() {
				s += "; entry by mail: " + e.Limits.Text()
			}
		}
		if !e.Starts.IsZero() {
			s += "; starts " + dateText(e.Starts)
		}
	default:
		s += "; " + string(e.Status)
	}
	return s
}

// StandingsText is the answer to "standings NAME": a round robin's
// crosstable with its legend, a knockout's rounds; once the event is over,
// the winner.
func (e *Event) StandingsText() string { return e.Rules().Standings(e) }

// winnerText names the winners of an event that is over: "The winner of
// autumn is ann@example.org." or "... share first place in autumn."; ""
// while no one has won.
func (e *Event) winnerText() string {
	var names []string
	for _, s := range e.Rules().Winners(e) {
		names = append(names, e.Players[s-1].playing())
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("The winner of %s is %s.", e.Name, names[0])
	}
	return fmt.Sprintf("%s share first place in %s.", strings.Join(names, " and "), e.Name)
}

func chainText(chain []event.TieBreak) string {
	var out []string
	for _, c := range chain {
		switch c {
		case event.Wins:
			out = append(out, "the number of wins")
		case event.SonnebornBerger:
			out = append(out, "Sonneborn-Berger")
		case event.Direct:
			out = append(out, "the direct encounter")
		}
	}
	if len(out) == 0 {
		return "nothing (tied players share the rank)"
	}
	return strings.Join(out, ", then ")
}

// EventStartMail is the one mail each player of a starting event gets
// before the games' opening mails: their games, each with its reply
// address (theirs alone).
func (r *Referee) EventStartMail(e *Event, seat int, games []*Game, now time.Time) Mail {
	p := e.Players[seat-1]
	f := e.Rules()
	var b strings.Builder
	first := EventGame{}
	if len(games) > 0 {
		first = e.gameOf(games[0].ID)
	}
	a := f.Announce(e, seat, first, len(games))
	b.WriteString(a.Head)
	for _, g := range games {
		eg := e.gameOf(g.ID)
		c := rules.White
		if eg.Black == seat {
			c = rules.Black
		}
		fmt.Fprintf(&b, "%s: game #%d, you play %s against %s\n    reply to: %s\n", f.Where(eg), g.ID, c,
			g.Players[c.Other()].Address, r.ReplyAddress(g, c))
	}
	if a.Tail != "" {
		b.WriteString("\n" + a.Tail + "\n")
	}
	b.WriteString("\n" + wrap(fmt.Sprintf("Send \"standings %s\" to the referee for the crosstable at any time. The reply "+
		"addresses are yours alone: do not pass them on.", e.Name)) + "\n")
	return Mail{Kind: KindEventStart, To: p.Playing(), Subject: a.Subject,
		Text: b.String() + lobbyFooter(r.cfg.Address), Date: now,
		MessageID: r.messageID("event-start", e.Name, p.Playing(), fmt.Sprint(first.Round), fmt.Sprint(firstID(games)), now.UTC().Format(time.RFC3339))}
}

func (e *Event) gameOf(id int64) EventGame {
	for _, g := range e.Games {
		if g.GameID == id {
			return g
		}
	}
	return EventGame{}
}

// EventEndMails are the final crosstable and the winner, to every player
// (and substitute) of a finished event, then to each of its observers
// (watchers, "observe EVENT") who is not a player. The crosstable comes
// with how each tie on points was broken.
func (r *Referee) EventEndMails(e *Event, watchers []string, now time.Time) []Mail {
	var out []Mail
	seen := map[string]bool{}
	text, html := e.StandingsText(), e.StandingsHTML()
	if notes := e.tieNotes(); len(notes) > 0 {
		text += "\nHow the ties on points were broken:\n"
		html += "<p>How the ties on points were broken:</p>\n<ul>\n"
		for _, n := range notes {
			text += indent(wrapAt(n, 68), "    ")[2:] + "\n"
			html += "<li>" + escapeHTML(n) + "</li>\n"
		}
		html += "</ul>\n"
	}
	send := func(to, intro string) {
		if to == "" || seen[addr.Mailbox(to)] {
			return
		}
		seen[addr.Mailbox(to)] = true
		out = append(out, Mail{Kind: KindEventEnd, To: to, Subject: fmt.Sprintf("[%s] Final crosstable: %s", e.Name, e.winnerText()),
			Text: wrap(intro+" "+e.winnerText()) + "\n\n" + text + lobbyFooter(r.cfg.Address),
			HTML: html, Date: now,
			MessageID: r.messageID("event-end", e.Name, to)})
	}
	for _, p := range e.Players {
		send(p.Address, "The last game of "+e.Name+" has ended.")
		send(p.ReplacedBy, "The last game of "+e.Name+" has ended.")
	}
	for _, w := range watchers {
		send(w, "The last game of "+e.Name+", which you observe, has ended.")
	}
	return out
}

// tieNotes say how the ties on points were broken (the format's
// TieNotes), with the players' names.
func (e *Event) tieNotes() []string {
	return e.Rules().TieNotes(e, func(p int) string { return e.Players[p-1].playing() })
}

func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// StandingsHTML is StandingsText as HTML, a crosstable as a table.
func (e *Event) StandingsHTML() string { return e.Rules().StandingsHTML(e) }

// DrawsLots reports whether the event may draw a lot: only then do its
// mails announce the lots' commitment and reveal their seed.
func (e *Event) DrawsLots() bool { return e.Rules().DrawsLots(e) }

// MatchNote is what the end of game id means beyond the game, for the
// mails of that end: a knockout match's score and whether it goes on, is
// tied or is won; "" when the format has nothing to add.
func (e *Event) MatchNote(id int64) string { return e.Rules().ResultNote(e, id) }

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
		body := render.Mail{Headline: "This game is over: " + resultText(ng) + "."}
		if ng.Commitment != "" {
			body.Sections = append(body.Sections, r.revealSection(ng))
		}
		out = append(out, r.boardMail(ng, rep.Final, c, body, "", nil, "abort", reason, now))
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
		body := render.Mail{Headline: fmt.Sprintf("%s takes over %s's place (%s) in this game from %s.", g.Players[c].Address, c, old, old)}
		if x == c {
			body.Headline = fmt.Sprintf("You take over %s's place in this game: you play %s against %s. Reply to this mail with your moves.",
				old, c, g.Players[c.Other()].Address)
		}
		out = append(out, r.boardMail(g, rep.Final, x, body, "", nil, "board", "substitute "+old, now))
	}
	return out, nil
}

func firstID(games []*Game) int64 {
	if len(games) == 0 {
		return 0
	}
	return games[0].ID
}
