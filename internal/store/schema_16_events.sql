-- Schema version 16: events (round robins, double round robins, knockouts)
-- made of ordinary games (issue 29). Everything an event decides is
-- recomputable from its games: the scores and the crosstable are never
-- stored, only who plays, which games belong to the event, and the
-- organiser's and players' decisions (a withdrawal, a substitution).
CREATE TABLE events (
    id           INTEGER PRIMARY KEY,
    name         TEXT    NOT NULL UNIQUE,             -- lower case, one word
    variant      TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('rr', 'drr', 'ko')),
    time_control TEXT    NOT NULL DEFAULT '',
    places       INTEGER NOT NULL DEFAULT 0,          -- --open N: starts when N entered; 0 for a list
    entry        TEXT    NOT NULL DEFAULT 'known',    -- who may join by mail: known, open, or a file's addresses
    tiebreak     TEXT    NOT NULL DEFAULT 'wins,sb,direct',
    decider      TEXT    NOT NULL DEFAULT 'match' CHECK (decider IN ('match', 'black', 'lot')),
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'running', 'finished', 'closed')),
    seed         BLOB    NOT NULL,                    -- the lots' secret seed (knockouts), revealed at the end
    commitment   TEXT    NOT NULL DEFAULT '',         -- hex SHA-256 of the seed
    starts       INTEGER,                             -- the start date, or NULL
    created      INTEGER NOT NULL,
    started      INTEGER,
    ended        INTEGER
);

-- event_entrants: the players of an event. seat is the player's number in
-- the pairing tables (1, 2, ...), fixed when the event starts (entry order
-- until then). withdrawn: 0 playing, 1 withdrawn with their unfinished
-- games lost, 2 withdrawn with all their games annulled (ICCF's rule).
-- replaced_by: the substitute who took over the unfinished games.
CREATE TABLE event_entrants (
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    address     TEXT    NOT NULL,                     -- canonical
    joined      INTEGER NOT NULL,
    withdrawn   INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1, 2)),
    replaced_by TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (event_id, seat),
    UNIQUE (event_id, address)
);

-- event_games: the event's games; a game knows its event, round and board
-- here. white and black are seats. In a knockout the board is the match
-- and leg its game: 1 and 2, then 3 and 4 for a replayed tie, ...
CREATE TABLE event_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id),
    event_id INTEGER NOT NULL REFERENCES events (id),
    round    INTEGER NOT NULL,
    board    INTEGER NOT NULL,
    leg      INTEGER NOT NULL DEFAULT 1,
    white    INTEGER NOT NULL,
    black    INTEGER NOT NULL,
    UNIQUE (event_id, round, board, leg)
);
CREATE INDEX event_games_event ON event_games (event_id);
