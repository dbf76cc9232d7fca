// Package web is the referee's window on the web: read-only pages of the
// public games (an index with filters, a page per game and ply with the
// board picture of the mails, a page per player, the PGN record, an Atom
// feed of finished games), served over HTTP (Handler) or written as static
// files (Export). Both come from one function (Site.Page), so the static
// site is byte for byte what the server serves.
//
// The web is a window, never a door: only GET and HEAD, no address, secret,
// reply token, running die seed or conditional move on any page, the
// organiser's --public policy, private games never shown, and the
// spectator delay of each game (referee.Game.SpectatorView) applied as in
// the mails.
package web

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"referee/internal/mail/addr"
	"referee/internal/rating"
	"referee/internal/referee"
	"referee/internal/render"
)

// Public policies: which games the pages show (Options.Public).
const (
	PublicAll      = "all"      // running and finished games
	PublicFinished = "finished" // finished games only (the default)
	PublicNone     = "none"     // none: the index says so
)

// CheckPublic says what is wrong with a --public value, or nil.
func CheckPublic(p string) error {
	switch p {
	case PublicAll, PublicFinished, PublicNone:
		return nil
	}
	return fmt.Errorf("--public %q is not a policy: give all (running and finished games), finished (only finished games) or none", p)
}

// Source is where the pages' games come from (app.App has this method).
type Source interface {
	// Games lists games with the given status ("" for all).
	Games(ctx context.Context, status string) ([]*referee.Game, error)
}

