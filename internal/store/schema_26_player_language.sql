-- Schema version 26: a player's language (the "language" command, issue
-- 42), over all their games: its piece letters are read in their moves
-- ("Sf3" for a German player). A code of notation.Languages ("de"), or ''
-- when the player set none: then a letter that English and another
-- language read as two pieces is read as in English.
ALTER TABLE player_settings ADD COLUMN language TEXT NOT NULL DEFAULT '';
