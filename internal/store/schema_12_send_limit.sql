-- Schema version 12: the outbox is paced under the mailbox's sending limits
-- (serve --send-limit), which count the mail sent lately, and its
-- priorities are finer: 0 a player's turn (the opponent's move, a game's
-- opening and end), 1 answers to a player (the mover's confirmation,
-- answers to commands), 2 reminders, notices and invitations, 3 spectators
-- and events, 4 answers to strangers (was 2).
UPDATE outbox SET priority = 4 WHERE priority = 2;
UPDATE outbox SET priority = 2 WHERE priority = 1 AND kind IN ('reminder', 'notice', 'invitation');
UPDATE outbox SET priority = 3 WHERE priority = 1 AND kind = 'spectator';
CREATE INDEX outbox_sent ON outbox (sent) WHERE sent IS NOT NULL;
