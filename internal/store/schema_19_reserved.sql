-- Schema version 19 is another branch's (s39a, the web archive's
-- indexes). This stand-in keeps the versions of branch c37b contiguous so
-- that its schema 20 applies; it changes nothing, and goes at the merge.
SELECT 1;
