-- The referee's whole current SQLite schema, as a new database holds it
-- after every migration of internal/store (schema_N_*.sql) has run: for
-- readers, who would otherwise piece a table together from the
-- migrations. It is written by a test
-- (go test ./internal/store -run TestSchemaFile -update) and checked
-- against a new database by every go test; the migrations, not this file,
-- create and upgrade databases. Times are INTEGER Unix milliseconds, UTC.
--
-- Schema version 27 (PRAGMA user_version).

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

CREATE TABLE audit (
    id      INTEGER PRIMARY KEY,
    time    INTEGER NOT NULL,
    game_id INTEGER REFERENCES games (id),
    event   TEXT    NOT NULL,
    detail  TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX audit_game ON audit (game_id, id);

CREATE TABLE challenges (
    id           INTEGER PRIMARY KEY,
    challenger   TEXT    NOT NULL,
    opponent     TEXT    NOT NULL DEFAULT '',
    variant      TEXT    NOT NULL,
    time_control TEXT    NOT NULL DEFAULT '',
    color        TEXT    NOT NULL DEFAULT 'random' CHECK (color IN ('random', 'white', 'black')),
    secret       TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'accepted', 'declined', 'expired', 'withdrawn')),
    created      INTEGER NOT NULL,
    expires      INTEGER NOT NULL,
    closed       INTEGER,                         -- when it stopped being open
    closed_by    TEXT    NOT NULL DEFAULT '',     -- who accepted, declined or withdrew
    game_id      INTEGER REFERENCES games (id)
, seed TEXT NOT NULL DEFAULT '', private INTEGER NOT NULL DEFAULT 0, rated INTEGER NOT NULL DEFAULT 0);
CREATE INDEX challenges_challenger ON challenges (challenger, created);
CREATE INDEX challenges_open ON challenges (expires) WHERE status = 'open';
CREATE INDEX challenges_opponent ON challenges (opponent, created) WHERE opponent <> '';

CREATE TABLE event_entrants (
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    address     TEXT    NOT NULL,                     -- canonical
    joined      INTEGER NOT NULL,
    withdrawn   INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1, 2)),
    replaced_by TEXT    NOT NULL DEFAULT '', team TEXT NOT NULL DEFAULT '', board INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, seat),
    UNIQUE (event_id, address)
);

CREATE TABLE "event_games" (
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
CREATE INDEX event_games_event ON event_games (event_id);

CREATE TABLE event_requests (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    address  TEXT    NOT NULL,                    -- canonical
    team     TEXT    NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (event_id, address)
);

CREATE TABLE event_watchers (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    address  TEXT    NOT NULL,
    PRIMARY KEY (event_id, address)
);

CREATE TABLE "events" (
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
, settings TEXT NOT NULL DEFAULT '');

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
, deadline INTEGER, rated INTEGER NOT NULL DEFAULT 0, rating_seq INTEGER, ending TEXT NOT NULL DEFAULT '');
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE UNIQUE INDEX games_rating_seq ON games (rating_seq) WHERE rating_seq IS NOT NULL;
CREATE INDEX games_status ON games (status);
CREATE INDEX games_updated ON games (updated);
CREATE INDEX games_web_variant ON games (variant, status, id) WHERE json_extract(state, '$.private') IS NOT 1;

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
CREATE INDEX inbound_digest ON inbound (digest);
CREATE INDEX inbound_from ON inbound (from_addr, received);
CREATE INDEX inbound_game ON inbound (game_id, from_addr, received);
CREATE UNIQUE INDEX inbound_message_id ON inbound (message_id) WHERE message_id <> '';
CREATE INDEX inbound_uid ON inbound (uidvalidity, uid) WHERE uidvalidity <> 0 AND uid <> 0;

CREATE TABLE known_players (
    address TEXT    PRIMARY KEY,                  -- canonical, no plus-detail
    allowed INTEGER NOT NULL DEFAULT 1 CHECK (allowed IN (0, 1)),
    changed INTEGER NOT NULL
);

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

