-- Schema version 13: each player's own settings, over all their games.
--
-- address: canonical, no plus-detail (addr.Mailbox), as known_players.
-- timezone: an IANA zone name ("Europe/Berlin"); '' for UTC. Deadlines,
-- reminders and dates in the player's mails are shown in it, and a game's
-- days off (--days-off) are the player's own days in it.
CREATE TABLE player_settings (
    address  TEXT    PRIMARY KEY,
    timezone TEXT    NOT NULL DEFAULT '',
    changed  INTEGER NOT NULL
);
