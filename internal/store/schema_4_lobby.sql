-- Schema version 4: players run their own games by mail (the lobby).
--
-- known_players: the organiser's word on an address (referee player
-- add/remove). allowed = 1: may challenge by mail under --players known (or
-- beside an address file); allowed = 0: removed, refused even if it played
-- before. An address without a row is known once it played a game.
CREATE TABLE known_players (
    address TEXT    PRIMARY KEY,                  -- canonical, no plus-detail
    allowed INTEGER NOT NULL DEFAULT 1 CHECK (allowed IN (0, 1)),
    changed INTEGER NOT NULL
);

-- challenges: invitations to a game sent by mail. opponent '' is an open
-- challenge (listed by "open", the first taker gets it). secret is the
-- invitation token's secret (reply address referee+i<id>.<secret>@...).
-- color is the challenger's: random, white or black.
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
);
CREATE INDEX challenges_open ON challenges (expires) WHERE status = 'open';
CREATE INDEX challenges_challenger ON challenges (challenger, created);

-- vacations: the vacation days a player took in a calendar year, over all
-- their games (the yearly allowance is per player, not per game).
CREATE TABLE vacations (
    address TEXT    NOT NULL,                     -- canonical, no plus-detail
    year    INTEGER NOT NULL,
    days    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (address, year)
);

-- Until version 4 the allowance was kept per game in the clock state: carry
-- over the most any one game recorded for a player and year.
INSERT INTO vacations (address, year, days)
SELECT addr, year, MAX(days) FROM (
    SELECT lower(CASE
               WHEN substr(p.address, 1, 1) <> '"' AND instr(p.address, '+') > 0
                    AND instr(p.address, '+') < instr(p.address, '@')
               THEN substr(p.address, 1, instr(p.address, '+') - 1) || substr(p.address, instr(p.address, '@'))
               ELSE p.address END) AS addr,
           json_extract(g.state, '$.clock.vacation_year') AS year,
           json_extract(g.state, '$.clock.vacation_used[' || p.color || ']') AS days
    FROM games g JOIN players p ON p.game_id = g.id
    WHERE json_valid(g.state)
)
WHERE year IS NOT NULL AND days > 0
GROUP BY addr, year;
