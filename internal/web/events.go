package web

import (
	"context"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"referee/internal/event"
	"referee/internal/referee"
)

// Events and ratings on the pages (issue 31): a page per event with its
// crosstable (or a knockout's rounds), each result linking to its game's
// page; the players' ratings on their pages. Both come from optional
// interfaces of the Source, so a Source of games alone still makes a site.

// EventSource is a Source that also lists the events (app.App has this
// method).
type EventSource interface {
	// Events lists every event, oldest first.
	Events(ctx context.Context) ([]*referee.Event, error)
}

// eventPage is one public event as the pages show it: no address, no
// lots' seed, only public names and page keys.
type eventPage struct {
	E *referee.Event // a copy: players' addresses replaced by public names, no seed
	// Names and Keys by seat (index seat-1): the public name of the
	// player now playing the seat, and their player page key ("" for no
	// page).
	Names, Keys []string
	updated     time.Time
	finished    bool
}

// eventOf is where a game sits in an event: the event's name and round.
type eventOf struct {
	Name  string
	Round int
}

// publicEvent reports whether the policy shows an event: any that started,
// unless no game is public. The games inside follow the policy and the
// delay of each game.
func (s *Site) publicEvent(e *referee.Event) bool {
	return s.opts.Public != PublicNone && e.Status != referee.EventOpen && len(e.Games) > 0
}

// eventSet is the public events as the pages show them, made again
// when a game or an event changed (store.WebEventsVersion).
type eventSet struct {
	version string
	// variants are the variants of the public games, that of the newest
	// game first: the index's filters.
	variants []string
	list     []*eventPage // oldest first
	byName   map[string]*eventPage
	public   map[int64]bool // the events' games that have pages
}

