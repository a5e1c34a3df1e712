-- History costs nothing: what ``!stats`` shows of a player is kept in counters, added to in the
-- transaction that ends a match (or stores its analysis) and filled here from the history; the
-- leaderboard and a player's rank are read from an index of the ranked players in their order;
-- the matches being played (re-posted and resumed at start) have an index of their own. The two
-- indexes only the old queries read (a player's analysed matches, a server's matches against the
-- engine) go.
ALTER TABLE players ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN aborted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN analysed_matches INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN analysed_decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN analysed_pr_sum DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE players SET finished = ended.finished, aborted = ended.aborted
FROM (
    SELECT server_id, user_id,
        SUM(CASE WHEN status = 'finished' THEN 1 ELSE 0 END) AS finished,
        SUM(CASE WHEN status = 'aborted' THEN 1 ELSE 0 END) AS aborted
    FROM (
        SELECT server_id, player0_id AS user_id, status FROM matches
        UNION ALL
        SELECT server_id, player1_id AS user_id, status FROM matches
    ) AS seats
    GROUP BY server_id, user_id
) AS ended
WHERE players.server_id = ended.server_id AND players.user_id = ended.user_id;
UPDATE players SET
    analysed_matches = analysed.matches,
    analysed_decisions = analysed.decisions,
    analysed_pr_sum = analysed.pr_sum
FROM (
    SELECT server_id, user_id, COUNT(DISTINCT match_id) AS matches,
        SUM(decisions) AS decisions, SUM(pr * decisions) AS pr_sum
    FROM analysis_players
    GROUP BY server_id, user_id
) AS analysed
WHERE players.server_id = analysed.server_id AND players.user_id = analysed.user_id;
DROP INDEX analysis_players_by_player;

-- Finished matches against GNU Backgammon, by level, of each player (the engine's own user too).
CREATE TABLE engine_records (
    server_id  TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    level      TEXT NOT NULL,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, user_id, level),
    FOREIGN KEY (server_id, user_id) REFERENCES players (server_id, user_id)
);
INSERT INTO engine_records (server_id, user_id, level, wins, losses)
SELECT server_id, user_id, level, SUM(won), SUM(1 - won)
FROM (
    SELECT server_id, player0_id AS user_id, engine_level AS level,
        CASE WHEN winner = 0 THEN 1 ELSE 0 END AS won
    FROM matches
    WHERE status = 'finished' AND engine_level IS NOT NULL AND winner IS NOT NULL
    UNION ALL
    SELECT server_id, player1_id AS user_id, engine_level AS level,
        CASE WHEN winner = 1 THEN 1 ELSE 0 END AS won
    FROM matches
    WHERE status = 'finished' AND engine_level IS NOT NULL AND winner IS NOT NULL
) AS seats
GROUP BY server_id, user_id, level;
DROP INDEX matches_against_engine;

CREATE INDEX players_ranked ON players (server_id, rating DESC, wins DESC, name, losses)
    WHERE wins + losses > 0;
CREATE INDEX matches_playing ON matches (status) WHERE status = 'playing';
