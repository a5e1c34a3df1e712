-- The newest match from a channel that was played in a thread, whatever its status: a
-- channel's ``!board`` points there when it is newer than the channel's own last match.
CREATE INDEX matches_by_parent_newest ON matches (server_id, parent_channel_id, id)
    WHERE parent_channel_id IS NOT NULL;
