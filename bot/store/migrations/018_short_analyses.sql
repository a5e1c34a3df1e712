-- A player's figures in a match with too few decisions of theirs to rate (under 10, the
-- bot's MIN_RATED_DECISIONS in bot/gnubg/api.py when this was written) count nowhere: the bot
-- stores none from now on, and those stored before go here, so that no PR of a match claimed or
-- lost on time after a move or two stays in a player's PR (``!stats``) or a tournament's report.
-- The PR counters of every player are summed again from the rows left.
DELETE FROM analysis_players WHERE decisions < 10;
UPDATE players SET analysed_matches = 0, analysed_decisions = 0, analysed_pr_sum = 0
WHERE analysed_matches <> 0 OR analysed_decisions <> 0 OR analysed_pr_sum <> 0;
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
