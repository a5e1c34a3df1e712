-- The newest state of each match that the bot has shown in its channel. A match whose version is
-- past it changed without anyone being told (the message failed, or the bot stopped first):
-- the bot re-posts its status at the next start. Matches already playing count as announced.
CREATE TABLE match_announcements (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
    version     INTEGER NOT NULL
);
INSERT INTO match_announcements (match_id, version)
    SELECT id, version FROM matches WHERE status = 'playing';