// Options configure a Site.
type Options struct {
	// Public is the policy: PublicAll, PublicFinished (default) or
	// PublicNone.
	Public string
	// Referee writes the PGN records (its key and address are in them).
	Referee *referee.Referee
	// Title names the site ("Games at referee@example.org" by default).
	Title string
	// BaseURL, when set (https://games.example.org/), makes the feed's
	// links absolute; pages always link relatively.
	BaseURL string
	// Refresh is how long the games read from the Source are kept before
	// they are read again (default 5 s; the export reads them once).
	Refresh time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Site makes the pages. It is safe for concurrent use.
type Site struct {
	src  Source
	opts Options
	key  []byte // names player pages: HMAC of the mailbox, never the address

	mu      sync.Mutex
	snap    *snapshot
	pngs    map[string][]byte // picture cache: position and highlight -> PNG
	painter render.Painter
}

// NewSite makes a site of src's games.
func NewSite(src Source, opts Options) (*Site, error) {
	if opts.Public == "" {
		opts.Public = PublicFinished
	}
	if err := CheckPublic(opts.Public); err != nil {
		return nil, err
	}
	if opts.Referee == nil {
		return nil, errors.New("web: no referee to write the records")
	}
	if opts.Refresh <= 0 {
		opts.Refresh = 5 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	cfg := opts.Referee.Config()
	if opts.Title == "" {
		opts.Title = "Games at " + cfg.Address
	}
	k := sha256.Sum256([]byte("web player pages\x00" + cfg.IDSalt + "\x00" + cfg.Key.PublicHex()))
	return &Site{src: src, opts: opts, key: k[:], pngs: map[string][]byte{}}, nil
}

// snapshot is the public games as read at one time.
type snapshot struct {
	at      time.Time
	games   []*referee.Game // spectator views, newest first
	byID    map[int64]*referee.Game
	players map[string]*player // by page key
	// keys are the player page keys of each game's White and Black.
	keys map[int64][2]string
	// eventList are the public events, oldest first; events names the
	// event of each public game of one.
	eventList []*eventPage
	events    map[int64]eventOf
	// ratings are each player's ratings by page key, without addresses.
	ratings map[string][]rating.Standing
}

// player is one player's page.
type player struct {
	Key   string
	Name  string
	Games []*referee.Game
}

// public reports whether the policy shows g.
func (s *Site) public(g *referee.Game) bool {
	if g.State.Private {
		return false
	}
	switch s.opts.Public {
	case PublicAll:
		return g.Status == referee.StatusActive || g.Status == referee.StatusFinished
	case PublicFinished:
		return g.Status == referee.StatusFinished
	}
	return false
}

// games returns the current snapshot, reading the source again when it is
// older than Options.Refresh.
func (s *Site) games(ctx context.Context) (*snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	if s.snap != nil && now.Sub(s.snap.at) < s.opts.Refresh {
		return s.snap, nil
	}
	all, err := s.src.Games(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("reading the games for the web pages: %w", err)
	}
	sn := &snapshot{at: now, byID: map[int64]*referee.Game{}, players: map[string]*player{}, keys: map[int64][2]string{},
		events: map[int64]eventOf{}, ratings: map[string][]rating.Standing{}}
	names := map[string]string{} // page key -> public name, from every game
	for _, g := range all {
		for _, p := range g.Players {
			if k := s.playerKey(p.Address); names[k] == "" && !g.State.Private {
				names[k] = referee.PublicName(p)
			}
		}
		if !s.public(g) {
			continue
		}
		v := g.SpectatorView()
		sn.games = append(sn.games, v)
		sn.byID[v.ID] = v
		var keys [2]string
		for c, p := range g.Players {
			k := s.playerKey(p.Address)
			keys[c] = k
			pl := sn.players[k]
			if pl == nil {
				pl = &player{Key: k, Name: referee.PublicName(p)}
				sn.players[k] = pl
			}
			pl.Games = append(pl.Games, v)
		}
		sn.keys[v.ID] = keys
	}
	slices.SortFunc(sn.games, func(a, b *referee.Game) int { return int(b.ID - a.ID) })
	for _, pl := range sn.players {
		slices.SortFunc(pl.Games, func(a, b *referee.Game) int { return int(b.ID - a.ID) })
	}
	// The spectator views hold no secret, no running seed and no watcher;
	// here the players' addresses go too: a view knows its players by
	// their public names alone.
	for _, v := range sn.games {
		for c := range v.Players {
			v.Players[c] = referee.Player{Name: referee.PublicName(v.Players[c])}
		}
	}
	if err := s.loadEvents(ctx, sn, names); err != nil {
		return nil, err
	}
	s.snap = sn
	if len(s.pngs) > 4096 {
		s.pngs = map[string][]byte{} // a bound, not an LRU: pictures are cheap to draw again
	}
	return sn, nil
}

// playerKey names a player's page: an HMAC of the mailbox under a key of
// this deployment, so that the page name says nothing about the address
// and no one can test whether an address plays here.
func (s *Site) playerKey(address string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(addr.Mailbox(address)))
	return hex.EncodeToString(m.Sum(nil)[:6])
}

// Page is one file of the site.
type Page struct {
	Name        string // file name, e.g. "game-17.html"
	ContentType string
	Body        []byte
	// Final: the page will not change any more (a finished game's pages),
	// so caches may keep it long.
	Final bool
}

// ErrNotFound is a name that is no page of the site.
var ErrNotFound = errors.New("no such page")

// Page makes the page called name ("index.html", "game-17.html",
// "game-17-5.html", "game-17-5.png", "game-17.pgn", "player-KEY.html",
// "variant-chess.html", "state-finished.html", "feed.atom").
func (s *Site) Page(ctx context.Context, name string) (*Page, error) {
	sn, err := s.games(ctx)
	if err != nil {
		return nil, err
	}
	return s.page(sn, name)
}

func (s *Site) page(sn *snapshot, name string) (*Page, error) {
	if p, ok, err := s.staticFile(name); ok {
		return p, err // robots.txt, the favicon (static.go)
	}
	html := func(b []byte, err error) (*Page, error) {
		if err != nil {
			return nil, err
		}
		return &Page{Name: name, ContentType: "text/html; charset=utf-8", Body: b}, nil
	}
	switch {
	case name == "index.html":
		return html(s.index(sn, filter{}))
	case name == "feed.atom":
		b, err := s.feed(sn)
		if err != nil {
			return nil, err
		}
		return &Page{Name: name, ContentType: "application/atom+xml; charset=utf-8", Body: b}, nil
	}
	stem, ext, ok := strings.Cut(name, ".")
	if !ok || strings.Contains(ext, ".") {
		return nil, ErrNotFound
	}
	kind, rest, _ := strings.Cut(stem, "-")
	switch kind {
	case "variant":
		if ext != "html" || !slices.ContainsFunc(sn.games, func(g *referee.Game) bool { return g.Variant.Name() == rest }) {
			return nil, ErrNotFound
		}
		return html(s.index(sn, filter{Variant: rest}))
	case "state":
		if st := referee.GameStatus(rest); ext != "html" || (st != referee.StatusActive && st != referee.StatusFinished) {
			return nil, ErrNotFound
		}
		return html(s.index(sn, filter{State: referee.GameStatus(rest)}))
	case "player":
		pl := sn.players[rest]
		if ext != "html" || pl == nil {
			return nil, ErrNotFound
		}
		return html(s.playerPage(sn, pl))
	case "game":
		return s.gameFile(sn, name, rest, ext)
	case "event":
		return s.eventFile(sn, name, rest, ext)
	}
	return nil, ErrNotFound
}

// gameFile is one of a game's files: its page (at the last ply or at ply
// N), a board picture, its record.
func (s *Site) gameFile(sn *snapshot, name, rest, ext string) (*Page, error) {
	idText, plyText, hasPly := strings.Cut(rest, "-")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || strconv.FormatInt(id, 10) != idText {
		return nil, ErrNotFound
	}
	g := sn.byID[id]
	if g == nil {
		return nil, ErrNotFound
	}
	ply := g.Ply()
	if hasPly {
		n, err := strconv.Atoi(plyText)
		if err != nil || strconv.Itoa(n) != plyText || n < 0 || n > g.Ply() {
			return nil, ErrNotFound
		}
		ply = n
	}
	final := g.Status != referee.StatusActive
	switch {
	case ext == "html":
		b, err := s.gamePage(sn, g, ply)
		if err != nil {
			return nil, err
		}
		return &Page{Name: name, ContentType: "text/html; charset=utf-8", Body: b, Final: final}, nil
	case ext == "png" && hasPly:
		b, err := s.picture(g, ply)
		if err != nil {
			return nil, err
		}
		// Not final while the game runs, even for an old ply: takebacks
		// may replace it.
		return &Page{Name: name, ContentType: "image/png", Body: b, Final: final}, nil
	case ext == "pgn" && !hasPly:
		b, err := s.pgn(g)
		if err != nil {
			return nil, err
		}
		return &Page{Name: name, ContentType: "application/x-chess-pgn; charset=utf-8", Body: b, Final: final}, nil
	}
	return nil, ErrNotFound
}

// Names lists every file of the site, for the export: the index and its
// filters, the feed, each game's pages, pictures and record, each player's
// page.
func (s *Site) Names(ctx context.Context) ([]string, error) {
	sn, err := s.games(ctx)
	if err != nil {
		return nil, err
	}
	return s.names(sn), nil
}

func (s *Site) names(sn *snapshot) []string {
	out := append([]string{"index.html", "feed.atom", "state-active.html", "state-finished.html"}, staticNames()...)
	variants := map[string]bool{}
	for _, g := range sn.games {
		if !variants[g.Variant.Name()] {
			variants[g.Variant.Name()] = true
			out = append(out, "variant-"+g.Variant.Name()+".html")
		}
		out = append(out, fmt.Sprintf("game-%d.html", g.ID), fmt.Sprintf("game-%d.pgn", g.ID))
		for ply := 0; ply <= g.Ply(); ply++ {
			out = append(out, fmt.Sprintf("game-%d-%d.html", g.ID, ply), fmt.Sprintf("game-%d-%d.png", g.ID, ply))
		}
	}
	for _, ep := range sn.eventList {
		out = append(out, "event-"+ep.E.Name+".html")
	}
	keys := make([]string, 0, len(sn.players))
	for k := range sn.players {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, "player-"+k+".html")
	}
	return out
}

// pgn is the game's record as a spectator may see it: the players by
// their public names.
func (s *Site) pgn(g *referee.Game) ([]byte, error) {
	named := *g // its players hold public names only (games)
	for c := range named.Players {
		named.Players[c].Address = g.Players[c].Name
	}
	rec, err := s.opts.Referee.Record(&named)
	if err != nil {
		return nil, fmt.Errorf("game #%d: writing its record for the web: %w", g.ID, err)
	}
	var b bytes.Buffer
	if _, err := rec.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
