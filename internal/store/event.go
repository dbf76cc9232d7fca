package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Event is one tournament: a round robin, double round robin or knockout
// made of ordinary games. Scores are never stored: they are recomputed
// from the games (EventGames).
type Event struct {
	ID          int64
	Name        string
	Variant     string
	Format      string // rr, drr or ko
	TimeControl string
	Places      int    // --open N; 0 for a closed list of players
	Entry       string // known, open, or list (the organiser's file)
	TieBreak    string // comma-separated chain: wins,sb,direct
	Decider     string // match, black or lot (knockouts)
	Status      string // open, running, finished, closed
	Seed        []byte // the lots' secret seed (knockouts): revealed when the event ends
	Commitment  string // hex SHA-256 of Seed
	Starts      *time.Time
	Created     time.Time
	Started     *time.Time
	Ended       *time.Time
	// Rated: the event's games are rated (the default), or casual.
	Rated bool
	// MinRating and MaxRating bound the rating in the event's variant of
	// whoever joins by mail (0: no bound); MinReliability is the least
	// reliability (0 to 1; 0: none).
	MinRating, MaxRating, MinReliability float64
	// DivisionSize, Promote and Seasons are a league's settings: at most
	// so many players a division, so many moving up and down each season,
	// so many seasons (0: until closed); 0 for other formats.
	DivisionSize, Promote, Seasons int
	// Settings are a format's own settings, as JSON (a ladder's); "" for
	// none.
	Settings string
}

// Entrant is one player of an event.
type Entrant struct {
	Seat       int // the number in the pairing tables, from 1
	Address    string
	Joined     time.Time
	Withdrawn  int    // 0 playing; 1 unfinished games lost; 2 all games annulled
	ReplacedBy string // the substitute who took over the unfinished games
	// Team and Board are a team event's: the team the entrant plays for
	// and their board in it (1 the first); "" and 0 otherwise.
	Team  string
	Board int
}

// EventGame ties a game to its event, round and board; White and Black are
// seats. In a knockout, Board is the match and Leg its game (1, 2, then 3,
// 4 for a replayed tie).
type EventGame struct {
	GameID int64
	// Season and Division are a league game's (1 for other formats).
	Season, Division int
	Round, Board     int
	Leg              int
	White, Black     int
}

const eventColumns = `id, name, variant, format, time_control, places, entry, tiebreak, decider, status, seed, commitment, starts, created,
	started, ended, rated, min_rating, max_rating, min_reliability, division_size, promote, seasons, settings`

func optMS(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ms(*t)
}

func scanEvent(row scanner) (*Event, error) {
	var e Event
	var starts, started, ended sql.NullInt64
	var created int64
	if err := row.Scan(&e.ID, &e.Name, &e.Variant, &e.Format, &e.TimeControl, &e.Places, &e.Entry, &e.TieBreak, &e.Decider,
		&e.Status, &e.Seed, &e.Commitment, &starts, &created, &started, &ended, &e.Rated, &e.MinRating, &e.MaxRating,
		&e.MinReliability, &e.DivisionSize, &e.Promote, &e.Seasons, &e.Settings); err != nil {
		return nil, err
	}
	e.Created = fromMS(created)
	e.Starts, e.Started, e.Ended = optTime(starts), optTime(started), optTime(ended)
	return &e, nil
}

// CreateEvent inserts e (its ID is set) with its first entrants, in seat
// order.
func (t *Tx) CreateEvent(e *Event, entrants []string) error {
	if e.Seed == nil {
		e.Seed = []byte{}
	}
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO events (name, variant, format, time_control, places, entry, tiebreak, decider,
		status, seed, commitment, starts, created, rated, min_rating, max_rating, min_reliability, division_size, promote, seasons, settings)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Name, e.Variant, e.Format, e.TimeControl, e.Places, e.Entry, e.TieBreak, e.Decider, e.Seed, e.Commitment, optMS(e.Starts), ms(e.Created),
		e.Rated, e.MinRating, e.MaxRating, e.MinReliability, e.DivisionSize, e.Promote, e.Seasons, e.Settings)
	if err != nil {
		return fmt.Errorf("recording event %s: %w", e.Name, err)
	}
	if e.ID, err = res.LastInsertId(); err != nil {
		return fmt.Errorf("recording event %s: %w", e.Name, err)
	}
	e.Status = "open"
	for _, a := range entrants {
		if err := t.AddEntrant(e.ID, a, e.Created); err != nil {
			return err
		}
	}
	return nil
}

