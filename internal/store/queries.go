package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"referee/internal/mail/addr"
)

const gameColumns = `id, variant, status, start_position, position, ply, COALESCE(result, ''), result_reason,
	abort_reason, die_seed, die_commitment, seed_revealed, COALESCE(time_control, ''), draw_offer_by,
	COALESCE(draw_offer_ply, 0), state, created, updated, deadline, rated, ending`

type scanner interface{ Scan(dest ...any) error }

func scanGame(row scanner) (*Game, error) {
	var g Game
	var created, updated int64
	var offer, deadline sql.NullInt64
	err := row.Scan(&g.ID, &g.Variant, &g.Status, &g.StartPosition, &g.Position, &g.Ply, &g.Result, &g.ResultReason,
		&g.AbortReason, &g.DieSeed, &g.DieCommitment, &g.SeedRevealed, &g.TimeControl, &offer, &g.DrawOfferPly, &g.State, &created, &updated,
		&deadline, &g.Rated, &g.Ending)
	if err != nil {
		return nil, err
	}
	if deadline.Valid {
		d := fromMS(deadline.Int64)
		g.Deadline = &d
	}
	if offer.Valid {
		c := int(offer.Int64)
		g.DrawOfferBy = &c
	}
	g.Created, g.Updated = fromMS(created), fromMS(updated)
	return &g, nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// CreateGame inserts g with its players and returns the new id.
func (t *Tx) CreateGame(g *Game) (int64, error) {
	now := time.Now()
	if g.Created.IsZero() {
		g.Created = now
	}
	g.Updated = g.Created
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO games (variant, status, start_position, position, ply, result,
		result_reason, abort_reason, die_seed, die_commitment, seed_revealed, time_control, draw_offer_by, draw_offer_ply,
		state, created, updated, deadline, rated, ending) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.Variant, g.Status, g.StartPosition, g.Position, g.Ply, nullable(g.Result), g.ResultReason, g.AbortReason,
		g.DieSeed, g.DieCommitment, g.SeedRevealed, nullable(g.TimeControl), g.DrawOfferBy, g.DrawOfferPly,
		stateOr(g.State), ms(g.Created), ms(g.Updated), msOrNull(g.Deadline), g.Rated, g.Ending)
	if err != nil {
		return 0, fmt.Errorf("inserting the game: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("inserting the game: %w", err)
	}
	for c, p := range g.Players {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO players (game_id, color, address, name, secret) VALUES (?, ?, ?, ?, ?)`,
			id, c, p.Address, p.Name, p.Secret); err != nil {
			return 0, fmt.Errorf("inserting the players of game #%d: %w", id, err)
		}
	}
	g.ID = id
	return id, nil
}

// Game loads one game with its players.
func (t *Tx) Game(id int64) (*Game, error) {
	g, err := scanGame(t.tx.QueryRowContext(t.ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("game #%d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("loading game #%d: %w", id, err)
	}
	if err := t.players(g); err != nil {
		return nil, err
	}
	return g, nil
}

func (t *Tx) players(g *Game) error {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT color, address, name, secret FROM players WHERE game_id = ? ORDER BY color`, g.ID)
	if err != nil {
		return fmt.Errorf("loading the players of game #%d: %w", g.ID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var p Player
		if err := rows.Scan(&p.Color, &p.Address, &p.Name, &p.Secret); err != nil {
			return fmt.Errorf("loading the players of game #%d: %w", g.ID, err)
		}
		if p.Color == 0 || p.Color == 1 {
			g.Players[p.Color] = p
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("loading the players of game #%d: %w", g.ID, err)
	}
	for c := range g.Players {
		if g.Players[c].Address == "" {
			continue
		}
		var zone, name, lang string
		err := t.tx.QueryRowContext(t.ctx, `SELECT timezone, display_name, language FROM player_settings WHERE address = ?`,
			addr.Mailbox(g.Players[c].Address)).Scan(&zone, &name, &lang)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("loading the players of game #%d: their settings: %w", g.ID, err)
		}
		g.Players[c].TimeZone, g.Players[c].DisplayName, g.Players[c].Language = zone, name, lang
	}
	return nil
}

// TimeZone is the time zone the player at address set ("" for UTC).
func (t *Tx) TimeZone(address string) (string, error) {
	return t.playerSetting("timezone", "the time zone", address)
}

// SetTimeZone records the time zone of the player at address (an IANA
// name; "" for UTC), for all their games.
func (t *Tx) SetTimeZone(address, zone string, now time.Time) error {
	return t.setPlayerSetting("timezone", "the time zone", address, zone, now)
}

// Games lists games with status ("" for all), newest first.
func (t *Tx) Games(status string) ([]Game, error) { return t.gamePage(status, 0) }

// gamePage lists at most limit games (all when limit <= 0) with status
// ("" for all), newest first.
func (t *Tx) gamePage(status string, limit int) ([]Game, error) {
	q := `SELECT ` + gameColumns + ` FROM games`
	var args []any
	if status != "" {
		q += ` WHERE status = ?`
		args = append(args, status)
	}
	q += ` ORDER BY id DESC`
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := t.tx.QueryContext(t.ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("listing games: %w", err)
	}
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing games: %w", err)
		}
		out = append(out, *g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := t.players(&out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// UpdateGame writes g's mutable fields (not its players), its clock
// deadline included.
func (t *Tx) UpdateGame(g *Game) error {
	g.Updated = time.Now()
	res, err := t.tx.ExecContext(t.ctx, `UPDATE games SET status = ?, position = ?, ply = ?, result = ?, result_reason = ?,
		abort_reason = ?, seed_revealed = ?, time_control = ?, draw_offer_by = ?, draw_offer_ply = ?, state = ?, updated = ?,
		deadline = ?, rated = ?, ending = ? WHERE id = ?`,
		g.Status, g.Position, g.Ply, nullable(g.Result), g.ResultReason, g.AbortReason, g.SeedRevealed,
		nullable(g.TimeControl), g.DrawOfferBy, g.DrawOfferPly, stateOr(g.State), ms(g.Updated), msOrNull(g.Deadline), g.Rated, g.Ending, g.ID)
	if err != nil {
		return fmt.Errorf("updating game #%d: %w", g.ID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("updating game #%d: %w", g.ID, ErrNotFound)
	}
	if g.Status == "finished" {
		// A rated game's result changes the players' ratings in the same
		// transaction, once (rate does nothing for a casual game or one
		// already counted).
		return t.rate(g.ID, 0)
	}
	return nil
}

// AppendAction records one action.
func (t *Tx) AppendAction(a Action) error {
	if a.Kind == "" {
		a.Kind = "move"
	}
	if a.Created.IsZero() {
		a.Created = time.Now()
	}
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO actions (game_id, ply, color, kind, notation, coord, position, message,
		inbound_id, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.GameID, a.Ply, a.Color, a.Kind, a.Notation, a.Coord, a.Position, a.Message, a.InboundID, ms(a.Created))
	if err != nil {
		return fmt.Errorf("recording action %d of game #%d: %w", a.Ply, a.GameID, err)
	}
	return nil
}

// AppendRoll records one die roll.
func (t *Tx) AppendRoll(r Roll) error {
	if r.Created.IsZero() {
		r.Created = time.Now()
	}
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO rolls (game_id, n, ply, value, signature, created) VALUES (?, ?, ?, ?, ?, ?)`,
		r.GameID, r.N, r.Ply, r.Value, r.Signature, ms(r.Created))
	if err != nil {
		return fmt.Errorf("recording roll %d of game #%d: %w", r.N, r.GameID, err)
	}
	return nil
}

// Rolls lists a game's rolls by n.
func (t *Tx) Rolls(gameID int64) ([]Roll, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT game_id, n, ply, value, signature, created FROM rolls WHERE game_id = ? ORDER BY n`, gameID)
	if err != nil {
		return nil, fmt.Errorf("loading the rolls of game #%d: %w", gameID, err)
	}
	defer rows.Close()
	var out []Roll
	for rows.Next() {
		var r Roll
		var created int64
		if err := rows.Scan(&r.GameID, &r.N, &r.Ply, &r.Value, &r.Signature, &created); err != nil {
			return nil, fmt.Errorf("loading the rolls of game #%d: %w", gameID, err)
		}
		r.Created = fromMS(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// RecordInbound records a received message before it is acted on. When the
// message is already known — the same digest (see Inbound.Digest) — nothing
// is inserted and dup is true. The mailbox's (UIDVALIDITY, UID) pair is
// recorded but never trusted alone: a server that forgot its mail may give
// a new message an old pair.
//
// A Message-ID is not trusted alone either: a message with the Message-ID
// of a recorded one but another digest (a resent copy altered on its way, a
// broken client, a forgery replaying a real mail's header) is recorded as a
// collision, not acted on and listed (by `referee show` under the first
// one's game, and by Collisions): the error is a *CollisionError naming the
// first message, and id is the collision's record.
func (t *Tx) RecordInbound(m Inbound) (id int64, dup bool, err error) {
	if m.Digest != "" {
		err := t.tx.QueryRowContext(t.ctx, `SELECT id FROM inbound WHERE digest = ? LIMIT 1`, m.Digest).Scan(&id)
		if err == nil {
			return id, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, false, fmt.Errorf("looking up digest %s: %w", m.Digest, err)
		}
	}
	if m.MessageID != "" {
		var first Inbound
		var received int64
		var gid sql.NullInt64
		err := t.tx.QueryRowContext(t.ctx, `SELECT id, from_addr, received, game_id FROM inbound WHERE message_id = ?`, m.MessageID).
			Scan(&first.ID, &first.From, &received, &gid)
		switch {
		case err == nil:
			first.Received = fromMS(received)
			ce := &CollisionError{MessageID: m.MessageID, First: first.ID, FirstFrom: first.From, FirstReceived: first.Received}
			m.MessageID, m.Outcome, m.Detail = "", "ignored", ce.Error() // the unique index holds the first one's
			if gid.Valid {
				m.GameID = &gid.Int64
			}
			id, err := t.insertInbound(m)
			if err != nil {
				return 0, false, err
			}
			return id, false, ce
		case !errors.Is(err, sql.ErrNoRows):
			return 0, false, fmt.Errorf("looking up message %s: %w", m.MessageID, err)
		}
	}
	id, err = t.insertInbound(m)
	return id, false, err
}

// CollisionPrefix begins the detail of every Message-ID collision's record.
const CollisionPrefix = "Message-ID collision: "

// CollisionError says that a message reuses the Message-ID of an earlier
// one with other content (see RecordInbound).
type CollisionError struct {
	MessageID     string
	First         int64 // the inbound record of the first message with it
	FirstFrom     string
	FirstReceived time.Time
}

func (e *CollisionError) Error() string {
	return fmt.Sprintf("%sthe mail reuses the Message-ID %s of mail #%d (from %s, received %s) with other content: "+
		"not read, neither as a new mail nor as that one (a copy altered on its way, a broken mail client, or a forgery). "+
		"If it was the player's own, ask them to send it again as a new mail",
		CollisionPrefix, e.MessageID, e.First, e.FirstFrom, e.FirstReceived.UTC().Format("2006-01-02 15:04"))
}

// insertInbound inserts a new inbound record.
func (t *Tx) insertInbound(m Inbound) (id int64, err error) {
	if m.Received.IsZero() {
		m.Received = time.Now()
	}
	if m.Outcome == "" {
		m.Outcome = "pending"
	}
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO inbound (message_id, uidvalidity, uid, digest, from_addr, subject,
		received, outcome, detail, game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.MessageID, m.UIDValidity, m.UID, m.Digest, m.From, m.Subject, ms(m.Received), m.Outcome, m.Detail, m.GameID)
	if err != nil {
		return 0, fmt.Errorf("recording inbound message: %w", err)
	}
	return res.LastInsertId()
}

// SetInboundOutcome records what became of a message.
func (t *Tx) SetInboundOutcome(id int64, outcome, detail string, gameID *int64) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE inbound SET outcome = ?, detail = ?, game_id = ? WHERE id = ?`, outcome, detail, gameID, id)
	if err != nil {
		return fmt.Errorf("recording the outcome of inbound message %d: %w", id, err)
	}
	return nil
}

// Inbound loads one inbound record by id.
func (t *Tx) Inbound(id int64) (*Inbound, error) {
	var m Inbound
	var received int64
	var gid sql.NullInt64
	err := t.tx.QueryRowContext(t.ctx, `SELECT id, message_id, uidvalidity, uid, digest, from_addr, subject, received, outcome,
		detail, game_id FROM inbound WHERE id = ?`, id).Scan(&m.ID, &m.MessageID, &m.UIDValidity, &m.UID, &m.Digest, &m.From,
		&m.Subject, &received, &m.Outcome, &m.Detail, &gid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("inbound message %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("loading inbound message %d: %w", id, err)
	}
	m.Received = fromMS(received)
	if gid.Valid {
		m.GameID = &gid.Int64
	}
	return &m, nil
}

// nilIfEmpty stores an empty byte slice as NULL.
func nilIfEmpty(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// Enqueue adds a message to the outbox, due at once: its Data (or, for a
// mail written already, its Raw), Kind and Priority.
func (t *Tx) Enqueue(o Outgoing) (int64, error) {
	if o.Created.IsZero() {
		o.Created = time.Now()
	}
	if o.NextAttempt.IsZero() {
		o.NextAttempt = o.Created
	}
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO outbox (game_id, to_addr, from_addr, message_id, created, next_attempt, kind, priority)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, o.GameID, o.To, o.From, o.MessageID, ms(o.Created), ms(o.NextAttempt), o.Kind, o.Priority)
	if err != nil {
		return 0, fmt.Errorf("queueing mail to %s: %w", o.To, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("queueing mail to %s: %w", o.To, err)
	}
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO outbox_text (id, raw, data) VALUES (?, COALESCE(?, x''), ?)`, id, o.Raw, nilIfEmpty(o.Data)); err != nil {
		return 0, fmt.Errorf("queueing mail to %s: %w", o.To, err)
	}
	return id, nil
}

// Refusals says what the referee recently refused a sender: all counts
// the refusals (inbound mail from addr answered with a refusal) since the
// given time; inGame counts those about game gameID; last is the detail of
// the refusal that answered addr's latest mail about gameID, "" when that
// mail was not refused. Game mails never count: only refusals do.
func (t *Tx) Refusals(addr string, gameID int64, since time.Time) (all, inGame int, last string, err error) {
	err = t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*), COALESCE(SUM(game_id = ?), 0) FROM inbound
		WHERE from_addr = ? AND outcome = 'rejected' AND received >= ?`, gameID, addr, ms(since)).Scan(&all, &inGame)
	if err != nil {
		return 0, 0, "", fmt.Errorf("counting refusals to %s: %w", addr, err)
	}
	var outcome, detail string
	err = t.tx.QueryRowContext(t.ctx, `SELECT outcome, detail FROM inbound WHERE from_addr = ? AND game_id = ?
		AND outcome <> 'pending' ORDER BY id DESC LIMIT 1`, addr, gameID).Scan(&outcome, &detail)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return all, inGame, "", nil
	case err != nil:
		return 0, 0, "", fmt.Errorf("reading the last refusal to %s: %w", addr, err)
	}
	if outcome == "rejected" {
		last = detail
	}
	return all, inGame, last, nil
}

// OldestGameRefusal is when the oldest refusal to addr about game gameID
// since the given time was received (zero when there is none): the
// refusal limit lifts an hour after it.
func (t *Tx) OldestGameRefusal(addr string, gameID int64, since time.Time) (time.Time, error) {
	var oldest sql.NullInt64
	err := t.tx.QueryRowContext(t.ctx, `SELECT MIN(received) FROM inbound
		WHERE from_addr = ? AND game_id = ? AND outcome = 'rejected' AND received >= ?`, addr, gameID, ms(since)).Scan(&oldest)
	if err != nil {
		return time.Time{}, fmt.Errorf("reading the oldest refusal to %s about game #%d: %w", addr, gameID, err)
	}
	if !oldest.Valid {
		return time.Time{}, nil
	}
	return fromMS(oldest.Int64), nil
}

// Unanswered lists the inbound mails about a game that got no answer
// (automatic mail, floods, the refusal limit), oldest first.
func (t *Tx) Unanswered(gameID int64) ([]Inbound, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT id FROM inbound WHERE game_id = ? AND outcome = 'ignored' ORDER BY id`, gameID)
	if err != nil {
		return nil, fmt.Errorf("listing unanswered mail of game #%d: %w", gameID, err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing unanswered mail of game #%d: %w", gameID, err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing unanswered mail of game #%d: %w", gameID, err)
	}
	out := make([]Inbound, 0, len(ids))
	for _, id := range ids {
		m, err := t.Inbound(id)
		if err != nil {
			return nil, err
		}
		out = append(out, *m)
	}
	return out, nil
}

// Audit appends a line to the audit log.
func (t *Tx) Audit(gameID *int64, event, detail string) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO audit (time, game_id, event, detail) VALUES (?, ?, ?, ?)`,
		ms(time.Now()), gameID, event, detail)
	if err != nil {
		return fmt.Errorf("writing the audit log: %w", err)
	}
	return nil
}

// AuditLog lists the audit entries of a game (nil: all), oldest first.
func (t *Tx) AuditLog(gameID *int64) ([]AuditEntry, error) {
	q := `SELECT id, time, game_id, event, detail FROM audit`
	var args []any
	if gameID != nil {
		q += ` WHERE game_id = ?`
		args = append(args, *gameID)
	}
	rows, err := t.tx.QueryContext(t.ctx, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var tm int64
		var gid sql.NullInt64
		if err := rows.Scan(&e.ID, &tm, &gid, &e.Event, &e.Detail); err != nil {
			return nil, fmt.Errorf("reading the audit log: %w", err)
		}
		e.Time = fromMS(tm)
		if gid.Valid {
			e.GameID = &gid.Int64
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Setting reads a setting.
func (t *Tx) Setting(key string) ([]byte, error) {
	var v []byte
	err := t.tx.QueryRowContext(t.ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("setting %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("reading setting %s: %w", key, err)
	}
	return v, nil
}

// SettingsWithPrefix reads the settings whose keys start with prefix.
func (t *Tx) SettingsWithPrefix(prefix string) (map[string][]byte, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT key, value FROM settings WHERE substr(key, 1, ?) = ?`, len(prefix), prefix)
	if err != nil {
		return nil, fmt.Errorf("reading settings %s*: %w", prefix, err)
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var k string
		var v []byte
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("reading settings %s*: %w", prefix, err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading settings %s*: %w", prefix, err)
	}
	return out, nil
}

// GamesOfVariant counts the games of a variant, whatever their state.
func (t *Tx) GamesOfVariant(variant string) (int, error) {
	var n int
	if err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM games WHERE variant = ?`, variant).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting the games of %s: %w", variant, err)
	}
	return n, nil
}

// SetSetting writes a setting.
func (t *Tx) SetSetting(key string, value []byte) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("writing setting %s: %w", key, err)
	}
	return nil
}

func stateOr(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// DeleteAction removes the action of a game at ply (a takeback); it must
// be the last one.
func (t *Tx) DeleteAction(gameID int64, ply int) error {
	var last int
	if err := t.tx.QueryRowContext(t.ctx, `SELECT COALESCE(MAX(ply), -1) FROM actions WHERE game_id = ?`, gameID).Scan(&last); err != nil {
		return fmt.Errorf("taking back in game #%d: %w", gameID, err)
	}
	if last != ply {
		return fmt.Errorf("taking back action %d of game #%d: the last action is %d", ply, gameID, last)
	}
	_, err := t.tx.ExecContext(t.ctx, `DELETE FROM actions WHERE game_id = ? AND ply = ?`, gameID, ply)
	return err
}

// Watch adds a spectator; Unwatch removes one; Watchers lists them.
func (t *Tx) Watch(gameID int64, addr string) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT OR IGNORE INTO watchers (game_id, address) VALUES (?, ?)`, gameID, addr)
	return err
}

// Unwatch removes a spectator and reports whether there was one.
func (t *Tx) Unwatch(gameID int64, addr string) (bool, error) {
	res, err := t.tx.ExecContext(t.ctx, `DELETE FROM watchers WHERE game_id = ? AND address = ?`, gameID, addr)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Observing counts the running games addr watches, by themselves or as
// games of an event addr observes.
func (t *Tx) Observing(addr string) (int, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT COUNT(*) FROM games g WHERE g.status = 'active' AND g.id IN (
		SELECT game_id FROM watchers WHERE address = ?
		UNION SELECT eg.game_id FROM event_games eg JOIN event_watchers ew ON ew.event_id = eg.event_id WHERE ew.address = ?)`,
		addr, addr).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting the games %s observes: %w", addr, err)
	}
	return n, nil
}

// Watchers lists a game's spectators: its own and its event's (schema 18).
func (t *Tx) Watchers(gameID int64) ([]string, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT address FROM watchers WHERE game_id = ?
		UNION SELECT ew.address FROM event_watchers ew JOIN event_games eg ON eg.event_id = ew.event_id WHERE eg.game_id = ?
		ORDER BY 1`, gameID, gameID)
	if err != nil {
		return nil, fmt.Errorf("listing the spectators of game #%d: %w", gameID, err)
	}
	return scanStrings(rows)
}

// scanStrings reads a one-column result of text, and closes rows.
func scanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
