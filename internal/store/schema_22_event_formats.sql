-- Schema version 22: event formats beyond rr, drr and ko (issues 40 and
-- 41). Which formats exist is the registry's to say (referee.LookupFormat),
-- so the table no longer lists them: events is rebuilt without that check
-- (SQLite cannot drop a check in place; the store runs migrations with
-- foreign keys off for this, and checks them before the commit). A
-- league's settings are the event's (division_size, promote, seasons; 0
-- for other formats), and its games carry their season and division
-- (1 for other formats), which join the key of a game's place.
CREATE TABLE events_new (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL UNIQUE,             -- lower case, one word
    variant         TEXT    NOT NULL,
    format          TEXT    NOT NULL,                    -- a registered format's name: rr, drr, ko, league
    time_control    TEXT    NOT NULL DEFAULT '',
    places          INTEGER NOT NULL DEFAULT 0,          -- --open N: starts when N entered; 0 for a list
    entry           TEXT    NOT NULL DEFAULT 'known',    -- who may join by mail: known, open, or a file's addresses
    tiebreak        TEXT    NOT NULL DEFAULT 'wins,sb,direct',
    decider         TEXT    NOT NULL DEFAULT 'match' CHECK (decider IN ('match', 'black', 'lot')),
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'running', 'finished', 'closed')),
    seed            BLOB    NOT NULL,                    -- the lots' secret seed (knockouts), revealed at the end
    commitment      TEXT    NOT NULL DEFAULT '',         -- hex SHA-256 of the seed
    starts          INTEGER,                             -- the start date, or NULL
    created         INTEGER NOT NULL,
    started         INTEGER,
    ended           INTEGER,
    rated           INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    min_rating      REAL    NOT NULL DEFAULT 0,
    max_rating      REAL    NOT NULL DEFAULT 0,
    min_reliability REAL    NOT NULL DEFAULT 0,
    division_size   INTEGER NOT NULL DEFAULT 0,          -- a league: at most this many players a division
    promote         INTEGER NOT NULL DEFAULT 0,          -- a league: how many move up and down each season
    seasons         INTEGER NOT NULL DEFAULT 0           -- a league: its number of seasons; 0 until closed
);
INSERT INTO events_new (id, name, variant, format, time_control, places, entry, tiebreak, decider, status, seed,
    commitment, starts, created, started, ended, rated, min_rating, max_rating, min_reliability)
SELECT id, name, variant, format, time_control, places, entry, tiebreak, decider, status, seed,
    commitment, starts, created, started, ended, rated, min_rating, max_rating, min_reliability FROM events;
DROP TABLE events;
ALTER TABLE events_new RENAME TO events;

CREATE TABLE event_games_new (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id),
    event_id INTEGER NOT NULL REFERENCES events (id),
    season   INTEGER NOT NULL DEFAULT 1,                 -- a league's season; 1 for other formats
    division INTEGER NOT NULL DEFAULT 1,                 -- a league's division (1 the top); 1 for other formats
    round    INTEGER NOT NULL,
    board    INTEGER NOT NULL,
    leg      INTEGER NOT NULL DEFAULT 1,
    white    INTEGER NOT NULL,
    black    INTEGER NOT NULL,
    UNIQUE (event_id, season, division, round, board, leg)
);
INSERT INTO event_games_new (game_id, event_id, round, board, leg, white, black)
SELECT game_id, event_id, round, board, leg, white, black FROM event_games;
DROP TABLE event_games;
ALTER TABLE event_games_new RENAME TO event_games;
CREATE INDEX event_games_event ON event_games (event_id);
