-- Schema version 10: a challenge may ask for a private game (the word
-- "private" in "challenge ..."), which no one may observe. The game itself
-- keeps the flag, with its spectator delay, in its JSON state.
ALTER TABLE challenges ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
