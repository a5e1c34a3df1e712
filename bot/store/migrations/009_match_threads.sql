-- A match played in a thread of its own: ``channel_id`` is the thread (so the one playing match
-- per channel holds per thread), ``parent_channel_id`` the channel its challenge was made in,
-- where the result is posted too and commands are pointed to the thread. NULL: the match is
-- played where it was started.
ALTER TABLE matches ADD COLUMN parent_channel_id TEXT;
CREATE INDEX matches_by_parent ON matches (server_id, parent_channel_id)
    WHERE parent_channel_id IS NOT NULL AND status = 'playing';
