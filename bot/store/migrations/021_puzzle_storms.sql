-- Puzzle storms (``!puzzle storm``): a player's timed runs of puzzles, made from
-- bot/store/schema.py itself, the same on SQLite and PostgreSQL; and a drill may be a puzzle the
-- player missed (its key: graded from the puzzle's stored ranking).
-- new tables from the schema: puzzle_storms
ALTER TABLE drills ADD COLUMN puzzle TEXT;
