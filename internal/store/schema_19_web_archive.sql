-- Schema version 19: the web archive's pages read only what they show
-- (issue 39). The lists of public games (the index, its filters, a
-- player's page, newest first, a page at a time) walk indexes instead of
-- reading every game: games_status (status, and the id with it) for the
-- index and its state filters, and these. A private game is never on a
-- page, so the variant's index leaves it out: its JSON state says
-- "private": true.
CREATE INDEX games_web_variant ON games (variant, status, id) WHERE json_extract(state, '$.private') IS NOT 1;
-- A player's games, newest first.
CREATE INDEX players_address_game ON players (address, game_id);
-- The newest change to any game: the pages' list of events is made again
-- when it moves.
CREATE INDEX games_updated ON games (updated);
