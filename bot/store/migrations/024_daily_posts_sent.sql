-- A daily post is claimed before it is sent and marked sent after (bot/store/dailies.py): a
-- claim not marked sent when its lease ends is claimed again and sent, so a process dying in
-- between loses no day. The posts made before were sent (or are lost for good): marked so.
ALTER TABLE daily_posts ADD COLUMN sent_at DOUBLE PRECISION;
ALTER TABLE daily_posts ADD COLUMN lease_until DOUBLE PRECISION;
UPDATE daily_posts SET sent_at = posted_at WHERE sent_at IS NULL;
CREATE INDEX IF NOT EXISTS daily_posts_unsent ON daily_posts (lease_until) WHERE sent_at IS NULL;
