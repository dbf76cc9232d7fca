-- Schema version 15: a player may take one digest mail a day instead of a
-- mail per move ("mail digest 18:00"; "mail each" goes back).
--
-- digest: the local time of day (HH:MM, in the player's timezone) of the
-- daily digest; '' for a mail per move. digest_sent: when the last digest
-- went out (Unix ms), so that each day's goes once.
ALTER TABLE player_settings ADD COLUMN digest      TEXT    NOT NULL DEFAULT '';
ALTER TABLE player_settings ADD COLUMN digest_sent INTEGER;