// EventByName loads an event by its name (ErrNotFound when there is none).
func (t *Tx) EventByName(name string) (*Event, error) {
	e, err := scanEvent(t.tx.QueryRowContext(t.ctx, `SELECT `+eventColumns+` FROM events WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("event %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("loading event %q: %w", name, err)
	}
	return e, nil
}

// Events lists the events, oldest first; status "" for all.
func (t *Tx) Events(status string) ([]Event, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+eventColumns+` FROM events WHERE ? = '' OR status = ? ORDER BY id`, status, status)
	if err != nil {
		return nil, fmt.Errorf("listing events: %w", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, fmt.Errorf("listing events: %w", err)
		}
		out = append(out, *e)
	}
	return out, rows.Err()
}

// SetEventStatus changes an event's status (open, running, finished,
// closed), stamping started or ended at at.
func (t *Tx) SetEventStatus(id int64, status string, at time.Time) error {
	q := `UPDATE events SET status = ? WHERE id = ?`
	switch status {
	case "running":
		q = `UPDATE events SET status = ?, started = COALESCE(started, ` + fmt.Sprint(ms(at)) + `) WHERE id = ?`
	case "finished", "closed":
		q = `UPDATE events SET status = ?, ended = COALESCE(ended, ` + fmt.Sprint(ms(at)) + `) WHERE id = ?`
	}
	if _, err := t.tx.ExecContext(t.ctx, q, status, id); err != nil {
		return fmt.Errorf("setting event %d %s: %w", id, status, err)
	}
	return nil
}

// Entrants lists an event's players in seat order.
func (t *Tx) Entrants(eventID int64) ([]Entrant, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT seat, address, joined, withdrawn, replaced_by, team, board FROM event_entrants
		WHERE event_id = ? ORDER BY seat`, eventID)
	if err != nil {
		return nil, fmt.Errorf("listing the players of event %d: %w", eventID, err)
	}
	defer rows.Close()
	var out []Entrant
	for rows.Next() {
		var e Entrant
		var joined int64
		if err := rows.Scan(&e.Seat, &e.Address, &joined, &e.Withdrawn, &e.ReplacedBy, &e.Team, &e.Board); err != nil {
			return nil, fmt.Errorf("listing the players of event %d: %w", eventID, err)
		}
		e.Joined = fromMS(joined)
		out = append(out, e)
	}
	return out, rows.Err()
}

// SetTeam puts the entrant of seat in team, on board.
func (t *Tx) SetTeam(eventID int64, seat int, team string, board int) error {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE event_entrants SET team = ?, board = ? WHERE event_id = ? AND seat = ?`, team, board, eventID, seat)
	if err != nil {
		return fmt.Errorf("putting seat %d of event %d in team %s: %w", seat, eventID, team, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("putting seat %d of event %d in team %s: %w", seat, eventID, team, ErrNotFound)
	}
	return nil
}

// AddEntrant gives address the next seat of the event.
func (t *Tx) AddEntrant(eventID int64, address string, at time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO event_entrants (event_id, seat, address, joined)
		VALUES (?, (SELECT COALESCE(MAX(seat), 0) + 1 FROM event_entrants WHERE event_id = ?), ?, ?)`, eventID, eventID, address, ms(at))
	if err != nil {
		return fmt.Errorf("entering %s in event %d: %w", address, eventID, err)
	}
	return nil
}

// RemoveEntrant takes address out of an event that has not started, and
// closes the gap in the seats; it reports whether address was entered.
func (t *Tx) RemoveEntrant(eventID int64, address string) (bool, error) {
	var seat int
	err := t.tx.QueryRowContext(t.ctx, `SELECT seat FROM event_entrants WHERE event_id = ? AND address = ?`, eventID, address).Scan(&seat)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("finding %s in event %d: %w", address, eventID, err)
	}
	steps := []struct {
		q    string
		args []any
	}{
		{`DELETE FROM event_entrants WHERE event_id = ? AND seat = ?`, []any{eventID, seat}},
		// Two steps: a seat may not be taken twice even for a moment.
		{`UPDATE event_entrants SET seat = -(seat - 1) WHERE event_id = ? AND seat > ?`, []any{eventID, seat}},
		{`UPDATE event_entrants SET seat = -seat WHERE event_id = ? AND seat < 0`, []any{eventID}},
	}
	for _, s := range steps {
		if _, err := t.tx.ExecContext(t.ctx, s.q, s.args...); err != nil {
			return false, fmt.Errorf("removing %s from event %d: %w", address, eventID, err)
		}
	}
	return true, nil
}

