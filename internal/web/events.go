package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"referee/internal/event"
	"referee/internal/rating"
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

// RatingSource is a Source that also lists the ratings (app.App has this
// method).
type RatingSource interface {
	// Ratings lists the ratings of a variant ("" for every variant).
	Ratings(ctx context.Context, variant string) ([]rating.Standing, error)
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

// loadEvents adds the public events and the players' ratings to sn; names
// maps a mailbox's page key to the public name it plays under.
func (s *Site) loadEvents(ctx context.Context, sn *snapshot, names map[string]string) error {
	if rs, ok := s.src.(RatingSource); ok {
		all, err := rs.Ratings(ctx, "")
		if err != nil {
			return fmt.Errorf("reading the ratings for the web pages: %w", err)
		}
		for _, r := range all {
			if k := s.playerKey(r.Address); sn.players[k] != nil {
				r.Address = ""
				sn.ratings[k] = append(sn.ratings[k], r)
			}
		}
	}
	es, ok := s.src.(EventSource)
	if !ok {
		return nil
	}
	events, err := es.Events(ctx)
	if err != nil {
		return fmt.Errorf("reading the events for the web pages: %w", err)
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
			k := s.playerKey(p.Address)
			name := names[k]
			if p.Name != "" {
				name = p.Name // the name they chose, also before their first game
			}
			if name == "" {
				name = referee.MaskAddress(p.Address)
			}
			if p.ReplacedBy != "" {
				sk := s.playerKey(p.ReplacedBy)
				sub := names[sk]
				if p.SubName != "" {
					sub = p.SubName
				}
				if sub == "" {
					sub = referee.MaskAddress(p.ReplacedBy)
				}
				c.Players[i].ReplacedBy = sub
				name, k = sub+" (for "+name+")", sk
			}
			c.Players[i].Address = name
			if sn.players[k] == nil {
				k = ""
			}
			ep.Names, ep.Keys = append(ep.Names, name), append(ep.Keys, k)
		}
		for _, g := range c.Games {
			if v := sn.byID[g.GameID]; v != nil {
				sn.events[g.GameID] = eventOf{Name: c.Name, Round: g.Round}
				if up := updated(v); up.After(ep.updated) {
					ep.updated = up
				}
			}
		}
		sn.eventList = append(sn.eventList, ep)
	}
	return nil
}

// eventFile is the page "event-NAME.html".
func (s *Site) eventFile(sn *snapshot, name, rest, ext string) (*Page, error) {
	var ep *eventPage
	for _, e := range sn.eventList {
		if e.E.Name == rest {
			ep = e
		}
	}
	if ep == nil || ext != "html" {
		return nil, ErrNotFound
	}
	b, err := s.eventHTML(sn, ep)
	if err != nil {
		return nil, err
	}
	return &Page{Name: name, ContentType: "text/html; charset=utf-8", Body: b, Final: ep.finished && !s.anyRunning(sn, ep)}, nil
}

