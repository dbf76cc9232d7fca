package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"math"

	"referee/internal/notation"
	"referee/internal/rating"
	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/rules"
)

// stepScript is the page's only script: the arrow keys follow the
// previous and next links. Without it the links still work.
const stepScript = `document.addEventListener("keydown",function(e){if(e.altKey||e.ctrlKey||e.metaKey||e.shiftKey)return;` +
	`var r=e.key==="ArrowLeft"?"prev":e.key==="ArrowRight"?"next":"";var a=r&&document.querySelector('a[rel="'+r+'"]');if(a){location.href=a.href;}});`

// scriptHash is stepScript's hash for the Content-Security-Policy: no
// other script can run on a page.
var scriptHash = func() string {
	h := sha256.Sum256([]byte(stepScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}()

// ContentSecurityPolicy is the policy every page is served with: nothing
// from another site, no script but the step-through's.
var ContentSecurityPolicy = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src " + scriptHash +
	"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const layout = `{{define "top"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
{{if .Description}}<meta name="description" content="{{.Description}}">
{{end}}<link rel="icon" href="favicon.svg" type="image/svg+xml">
<link rel="alternate" type="application/atom+xml" href="feed.atom" title="Finished games and events">
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1b1b;background:#fafaf7;line-height:1.45}
header,main,footer{max-width:960px;margin:0 auto;padding:0 12px}
header{padding-top:10px;border-bottom:1px solid #ddd}
header a{color:#1b1b1b;text-decoration:none;font-weight:600}
a{color:#0b57a4}
h1{font-size:1.35rem;margin:.6em 0 .2em}
h2{font-size:1.1rem;margin:1.2em 0 .3em}
ul.games{list-style:none;padding:0}
ul.games li{padding:.45em 0;border-bottom:1px solid #e6e6e6}
.muted{color:#5a5a5a}
.filters a{margin-right:.6em;white-space:nowrap}
.board{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.board figure{margin:0;max-width:100%}
.board img{display:block;max-width:100%;height:auto}
nav.step{margin:.5em 0}
nav.step a,nav.step span{display:inline-block;padding:.35em .7em;margin:0 .3em .3em 0;border:1px solid #bbb;border-radius:4px;text-decoration:none}
nav.step span{color:#666;border-color:#ccc;border-style:dashed}
ol.moves{padding-left:0;list-style:none;columns:14em;column-gap:1.5em}
ol.moves li{break-inside:avoid}
ol.moves .cur{font-weight:700}
.hex{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;overflow-wrap:anywhere;word-break:break-all}
table{border-collapse:collapse}
td,th{padding:.2em .6em .2em 0;text-align:left;vertical-align:top}
pre{overflow-x:auto;max-width:100%}
.wide{overflow-x:auto;max-width:100%}
table.cross td,table.cross th{border-bottom:1px solid #e6e6e6;padding:.3em .4em;white-space:nowrap}
table.cross td{text-align:center}
table.cross td a{display:inline-block;min-width:1.4em;padding:.1em 0}
table.cross .name{white-space:normal;overflow-wrap:anywhere;min-width:7em;text-align:left}
table.cross .pts{font-weight:700}
footer{margin-top:2em;padding-bottom:2em;font-size:.85em;color:#5a5a5a}
</style>
</head>
<body>
<header><a href="index.html">{{.Site}}</a></header>
<main>
{{end}}
{{define "bottom"}}</main>
<footer>Read-only pages of the referee: players are named by the name they chose or a masked address. <a href="feed.atom">Atom feed of finished games and events</a>.</footer>
{{if .Script}}<script>` + stepScript + `</script>
{{end}}</body>
</html>
{{end}}
{{define "pager"}}{{if or .Newest .Older}}
<p class="filters">{{if .Newest}}<a href="{{.Newest}}">Newest games</a>{{end}}{{if .Older}} <a href="{{.Older}}">Older games</a>{{end}}</p>{{end}}{{end}}
{{define "gameitem"}}<li><a href="game-{{.ID}}.html">#{{.ID}} {{.Variant}}</a>: {{.White}} v {{.Black}} <span class="muted">· {{.State}} · {{.Moves}}</span></li>{{end}}
`

const indexPage = `{{template "top" .}}<h1>{{.Heading}}</h1>
<p class="filters">Show: <a href="index.html">all</a>{{range .States}} <a href="state-{{.Name}}.html">{{.Label}}</a>{{end}}{{range .Variants}} <a href="variant-{{.Name}}.html">{{.Title}}</a>{{end}}</p>
{{if .Events}}<h2>Events</h2>
<ul class="games">
{{range .Events}}<li><a href="event-{{.Name}}.html">{{.Name}}</a> <span class="muted">· {{.Summary}}</span></li>
{{end}}</ul>
<h2>Games</h2>
{{end}}{{if .None}}<p>No games are public here.</p>{{else if not .Games}}<p>No games here yet.</p>{{else}}<ul class="games">
{{range .Games}}{{template "gameitem" .}}
{{end}}</ul>{{end}}{{template "pager" .}}
{{template "bottom" .}}`

const playerPage = `{{template "top" .}}<h1>{{.Heading}}</h1>
<p>{{.Summary}}</p>
{{if .Ratings}}<h2>Ratings</h2>
<table>
<thead><tr><th scope="col">Variant</th><th scope="col">Rating</th><th scope="col">RD</th><th scope="col">Games</th><th scope="col">W/D/L</th></tr></thead>
<tbody>
{{range .Ratings}}<tr><td>{{.Variant}}</td><td>{{.Rating}}</td><td>{{.RD}}</td><td>{{.Games}}</td><td>{{.WDL}}</td></tr>
{{end}}</tbody>
</table>
<p class="muted">Glicko-2 ratings of rated games; "?" marks a provisional rating (a rating deviation, RD, above {{.Provisional}}).</p>
<h2>Games</h2>
{{end}}<ul class="games">
{{range .Games}}{{template "gameitem" .}}
{{end}}</ul>{{template "pager" .}}
{{template "bottom" .}}`

const gamePage = `{{template "top" .}}<h1>Game #{{.ID}}: <a href="player-{{.WhiteKey}}.html">{{.White}}</a> v <a href="player-{{.BlackKey}}.html">{{.Black}}</a></h1>
<p class="muted">{{.Variant}} · {{.Control}} · started {{.Started}} · {{.State}}</p>
{{if .Event}}<p>A game of the event <a href="event-{{.Event}}.html">{{.Event}}</a>, round {{.Round}}.</p>{{end}}
{{if .Delay}}<p>This game is shown {{.Delay}} late: the newest moves are not on this page yet.</p>{{end}}
<div class="board">
<figure>
<img src="game-{{.ID}}-{{.Ply}}.png" width="{{.W}}" height="{{.H}}" alt="{{.Alt}}">
<figcaption>{{.Caption}}</figcaption>
</figure>
<div>
<nav class="step" aria-label="Step through the game">{{if .HasPrev}}<a href="game-{{.ID}}-0.html" aria-label="Start position">|&lt;</a><a href="game-{{.ID}}-{{.Prev}}.html" rel="prev">&lt; Previous</a>{{else}}<span>|&lt;</span><span>&lt; Previous</span>{{end}}{{if .HasNext}}<a href="game-{{.ID}}-{{.Next}}.html" rel="next">Next &gt;</a><a href="game-{{.ID}}-{{.Last}}.html" aria-label="Last position">&gt;|</a>{{else}}<span>Next &gt;</span><span>&gt;|</span>{{end}}</nav>
<p class="muted">The arrow keys ← and → step too.</p>
<p><a href="game-{{.ID}}.pgn" download>Download the record (PGN)</a></p>
<details><summary>The board as text</summary>{{.TextBoard}}</details>
</div>
</div>
<h2>Moves</h2>
{{if .Moves}}<ol class="moves">
{{range .Moves}}<li{{if .Current}} class="cur"{{end}}><a href="game-{{$.ID}}-{{.Ply}}.html">{{.Label}}</a> <span class="muted">{{.Date}}</span></li>
{{end}}</ol>{{else}}<p>No moves yet.</p>{{end}}
{{if .Result}}<h2>Result</h2>
<p>{{.Result}}</p>{{end}}
{{if .Die}}<h2>The die</h2>
<p>The referee rolls for the players. Before the first roll it committed to a secret seed: SHA-256 of the seed is <span class="hex">{{.Commitment}}</span>. Each roll is signed with the referee's Ed25519 key <span class="hex">{{.Key}}</span> over the text <code>referee-roll:{{.ID}}:n:value</code>.</p>
{{if .Rolls}}<table>
<thead><tr><th>Roll</th><th>Value</th><th>Before move</th><th>Signature</th></tr></thead>
<tbody>
{{range .Rolls}}<tr><td>{{.N}}</td><td>{{.Value}}</td><td>{{.Before}}</td><td class="hex">{{.Sig}}</td></tr>
{{end}}</tbody>
</table>{{end}}
{{if .Seed}}<p>The game is over, so the seed is revealed: <span class="hex">{{.Seed}}</span>.</p>
<p>To check it yourself: (1) SHA-256 of the 32 seed bytes must equal the commitment above; (2) roll n is, for c = 0, 1, 2, …: h = HMAC-SHA256(key = the seed bytes, message = the ASCII text "{{.ID}}:n:c"), b = the first byte of h; if b &lt; 252 the roll is (b mod 6) + 1, else try the next c; (3) each signature must verify with the key above; (4) the rolls run 1, 2, 3, … without a gap. <code>referee verify --record game-{{.ID}}.pgn</code> does all four.</p>
{{else}}<p>The seed stays secret while the game runs; it is shown here when the game ends, and every roll can then be checked.</p>{{end}}
{{end}}
{{template "bottom" .}}`

var templates = func() map[string]*template.Template {
	out := map[string]*template.Template{}
	funcs := template.FuncMap{"inc": func(i int) int { return i + 1 }}
	for name, text := range map[string]string{"index": indexPage, "player": playerPage, "game": gamePage, "event": eventTemplate} {
		out[name] = template.Must(template.Must(template.New("layout").Funcs(funcs).Parse(layout + cellTemplate + crosstableTemplate)).New(name).Parse(text))
	}
	return out
}()

// frame is what every page's top and bottom need.
type frame struct {
	Title, Site string
	// Description is the page's meta description: what a search
	// engine's result says under the title (describe.go writes them).
	Description string
	Script      bool
}

// pager links a list's page to the newest and the older games ("" where
// there is no such page).
type pager struct {
	Newest, Older string
}

// gameItem is one line of a list of games.
type gameItem struct {
	ID           int64
	Variant      string
	White, Black string
	State, Moves string
}

func resultText(g *referee.Game) string { return result(string(g.Status), g.Result, g.ResultReason) }

// result is "1-0 (resignation)", or the status of a game without a
// result.
func result(status, result, reason string) string {
	if result == "" {
		return status
	}
	if reason != "" {
		return result + " (" + reason + ")"
	}
	return result
}

func (s *Site) exec(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := templates[name].Execute(&b, data); err != nil {
		return nil, fmt.Errorf("web: writing the %s page: %w", name, err)
	}
	return b.Bytes(), nil
}

// index is a page of the list of games, all or those of a variant or a
// state.
func (s *Site) index(ctx context.Context, l listSpec) (listOut, error) {
	type variantLink struct{ Name, Title string }
	type stateLink struct {
		Name  referee.GameStatus
		Label string
	}
	data := struct {
		frame
		pager
		Heading  string
		None     bool
		States   []stateLink
		Variants []variantLink
		Events   []eventLink
		Games    []gameItem
	}{frame: frame{Title: s.opts.Title, Site: s.opts.Title, Description: s.indexDescription(l)}, Heading: "Games", None: s.opts.Public == PublicNone}
	if s.opts.Public == PublicAll {
		data.States = []stateLink{{referee.StatusActive, "running"}, {referee.StatusFinished, "finished"}}
	}
	set, err := s.eventSet(ctx) // the variants of the public games with the events
	if err != nil {
		return listOut{}, err
	}
	variants := set.variants
	title := ""
	for _, name := range variants {
		v, err := s.variants().Lookup(name)
		if err != nil {
			continue
		}
		data.Variants = append(data.Variants, variantLink{name, v.Title()})
		if name == l.variant {
			title = v.Title()
		}
	}
	if l.variant != "" && title == "" {
		return listOut{}, ErrNotFound // no public game of that variant
	}
	if l == (listSpec{}) {
		if data.Events, err = s.eventLinks(ctx); err != nil {
			return listOut{}, err
		}
	}
	var out listOut
	if data.Games, out.older, err = s.listGames(ctx, l, nil); err != nil {
		return listOut{}, err
	}
	data.pager = pagerOf(l, out.older)
	switch l.state {
	case referee.StatusActive:
		data.Heading = "Running games"
	case referee.StatusFinished:
		data.Heading = "Finished games"
	}
	if l.variant != "" {
		if l.state == "" {
			data.Heading = "Games of " + title
		} else {
			data.Heading += " of " + title
		}
	}
	data.Title = data.Heading + " · " + s.opts.Title
	out.body, err = s.exec("index", data)
	return out, err
}

// playerPage is a page of one player's public games.
func (s *Site) playerPage(ctx context.Context, l listSpec) (listOut, error) {
	addresses, err := s.playerAddresses(ctx, l.player)
	if err != nil {
		return listOut{}, err
	}
	statuses := s.statuses()
	name, ok, err := s.mailboxName(ctx, addresses, statuses)
	if err != nil {
		return listOut{}, err
	}
	if !ok {
		return listOut{}, ErrNotFound // no public game
	}
	if l.variant != "" {
		if _, err := s.variants().Lookup(l.variant); err != nil {
			return listOut{}, ErrNotFound
		}
	}
	data := struct {
		frame
		pager
		Heading, Summary string
		Ratings          []ratingRow
		Provisional      int
		Games            []gameItem
	}{frame: frame{Title: name + " · " + s.opts.Title, Site: s.opts.Title}, Heading: name, Provisional: rating.ProvisionalRD}
	ratings, err := s.st.WebRatings(ctx, addresses)
	if err != nil {
		return listOut{}, err
	}
	for _, r := range ratings {
		title := r.Variant
		if v, err := rules.Lookup(r.Variant); err == nil {
			title = v.Title()
		}
		data.Ratings = append(data.Ratings, ratingRow{Variant: title, Rating: r.Rating.String(), RD: fmt.Sprint(int(math.Round(r.RD))),
			Games: r.Games, WDL: fmt.Sprintf("%d/%d/%d", r.Wins, r.Draws, r.Losses)})
	}
	games, won, lost, drawn, err := s.st.WebPlayerStats(ctx, addresses, statuses)
	if err != nil {
		return listOut{}, err
	}
	var out listOut
	if data.Games, out.older, err = s.listGames(ctx, l, addresses); err != nil {
		return listOut{}, err
	}
	data.pager = pagerOf(l, out.older)
	data.Summary = fmt.Sprintf("%s here: %d won, %d lost, %d drawn.", plural(games, "public game"), won, lost, drawn)
	data.Description = s.playerDescription(name, games)
	out.body, err = s.exec("player", data)
	return out, err
}

// ratingRow is one variant's rating on a player's page.
type ratingRow struct {
	Variant, Rating, RD, WDL string
	Games                    int
}

// position is g's position after ply actions, and the squares of the
// action that led to it (none at the start).
func position(g *referee.Game, ply int) (rules.Position, []rules.Square, error) {
	pos, err := g.PositionAt(ply)
	if err != nil {
		return nil, nil, err
	}
	if ply == 0 {
		return pos, nil, nil
	}
	before := g.Start
	if ply > 1 {
		before = g.Actions[ply-2].Position
	}
	var marks []rules.Square
	if bp, err := g.Variant.ParsePosition(before); err == nil {
		if m, err := notation.ParseCoord(bp, g.Actions[ply-1].Coord); err == nil {
			marks = render.MoveSquares(m)
		}
	}
	return pos, marks, nil
}

// picture is the board after ply actions, as the mails draw it. The
// pictures of one position (every game's start) are drawn once while
// they are kept.
func (s *Site) picture(g *referee.Game, ply int) ([]byte, error) {
	pos, marks, err := position(g, ply)
	if err != nil {
		return nil, err
	}
	key := "png\x00" + g.Variant.Name() + "\x00" + pos.String() + "\x00" + fmt.Sprint(marks)
	if b, ok := s.cache.getValue(key, "").([]byte); ok {
		return b, nil
	}
	b, err := s.painter.PNG(pos, rules.White, render.Options{LastMove: marks})
	if err != nil {
		return nil, fmt.Errorf("game #%d: drawing the board after %d actions: %w", g.ID, ply, err)
	}
	s.cache.putValue(key, "", b, len(b)+len(key)+64)
	return b, nil
}

// moveLabel is "12. Nf3" or "12... Nf6".
func moveLabel(g *referee.Game, i int) string {
	before := g.Start
	if i > 0 {
		before = g.Actions[i-1].Position
	}
	n := 0
	if p, err := g.Variant.ParsePosition(before); err == nil {
		n = p.MoveNumber()
	}
	if g.Actions[i].Color == rules.Black {
		return fmt.Sprintf("%d... %s", n, g.Actions[i].SAN)
	}
	return fmt.Sprintf("%d. %s", n, g.Actions[i].SAN)
}

// gamePage is a game's page at ply (latest: the game's own page, which
// shows the last position).
func (s *Site) gamePage(gc *gameCtx, ply int) ([]byte, error) {
	g := gc.view
	pos, _, err := position(g, ply)
	if err != nil {
		return nil, err
	}
	w, h := render.PNGSize(pos)
	type move struct {
		Ply         int
		Label, Date string
		Current     bool
	}
	type roll struct {
		N, Value int
		Before   string
		Sig      string
	}
	cfg := s.opts.Referee.Config()
	data := struct {
		frame
		ID                               int64
		White, Black, WhiteKey, BlackKey string
		Variant, Started, State, Delay   string
		Control                          string
		Ply, Prev, Next, Last, W, H      int
		Event                            string
		Round                            int
		HasPrev, HasNext                 bool
		Alt, Caption                     string
		TextBoard                        template.HTML
		Moves                            []move
		Result                           string
		Die                              bool
		Commitment, Key, Seed            string
		Rolls                            []roll
	}{
		frame: frame{Site: s.opts.Title, Script: true, Description: s.gameDescription(g, ply)}, ID: g.ID,
		White: g.Players[0].Name, Black: g.Players[1].Name,
		Variant: g.Variant.Title(), Started: g.Created.UTC().Format("2 Jan 2006"),
		Ply: ply, Prev: ply - 1, Next: ply + 1, Last: g.Ply(), W: w, H: h, HasPrev: ply > 0, HasNext: ply < g.Ply(),
		TextBoard: template.HTML(render.HTML(pos, rules.White)),
	}
	data.Control = "no time limit"
	if c := g.State.Clock; c != nil {
		data.Control = c.Describe() // the control in words, with its days off
	}
	data.WhiteKey, data.BlackKey = gc.keys[0], gc.keys[1]
	data.Event, data.Round = gc.event.Name, gc.event.Round
	data.Title = fmt.Sprintf("Game #%d: %s v %s (%s) · %s", g.ID, data.White, data.Black, data.Variant, s.opts.Title)
	switch g.Status {
	case referee.StatusFinished:
		data.State = "finished: " + resultText(g)
		data.Result = resultText(g)
	default:
		data.State = "running"
		if d := g.State.WatchDelay; d > 0 {
			data.Delay = plural(d, "move")
		}
	}
	where := "the start"
	if ply > 0 {
		where = moveLabel(g, ply-1)
	}
	turn := ""
	if g.Status == referee.StatusActive || ply < g.Ply() {
		turn = fmt.Sprintf(", %s to play", pos.Turn())
	}
	data.Alt = fmt.Sprintf("%s board of game #%d after %s%s. The board is also below as text.", g.Variant.Title(), g.ID, where, turn)
	if ply == 0 {
		data.Alt = fmt.Sprintf("%s board of game #%d at the start%s. The board is also below as text.", g.Variant.Title(), g.ID, turn)
	}
	data.Caption = fmt.Sprintf("After %s (%d of %s)%s", where, ply, plural(g.Ply(), "action"), turn)
	if ply == 0 {
		data.Caption = "The start position" + turn
	}
	for i, a := range g.Actions {
		m := move{Ply: i + 1, Label: moveLabel(g, i), Current: i+1 == ply}
		if !a.Time.IsZero() {
			m.Date = a.Time.UTC().Format("2 Jan 2006")
		}
		data.Moves = append(data.Moves, m)
	}
	if g.Commitment != "" {
		data.Die, data.Commitment, data.Key = true, g.Commitment, cfg.Key.PublicHex()
		for _, r := range g.Rolls {
			before := "the end"
			if r.Ply < len(g.Actions) {
				before = moveLabel(g, r.Ply)
			}
			data.Rolls = append(data.Rolls, roll{N: r.N, Value: r.Value, Before: before, Sig: hex.EncodeToString(r.Sig)})
		}
		if g.SeedRevealed && g.Status != referee.StatusActive {
			data.Seed = g.Seed.Hex()
		}
	}
	return s.exec("game", data)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
