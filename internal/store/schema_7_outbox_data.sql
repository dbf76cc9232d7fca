-- Schema version 7: the outbox keeps each mail as the decision's data, and
-- serves game mail first.
--
-- outbox_text.data: the mail as data (letters.Encode: recipient, headers,
-- board position, sections...), recorded in the write transaction; the
-- text, HTML, picture, MIME and DKIM signature are written from it when the
-- mail is sent, deterministically. raw stays for mail queued before this
-- version (already written, perhaps signed): it is sent as it is. A new
-- mail has an empty raw and its data.
-- outbox.kind: what the mail is for (board, reject, refusal, ...).
-- outbox.priority: 0 the mails of a move (the opponent's turn and the
-- mover's confirmation), the opening and end of a game; 1 other mail to
-- players (answers, refusals of their actions, reminders, notices,
-- invitations); 2 answers to strangers (mail that could not be tied to a
-- game or player). Due mail is sent in that order.
ALTER TABLE outbox_text ADD COLUMN data BLOB;
ALTER TABLE outbox ADD COLUMN kind     TEXT    NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 1;

DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (priority, next_attempt) WHERE sent IS NULL AND dead IS NULL AND dropped IS NULL;
-- The hourly cap on answers to strangers counts those queued lately.
CREATE INDEX outbox_priority_created ON outbox (priority, created);
