-- Schema version 17: rated events and rating limits on joining an event
-- (issue 30). rated: the event's games are created rated (1) or casual
-- (0); an event created before this version made casual games, so it
-- stays casual. min_rating, max_rating (0 for no bound) and
-- min_reliability (a share, 0 to 1; 0 for none) limit who may join by
-- mail, in the event's variant.
ALTER TABLE events ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE events ADD COLUMN min_rating REAL NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN max_rating REAL NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN min_reliability REAL NOT NULL DEFAULT 0;
