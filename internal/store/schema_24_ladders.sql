-- Schema version 24: ladders (issue 41). A format's own settings are the
-- event's settings (JSON; a ladder's reach, games, limits and days). A
-- ladder's order is never stored: it is recomputed from the entrants'
-- join times, its challenges (their games, or their expiry unaccepted)
-- and its idle drops, in the order they happened.
ALTER TABLE events ADD COLUMN settings TEXT NOT NULL DEFAULT '';

-- ladder_challenges: a challenge of the player on seat challenger to the
-- one on seat challenged; accepted when the challenged took it (its games
-- are the event's games of round id), decided when its last game ended,
-- expired when it was not accepted in time (the challenged lost it).
CREATE TABLE ladder_challenges (
    id         INTEGER PRIMARY KEY,
    event_id   INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    challenger INTEGER NOT NULL,
    challenged INTEGER NOT NULL,
    created    INTEGER NOT NULL,
    accepted   INTEGER,
    decided    INTEGER,
    expired    INTEGER
);
CREATE INDEX ladder_challenges_event ON ladder_challenges (event_id);

-- ladder_drops: a player dropped to the bottom for having had no ladder
-- game for the event's idle weeks.
CREATE TABLE ladder_drops (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX ladder_drops_event ON ladder_drops (event_id);
