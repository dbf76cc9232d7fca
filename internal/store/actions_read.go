package store

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// actionsQuery reads a game's whole record as ONE text, in order of ply:
// per action "ply,color,created,inbound," (inbound "-" when none), then
// kind, notation, coord, position and message, each as its length in
// bytes, a colon and the text. One value instead of a row per action: a
// row costs about nine allocations as the driver hands its columns over,
// which made loading a game at ply 200 cost 1,800 allocations, more than
// the rest of a move (see docs/performance.md); now it costs a handful at
// any ply, and each text is a slice of the one string.
const actionsQuery = `SELECT group_concat(
	ply || ',' || color || ',' || created || ',' || COALESCE(inbound_id, '-') || ',' ||
	length(CAST(kind AS BLOB)) || ':' || kind ||
	length(CAST(notation AS BLOB)) || ':' || notation ||
	length(CAST(coord AS BLOB)) || ':' || coord ||
	length(CAST(position AS BLOB)) || ':' || position ||
	length(CAST(message AS BLOB)) || ':' || message, '' ORDER BY ply)
	FROM actions WHERE game_id = ?`

// Actions lists a game's actions by ply.
func (t *Tx) Actions(gameID int64) ([]Action, error) {
	var all sql.NullString
	if err := t.tx.QueryRowContext(t.ctx, actionsQuery, gameID).Scan(&all); err != nil {
		return nil, fmt.Errorf("loading the actions of game #%d: %w", gameID, err)
	}
	out, err := parseActions(gameID, all.String)
	if err != nil {
		return nil, fmt.Errorf("loading the actions of game #%d: %w", gameID, err)
	}
	return out, nil
}

// parseActions reads what actionsQuery wrote.
func parseActions(gameID int64, s string) ([]Action, error) {
	if s == "" {
		return nil, nil
	}
	guess := len(s)/48 + 1 // an action takes at least ~48 bytes (its position)
	out := make([]Action, 0, guess)
	inbound := make([]int64, 0, guess)
	p := 0
	num := func(stop byte) (int64, bool, error) {
		end := strings.IndexByte(s[p:], stop)
		if end < 0 {
			return 0, false, fmt.Errorf("damaged record at byte %d: no %q", p, stop)
		}
		field := s[p : p+end]
		p += end + 1
		if field == "-" {
			return 0, false, nil
		}
		v, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, false, fmt.Errorf("damaged record at byte %d: %w", p, err)
		}
		return v, true, nil
	}
	text := func() (string, error) {
		n, _, err := num(':')
		if err != nil {
			return "", err
		}
		if n < 0 || p+int(n) > len(s) {
			return "", fmt.Errorf("damaged record at byte %d: a text of %d bytes", p, n)
		}
		v := s[p : p+int(n)]
		p += int(n)
		return v, nil
	}
	for p < len(s) {
		a := Action{GameID: gameID}
		ply, _, err := num(',')
		if err != nil {
			return nil, err
		}
		color, _, err := num(',')
		if err != nil {
			return nil, err
		}
		created, _, err := num(',')
		if err != nil {
			return nil, err
		}
		in, ok, err := num(',')
		if err != nil {
			return nil, err
		}
		a.Ply, a.Color, a.Created = int(ply), int(color), fromMS(created)
		if ok {
			if len(inbound) == cap(inbound) {
				inbound = make([]int64, 0, guess) // the earlier pointers keep the old array
			}
			inbound = append(inbound, in)
			a.InboundID = &inbound[len(inbound)-1]
		}
		for _, f := range []*string{&a.Kind, &a.Notation, &a.Coord, &a.Position, &a.Message} {
			if *f, err = text(); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}
