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
	"referee/internal/referee"
	"referee/internal/render"
	"referee/internal/store"
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

// Source is where the pages' games come from (app.App has these
// methods).
type Source interface {
	// Game loads one game with its actions and rolls.
	Game(ctx context.Context, id int64) (*referee.Game, error)
	// Store is the database the lists of games are read from, a page at a
	// time (store.WebGames).
	Store() *store.Store
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
	// CacheBytes bounds the pages kept made in memory (DefaultCacheBytes
	// when 0; below 0, none is kept).
	CacheBytes int
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// DefaultCacheBytes is how much memory the pages kept made may take by
// default: a game's page is about 10 KB, its picture 5 to 20 KB.
const DefaultCacheBytes = 16 << 20

// Site makes the pages. It is safe for concurrent use.
//
// Each page reads only what it shows (issue 39): a game's pages read that
// game, the lists (the index, its filters, a player's page) read one page
// of games through the indexes of store.WebGames, newest first. The pages
// of a game are kept made (Options.CacheBytes) and made again only when
// the game changed (store.WebGame.Version): a finished game's pages are
// made once, a running game's when a move is made.
type Site struct {
	src  Source
	st   *store.Store
	opts Options
	key  []byte // names player pages: HMAC of the mailbox, never the address

	cache   *pageCache
	games   *pageCache // the spectator views of the games last loaded
	painter render.Painter

	mu      sync.Mutex
	players *playerIndex // page key -> stored addresses, learnt on first use
	events  *eventSet    // the public events, made again when a game or an event changed
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
	if opts.CacheBytes == 0 {
		opts.CacheBytes = DefaultCacheBytes
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	cfg := opts.Referee.Config()
	if opts.Title == "" {
		opts.Title = "Games at " + cfg.Address
	}
	k := sha256.Sum256([]byte("web player pages\x00" + cfg.IDSalt + "\x00" + cfg.Key.PublicHex()))
	return &Site{src: src, st: src.Store(), opts: opts, key: k[:], cache: newPageCache(opts.CacheBytes),
		games: newPageCache(4 << 20), players: &playerIndex{keys: map[string][]string{}}}, nil
}

// statuses are the statuses of the games the policy shows.
func (s *Site) statuses() []string {
	switch s.opts.Public {
	case PublicAll:
		return []string{string(referee.StatusActive), string(referee.StatusFinished)}
	case PublicFinished:
		return []string{string(referee.StatusFinished)}
	}
	return []string{} // not nil: store.WebName reads nil as any status
}

// public reports whether the policy shows a game of this status and
// privacy.
func (s *Site) public(status string, private bool) bool {
	return !private && slices.Contains(s.statuses(), status)
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
// "variant-chess.html", "state-finished.html", "event-NAME.html",
// "feed.atom"; a list's older games: "index-before-1234.html",
// "variant-chess-before-1234.html", ...). A list may also be asked for
// with its filters as query parameters: "index.html?variant=chess&
// state=finished&before=1234", "player-KEY.html?before=1234".
func (s *Site) Page(ctx context.Context, name string) (*Page, error) {
	name, query, hasQuery := strings.Cut(name, "?")
	if hasQuery {
		l, ok, err := s.listQuery(name, query)
		if err != nil {
			return nil, err
		}
		if ok {
			return s.listPage(ctx, name, l)
		}
	}
	return s.page(ctx, name)
}

func (s *Site) page(ctx context.Context, name string) (*Page, error) {
	if p, ok, err := s.staticFile(name); ok {
		return p, err // robots.txt, the favicon (static.go)
	}
	switch name {
	case "feed.atom":
		b, err := s.feed(ctx)
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
	case "index", "variant", "state", "player":
		l, ok := parseList(stem)
		if !ok || ext != "html" {
			return nil, ErrNotFound
		}
		return s.listPage(ctx, name, l)
	case "game":
		return s.gameFile(ctx, name, rest, ext)
	case "event":
		if ext != "html" {
			return nil, ErrNotFound
		}
		return s.eventFile(ctx, name, rest)
	}
	return nil, ErrNotFound
}

// gameFile is one of a game's files: its page (at the last ply or at ply
// N), a board picture, its record. Each is kept made until the game
// changes.
func (s *Site) gameFile(ctx context.Context, name, rest, ext string) (*Page, error) {
	idText, plyText, hasPly := strings.Cut(rest, "-")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || strconv.FormatInt(id, 10) != idText || id <= 0 {
		return nil, ErrNotFound
	}
	switch {
	case ext == "html", ext == "png" && hasPly, ext == "pgn" && !hasPly:
	default:
		return nil, ErrNotFound
	}
	wg, err := s.st.WebGame(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if !s.public(wg.Status, wg.Private) {
		return nil, ErrNotFound
	}
	shown := shownPly(wg)
	ply := shown
	if hasPly {
		n, err := strconv.Atoi(plyText)
		if err != nil || strconv.Itoa(n) != plyText || n < 0 || n > shown {
			return nil, ErrNotFound
		}
		ply = n
	}
	version := wg.Version()
	if p := s.cache.get(name, version); p != nil {
		return p, nil
	}
	gc, err := s.game(ctx, wg)
	if err != nil {
		return nil, err
	}
	g := gc.view
	if g.Ply() != shown {
		// The game changed between the two reads: the next request finds
		// it as it is now.
		return nil, fmt.Errorf("game #%d changed while its page was made (%d actions, %d expected)", id, g.Ply(), shown)
	}
	final := g.Status != referee.StatusActive
	var p *Page
	switch ext {
	case "html":
		b, err := s.gamePage(gc, ply)
		if err != nil {
			return nil, err
		}
		p = &Page{Name: name, ContentType: "text/html; charset=utf-8", Body: b, Final: final}
	case "png":
		b, err := s.picture(g, ply)
		if err != nil {
			return nil, err
		}
		// Not final while the game runs, even for an old ply: takebacks
		// may replace it.
		p = &Page{Name: name, ContentType: "image/png", Body: b, Final: final}
	case "pgn":
		b, err := s.pgn(g)
		if err != nil {
			return nil, err
		}
		p = &Page{Name: name, ContentType: "application/x-chess-pgn; charset=utf-8", Body: b, Final: final}
	}
	s.cache.put(name, version, p)
	return p, nil
}

// shownPly is how many actions of g the pages show: all once it is over,
// all but its delay while it runs.
func shownPly(g store.WebGame) int {
	if g.Status != string(referee.StatusActive) {
		return g.Ply
	}
	return max(0, g.Ply-g.WatchDelay)
}

// gameCtx is a game as its pages show it: the spectator view with the
// players by their public names, their page keys, and its event.
type gameCtx struct {
	view  *referee.Game
	keys  [2]string
	event eventOf
}

// game loads the game wg names as its pages show it, or takes it from the
// views kept.
func (s *Site) game(ctx context.Context, wg store.WebGame) (*gameCtx, error) {
	key := strconv.FormatInt(wg.ID, 10)
	if gc, ok := s.games.getValue(key, wg.Version()).(*gameCtx); ok {
		return gc, nil
	}
	g, err := s.src.Game(ctx, wg.ID)
	if err != nil {
		return nil, fmt.Errorf("loading game #%d for its pages: %w", wg.ID, err)
	}
	gc := &gameCtx{view: g.SpectatorView()}
	// The spectator views hold no secret, no running seed and no watcher;
	// here the players' addresses go too: a view knows its players by
	// their public names alone.
	for c, p := range g.Players {
		gc.keys[c] = s.playerKey(p.Address)
		gc.view.Players[c] = referee.Player{Name: referee.PublicName(p)}
	}
	name, round, ok, err := s.st.WebGameEvent(ctx, wg.ID)
	if err != nil {
		return nil, err
	}
	if ok {
		gc.event = eventOf{Name: name, Round: round}
	}
	// A game's record, actions and positions: about 200 bytes an action.
	s.games.putValue(key, wg.Version(), gc, 1024+300*len(g.Actions))
	return gc, nil
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
