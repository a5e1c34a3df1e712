-- The id of each match's table message: the one Discord message (layout components) that shows
-- its board, words and buttons and is edited at each move, so that a restarted bot edits the
-- same message rather than posting a new one. NULL: none yet (or a new message per move).
ALTER TABLE match_announcements ADD COLUMN message_id TEXT;
