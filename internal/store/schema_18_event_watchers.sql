-- Schema version 18: spectators of whole events ("observe EVENT", issue
-- 31). A row follows every game of the event, those running and those that
-- start later (a knockout's next rounds): a game's spectators are its own
-- watchers and those of its event.
CREATE TABLE event_watchers (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    address  TEXT    NOT NULL,
    PRIMARY KEY (event_id, address)
);
