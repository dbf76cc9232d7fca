package web

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"referee/internal/referee"
	"referee/internal/rules"
	"referee/internal/store"
)

// pageGames is how many games a list shows at a time; a link leads to
// the older ones.
const pageGames = 100

// listSpec is one page of a list of games: the index, or a player's
// games, with filters, from the newest game below before (0: the newest
// of all).
type listSpec struct {
	variant string
	state   referee.GameStatus
	player  string // a player page's key
	before  int64
}

// parseList reads a list's file name without ".html": "index",
// "variant-chess", "state-finished", "player-KEY", each perhaps with
// "-before-N".
func parseList(stem string) (listSpec, bool) {
	var l listSpec
	if i := strings.LastIndex(stem, "-before-"); i >= 0 {
		n, ok := parseID(stem[i+len("-before-"):])
		if !ok {
			return l, false
		}
		stem, l.before = stem[:i], n
	}
	kind, rest, _ := strings.Cut(stem, "-")
	switch kind {
	case "index":
		return l, rest == "" && !strings.Contains(stem, "-")
	case "variant":
		l.variant = rest
	case "state":
		l.state = referee.GameStatus(rest)
		if l.state != referee.StatusActive && l.state != referee.StatusFinished {
			return l, false
		}
	case "player":
		l.player = rest
	default:
		return l, false
	}
	return l, rest != ""
}

// parseID reads a positive number written as strconv writes it.
func parseID(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0 && strconv.FormatInt(n, 10) == s
}

// listQuery reads a list page asked for with query parameters: the
// filters variant and state and the cursor before, on index.html or any
// list's name. ok is false when name is no list.
func (s *Site) listQuery(name, query string) (listSpec, bool, error) {
	stem, ok := strings.CutSuffix(name, ".html")
	if !ok {
		return listSpec{}, false, nil
	}
	l, ok := parseList(stem)
	if !ok {
		return l, false, nil
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return l, true, ErrNotFound
	}
	if v := q.Get("variant"); v != "" {
		l.variant = v
	}
	if st := q.Get("state"); st != "" {
		l.state = referee.GameStatus(st)
		if l.state != referee.StatusActive && l.state != referee.StatusFinished {
			return l, true, ErrNotFound
		}
	}
	if b := q.Get("before"); b != "" {
		n, ok := parseID(b)
		if !ok {
			return l, true, ErrNotFound
		}
		l.before = n
	}
	return l, true, nil
}

// name is the link to the list page: a file name where there is one (the
// static site has those), else index.html or the player's page with the
// filters as query parameters.
func (l listSpec) name() string {
	before := ""
	if l.before > 0 {
		before = fmt.Sprintf("-before-%d", l.before)
	}
	switch {
	case l.player != "" && l.variant == "" && l.state == "":
		return "player-" + l.player + before + ".html"
	case l.player != "":
	case l.variant != "" && l.state == "":
		return "variant-" + l.variant + before + ".html"
	case l.state != "" && l.variant == "":
		return "state-" + string(l.state) + before + ".html"
	case l.variant == "" && l.state == "":
		return "index" + before + ".html"
	}
	q := url.Values{}
	if l.variant != "" {
		q.Set("variant", l.variant)
	}
	if l.state != "" {
		q.Set("state", string(l.state))
	}
	if l.before > 0 {
		q.Set("before", strconv.FormatInt(l.before, 10))
	}
	base := "index.html"
	if l.player != "" {
		base = "player-" + l.player + ".html"
	}
	return base + "?" + q.Encode()
}

// listStatuses are the statuses a list shows: the policy's, or the one
// its filter asks for if the policy shows it.
func (s *Site) listStatuses(l listSpec) []string {
	st := s.statuses()
	if l.state == "" {
		return st
	}
	if slices.Contains(st, string(l.state)) {
		return []string{string(l.state)}
	}
	return []string{}
}

// variantNames are the names of every variant the referee hosts.
func (s *Site) variantNames() []string {
	var out []string
	for _, v := range s.variants().Variants() {
		out = append(out, v.Name())
	}
	return out
}

// listPage makes one page of a list: the index (perhaps filtered) or a
// player's page.
func (s *Site) listPage(ctx context.Context, name string, l listSpec) (*Page, error) {
	out, err := s.list(ctx, l)
	if err != nil {
		return nil, err
	}
	return &Page{Name: name, ContentType: "text/html; charset=utf-8", Body: out.body}, nil
}

// listOut is a list's page and the page of its older games (nil when
// there are none).
type listOut struct {
	body  []byte
	older *listSpec
}

func (s *Site) list(ctx context.Context, l listSpec) (listOut, error) {
	if l.player != "" {
		return s.playerPage(ctx, l)
	}
	return s.index(ctx, l)
}

