package store

import (
	"context"
	"fmt"
	"time"
)

// pruneSent deletes the text of mail sent before ?. It looks only at the
// texts still kept (the retention window, and mail not sent), each with
// its outbox row by id: the work does not grow with the mail of past years.
// CROSS JOIN makes SQLite keep that order (it would rather scan the outbox).
const pruneSent = `DELETE FROM outbox_text WHERE id IN (SELECT t.id FROM outbox_text AS t CROSS JOIN outbox AS o ON o.id = t.id
	WHERE o.sent IS NOT NULL AND o.sent < ?)`

// PruneSentText deletes the text of every mail the SMTP server accepted
// before sentBefore, and returns how many it deleted. The row stays, with
// its recipient, Message-ID, game and times, for the record; only the text,
// of which the server has its copy, goes. Mail not sent (waiting, failed
// for good, dropped) keeps its text: an operator may still send it. Such
// a mail reads with an empty Raw. The pages freed are reused by later
// mail, so the database stops growing by the mails' text; the file does
// not shrink (VACUUM would).
func (s *Store) PruneSentText(ctx context.Context, sentBefore time.Time) (int64, error) {
	res, err := s.exec(ctx, pruneSent, ms(sentBefore))
	if err != nil {
		return 0, fmt.Errorf("pruning the text of mail sent before %s: %w", sentBefore.Format(time.RFC3339), err)
	}
	return res.RowsAffected()
}
