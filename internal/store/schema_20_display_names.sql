-- Schema version 20: a player's display name (the "name" command, issue
-- 37), over all their games: shown instead of their masked address on the
-- web pages, in crosstables and in opponents' and spectators' mails.
-- name_key is the name as names are compared (lower case, one space
-- between words): one player per name on a referee.
ALTER TABLE player_settings ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
ALTER TABLE player_settings ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX player_settings_name ON player_settings (name_key) WHERE name_key <> '';
