package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// maxSentLookup is the most Message-IDs SentData looks up.
const maxSentLookup = 8

// SentData returns the data (letters.Encode) of the referee's mails to the
// address to that a reply names by their Message-IDs (In-Reply-To, then
// References), in the order of ids; when none of them is in the outbox,
// the latest mail of game gameID to that address (a client that dropped
// In-Reply-To still replies to the referee's latest mail). Mails whose text
// was pruned (serve --keep-sent-days) or that were queued before the
// outbox kept data are left out. The lookup uses the outbox's index on the
// recipient.
func (t *Tx) SentData(to string, ids []string, gameID int64) ([][]byte, error) {
	if len(ids) > maxSentLookup {
		ids = ids[:maxSentLookup]
	}
	var out [][]byte
	if len(ids) > 0 {
		q := `SELECT message_id, COALESCE(data, x'') FROM outbox LEFT JOIN outbox_text USING (id)
			WHERE to_addr = ? AND message_id IN (?` + strings.Repeat(",?", len(ids)-1) + `)`
		args := []any{to}
		for _, id := range ids {
			args = append(args, id)
		}
		rows, err := t.tx.QueryContext(t.ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("looking up the referee's mails a reply of %s names: %w", to, err)
		}
		found := map[string][]byte{}
		for rows.Next() {
			var id string
			var data []byte
			if err := rows.Scan(&id, &data); err != nil {
				rows.Close()
				return nil, fmt.Errorf("looking up the referee's mails a reply of %s names: %w", to, err)
			}
			found[id] = data
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("looking up the referee's mails a reply of %s names: %w", to, err)
		}
		for _, id := range ids {
			if d := found[id]; len(d) > 0 {
				out = append(out, d)
			}
		}
		if len(found) > 0 {
			return out, nil
		}
	}
	var data []byte
	err := t.tx.QueryRowContext(t.ctx, `SELECT COALESCE(data, x'') FROM outbox LEFT JOIN outbox_text USING (id)
		WHERE to_addr = ? AND game_id = ? ORDER BY id DESC LIMIT 1`, to, gameID).Scan(&data)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("looking up the referee's latest mail of game #%d to %s: %w", gameID, to, err)
	}
	if len(data) > 0 {
		out = append(out, data)
	}
	return out, nil
}
