-- Servers (Discord guilds, or "console"), their players, challenges, matches and rating history.
CREATE TABLE servers (
    id          TEXT PRIMARY KEY,
    created_at  REAL NOT NULL
);

CREATE TABLE players (
    server_id   TEXT NOT NULL REFERENCES servers (id),
    user_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    rating      REAL NOT NULL DEFAULT 1500,
    experience  INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, user_id)
);

CREATE TABLE challenges (
    id             INTEGER PRIMARY KEY,
    server_id      TEXT NOT NULL,
    channel_id     TEXT NOT NULL,
    challenger_id  TEXT NOT NULL,
    challenged_id  TEXT NOT NULL,
    match_length   INTEGER NOT NULL CHECK (match_length >= 0),  -- 0 = a money game
    created_at     REAL NOT NULL,
    expires_at     REAL NOT NULL,
    status         TEXT NOT NULL
                   CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    FOREIGN KEY (server_id, challenger_id) REFERENCES players (server_id, user_id),
    FOREIGN KEY (server_id, challenged_id) REFERENCES players (server_id, user_id)
);
CREATE UNIQUE INDEX challenges_one_open_per_channel
    ON challenges (server_id, channel_id) WHERE status = 'open';

CREATE TABLE matches (
    id              INTEGER PRIMARY KEY,
    server_id       TEXT NOT NULL,
    channel_id      TEXT NOT NULL,
    player0_id      TEXT NOT NULL,
    player1_id      TEXT NOT NULL,
    match_length    INTEGER NOT NULL CHECK (match_length >= 0),
    state           TEXT NOT NULL,            -- JSON: options, dice seed and the action record
    version         INTEGER NOT NULL DEFAULT 1,
    status          TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'aborted')),
    winner          INTEGER CHECK (winner IN (0, 1)),
    ending          TEXT,                     -- 'played', 'claimed', 'aborted'
    abort_offered_by INTEGER CHECK (abort_offered_by IN (0, 1)),
    created_at      REAL NOT NULL,
    last_action_at  REAL NOT NULL,
    FOREIGN KEY (server_id, player0_id) REFERENCES players (server_id, user_id),
    FOREIGN KEY (server_id, player1_id) REFERENCES players (server_id, user_id)
);
CREATE UNIQUE INDEX matches_one_playing_per_channel
    ON matches (server_id, channel_id) WHERE status = 'playing';
CREATE INDEX matches_by_channel ON matches (server_id, channel_id, id);

CREATE TABLE rating_changes (
    match_id        INTEGER NOT NULL REFERENCES matches (id),
    server_id       TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    rating_before   REAL NOT NULL,
    rating_after    REAL NOT NULL,
    experience_before INTEGER NOT NULL,
    PRIMARY KEY (match_id, user_id),
    FOREIGN KEY (server_id, user_id) REFERENCES players (server_id, user_id)
);
