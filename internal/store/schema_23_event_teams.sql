-- Schema version 23: team events (issue 41). An entrant of a team event
-- plays for a team on a board (1 the first board); '' and 0 for the
-- entrants of other formats.
ALTER TABLE event_entrants ADD COLUMN team TEXT NOT NULL DEFAULT '';
ALTER TABLE event_entrants ADD COLUMN board INTEGER NOT NULL DEFAULT 0;
