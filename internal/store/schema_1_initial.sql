-- The referee's SQLite schema, version 1. Applied by `referee init` and on
-- first use; the version is kept in PRAGMA user_version. Times are INTEGER
-- Unix milliseconds (UTC).

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,          -- the short id shown as #17
    variant        TEXT    NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'finished', 'aborted')),
    start_position TEXT    NOT NULL,
    position       TEXT    NOT NULL,             -- after the last action
    ply            INTEGER NOT NULL DEFAULT 0,   -- actions applied
    result         TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    result_reason  TEXT    NOT NULL DEFAULT '',
    abort_reason   TEXT    NOT NULL DEFAULT '',
    die_seed       BLOB    NOT NULL,             -- secret until the game ends
    die_commitment TEXT    NOT NULL DEFAULT '',  -- hex SHA-256 of the seed; '' without a die
    seed_revealed  INTEGER NOT NULL DEFAULT 0,
    time_control   TEXT,
    draw_offer_by  INTEGER CHECK (draw_offer_by IN (0, 1)),
    draw_offer_ply INTEGER,
    state          TEXT    NOT NULL DEFAULT '{}', -- JSON: pending resignation, takeback offer, clocks
    created        INTEGER NOT NULL,
    updated        INTEGER NOT NULL
);
CREATE INDEX games_status ON games (status);

CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    color   INTEGER NOT NULL CHECK (color IN (0, 1)),   -- 0 White, 1 Black
    address TEXT    NOT NULL,                           -- lower case
    name    TEXT    NOT NULL DEFAULT '',
    secret  TEXT    NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE INDEX players_address ON players (address);

CREATE TABLE inbound (
    id          INTEGER PRIMARY KEY,
    message_id  TEXT    NOT NULL DEFAULT '',
    uidvalidity INTEGER NOT NULL DEFAULT 0,
    uid         INTEGER NOT NULL DEFAULT 0,
    digest      TEXT    NOT NULL,               -- hex SHA-256 of the raw message
    from_addr   TEXT    NOT NULL DEFAULT '',
    subject     TEXT    NOT NULL DEFAULT '',
    received    INTEGER NOT NULL,
    outcome     TEXT    NOT NULL DEFAULT 'pending'
                CHECK (outcome IN ('pending', 'applied', 'answered', 'rejected', 'ignored', 'error')),
    detail      TEXT    NOT NULL DEFAULT '',
    game_id     INTEGER REFERENCES games (id)
);
CREATE UNIQUE INDEX inbound_message_id ON inbound (message_id) WHERE message_id <> '';
CREATE UNIQUE INDEX inbound_uid ON inbound (uidvalidity, uid) WHERE uidvalidity <> 0 AND uid <> 0;

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,                 -- 0-based
    color      INTEGER NOT NULL CHECK (color IN (0, 1)),
    kind       TEXT    NOT NULL DEFAULT 'move',
    notation   TEXT    NOT NULL,                 -- canonical SAN
    coord      TEXT    NOT NULL,                 -- coordinate form
    position   TEXT    NOT NULL,                 -- after the action
    message    TEXT    NOT NULL DEFAULT '',      -- relayed to the opponent
    inbound_id INTEGER REFERENCES inbound (id),
    created    INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE rolls (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n         INTEGER NOT NULL,                  -- 1, 2, ... over the game
    ply       INTEGER NOT NULL,                  -- actions played before it
    value     INTEGER NOT NULL CHECK (value BETWEEN 1 AND 6),
    signature BLOB    NOT NULL,
    created   INTEGER NOT NULL,
    PRIMARY KEY (game_id, n)
);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER REFERENCES games (id),
    to_addr      TEXT    NOT NULL,
    from_addr    TEXT    NOT NULL,
    message_id   TEXT    NOT NULL,
    raw          BLOB    NOT NULL,
    created      INTEGER NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_attempt INTEGER NOT NULL,
    last_error   TEXT    NOT NULL DEFAULT '',
    sent         INTEGER                          -- NULL until the server accepted it
);
CREATE INDEX outbox_due ON outbox (next_attempt) WHERE sent IS NULL;
CREATE INDEX outbox_to ON outbox (to_addr, created);

CREATE TABLE audit (
    id      INTEGER PRIMARY KEY,
    time    INTEGER NOT NULL,
    game_id INTEGER REFERENCES games (id),
    event   TEXT    NOT NULL,
    detail  TEXT    NOT NULL DEFAULT ''
);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

CREATE TABLE watchers (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    address TEXT    NOT NULL,
    PRIMARY KEY (game_id, address)
);
