-- Tournaments carry on from any state a stop can leave them in (bot/service/tournaments):
-- the running ones get an index of their own, for the poll that finds a round fully decided
-- with the next one not paired yet (or a start with no round 1); ``paused_at`` is when a pause
-- began (``resume`` moves the deadlines on by the time since; it was looked up in the log by its
-- text before, filled here from the log's last pause); a pairing's ``notice`` is what was said of
-- it once and not again at every poll (a match ended without a winner, a match waiting for its
-- channel).
ALTER TABLE tournaments ADD COLUMN paused_at DOUBLE PRECISION;
ALTER TABLE tournament_matches ADD COLUMN notice TEXT;
CREATE INDEX IF NOT EXISTS tournaments_running ON tournaments (status, id) WHERE status = 'running';
UPDATE tournaments SET paused_at = (
    SELECT MAX(tournament_log.at) FROM tournament_log
    WHERE tournament_log.tournament_id = tournaments.id AND tournament_log.text LIKE 'paused by %'
) WHERE status = 'paused';
