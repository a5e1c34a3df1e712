-- GNU Backgammon as an opponent and a helper. ``engine_level``: the level (gnubg's name) the
-- engine plays at when it holds a seat (its seat's player is the engine user), else NULL;
-- ``tutor``: the engine comments on its opponent's costly decisions; ``hints``: ``!hint`` is
-- allowed; ``rated``: the result counts on the leaderboard (money games never do). A challenge
-- carries ``hints`` to the match it starts.
ALTER TABLE matches ADD COLUMN engine_level TEXT;
ALTER TABLE matches ADD COLUMN tutor INTEGER NOT NULL DEFAULT 0 CHECK (tutor IN (0, 1));
ALTER TABLE matches ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints IN (0, 1));
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
UPDATE matches SET rated = 0 WHERE match_length = 0;
ALTER TABLE challenges ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints IN (0, 1));
CREATE INDEX matches_against_engine ON matches (server_id, engine_level)
    WHERE engine_level IS NOT NULL;
