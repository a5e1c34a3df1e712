-- The daily puzzle (``!puzzle daily``, bot/store/dailies.py): each server's setting and each
-- day's post, made from bot/store/schema.py itself; the server's time zone; a member's answer
-- to a daily post is a row of puzzle_answers naming it, one per member and post.
-- new tables from the schema: puzzle_dailies, daily_posts
ALTER TABLE servers ADD COLUMN time_zone TEXT;
ALTER TABLE puzzle_answers ADD COLUMN daily_id INTEGER;
CREATE UNIQUE INDEX IF NOT EXISTS puzzle_answers_daily ON puzzle_answers (daily_id, user_id)
WHERE daily_id IS NOT NULL;