// SetWithdrawn records a player's withdrawal (1: unfinished games lost; 2:
// all games annulled).
func (t *Tx) SetWithdrawn(eventID int64, seat, how int) error {
	if _, err := t.tx.ExecContext(t.ctx, `UPDATE event_entrants SET withdrawn = ? WHERE event_id = ? AND seat = ?`, how, eventID, seat); err != nil {
		return fmt.Errorf("recording the withdrawal of seat %d of event %d: %w", seat, eventID, err)
	}
	return nil
}

// SetReplacedBy records the substitute who took over a seat's unfinished
// games.
func (t *Tx) SetReplacedBy(eventID int64, seat int, sub string) error {
	if _, err := t.tx.ExecContext(t.ctx, `UPDATE event_entrants SET replaced_by = ? WHERE event_id = ? AND seat = ?`, sub, eventID, seat); err != nil {
		return fmt.Errorf("recording the substitute of seat %d of event %d: %w", seat, eventID, err)
	}
	return nil
}

// AddEventGame ties a game to its event, round and board.
func (t *Tx) AddEventGame(eventID int64, g EventGame) error {
	g.Leg, g.Season, g.Division = max(g.Leg, 1), max(g.Season, 1), max(g.Division, 1)
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO event_games (game_id, event_id, season, division, round, board, leg, white, black)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, g.GameID, eventID, g.Season, g.Division, g.Round, g.Board, g.Leg, g.White, g.Black)
	if err != nil {
		return fmt.Errorf("adding game #%d to event %d: %w", g.GameID, eventID, err)
	}
	return nil
}

// EventGames lists an event's games by round and board.
func (t *Tx) EventGames(eventID int64) ([]EventGame, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT game_id, season, division, round, board, leg, white, black FROM event_games
		WHERE event_id = ? ORDER BY season, division, round, board, leg`, eventID)
	if err != nil {
		return nil, fmt.Errorf("listing the games of event %d: %w", eventID, err)
	}
	defer rows.Close()
	var out []EventGame
	for rows.Next() {
		var g EventGame
		if err := rows.Scan(&g.GameID, &g.Season, &g.Division, &g.Round, &g.Board, &g.Leg, &g.White, &g.Black); err != nil {
			return nil, fmt.Errorf("listing the games of event %d: %w", eventID, err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// EventOfGame returns the id of the event a game belongs to, and its place
// in it; found is false for a game outside any event.
func (t *Tx) EventOfGame(gameID int64) (eventID int64, g EventGame, found bool, err error) {
	g.GameID = gameID
	err = t.tx.QueryRowContext(t.ctx, `SELECT event_id, season, division, round, board, leg, white, black FROM event_games
		WHERE game_id = ?`, gameID).Scan(&eventID, &g.Season, &g.Division, &g.Round, &g.Board, &g.Leg, &g.White, &g.Black)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, g, false, nil
	}
	if err != nil {
		return 0, g, false, fmt.Errorf("finding the event of game #%d: %w", gameID, err)
	}
	return eventID, g, true, nil
}

// ReplacePlayer gives colour's place in a game to a substitute, with a new
// reply secret: the old player's reply addresses act no more.
func (t *Tx) ReplacePlayer(gameID int64, color int, address, secret string) error {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE players SET address = ?, secret = ?, name = '' WHERE game_id = ? AND color = ?`,
		address, secret, gameID, color)
	if err != nil {
		return fmt.Errorf("handing game #%d to %s: %w", gameID, address, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("handing game #%d to %s: %w", gameID, address, ErrNotFound)
	}
	return nil
}

// EventByID loads an event by its id.
func (t *Tx) EventByID(id int64) (*Event, error) {
	e, err := scanEvent(t.tx.QueryRowContext(t.ctx, `SELECT `+eventColumns+` FROM events WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("loading event %d: %w", id, err)
	}
	return e, nil
}