// eventSet returns the public events, made again if a game or an event
// changed since they were made.
func (s *Site) eventSet(ctx context.Context) (*eventSet, error) {
	version, err := s.st.WebEventsVersion(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.events != nil && s.events.version == version {
		return s.events, nil
	}
	set := &eventSet{version: version, byName: map[string]*eventPage{}, public: map[int64]bool{}}
	if set.variants, err = s.st.WebVariants(ctx, s.statuses(), s.variantNames()); err != nil {
		return nil, err
	}
	es, ok := s.src.(EventSource)
	if !ok {
		s.events = set
		return set, nil
	}
	events, err := es.Events(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the events for the web pages: %w", err)
	}
	statuses := s.statuses()
	// name is the public name a mailbox plays under, and its page key (""
	// when it has no public game).
	name := func(address string) (string, string, error) {
		k := s.playerKey(address)
		addrs, err := s.playerAddresses(ctx, k)
		if err != nil {
			return "", "", err
		}
		n, ok, err := s.mailboxName(ctx, addrs, nil)
		if err != nil {
			return "", "", err
		}
		if !ok {
			n = referee.MaskAddress(address)
		}
		if _, ok, err = s.st.WebName(ctx, addrs, statuses); err != nil {
			return "", "", err
		} else if !ok {
			k = ""
		}
		return n, k, nil
	}
	for _, e := range events {
		if !s.publicEvent(e) {
			continue
		}
		c := *e
		c.Seed, c.Commitment = [32]byte{}, ""
		c.Players = slices.Clone(e.Players)
		c.Games = slices.Clone(e.Games)
		ep := &eventPage{E: &c, finished: e.Status == referee.EventFinished || e.Status == referee.EventClosed}
		for i, p := range e.Players {
			n, k, err := name(p.Address)
			if err != nil {
				return nil, err
			}
			if p.Name != "" {
				n = p.Name // the name they chose, also before their first game
			}
			if p.ReplacedBy != "" {
				sub, sk, err := name(p.ReplacedBy)
				if err != nil {
					return nil, err
				}
				if p.SubName != "" {
					sub = p.SubName
				}
				c.Players[i].ReplacedBy = sub
				n, k = sub+" (for "+n+")", sk
			}
			c.Players[i].Address = n
			ep.Names, ep.Keys = append(ep.Names, n), append(ep.Keys, k)
		}
		var ids []int64
		for _, g := range c.Games {
			wg, err := s.st.WebGame(ctx, g.GameID)
			if err != nil {
				return nil, err
			}
			if !s.public(wg.Status, wg.Private) {
				continue
			}
			set.public[g.GameID] = true
			ids = append(ids, g.GameID)
			if up := wg.Created.UTC(); up.After(ep.updated) {
				ep.updated = up
			}
		}
		last, err := s.st.WebLastActions(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, t := range last {
			if t.UTC().After(ep.updated) {
				ep.updated = t.UTC()
			}
		}
		set.list = append(set.list, ep)
		set.byName[c.Name] = ep
	}
	s.events = set
	return set, nil
}

// eventFile is the page "event-NAME.html".
func (s *Site) eventFile(ctx context.Context, name, rest string) (*Page, error) {
	set, err := s.eventSet(ctx)
	if err != nil {
		return nil, err
	}
	ep := set.byName[rest]
	if ep == nil {
		return nil, ErrNotFound
	}
	b, err := s.eventHTML(set, ep)
	if err != nil {
		return nil, err
	}
	return &Page{Name: name, ContentType: "text/html; charset=utf-8", Body: b, Final: ep.finished && !s.anyRunning(ep)}, nil
}

func (s *Site) anyRunning(ep *eventPage) bool {
	for _, g := range ep.E.Games {
		if g.Status == referee.StatusActive {
			return true
		}
	}
	return false
}

// eventCell is one result in a crosstable or a knockout match: the
// result as the mails write it, linking to its game's page when public.
type eventCell struct {
	Text, Title string
	Link        string // "game-17.html" or ""
	// ID and Result are for a knockout's list of games: "1-0", "running".
	ID     int64
	Result string
}

// eventRow is one player's row of a crosstable, in rank order. Place is
// the row's number, which heads the player's column too: each player has
// one number. Shared: the chain could not separate the player from a
// neighbour, and they share the rank ("2=").
type eventRow struct {
	Place     int
	Shared    bool
	Name, Key string
	Withdrawn bool
	Cells     [][]eventCell // by the opponent's place; nil on the diagonal
	Points    string
	Wins      int
	SB        string
}

type eventMatch struct {
	Number         int
	A, B           string
	AKey, BKey     string
	Score, Outcome string
	Games          []eventCell
}

// cell is game g seen from seat: "1", "=", "0", or "." while it runs (or
// "–" when it did not count: aborted or annulled).
func (s *Site) cell(set *eventSet, ep *eventPage, g referee.EventGame, seat int) eventCell {
	c := eventCell{Text: ".", ID: g.GameID, Result: g.Result}
	if g.Status == referee.StatusActive {
		c.Result = "running"
	} else if g.Result == "" {
		c.Result = string(g.Status)
	}
	white := g.White == seat
	switch {
	case g.Status == referee.StatusActive:
		c.Title = "running"
	case g.Status != referee.StatusFinished || g.Result == "":
		c.Text, c.Title = "–", string(g.Status)
	case g.Result == "1/2-1/2":
		c.Text = "="
	case (g.Result == "1-0") == white:
		c.Text = "1"
	default:
		c.Text = "0"
	}
	col := "Black"
	if white {
		col = "White"
	}
	if c.Title == "" {
		c.Title = g.Result
	}
	c.Title = fmt.Sprintf("game #%d, %s, %s", g.GameID, col, c.Title)
	if set.public[g.GameID] {
		c.Link = fmt.Sprintf("game-%d.html", g.GameID)
	}
	return c
}

// eventHTML is an event's page: its format, variant, time and state, and
// the crosstable of a round robin (the numbers of "standings") or the
// rounds of a knockout.
func (s *Site) eventHTML(set *eventSet, ep *eventPage) ([]byte, error) {
	e := ep.E
	data := struct {
		frame
		Name, Summary, Chain, Winner string
		Bracket                      bool // the format's standings are rounds of matches
		// Seasons are a league's seasons and divisions, as the format
		// writes them (from the copy with public names).
		Seasons template.HTML
		// Divisions are a league's crosstables, the latest season first.
		Divisions []eventDivision
		Rows      []eventRow
		// ShowWins, ShowSB: the chain uses the criterion, so the table
		// shows its column.
		ShowWins, ShowSB bool
		TieNotes         []string
		Rounds           [][]eventMatch
	}{frame: frame{Title: "Event " + e.Name + " · " + s.opts.Title, Site: s.opts.Title, Description: s.eventDescription(e)},
		Name: e.Name, Bracket: e.Rules().Layout() == referee.LayoutBracket}
	_, data.Summary, _ = strings.Cut(e.Summary(), ": ")
	if e.Rules().Layout() == referee.LayoutDivisions {
		data.Divisions = s.divisions(set, ep)
		data.Chain = referee.TieBreakText(e.Chain)
		if w := e.Rules().Winners(e); e.Over() && len(w) > 0 {
			var first []string
			for _, seat := range w {
				first = append(first, ep.Names[seat-1])
			}
			data.Winner = "First: " + strings.Join(first, ", ") + "."
		}
		return s.exec("event", data)
	}
	if e.Rules().Layout() == referee.LayoutFormat {
		data.Seasons = template.HTML(e.StandingsHTML()) // the format's own markup, escaped by it
		return s.exec("event", data)
	}
	if data.Bracket {
		for _, round := range e.Matches() {
			var ms []eventMatch
			for _, m := range round {
				em := eventMatch{Number: m.Number, A: ep.Names[m.A-1], B: ep.Names[m.B-1], AKey: ep.Keys[m.A-1], BKey: ep.Keys[m.B-1],
					Score: event.Points(m.ScoreA) + "–" + event.Points(m.ScoreB)}
				switch {
				case m.Winner != 0:
					em.Outcome = fmt.Sprintf("%s goes through (%s)", ep.Names[m.Winner-1], m.How)
				case m.MoreGames:
					em.Outcome = "tied: two more games"
				}
				for _, g := range m.Games {
					em.Games = append(em.Games, s.cell(set, ep, g, m.A))
				}
				ms = append(ms, em)
			}
			data.Rounds = append(data.Rounds, ms)
		}
		if c := e.Champion(); c != 0 {
			data.Winner = fmt.Sprintf("The winner of %s is %s.", e.Name, ep.Names[c-1])
		}
		return s.exec("event", data)
	}
	t := e.Table()
	data.Chain = referee.TieBreakText(t.Chain)
	data.ShowWins, data.ShowSB = slices.Contains(t.Chain, event.Wins), slices.Contains(t.Chain, event.SonnebornBerger)
	if e.Over() {
		// How each tie on points was broken; while games run, ties are
		// many and passing.
		data.TieNotes = t.TieNotes(func(p int) string { return ep.Names[p-1] })
	}
	data.Rows = s.crosstableRows(set, ep, e, t, ep.Names, ep.Keys)
	if e.Over() && len(t.Standings) > 0 {
		var first []string
		for _, st := range t.Standings {
			if st.Rank == 1 {
				first = append(first, ep.Names[st.Player-1])
			}
		}
		data.Winner = "First: " + strings.Join(first, ", ") + "."
	}
	return s.exec("event", data)
}

// crosstableRows are the rows of t, the crosstable of e (an event, or a
// league's division as an event of its own), in rank order; names and
// keys are by e's seat.
func (s *Site) crosstableRows(set *eventSet, ep *eventPage, e *referee.Event, t event.Table, names, keys []string) []eventRow {
	var rows []eventRow
	for i, st := range t.Standings {
		seat := st.Player
		row := eventRow{Place: i + 1, Name: names[seat-1], Key: keys[seat-1], Withdrawn: t.Players[seat-1].Withdrawn,
			Points: event.Points(st.Points), Wins: st.Wins, SB: event.Points(st.SB)}
		row.Shared = (i > 0 && t.Standings[i-1].Rank == st.Rank) || (i+1 < len(t.Standings) && t.Standings[i+1].Rank == st.Rank)
		for _, ost := range t.Standings {
			opp := ost.Player
			var cells []eventCell
			for _, g := range e.Games {
				if (g.White == seat && g.Black == opp) || (g.White == opp && g.Black == seat) {
					cells = append(cells, s.cell(set, ep, g, seat))
				}
			}
			if opp == seat {
				cells = nil
			}
			row.Cells = append(row.Cells, cells)
		}
		rows = append(rows, row)
	}
	return rows
}

// eventDivision is one division of a league's season on its page.
type eventDivision struct {
	Title            string
	Rows             []eventRow
	ShowWins, ShowSB bool
}

// divisions are a league's divisions, the latest season first, each a
// crosstable with the league's public names.
func (s *Site) divisions(set *eventSet, ep *eventPage) []eventDivision {
	var out []eventDivision
	for _, d := range ep.E.Divisions() {
		var names, keys []string
		for _, seat := range d.Seats {
			names, keys = append(names, ep.Names[seat-1]), append(keys, ep.Keys[seat-1])
		}
		t := d.Event.Table()
		state := "under way"
		if !slices.ContainsFunc(d.Event.Games, func(g referee.EventGame) bool { return g.Status == referee.StatusActive }) {
			state = "over"
		}
		out = append(out, eventDivision{Title: fmt.Sprintf("Season %d (%s), division %d", d.Season, state, d.Number),
			Rows: s.crosstableRows(set, ep, d.Event, t, names, keys), ShowWins: slices.Contains(t.Chain, event.Wins),
			ShowSB: slices.Contains(t.Chain, event.SonnebornBerger)})
	}
	return out
}

// eventsList is the index's list of events.
type eventLink struct {
	Name, Summary string
}

func (s *Site) eventLinks(ctx context.Context) ([]eventLink, error) {
	set, err := s.eventSet(ctx)
	if err != nil {
		return nil, err
	}
	var out []eventLink
	for _, ep := range set.list {
		_, sum, _ := strings.Cut(ep.E.Summary(), ": ")
		out = append(out, eventLink{Name: ep.E.Name, Summary: sum})
	}
	return out, nil
}

const eventTemplate = `{{template "top" .}}<h1>Event {{.Name}}</h1>
<p class="muted">{{.Summary}}</p>
{{if .Bracket}}{{range $i, $r := .Rounds}}<h2>Round {{inc $i}}</h2>
<ul class="games">
{{range $r}}<li>Match {{.Number}}: {{if .AKey}}<a href="player-{{.AKey}}.html">{{.A}}</a>{{else}}{{.A}}{{end}} v {{if .BKey}}<a href="player-{{.BKey}}.html">{{.B}}</a>{{else}}{{.B}}{{end}} <b>{{.Score}}</b>{{if .Outcome}} <span class="muted">· {{.Outcome}}</span>{{end}}<br>
<span class="muted">Games:</span>{{range $i, $g := .Games}}{{if $i}},{{end}} {{if .Link}}<a href="{{.Link}}">#{{.ID}}</a>{{else}}#{{.ID}}{{end}} {{.Result}}{{end}}</li>
{{end}}</ul>
{{end}}{{else if .Seasons}}{{.Seasons}}{{else if .Divisions}}{{range .Divisions}}<h2>{{.Title}}</h2>
{{template "crosstable" .}}{{end}}<p class="muted">Each division is a round robin, ranked by points, then {{.Chain}}; after each season the top of each division moves up and the bottom down. 1 a win, = a draw, 0 a loss, . a game still running, – a game that did not count; each result links to its game.</p>
{{else}}<h2>Crosstable</h2>
{{template "crosstable" .}}<p class="muted">Ranked by points, then {{.Chain}}; a rank with = is shared: the tie-breaks could not separate the players. The numbered columns are the players in the rows' order. 1 a win, = a draw, 0 a loss, . a game still running, – a game that did not count (annulled or aborted); each result links to its game. SB: Sonneborn-Berger.</p>
{{if .TieNotes}}<h3>Ties on points</h3>
<ul>{{range .TieNotes}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{end}}{{if .Winner}}<p><b>{{.Winner}}</b></p>{{end}}
{{template "bottom" .}}`

// crosstableTemplate is a crosstable: .Rows, .ShowWins and .ShowSB of
// an event's page or of one of a league's divisions.
const crosstableTemplate = `{{define "crosstable"}}<div class="wide"><table class="cross">
<thead><tr><th scope="col">Rank</th><th scope="col" class="name">Player</th><th scope="col"><abbr title="Points">Pts</abbr></th>{{if .ShowWins}}<th scope="col">Wins</th>{{end}}{{if .ShowSB}}<th scope="col"><abbr title="Sonneborn-Berger">SB</abbr></th>{{end}}{{range .Rows}}<th scope="col" title="{{.Name}}">{{.Place}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr><td>{{.Place}}{{if .Shared}}={{end}}</td><th scope="row" class="name">{{if .Key}}<a href="player-{{.Key}}.html">{{.Name}}</a>{{else}}{{.Name}}{{end}}{{if .Withdrawn}} (withdrew){{end}}</th><td class="pts">{{.Points}}</td>{{if $.ShowWins}}<td>{{.Wins}}</td>{{end}}{{if $.ShowSB}}<td>{{.SB}}</td>{{end}}{{range .Cells}}<td>{{if not .}}<span aria-label="same player">×</span>{{else}}{{range .}}{{template "cell" .}}{{end}}{{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{end}}`

const cellTemplate = `{{define "cell"}}{{if .Link}}<a href="{{.Link}}" title="{{.Title}}">{{.Text}}</a>{{else}}<span title="{{.Title}}">{{.Text}}</span>{{end}}{{end}}`
