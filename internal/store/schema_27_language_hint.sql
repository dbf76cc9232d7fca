-- Schema version 27: the languages a player was told once how to set
-- (issue 42): a player who set no language and wrote a move in the piece
-- letters of another ("Sf3") is told, once, in English and in that
-- language, how to have them read. The codes told, space-separated ("de
-- pl"); '' when never told.
ALTER TABLE player_settings ADD COLUMN language_hint TEXT NOT NULL DEFAULT '';
