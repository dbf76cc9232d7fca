-- Schema version 14: leave booked ahead ("vacation from 2026-12-20 10").
--
-- address: canonical, no plus-detail. start: when the leave begins (the
-- player's local midnight, Unix ms); days: how long. began: when the tick
-- stopped the player's clocks for it (and counted its days against the
-- yearly allowance, table vacations); cancelled: when the player took it
-- back. A booking neither begun nor cancelled is pending; a player has at
-- most 3.
CREATE TABLE vacation_bookings (
    id        INTEGER PRIMARY KEY,
    address   TEXT    NOT NULL,
    start     INTEGER NOT NULL,
    days      INTEGER NOT NULL CHECK (days > 0),
    created   INTEGER NOT NULL,
    began     INTEGER,
    cancelled INTEGER
);
CREATE INDEX vacation_bookings_address ON vacation_bookings (address);
CREATE INDEX vacation_bookings_due ON vacation_bookings (start) WHERE began IS NULL AND cancelled IS NULL;
