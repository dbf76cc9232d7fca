-- Schema version 8: the clock reads only what is due.
-- deadline: the next moment the clocks must look at the game (Unix ms):
-- the reminder of the side to act, or once it is sent, that side's loss on
-- time. NULL when the game has no running clock (untimed, or over). The
-- referee writes it with every change of the game; the minute's tick reads
-- only the games whose deadline has passed.
ALTER TABLE games ADD COLUMN deadline INTEGER;
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
-- Backfill: every running clock is due at once. The first tick after the
-- upgrade looks at each timed game once, acts on it as before if something
-- is due, and otherwise writes the exact moment (SQL cannot read whose turn
-- it is from every variant's position string; the clock's own code can).
UPDATE games SET deadline = 0
WHERE status = 'active' AND time_control IS NOT NULL AND time_control <> '';
-- The index of timed games (version 5) served the tick that looked at every
-- timed game; nothing reads it now.
DROP INDEX games_timed;
