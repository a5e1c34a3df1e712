-- GNU Backgammon's analysis of finished matches, one per match. A job is written 'queued' when
-- asked for, 'running' while the engine works, then 'done' with its result (JSON of a
-- bot.gnubg.api.MatchAnalysis) or 'failed' with a line for the players. A 'queued' or 'running'
-- row left by a stopped bot is started again (at the next start, or at the next ask).
CREATE TABLE analyses (
    match_id      INTEGER PRIMARY KEY REFERENCES matches (id),
    plies         INTEGER NOT NULL CHECK (plies >= 0),
    status        TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    result        TEXT,                     -- JSON, when done
    error         TEXT,                     -- what went wrong, when failed
    requested_at  REAL NOT NULL,
    started_at    REAL,
    finished_at   REAL
);
CREATE INDEX analyses_unfinished ON analyses (status) WHERE status IN ('queued', 'running');

-- Each player's figures of a done analysis, for !stats to average over their matches.
CREATE TABLE analysis_players (
    match_id    INTEGER NOT NULL REFERENCES analyses (match_id),
    seat        INTEGER NOT NULL CHECK (seat IN (0, 1)),
    server_id   TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    pr          REAL NOT NULL,
    error_rate  REAL NOT NULL,              -- gnubg's mEMG per decision
    decisions   INTEGER NOT NULL CHECK (decisions >= 0),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX analysis_players_by_player ON analysis_players (server_id, user_id);
