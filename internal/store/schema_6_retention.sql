-- Schema version 6: the text of each outbox mail in a table of its own, so
-- that the text of sent mail can be pruned after a while (serve
-- --keep-sent-days) and leave the outbox's rows small and dense. The text
-- is the bulk of the database: a board mail is ~30 KB, and a finished game
-- sent ~80 of them. Emptying the column in place left one sparse page per
-- mail behind (190 KB a game); deleting rows of this table frees them.
CREATE TABLE outbox_text (
    id  INTEGER PRIMARY KEY REFERENCES outbox (id),
    raw BLOB    NOT NULL
);
INSERT INTO outbox_text (id, raw) SELECT id, raw FROM outbox;
ALTER TABLE outbox DROP COLUMN raw;
