-- Drills of each player's own mistakes (``!drill``): one row per decision of an analysed match
-- that gnubg marked bad or very bad, with its spaced-repetition state; made from
-- bot/store/schema.py itself, the same on SQLite and PostgreSQL. A player's matches of a server,
-- newest first, get an index per seat: the drills of matches analysed before drills existed are
-- made from a player's last ones, without a walk through the server's history.
-- new tables from the schema: drills
CREATE INDEX matches_by_player0 ON matches (server_id, player0_id, id);
CREATE INDEX matches_by_player1 ON matches (server_id, player1_id, id);
