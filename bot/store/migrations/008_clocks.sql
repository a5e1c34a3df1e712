-- Deadlines of matches being played (one row each, deleted when the match ends) and the
-- server's dice counters.
-- ``turn_started_at``: when the decision the table waits on began (the last action; the claim
-- clock and the reminder count from it); ``reminded``: the player to act was pinged for it.
-- A clocked match (chosen in the challenge: ``clock 2m`` per point) has both players' banks in
-- seconds, the free ``delay`` of each decision, and ``flag_at``: when the bank of the player to
-- act runs out (NULL when nobody's runs: no clock, or the engine to act).
CREATE TABLE match_timers (
    match_id         INTEGER PRIMARY KEY REFERENCES matches (id),
    turn_started_at  REAL NOT NULL,
    reminded         INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    bank0            REAL,
    bank1            REAL,
    delay            REAL,
    flag_at          REAL
);
CREATE INDEX match_timers_to_remind ON match_timers (turn_started_at) WHERE reminded = 0;
CREATE INDEX match_timers_to_flag ON match_timers (flag_at) WHERE flag_at IS NOT NULL;
INSERT INTO match_timers (match_id, turn_started_at)
    SELECT id, last_action_at FROM matches WHERE status = 'playing';

-- A challenge's clock: seconds of bank per point of the match length (NULL: no clock).
ALTER TABLE challenges ADD COLUMN clock_seconds REAL;

-- Every die rolled in a server's matches, opening rolls included, counted in the transaction
-- that saves it: ``face1``..``face6`` count dice showing each number; ``rolls`` counts rolls of
-- two dice (an opening roll is one die each, so not one) and ``doubles`` those showing a pair.
CREATE TABLE dice_counts (
    server_id  TEXT PRIMARY KEY,
    face1      INTEGER NOT NULL DEFAULT 0,
    face2      INTEGER NOT NULL DEFAULT 0,
    face3      INTEGER NOT NULL DEFAULT 0,
    face4      INTEGER NOT NULL DEFAULT 0,
    face5      INTEGER NOT NULL DEFAULT 0,
    face6      INTEGER NOT NULL DEFAULT 0,
    rolls      INTEGER NOT NULL DEFAULT 0,
    doubles    INTEGER NOT NULL DEFAULT 0
);