func (s *Site) anyRunning(sn *snapshot, ep *eventPage) bool {
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

type eventRow struct {
	Seat      int
	Name, Key string
	Withdrawn bool
	Cells     [][]eventCell // by opponent seat; nil on the diagonal
	Self      bool
	Points    string
	Rank      int
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
func (s *Site) cell(sn *snapshot, ep *eventPage, g referee.EventGame, seat int) eventCell {
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
	if sn.byID[g.GameID] != nil {
		c.Link = fmt.Sprintf("game-%d.html", g.GameID)
	}
	return c
}

// eventHTML is an event's page: its format, variant, time and state, and
// the crosstable of a round robin (the numbers of "standings") or the
// rounds of a knockout.
func (s *Site) eventHTML(sn *snapshot, ep *eventPage) ([]byte, error) {
	e := ep.E
	data := struct {
		frame
		Name, Summary, Chain, Winner string
		Knockout                     bool
		Rows                         []eventRow
		Seats                        []int
		Rounds                       [][]eventMatch
	}{frame: frame{Title: "Event " + e.Name + " · " + s.opts.Title, Site: s.opts.Title}, Name: e.Name, Knockout: e.Format == referee.FormatKO}
	_, data.Summary, _ = strings.Cut(e.Summary(), ": ")
	if data.Knockout {
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
					em.Games = append(em.Games, s.cell(sn, ep, g, m.A))
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
	for _, st := range t.Standings {
		seat := st.Player
		row := eventRow{Seat: seat, Name: ep.Names[seat-1], Key: ep.Keys[seat-1], Withdrawn: t.Players[seat-1].Withdrawn,
			Points: event.Points(st.Points), Rank: st.Rank, SB: event.Points(st.SB)}
		for opp := 1; opp <= len(e.Players); opp++ {
			var cells []eventCell
			for _, g := range e.Games {
				if (g.White == seat && g.Black == opp) || (g.White == opp && g.Black == seat) {
					cells = append(cells, s.cell(sn, ep, g, seat))
				}
			}
			if opp == seat {
				cells = nil
			}
			row.Cells = append(row.Cells, cells)
		}
		data.Rows = append(data.Rows, row)
	}
	for i := range e.Players {
		data.Seats = append(data.Seats, i+1)
	}
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

// eventsList is the index's list of events.
type eventLink struct {
	Name, Summary string
}

func eventLinks(sn *snapshot) []eventLink {
	var out []eventLink
	for _, ep := range sn.eventList {
		_, sum, _ := strings.Cut(ep.E.Summary(), ": ")
		out = append(out, eventLink{Name: ep.E.Name, Summary: sum})
	}
	return out
}

const eventTemplate = `{{template "top" .}}<h1>Event {{.Name}}</h1>
<p class="muted">{{.Summary}}</p>
{{if .Knockout}}{{range $i, $r := .Rounds}}<h2>Round {{inc $i}}</h2>
<ul class="games">
{{range $r}}<li>Match {{.Number}}: {{if .AKey}}<a href="player-{{.AKey}}.html">{{.A}}</a>{{else}}{{.A}}{{end}} v {{if .BKey}}<a href="player-{{.BKey}}.html">{{.B}}</a>{{else}}{{.B}}{{end}} <b>{{.Score}}</b>{{if .Outcome}} <span class="muted">· {{.Outcome}}</span>{{end}}<br>
<span class="muted">Games:</span>{{range $i, $g := .Games}}{{if $i}},{{end}} {{if .Link}}<a href="{{.Link}}">#{{.ID}}</a>{{else}}#{{.ID}}{{end}} {{.Result}}{{end}}</li>
{{end}}</ul>
{{end}}{{else}}<h2>Crosstable</h2>
<div class="wide"><table class="cross">
<thead><tr><th scope="col"><abbr title="Rank">#</abbr></th><th scope="col">Player</th>{{range .Seats}}<th scope="col">{{.}}</th>{{end}}<th scope="col"><abbr title="Points">Pts</abbr></th><th scope="col"><abbr title="Sonneborn-Berger">SB</abbr></th></tr></thead>
<tbody>
{{range .Rows}}<tr><td>{{.Rank}}</td><th scope="row">{{.Seat}}. {{if .Key}}<a href="player-{{.Key}}.html">{{.Name}}</a>{{else}}{{.Name}}{{end}}{{if .Withdrawn}} (withdrew){{end}}</th>{{range .Cells}}<td>{{if not .}}<span aria-label="same player">×</span>{{else}}{{range .}}{{template "cell" .}}{{end}}{{end}}</td>{{end}}<td>{{.Points}}</td><td>{{.SB}}</td></tr>
{{end}}</tbody>
</table></div>
<p class="muted">1 a win, = a draw, 0 a loss, . a game still running, – a game that did not count; each result links to its game. Ties are broken by {{.Chain}}. SB: Sonneborn-Berger.</p>
{{end}}{{if .Winner}}<p><b>{{.Winner}}</b></p>{{end}}
{{template "bottom" .}}`

const cellTemplate = `{{define "cell"}}{{if .Link}}<a href="{{.Link}}" title="{{.Title}}">{{.Text}}</a>{{else}}<span title="{{.Title}}">{{.Text}}</span>{{end}}{{end}}`
