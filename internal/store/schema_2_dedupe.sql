-- Schema version 2: inbound dedupe that no mailbox can fool.
-- A (UIDVALIDITY, UID) pair alone no longer identifies a message: a server
-- that forgets its mail (or is rebuilt) may hand the same pair to a new
-- message. A pair is a duplicate only together with the same digest, and
-- the digest (of the mail as its sender wrote it, without the trace fields
-- servers add) identifies a mail that has no Message-ID.
DROP INDEX inbound_uid;
CREATE INDEX inbound_uid ON inbound (uidvalidity, uid) WHERE uidvalidity <> 0 AND uid <> 0;
CREATE INDEX inbound_digest ON inbound (digest);
CREATE INDEX inbound_game ON inbound (game_id, from_addr, received);
CREATE INDEX inbound_from ON inbound (from_addr, received);