// pagerOf links l's page to the newest games and to older ones.
func pagerOf(l listSpec, older *listSpec) pager {
	var p pager
	if older != nil {
		p.Older = older.name()
	}
	if l.before > 0 {
		first := l
		first.before = 0
		p.Newest = first.name()
	}
	return p
}

// listGames reads one page of l's games, and the page of the older ones
// (nil when there are none).
func (s *Site) listGames(ctx context.Context, l listSpec, addresses []string) ([]gameItem, *listSpec, error) {
	gs, err := s.st.WebGames(ctx, store.WebQuery{Statuses: s.listStatuses(l), Variant: l.variant, Addresses: addresses,
		Before: l.before, Limit: pageGames + 1})
	if err != nil {
		return nil, nil, err
	}
	if l.before > 0 && len(gs) == 0 {
		return nil, nil, ErrNotFound // beyond the oldest game
	}
	var older *listSpec
	if len(gs) > pageGames {
		gs = gs[:pageGames]
		next := l
		next.before = gs[len(gs)-1].ID
		older = &next
	}
	plies := map[int64]int{}
	for _, g := range gs {
		if n := shownPly(g); n > 0 {
			plies[g.ID] = n
		}
	}
	before, err := s.st.WebPositionsBefore(ctx, plies)
	if err != nil {
		return nil, nil, err
	}
	items := make([]gameItem, 0, len(gs))
	for _, g := range gs {
		items = append(items, itemOf(g, before[g.ID]))
	}
	return items, older, nil
}

// variants are the variants the referee hosts: its own and a file's.
func (s *Site) variants() *rules.Catalog { return s.opts.Referee.Config().Variants }

// itemOf is a list's line of g; before is the position before its last
// shown action.
func itemOf(g store.WebGame, before string) gameItem {
	title := g.Variant
	if v, err := rules.Lookup(g.Variant); err == nil {
		title = v.Title()
	}
	it := gameItem{ID: g.ID, Variant: title, Moves: movesText(shownPly(g), before),
		White: referee.PublicName(referee.Player{Address: g.Players[0].Address, Name: g.Players[0].Name}),
		Black: referee.PublicName(referee.Player{Address: g.Players[1].Address, Name: g.Players[1].Name})}
	switch referee.GameStatus(g.Status) {
	case referee.StatusFinished:
		it.State = result(g.Status, g.Result, g.Why)
	default:
		it.State = "running"
	}
	return it
}

// playerIndex maps player page keys to the stored addresses they stand
// for (a key is an HMAC of the mailbox, so one key may stand for several
// spellings of it). It learns the players of new games when a key is not
// known yet.
type playerIndex struct {
	mu   sync.Mutex
	last int64 // the last players row read
	keys map[string][]string
}

// learn reads the players added since the last call.
func (s *Site) learnPlayers(ctx context.Context) error {
	addrs, last, err := s.st.WebAddresses(ctx, s.players.last)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		k := s.playerKey(a)
		if !slices.Contains(s.players.keys[k], a) {
			s.players.keys[k] = append(s.players.keys[k], a)
		}
	}
	s.players.last = last
	return nil
}

// playerAddresses are the stored addresses of the player whose page key
// is key (none for an unknown key).
func (s *Site) playerAddresses(ctx context.Context, key string) ([]string, error) {
	s.players.mu.Lock()
	defer s.players.mu.Unlock()
	if a, ok := s.players.keys[key]; ok {
		return a, nil
	}
	if err := s.learnPlayers(ctx); err != nil {
		return nil, err
	}
	return s.players.keys[key], nil
}

// playerKeys lists every player's page key, sorted.
func (s *Site) playerKeys(ctx context.Context) ([]string, error) {
	s.players.mu.Lock()
	defer s.players.mu.Unlock()
	if err := s.learnPlayers(ctx); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(s.players.keys))
	for k := range s.players.keys {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// mailboxName is the public name the player at addresses plays under:
// that of their newest game that is not private (any status when
// statuses is nil, else one of them); ok is false when there is none.
func (s *Site) mailboxName(ctx context.Context, addresses, statuses []string) (string, bool, error) {
	p, ok, err := s.st.WebName(ctx, addresses, statuses)
	if err != nil || !ok {
		return "", false, err
	}
	return referee.PublicName(referee.Player{Address: p.Address, Name: p.Name}), true, nil
}

// movesText is how far a game went, in moves as players count them (1.
// e4 e5 is one move, not two actions): the number of the move its last
// shown action was played in, read from the position before it.
func movesText(ply int, before string) string {
	if ply == 0 {
		return "no move yet"
	}
	num, err := rules.MoveNumberOf(before)
	if err != nil || before == "" {
		return plural(ply, "action")
	}
	return plural(num, "move")
}
