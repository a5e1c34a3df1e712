"""A server's analysed rolls become checker puzzles through the engine's ``checker_puzzle``
request (the analysis lane of a real gnubg): it ranks a roll as the starter pool's builder did (a
seeded sample of the shipped checker puzzles, ranked again: the same puzzles), and an analysed
match's roll worth it reaches the server's pool with gnubg's whole 2-ply ranking.

``PUZZLE_RANK=N`` ranks N of the shipped checker puzzles again (default 3, about a second each).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from bot.console import SERVER
from bot.gnubg import installed
from bot.gnubg.api import Query
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.puzzles import starter_pool
from bot.rules.puzzles import CHECKER, MIN_GAP, PLIES
from bot.service.puzzles import pool
from bot.service.puzzles.made import rolls_to_rank
from bot.store import Store
from tests.service.puzzles.test_made import Ranking, analysed, server_puzzles

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not installed(), reason="needs gnubg"),
    pytest.mark.asyncio(loop_scope="module"),
]

SAMPLE = int(os.environ.get("PUZZLE_RANK", "3"))
SEED = 20


@pytest.mark.timeout(60 + 20 * SAMPLE)
async def test_a_roll_is_ranked_as_the_starter_pools_builder_ranked_it(
    engine: GnubgEngine,
) -> None:
    checkers = [puzzle for puzzle in starter_pool() if puzzle.kind == CHECKER]
    for puzzle in random.Random(SEED).sample(checkers, SAMPLE):
        state = puzzle.state
        query = Query(puzzle.gnubg_id, jacoby=state.jacoby, beavers=state.beavers)
        assert await engine.checker_puzzle(query) == puzzle, puzzle.xgid


@pytest.mark.timeout(120)
async def test_an_analysed_matchs_roll_joins_the_servers_pool_ranked_by_gnubg(
    engine: GnubgEngine, tmp_path: Path
) -> None:
    store = await Store.open(tmp_path / "bot.sqlite3")
    analyst = Ranking(engine)
    service = await analysed(store, analyst, checkers=1)
    try:
        (worth,) = rolls_to_rank(analyst.result.decisions, PLIES)
        (made,) = [p for p in await server_puzzles(store) if p.kind == CHECKER]
        assert made.gnubg_id == worth.gnubg_id and made.best.answer == worth.best
        assert made.gap >= MIN_GAP and all(ranked.answer for ranked in made.plays)
        dice = made.state.dice
        assert dice is not None
        assert len(made.plays) == len(made.state.position.legal_plays(*dice))
        assert await pool.find(store.puzzles, SERVER, made.key) == made
    finally:
        service.close()
        await store.close()