CREATE TABLE ladder_drops (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX ladder_drops_event ON ladder_drops (event_id);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER REFERENCES games (id),
    to_addr      TEXT    NOT NULL,
    from_addr    TEXT    NOT NULL,
    message_id   TEXT    NOT NULL,
    created      INTEGER NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_attempt INTEGER NOT NULL,
    last_error   TEXT    NOT NULL DEFAULT '',
    sent         INTEGER                          -- NULL until the server accepted it
, claim         TEXT, claimed_until INTEGER, dead          INTEGER, dropped       INTEGER, kind     TEXT    NOT NULL DEFAULT '', priority INTEGER NOT NULL DEFAULT 1);
CREATE INDEX outbox_due ON outbox (priority, next_attempt) WHERE sent IS NULL AND dead IS NULL AND dropped IS NULL;
CREATE INDEX outbox_priority_created ON outbox (priority, created);
CREATE INDEX outbox_sent ON outbox (sent) WHERE sent IS NOT NULL;
CREATE INDEX outbox_to ON outbox (to_addr, created);

CREATE TABLE outbox_text (
    id  INTEGER PRIMARY KEY REFERENCES outbox (id),
    raw BLOB    NOT NULL
, data BLOB);

CREATE TABLE player_settings (
    address  TEXT    PRIMARY KEY,
    timezone TEXT    NOT NULL DEFAULT '',
    changed  INTEGER NOT NULL
, digest      TEXT    NOT NULL DEFAULT '', digest_sent INTEGER, display_name TEXT NOT NULL DEFAULT '', name_key TEXT NOT NULL DEFAULT '', language TEXT NOT NULL DEFAULT '', language_hint TEXT NOT NULL DEFAULT '');
CREATE UNIQUE INDEX player_settings_name ON player_settings (name_key) WHERE name_key <> '';

CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    color   INTEGER NOT NULL CHECK (color IN (0, 1)),   -- 0 White, 1 Black
    address TEXT    NOT NULL,                           -- lower case
    name    TEXT    NOT NULL DEFAULT '',
    secret  TEXT    NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE INDEX players_address ON players (address);
CREATE INDEX players_address_game ON players (address, game_id);

CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    color         INTEGER NOT NULL CHECK (color IN (0, 1)),
    address       TEXT    NOT NULL,
    before_rating REAL    NOT NULL,
    before_rd     REAL    NOT NULL,
    before_vol    REAL    NOT NULL,
    after_rating  REAL    NOT NULL,
    after_rd      REAL    NOT NULL,
    after_vol     REAL    NOT NULL,
    PRIMARY KEY (game_id, color)
);

CREATE TABLE ratings (
    address      TEXT    NOT NULL,               -- lower case
    variant      TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    rd           REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0,
    losses       INTEGER NOT NULL DEFAULT 0,
    lost_on_time INTEGER NOT NULL DEFAULT 0,     -- lost on time after a move of their own
    abandoned    INTEGER NOT NULL DEFAULT 0,     -- lost on time without a move of their own
    PRIMARY KEY (address, variant)
);
CREATE INDEX ratings_variant ON ratings (variant, rating);

CREATE TABLE rolls (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n         INTEGER NOT NULL,                  -- 1, 2, ... over the game
    ply       INTEGER NOT NULL,                  -- actions played before it
    value     INTEGER NOT NULL CHECK (value BETWEEN 1 AND 6),
    signature BLOB    NOT NULL,
    created   INTEGER NOT NULL,
    PRIMARY KEY (game_id, n)
);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

CREATE TABLE stopped (
    address      TEXT    PRIMARY KEY,             -- canonical, no plus-detail
    stopped      INTEGER NOT NULL,                -- when (ms)
    challenge_id INTEGER NOT NULL DEFAULT 0       -- the invitation answered
);

CREATE TABLE vacation_bookings (
    id        INTEGER PRIMARY KEY,
    address   TEXT    NOT NULL,
    start     INTEGER NOT NULL,
    days      INTEGER NOT NULL CHECK (days > 0),
    created   INTEGER NOT NULL,
    began     INTEGER,
    cancelled INTEGER
);
CREATE INDEX vacation_bookings_address ON vacation_bookings (address);
CREATE INDEX vacation_bookings_due ON vacation_bookings (start) WHERE began IS NULL AND cancelled IS NULL;

CREATE TABLE vacations (
    address TEXT    NOT NULL,                     -- canonical, no plus-detail
    year    INTEGER NOT NULL,
    days    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (address, year)
);

CREATE TABLE watchers (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    address TEXT    NOT NULL,
    PRIMARY KEY (game_id, address)
);
