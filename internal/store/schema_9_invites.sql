-- Schema version 9: no one is mailed without limit (issue 28).
--
-- stopped: addresses that answered "stop" to an invitation; the referee
-- passes on no invitation to them until they send "start" from the same
-- address. Shown by "referee player list".
CREATE TABLE stopped (
    address      TEXT    PRIMARY KEY,             -- canonical, no plus-detail
    stopped      INTEGER NOT NULL,                -- when (ms)
    challenge_id INTEGER NOT NULL DEFAULT 0       -- the invitation answered
);

-- The invitations one address received, from anyone, in a day are
-- counted by opponent.
CREATE INDEX challenges_opponent ON challenges (opponent, created) WHERE opponent <> '';

-- seed: the per-challenge seed that draws a random colour (docs/dice.md,
-- "The colour of a challenge"); the invitation carries its SHA-256, the
-- game's first mail reveals it. '' for challenges made before version 7,
-- whose colour was drawn from the secret.
ALTER TABLE challenges ADD COLUMN seed TEXT NOT NULL DEFAULT '';
