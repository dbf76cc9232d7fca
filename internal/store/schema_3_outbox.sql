-- Schema version 3: the outbox claims a mail before sending it, and keeps
-- dead letters.
--
-- claim, claimed_until: a sender sets both (a random token and the end of its
-- lease) before it sends; only the claimer sends, and a crashed claimer's
-- lease runs out so that nothing is lost.
-- dead: when the SMTP server refused the mail permanently (5xx); it is not
-- retried until an operator says so (referee outbox --retry).
-- dropped: when an operator gave the mail up (referee outbox --drop); the
-- row stays for the record.
ALTER TABLE outbox ADD COLUMN claim         TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;
ALTER TABLE outbox ADD COLUMN dead          INTEGER;
ALTER TABLE outbox ADD COLUMN dropped       INTEGER;

DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (next_attempt) WHERE sent IS NULL AND dead IS NULL AND dropped IS NULL;
