-- A user's challenges by time (at most 3 per 10 minutes on a server) and the matches each user is
-- playing now (where is my match? how many games against the bot at once?): index reads, with
-- no scan of a history that only grows.
CREATE INDEX challenges_by_challenger ON challenges (server_id, challenger_id, created_at);
CREATE INDEX matches_playing_by_player0 ON matches (player0_id) WHERE status = 'playing';
CREATE INDEX matches_playing_by_player1 ON matches (player1_id) WHERE status = 'playing';
