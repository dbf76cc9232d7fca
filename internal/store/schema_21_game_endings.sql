-- Schema version 21: how a finished game ended, as a kind (issue 40):
-- board, resigned, agreed, claimed, time or forfeit (game.Ending); '' for
-- a game not finished. The reliability of a rating and an event's silence
-- rule read it instead of the reason's words. The games finished before
-- it are sorted by the words their reasons had then.
ALTER TABLE games ADD COLUMN ending TEXT NOT NULL DEFAULT '';
UPDATE games SET ending = CASE
	WHEN result_reason LIKE '% lost on time' OR result_reason LIKE '% ran out of time, but %' THEN 'time'
	WHEN result_reason LIKE '% resigned' THEN 'resigned'
	WHEN result_reason = 'agreed' THEN 'agreed'
	WHEN result_reason LIKE '% (claimed)' THEN 'claimed'
	WHEN result_reason LIKE '% withdrew from %' OR result_reason LIKE '% withdrawn by the organiser from %'
		OR result_reason LIKE '% is withdrawn from %' THEN 'forfeit'
	ELSE 'board' END
WHERE status = 'finished';
