package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Challenge is one invitation to a game sent by mail.
type Challenge struct {
	ID          int64
	Challenger  string
	Opponent    string // "" for an open challenge
	Variant     string
	TimeControl string
	Color       string // the challenger's: random, white or black
	Secret      string
	Status      string // open, accepted, declined, expired, withdrawn
	Created     time.Time
	Expires     time.Time
	Closed      *time.Time
	ClosedBy    string
	GameID      *int64
	Seed        string // draws a random colour (schema 9); "" before
	// Private: the game it starts may not be observed.
	Private bool
	Rated   bool // the game it makes is rated
}

const challengeColumns = `id, challenger, opponent, variant, time_control, color, secret, status, created, expires, closed,
	closed_by, game_id, seed, private, rated`

func scanChallenge(row scanner) (*Challenge, error) {
	var c Challenge
	var created, expires int64
	var closed, gid sql.NullInt64
	if err := row.Scan(&c.ID, &c.Challenger, &c.Opponent, &c.Variant, &c.TimeControl, &c.Color, &c.Secret, &c.Status,
		&created, &expires, &closed, &c.ClosedBy, &gid, &c.Seed, &c.Private, &c.Rated); err != nil {
		return nil, err
	}
	c.Created, c.Expires = fromMS(created), fromMS(expires)
	if closed.Valid {
		t := fromMS(closed.Int64)
		c.Closed = &t
	}
	if gid.Valid {
		c.GameID = &gid.Int64
	}
	return &c, nil
}

func (t *Tx) challenges(q string, args ...any) ([]Challenge, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+challengeColumns+` FROM challenges `+q, args...)
	if err != nil {
		return nil, fmt.Errorf("listing challenges: %w", err)
	}
	defer rows.Close()
	var out []Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, fmt.Errorf("listing challenges: %w", err)
		}
		out = append(out, *c)
	}
	return out, rows.Err()
}

// NextChallengeID is the id the next CreateChallenge of this transaction
// will use (the core writes it into the invitation before it is stored).
func (t *Tx) NextChallengeID() (int64, error) {
	var id int64
	if err := t.tx.QueryRowContext(t.ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM challenges`).Scan(&id); err != nil {
		return 0, fmt.Errorf("numbering the challenge: %w", err)
	}
	return id, nil
}

// CreateChallenge inserts c with its own ID (from NextChallengeID).
func (t *Tx) CreateChallenge(c Challenge) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO challenges (id, challenger, opponent, variant, time_control, color, secret,
		status, created, expires, seed, private, rated) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)`,
		c.ID, c.Challenger, c.Opponent, c.Variant, c.TimeControl, c.Color, c.Secret, ms(c.Created), ms(c.Expires), c.Seed, c.Private, c.Rated)
	if err != nil {
		return fmt.Errorf("recording challenge %d: %w", c.ID, err)
	}
	return nil
}

