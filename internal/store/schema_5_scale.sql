-- Schema version 5: what the daemon looks up often stays cheap however many
-- games the database holds.
-- The clocks run through the active games with a time control only.
CREATE INDEX games_timed ON games (id) WHERE status = 'active' AND time_control IS NOT NULL AND time_control <> '';
-- "referee show" reads a game's audit entries.
CREATE INDEX audit_game ON audit (game_id, id);
