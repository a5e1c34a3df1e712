"""A server's analysed matches make its puzzles: the qualifying cube decisions and takes of an
analysis at 2-ply (a game gnubg really analysed, tests/service/review/test_review.py's), stored
with the analysis and then given by ``!puzzle`` like the starter pool's."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from bot.rules.glicko import Rating
from bot.rules.puzzles import CHECKER, Puzzle, qualifies
from bot.service.puzzles import pool
from bot.service.puzzles.made import server_puzzle_rows
from bot.store import schema
from tests.service.review.test_drills import played
from tests.service.review.test_review import DECISIONS


def test_an_analysis_makes_puzzles_of_its_clear_cube_decisions_only() -> None:
    rows = server_puzzle_rows("s", 7, DECISIONS, 2, 1.0)
    assert rows and server_puzzle_rows("s", 7, DECISIONS, 1, 1.0) == []  # 2-ply only
    cubes = [d for d in DECISIONS if d.kind != CHECKER and d.cube is not None]
    for row in rows:
        puzzle = Puzzle.from_data(json.loads(row["data"]))
        assert puzzle.kind != CHECKER and qualifies(puzzle) and row["puzzle"] == puzzle.key
        assert row["first_rating"] == puzzle.first_rating and row["match_id"] == 7
        assert any(d.gnubg_id == puzzle.gnubg_id for d in cubes)
        assert "alice" not in row["data"] and "bob" not in row["data"]


async def test_a_stored_analysis_adds_the_servers_puzzles(db_path: Path | str) -> None:
    table = await played(db_path, "1")
    try:
        p = schema.server_puzzles
        rows = await table.store.fetch_all(select(p.c.server_id, p.c.puzzle))
        made = server_puzzle_rows("x", 1, DECISIONS, 2, 0.0)
        assert {row.puzzle for row in rows} == {row["puzzle"] for row in made}
        server_id = rows[0].server_id
        found = await pool.find(table.store.puzzles, server_id, rows[0].puzzle)
        assert found is not None and found.key == rows[0].puzzle
        assert await pool.find(table.store.puzzles, "elsewhere", rows[0].puzzle) is None
        # chosen like the starter pool's (here: every starter seen lately)
        starters = {puzzle.key for puzzle in pool._starter().puzzles}
        strength = Rating(made[0]["first_rating"])
        chosen = await pool.choose(table.store.puzzles, server_id, "u", strength, 0, starters)
        assert chosen is not None and chosen[0].key in {row.puzzle for row in rows}
        elsewhere = await pool.choose(table.store.puzzles, "x", "u", strength, 0, starters)
        assert elsewhere is None
    finally:
        table.service.close()
        await table.store.close()