// Challenge loads one challenge.
func (t *Tx) Challenge(id int64) (*Challenge, error) {
	c, err := scanChallenge(t.tx.QueryRowContext(t.ctx, `SELECT `+challengeColumns+` FROM challenges WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("challenge %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("loading challenge %d: %w", id, err)
	}
	return c, nil
}

// CloseChallenge ends an open challenge with status (accepted, declined,
// expired, withdrawn); gameID is the game an acceptance started (0 for
// none). Closing a challenge that is no longer open is an error: two
// acceptances of one open challenge can never both start a game.
func (t *Tx) CloseChallenge(id int64, status, by string, gameID int64, at time.Time) error {
	var gid any
	if gameID != 0 {
		gid = gameID
	}
	res, err := t.tx.ExecContext(t.ctx, `UPDATE challenges SET status = ?, closed = ?, closed_by = ?, game_id = ?
		WHERE id = ? AND status = 'open'`, status, ms(at), by, gid, id)
	if err != nil {
		return fmt.Errorf("closing challenge %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("closing challenge %d: it is not open: %w", id, ErrNotFound)
	}
	return nil
}

// OpenChallenges lists the open challenges without an opponent that have
// not expired at now, oldest first, at most limit.
func (t *Tx) OpenChallenges(now time.Time, limit int) ([]Challenge, error) {
	return t.challenges(`WHERE status = 'open' AND opponent = '' AND expires > ? ORDER BY id LIMIT ?`, ms(now), limit)
}

// ChallengesBy lists the challenges made from a mailbox (as itself or a
// plus-address of it) that are open, or were made or closed since the
// given time, oldest first: what the flood limits and the one-day rest
// after a refusal need.
func (t *Tx) ChallengesBy(mailbox string, since time.Time) ([]Challenge, error) {
	cond, args := mailboxMatch("challenger", mailbox)
	return t.challenges(`WHERE `+cond+` AND (status = 'open' OR created >= ? OR closed >= ?) ORDER BY id`,
		append(args, ms(since), ms(since))...)
}

// DueChallenges lists the open challenges that expired at now.
func (t *Tx) DueChallenges(now time.Time) ([]Challenge, error) {
	return t.challenges(`WHERE status = 'open' AND expires <= ? ORDER BY id`, ms(now))
}

// KnownPlayer is the organiser's word on one address.
type KnownPlayer struct {
	Address string
	Allowed bool
	Changed time.Time
}

// SetKnownPlayer records that the organiser added (allowed) or removed an
// address.
func (t *Tx) SetKnownPlayer(address string, allowed bool, at time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO known_players (address, allowed, changed) VALUES (?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET allowed = excluded.allowed, changed = excluded.changed`, address, allowed, ms(at))
	if err != nil {
		return fmt.Errorf("recording player %s: %w", address, err)
	}
	return nil
}

// KnownPlayers lists the organiser's entries, by address.
func (t *Tx) KnownPlayers() ([]KnownPlayer, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address, allowed, changed FROM known_players ORDER BY address`)
	if err != nil {
		return nil, fmt.Errorf("listing players: %w", err)
	}
	defer rows.Close()
	var out []KnownPlayer
	for rows.Next() {
		var p KnownPlayer
		var changed int64
		if err := rows.Scan(&p.Address, &p.Allowed, &changed); err != nil {
			return nil, fmt.Errorf("listing players: %w", err)
		}
		p.Changed = fromMS(changed)
		out = append(out, p)
	}
	return out, rows.Err()
}

// KnownPlayer returns the organiser's entry for address (found false when
// there is none).
func (t *Tx) KnownPlayer(address string) (p KnownPlayer, found bool, err error) {
	var changed int64
	err = t.tx.QueryRowContext(t.ctx, `SELECT address, allowed, changed FROM known_players WHERE address = ?`, address).
		Scan(&p.Address, &p.Allowed, &changed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return KnownPlayer{}, false, nil
	case err != nil:
		return KnownPlayer{}, false, fmt.Errorf("looking up player %s: %w", address, err)
	}
	p.Changed = fromMS(changed)
	return p, true, nil
}

// mailboxMatch is the SQL condition and arguments that match the players'
// column col against mailbox (an address without plus-detail): the
// address itself or any plus-address of it.
func mailboxMatch(col, mailbox string) (string, []any) {
	at := strings.LastIndexByte(mailbox, '@')
	if at < 0 {
		return col + ` = ?`, []any{mailbox}
	}
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	pattern := esc.Replace(mailbox[:at]) + `+%` + esc.Replace(mailbox[at:])
	return `(` + col + ` = ? OR ` + col + ` LIKE ? ESCAPE '\')`, []any{mailbox, pattern}
}

// GamesOf lists the ids of the games a mailbox plays in (as itself or any
// plus-address of it): the active games, then up to recent others,
// newest first.
func (t *Tx) GamesOf(mailbox string, recent int) ([]int64, error) {
	cond, args := mailboxMatch("p.address", mailbox)
	rows, err := t.tx.QueryContext(t.ctx, `SELECT DISTINCT g.id, g.status = 'active' FROM games g JOIN players p ON p.game_id = g.id
		WHERE `+cond+` ORDER BY g.status = 'active' DESC, g.id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("listing the games of %s: %w", mailbox, err)
	}
	defer rows.Close()
	var out []int64
	others := 0
	for rows.Next() {
		var id int64
		var active bool
		if err := rows.Scan(&id, &active); err != nil {
			return nil, fmt.Errorf("listing the games of %s: %w", mailbox, err)
		}
		if !active {
			if others >= recent {
				continue
			}
			others++
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// ActiveGamesOf counts the active games a mailbox plays in.
func (t *Tx) ActiveGamesOf(mailbox string) (int, error) {
	cond, args := mailboxMatch("p.address", mailbox)
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(DISTINCT g.id) FROM games g JOIN players p ON p.game_id = g.id
		WHERE g.status = 'active' AND `+cond, args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting the games of %s: %w", mailbox, err)
	}
	return n, nil
}

// PlayedGame reports whether a mailbox has played (or plays) a game.
func (t *Tx) PlayedGame(mailbox string) (bool, error) {
	cond, args := mailboxMatch("address", mailbox)
	var n int
	if err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM players WHERE `+cond, args...).Scan(&n); err != nil {
		return false, fmt.Errorf("looking up the games of %s: %w", mailbox, err)
	}
	return n > 0, nil
}

// VacationDays is the number of vacation days a mailbox took in year.
func (t *Tx) VacationDays(mailbox string, year int) (int, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT COALESCE(SUM(days), 0) FROM vacations WHERE address = ? AND year = ?`, mailbox, year).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("reading the vacation days of %s: %w", mailbox, err)
	}
	return n, nil
}

// AddVacationDays adds days to a mailbox's vacation days of year.
func (t *Tx) AddVacationDays(mailbox string, year, days int) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO vacations (address, year, days) VALUES (?, ?, ?)
		ON CONFLICT (address, year) DO UPDATE SET days = days + excluded.days`, mailbox, year, days)
	if err != nil {
		return fmt.Errorf("recording the vacation of %s: %w", mailbox, err)
	}
	return nil
}

// LobbyAnswers counts the answers (not refusals) the referee gave addr's
// mail outside any game since the given time: "games", "help", ... A
// forged sender cannot make the referee mail someone without end.
func (t *Tx) LobbyAnswers(addr string, since time.Time) (int, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM inbound WHERE from_addr = ? AND game_id IS NULL
		AND outcome IN ('answered', 'applied') AND received >= ?`, addr, ms(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting the answers to %s: %w", addr, err)
	}
	return n, nil
}
