package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"referee/internal/mail/addr"
	"slices"
	"strings"
	"time"
)

// The web archive's queries (issue 39): each page reads only what it
// shows, through the indexes of schema version 19, so that a page costs
// the same with 100 games and with 100,000.

// notPrivate is the condition of the partial index games_web_variant,
// written exactly as there so that SQLite uses it.
const notPrivate = `json_extract(g.state, '$.private') IS NOT 1`

// SchemaDigest names the schema this build brings a database to: a hash
// of every migration's text.
func SchemaDigest() string {
	h := sha256.New()
	for _, m := range migrations() {
		h.Write([]byte(m))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// WebQuery selects public games for a list of the web pages, newest first.
type WebQuery struct {
	// Statuses are the statuses shown ("active", "finished"); none, no
	// game.
	Statuses []string
	// Variant, when set, keeps the games of that variant.
	Variant string
	// Addresses, when set, keeps the games of any of these stored player
	// addresses (one player's spellings of their mailbox).
	Addresses []string
	// Before, when above 0, keeps the games with a smaller id: the next
	// page after the one whose last game it is.
	Before int64
	// Limit is how many games at most (above 0).
	Limit int
}

// WebGame is what a list of games shows of a game, and what says whether
// its pages are still those made last time: no actions, no secret, no
// seed.
type WebGame struct {
	ID                           int64
	Variant, Status, Result, Why string // Why: the result's reason
	Ply, WatchDelay              int
	Private                      bool
	Created, Updated             time.Time
	Players                      [2]WebPlayer
	stateLen                     int
}

// WebPlayer is a player as the pages know them before they mask the
// address.
type WebPlayer struct {
	Address, Name string
}

// Version changes whenever anything of the game that its pages show
// changes: a move, a takeback, the end, a changed delay.
func (g *WebGame) Version() string {
	return fmt.Sprintf("%s/%d/%d/%d/%d/%t", g.Status, g.Ply, g.Updated.UnixMilli(), g.WatchDelay, g.stateLen, g.Private)
}

const webColumns = `g.id, g.variant, g.status, COALESCE(g.result, ''), g.result_reason, g.ply,
	COALESCE(json_extract(g.state, '$.watch_delay'), 0), json_extract(g.state, '$.private') IS 1, g.created, g.updated, length(g.state)`

func scanWebGame(rows scanner) (WebGame, error) {
	var g WebGame
	var created, updated int64
	err := rows.Scan(&g.ID, &g.Variant, &g.Status, &g.Result, &g.Why, &g.Ply, &g.WatchDelay, &g.Private, &created, &updated, &g.stateLen)
	g.Created, g.Updated = fromMS(created), fromMS(updated)
	return g, err
}

// WebGames lists the games q selects, newest first, with their players.
func (s *Store) WebGames(ctx context.Context, q WebQuery) (out []WebGame, err error) {
	if q.Limit <= 0 || len(q.Statuses) == 0 {
		return nil, nil
	}
	err = s.view(ctx, func(t *Tx) error {
		// One walk of an index per status, merged: SQLite reads an IN list
		// of statuses whole before it orders by id.
		for _, status := range q.Statuses {
			gs, err := t.webGames(q, status)
			if err != nil {
				return err
			}
			out = append(out, gs...)
		}
		slices.SortFunc(out, func(a, b WebGame) int { return int(b.ID - a.ID) })
		out = slices.CompactFunc(out, func(a, b WebGame) bool { return a.ID == b.ID }) // a player against themself
		if len(out) > q.Limit {
			out = out[:q.Limit]
		}
		return t.webPlayers(out)
	})
	if err != nil {
		return nil, fmt.Errorf("listing the games for the web pages: %w", err)
	}
	return out, nil
}

func (t *Tx) webGames(q WebQuery, status string) ([]WebGame, error) {
	query, args := webGamesSQL(q, status)
	rows, err := t.tx.QueryContext(t.ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []WebGame
	for rows.Next() {
		g, err := scanWebGame(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// webGamesSQL is the query of q's games of one status.
func webGamesSQL(q WebQuery, status string) (string, []any) {
	var b strings.Builder
	var args []any
	if len(q.Addresses) > 0 {
		b.WriteString(`SELECT ` + webColumns + ` FROM players p JOIN games g ON g.id = p.game_id WHERE p.address IN (?` +
			strings.Repeat(", ?", len(q.Addresses)-1) + `)`)
		for _, a := range q.Addresses {
			args = append(args, a)
		}
		if q.Before > 0 {
			b.WriteString(` AND p.game_id < ?`)
			args = append(args, q.Before)
		}
	} else {
		b.WriteString(`SELECT ` + webColumns + ` FROM games g WHERE 1`)
		if q.Before > 0 {
			b.WriteString(` AND g.id < ?`)
			args = append(args, q.Before)
		}
	}
	b.WriteString(` AND g.status = ? AND ` + notPrivate)
	args = append(args, status)
	if q.Variant != "" {
		b.WriteString(` AND g.variant = ?`)
		args = append(args, q.Variant)
	}
	if len(q.Addresses) > 0 {
		b.WriteString(` ORDER BY p.game_id DESC LIMIT ?`)
	} else {
		b.WriteString(` ORDER BY g.id DESC LIMIT ?`)
	}
	args = append(args, q.Limit+1) // +1: the same game twice (a player against themself)
	return b.String(), args
}

// webPlayers fills in the players of gs.
func (t *Tx) webPlayers(gs []WebGame) error {
	if len(gs) == 0 {
		return nil
	}
	at := make(map[int64]int, len(gs))
	args := make([]any, len(gs))
	for i, g := range gs {
		at[g.ID], args[i] = i, g.ID
	}
	rows, err := t.tx.QueryContext(t.ctx, `SELECT game_id, color, address, name FROM players WHERE game_id IN (?`+
		strings.Repeat(", ?", len(gs)-1)+`)`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c int
		var p WebPlayer
		if err := rows.Scan(&id, &c, &p.Address, &p.Name); err != nil {
			return err
		}
		if i, ok := at[id]; ok && (c == 0 || c == 1) {
			gs[i].Players[c] = p
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return t.webDisplayNames(gs)
}

// WebGame reads what the pages need to know of one game before they
// load it: its status, ply, delay, privacy and version (ErrNotFound when
// there is no such game).
func (s *Store) WebGame(ctx context.Context, id int64) (g WebGame, err error) {
	err = s.view(ctx, func(t *Tx) error {
		var err error
		g, err = scanWebGame(t.tx.QueryRowContext(t.ctx, `SELECT `+webColumns+` FROM games g WHERE g.id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("game #%d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("reading game #%d for the web pages: %w", id, err)
		}
		gs := []WebGame{g}
		if err := t.webPlayers(gs); err != nil {
			return fmt.Errorf("reading game #%d for the web pages: %w", id, err)
		}
		g = gs[0]
		return nil
	})
	return g, err
}

// WebVariants lists the variants of the names given that have a public
// game of one of statuses, the variant of the newest game first.
func (s *Store) WebVariants(ctx context.Context, statuses, variants []string) (out []string, err error) {
	type newest struct {
		name string
		id   int64
	}
	var found []newest
	err = s.view(ctx, func(t *Tx) error {
		for _, v := range variants {
			var best int64
			for _, st := range statuses {
				// ORDER BY ... LIMIT 1 reads one entry of the index; SQLite
				// reads them all for MAX() under a WHERE.
				var id int64
				err := t.tx.QueryRowContext(t.ctx, `SELECT g.id FROM games g WHERE g.variant = ? AND g.status = ? AND `+notPrivate+
					` ORDER BY g.id DESC LIMIT 1`, v, st).Scan(&id)
				if err != nil && !errors.Is(err, sql.ErrNoRows) {
					return err
				}
				best = max(best, id)
			}
			if best > 0 {
				found = append(found, newest{v, best})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing the variants of the public games: %w", err)
	}
	slices.SortFunc(found, func(a, b newest) int { return int(b.id - a.id) })
	for _, f := range found {
		out = append(out, f.name)
	}
	return out, nil
}

// WebPlayerStats counts the public games of a player (any of addresses)
// with one of statuses, and their wins, losses and draws.
func (s *Store) WebPlayerStats(ctx context.Context, addresses, statuses []string) (games, won, lost, drawn int, err error) {
	if len(addresses) == 0 || len(statuses) == 0 {
		return 0, 0, 0, 0, nil
	}
	err = s.view(ctx, func(t *Tx) error {
		args := make([]any, 0, len(addresses)+len(statuses))
		for _, a := range addresses {
			args = append(args, a)
		}
		for _, st := range statuses {
			args = append(args, st)
		}
		rows, err := t.tx.QueryContext(t.ctx, `SELECT g.id, g.status, COALESCE(g.result, ''), p.color FROM players p
			JOIN games g ON g.id = p.game_id WHERE p.address IN (?`+strings.Repeat(", ?", len(addresses)-1)+`)
			AND g.status IN (?`+strings.Repeat(", ?", len(statuses)-1)+`) AND `+notPrivate+` ORDER BY g.id, p.color DESC`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var last int64
		for rows.Next() {
			var id int64
			var status, result string
			var color int
			if err := rows.Scan(&id, &status, &result, &color); err != nil {
				return err
			}
			if id == last {
				continue // against themself: counted once, as Black
			}
			last = id
			games++
			switch {
			case status != "finished":
			case result == "1/2-1/2":
				drawn++
			case (result == "1-0") == (color == 0):
				won++
			default:
				lost++
			}
		}
		return rows.Err()
	})
	if err != nil {
		return 0, 0, 0, 0, fmt.Errorf("counting a player's games for the web pages: %w", err)
	}
	return games, won, lost, drawn, nil
}

// WebName is the player (any of addresses) as they appear in their newest
// game that is not private and has one of statuses (any status when
// statuses is nil); ok is false when there is none.
func (s *Store) WebName(ctx context.Context, addresses, statuses []string) (p WebPlayer, ok bool, err error) {
	if len(addresses) == 0 {
		return p, false, nil
	}
	err = s.view(ctx, func(t *Tx) error {
		var args []any
		for _, a := range addresses {
			args = append(args, a)
		}
		q := `SELECT p.address, p.name FROM players p JOIN games g ON g.id = p.game_id WHERE p.address IN (?` +
			strings.Repeat(", ?", len(addresses)-1) + `) AND ` + notPrivate
		if statuses != nil {
			if len(statuses) == 0 {
				return nil
			}
			q += ` AND g.status IN (?` + strings.Repeat(", ?", len(statuses)-1) + `)`
			for _, st := range statuses {
				args = append(args, st)
			}
		}
		err := t.tx.QueryRowContext(t.ctx, q+` ORDER BY p.game_id DESC, p.color LIMIT 1`, args...).Scan(&p.Address, &p.Name)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err != nil:
			return err
		}
		ok = true
		return nil
	})
	if err != nil {
		return p, false, fmt.Errorf("reading a player's name for the web pages: %w", err)
	}
	return p, ok, nil
}

// WebAddresses lists the player addresses of the games added since the
// players row after (0 at first), and the last row read: the pages learn
// the players a few at a time.
func (s *Store) WebAddresses(ctx context.Context, after int64) (addrs []string, last int64, err error) {
	last = after
	err = s.view(ctx, func(t *Tx) error {
		rows, err := t.tx.QueryContext(t.ctx, `SELECT rowid, address FROM players WHERE rowid > ? ORDER BY rowid`, after)
		if err != nil {
			return err
		}
		defer rows.Close()
		seen := map[string]bool{}
		for rows.Next() {
			var a string
			if err := rows.Scan(&last, &a); err != nil {
				return err
			}
			if !seen[a] {
				seen[a] = true
				addrs = append(addrs, a)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, after, fmt.Errorf("listing the players for the web pages: %w", err)
	}
	return addrs, last, nil
}

// WebRatings lists the ratings of a player (any of addresses), by
// variant, as Ratings orders them.
func (s *Store) WebRatings(ctx context.Context, addresses []string) (out []PlayerRating, err error) {
	if len(addresses) == 0 {
		return nil, nil
	}
	err = s.view(ctx, func(t *Tx) error {
		args := make([]any, len(addresses))
		for i, a := range addresses {
			args[i] = a
		}
		out, err = t.ratings(`WHERE address IN (?`+strings.Repeat(", ?", len(addresses)-1)+`)`, args...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading a player's ratings for the web pages: %w", err)
	}
	return out, nil
}

// WebGameEvent is the event and round of a game (ok false when it is no
// event's).
func (s *Store) WebGameEvent(ctx context.Context, id int64) (name string, round int, ok bool, err error) {
	err = s.view(ctx, func(t *Tx) error {
		err := t.tx.QueryRowContext(t.ctx, `SELECT e.name, eg.round FROM event_games eg JOIN events e ON e.id = eg.event_id
			WHERE eg.game_id = ?`, id).Scan(&name, &round)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		ok = err == nil
		return err
	})
	if err != nil {
		return "", 0, false, fmt.Errorf("reading the event of game #%d: %w", id, err)
	}
	return name, round, ok, nil
}

// WebLastActions is when the last action of each game of ids was made
// (games without an action are left out).
func (s *Store) WebLastActions(ctx context.Context, ids []int64) (map[int64]time.Time, error) {
	out := make(map[int64]time.Time, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	err := s.view(ctx, func(t *Tx) error {
		for _, id := range ids {
			var last sql.NullInt64
			if err := t.tx.QueryRowContext(t.ctx, `SELECT MAX(created) FROM actions WHERE game_id = ?`, id).Scan(&last); err != nil {
				return err
			}
			if last.Valid {
				out[id] = fromMS(last.Int64)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading when games last moved: %w", err)
	}
	return out, nil
}

// WebEventsVersion changes whenever a game or an event changes: the pages
// make their list of events again then.
func (s *Store) WebEventsVersion(ctx context.Context) (string, error) {
	var v string
	err := s.view(ctx, func(t *Tx) error {
		return t.tx.QueryRowContext(t.ctx, `SELECT (SELECT COALESCE(MAX(id), 0) FROM games) || '/' ||
			(SELECT COALESCE(MAX(updated), 0) FROM games) || '/' ||
			(SELECT COUNT(*) || '/' || COALESCE(SUM(id * length(status)), 0) || '/' || COALESCE(SUM(COALESCE(ended, 0)), 0) FROM events) || '/' ||
			(SELECT COUNT(*) || '/' || COALESCE(SUM(withdrawn), 0) || '/' || COALESCE(SUM(length(replaced_by)), 0) FROM event_entrants)`).Scan(&v)
	})
	if err != nil {
		return "", fmt.Errorf("reading the version of the events: %w", err)
	}
	return v, nil
}

// WebPositionsBefore maps each game of plies (game id to a ply, from 1) to
// the position before the action at that ply (the start position for ply
// 1): a list counts a game's moves from it as players do. One lookup by
// key a game.
func (s *Store) WebPositionsBefore(ctx context.Context, plies map[int64]int) (map[int64]string, error) {
	out := make(map[int64]string, len(plies))
	err := s.view(ctx, func(t *Tx) error {
		for id, ply := range plies {
			var pos string
			var err error
			if ply <= 1 {
				err = t.tx.QueryRowContext(t.ctx, `SELECT start_position FROM games WHERE id = ?`, id).Scan(&pos)
			} else {
				err = t.tx.QueryRowContext(t.ctx, `SELECT position FROM actions WHERE game_id = ? AND ply = ?`, id, ply-2).Scan(&pos)
			}
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			out[id] = pos
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the positions the lists count moves from: %w", err)
	}
	return out, nil
}

// webDisplayNames puts the display names the players chose (the "name"
// command) in place of the names their games hold.
func (t *Tx) webDisplayNames(gs []WebGame) error {
	var keys []any
	seen := map[string]bool{}
	for _, g := range gs {
		for _, p := range g.Players {
			if k := addr.Mailbox(p.Address); k != "" && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address, display_name FROM player_settings WHERE display_name <> '' AND address IN (?`+
		strings.Repeat(", ?", len(keys)-1)+`)`, keys...)
	if err != nil {
		return err
	}
	defer rows.Close()
	names := map[string]string{}
	for rows.Next() {
		var a, n string
		if err := rows.Scan(&a, &n); err != nil {
			return err
		}
		names[a] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range gs {
		for c := range gs[i].Players {
			if n := names[addr.Mailbox(gs[i].Players[c].Address)]; n != "" {
				gs[i].Players[c].Name = n
			}
		}
	}
	return nil
}
