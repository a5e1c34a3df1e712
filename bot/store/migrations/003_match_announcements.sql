-- The newest state of each match that the bot has shown in its channel. A match whose version is
-- past it changed without anyone being told (the message failed, or the bot stopped first):
-- the bot re-posts its status at the next start. Matches already playing count as announced.
-- ``shown_at``: when that state was shown (the claim clock of a waiting player starts there).
CREATE TABLE match_announcements (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
    version     INTEGER NOT NULL,
    shown_at    REAL NOT NULL DEFAULT 0
);
INSERT INTO match_announcements (match_id, version, shown_at)
    SELECT id, version, last_action_at FROM matches WHERE status = 'playing';
