package app

import (
	"container/list"
	"sync"

	"referee/internal/game"
	"referee/internal/referee"
	"referee/internal/rules"
)

// DefaultPositionCache is how many games' positions the app keeps between
// mails when Options.PositionCache is 0.
const DefaultPositionCache = 512

// positions keeps, for the games decided most recently, the position after
// each one's record, with the history its rules need (repetition keys,
// superko), so that a mail does not replay its game from move 1. It is
// never the source of truth: an entry is the replay of one exact record
// (start, every action's coordinate form, every roll), and it is used only
// for a game whose stored record is that record, so that a stale entry
// (another process's change, a rolled-back transaction, a takeback) is
// never used. An entry is written only after the transaction that made its
// record committed; a failed one drops the game's entry. A miss replays
// the record (referee.Game.Replay, which re-validates every action and
// roll) as before.
type positions struct {
	mu      sync.Mutex
	max     int
	entries map[int64]*list.Element // of *positionEntry, most recent first
	lru     list.List
}

// positionEntry is the position after one game's record.
type positionEntry struct {
	id      int64
	variant string
	start   string
	coords  []string
	rolls   []int
	pos     rules.Position
}

func newPositions(max int) *positions {
	if max <= 0 {
		max = DefaultPositionCache
	}
	return &positions{max: max, entries: map[int64]*list.Element{}}
}

// matches reports whether e is the replay of g's record as it is now.
func (e *positionEntry) matches(g *referee.Game) bool {
	if e.id != g.ID || e.variant != g.Variant.Name() || e.start != g.Start ||
		len(e.coords) != len(g.Actions) || len(e.rolls) != len(g.Rolls) {
		return false
	}
	for i, a := range g.Actions {
		if e.coords[i] != a.Coord {
			return false
		}
	}
	for i, r := range g.Rolls {
		if e.rolls[i] != r.Value {
			return false
		}
	}
	return true
}

// attach gives g its position from the cache when the cache holds the
// replay of exactly g's record, and reports whether it did.
func (c *positions) attach(g *referee.Game) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[g.ID]
	if !ok {
		return false
	}
	e := el.Value.(*positionEntry)
	if !e.matches(g) {
		return false
	}
	c.lru.MoveToFront(el)
	g.SetPosition(e.pos)
	return true
}

// put keeps pos as the position after g's record.
func (c *positions) put(g *referee.Game, pos rules.Position) {
	e := &positionEntry{id: g.ID, variant: g.Variant.Name(), start: g.Start, pos: pos,
		coords: make([]string, len(g.Actions)), rolls: make([]int, len(g.Rolls))}
	for i, a := range g.Actions {
		e.coords[i] = a.Coord
	}
	for i, r := range g.Rolls {
		e.rolls[i] = r.Value
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[g.ID]; ok {
		el.Value = e
		c.lru.MoveToFront(el)
		return
	}
	c.entries[g.ID] = c.lru.PushFront(e)
	for c.lru.Len() > c.max {
		old := c.lru.Back()
		delete(c.entries, old.Value.(*positionEntry).id)
		c.lru.Remove(old)
	}
}

// drop forgets game id's position.
func (c *positions) drop(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[id]; ok {
		delete(c.entries, id)
		c.lru.Remove(el)
	}
}

// len is the number of games kept.
func (c *positions) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// withPosition gives g (loaded from the store) the position after its
// record when the cache holds exactly that record. Otherwise the core
// replays the record from move 1 if it needs the position (a stranger's
// mail is refused without), as before.
func (a *App) withPosition(g *referee.Game) {
	if g != nil {
		a.positions.attach(g)
	}
}

// remember keeps the position after the record of the game a decision was
// about, once the transaction that stored it committed: before is the
// game as it was decided on, out the decision. When the record did not
// change, the position the decision used is kept as it is; when it did,
// the new actions and rolls are played on it, through the same strict
// reader as a replay. A takeback, or any trouble, drops the entry: the
// next mail replays the record.
func (a *App) remember(before *referee.Game, out referee.Outcome) {
	if before == nil {
		return
	}
	pos, ok := before.KnownPosition()
	ng := out.Game
	switch {
	case ng == nil:
		if ok {
			a.positions.put(before, pos) // the record is unchanged
		}
		return
	case ng.ID != before.ID:
		return
	case !ok || out.Undo || len(ng.Actions) != len(before.Actions)+len(out.NewActions) ||
		len(ng.Rolls) != len(before.Rolls)+len(out.NewRolls):
		a.positions.drop(ng.ID)
		return
	}
	if len(out.NewActions) > 0 || len(out.NewRolls) > 0 {
		coords, sans := make([]string, len(out.NewActions)), make([]string, len(out.NewActions))
		for i, act := range out.NewActions {
			coords[i], sans[i] = act.Coord, act.SAN
		}
		rolls := make([]int, len(out.NewRolls))
		for i, r := range out.NewRolls {
			rolls[i] = r.Value
		}
		rep, err := game.PlayCoords(pos, coords, sans, rolls)
		if err != nil {
			a.positions.drop(ng.ID)
			a.log.Warn("position cache: the decided actions do not play on the kept position", "game", ng.ID, "err", err)
			return
		}
		pos = rep.Final
	}
	a.positions.put(ng, pos)
}
