-- Schema version 25: requests to join a team of a team event by mail
-- ("join NAME TEAM", issue 41); the organiser approves ("referee event
-- approve"), which enters the player on the team's next board, or rejects.
CREATE TABLE event_requests (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    address  TEXT    NOT NULL,                    -- canonical
    team     TEXT    NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (event_id, address)
);
