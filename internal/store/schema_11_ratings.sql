-- Schema version 11: ratings per player per variant (docs/ratings.md).
-- rated: 1 when the game's result counts for the players' ratings.
-- rating_seq: the order in which rated results were counted (1, 2, ...),
-- set in the transaction that records the result; `referee ratings
-- --rebuild` replays the rated games in this order.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_seq INTEGER;
-- A challenge's game is rated (1) or casual (0): the organiser's default
-- (serve --rated) unless the challenge said `rated` or `casual`.
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX games_rating_seq ON games (rating_seq) WHERE rating_seq IS NOT NULL;

-- One row per player and variant with at least one rated game: the Glicko-2
-- rating, deviation and volatility after the player's last rated game, and
-- the counts `rating` shows by mail.
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

-- Each rated game's effect on each player: the rating before and after, for
-- the final mail, the record (WhiteRatingDiff) and the rebuild's check.
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
