"""A server's analysed matches make its puzzles: the qualifying cube decisions and takes of an
analysis at 2-ply (a game gnubg really analysed, tests/service/review/test_review.py's), stored
with the analysis and then given by ``!puzzle`` like the starter pool's; then its rolls worth it
ranked by the engine into checker puzzles (here the stand-in engine's ranking; gnubg's own in
tests/gnubg/test_server_checker_puzzles.py)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

from sqlalchemy import select

from bot.console import SERVER, ConsoleClock
from bot.gnubg.api import Engine, Query
from bot.gnubg.puzzles import worth_ranking
from bot.gnubg.unavailable import UnavailableEngine
from bot.rules.glicko import Rating
from bot.rules.puzzles import CHECKER, PLIES, Puzzle, qualifies
from bot.service.models import Place
from bot.service.puzzles import pool
from bot.service.puzzles.made import rolls_to_rank, server_puzzle_rows
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store, schema
from tests.gnubg.test_review_text import two_ply
from tests.service.console_lines import ConsoleTable
from tests.service.fake_analyst import FakeAnalyst, result
from tests.service.fake_engine import FakeEngine
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


class Ranking(FakeAnalyst):
    """The stand-in analyst with the analysis of a 3-point match's first moves at 2-ply
    (tests/gnubg/fixtures/match3-2ply-excerpt.txt: one roll worth ranking), whose rolls are
    ranked by ``ranker`` (the stand-in engine's ranking by default: legal-play order)."""

    def __init__(self, ranker: Engine | None = None) -> None:
        super().__init__(replace(result(), decisions=tuple(two_ply())))
        self.ranker: Engine = ranker or FakeEngine()
        self.ranked: list[Query] = []

    async def checker_puzzle(self, query: Query) -> Puzzle | None:
        self.ranked.append(query)
        return await self.ranker.checker_puzzle(query)


async def server_puzzles(store: Store) -> list[Puzzle]:
    p = schema.server_puzzles
    rows = await store.fetch_all(select(p.c.data).order_by(p.c.puzzle))
    return [Puzzle.from_data(json.loads(row.data)) for row in rows]


async def analysed(store: Store, engine: Engine, *, checkers: int) -> TableService:
    """A 1-point match resigned at once and analysed by ``engine``; returns once the server's
    pool holds ``checkers`` checker puzzles (the rolls are ranked after the analysis)."""
    service = TableService(
        store,
        settings=Settings(analysis_auto=True),
        dice=seeded_dice(5),
        clock=ConsoleClock(1_790_000_000.0),
        images=False,
        engine=engine,
    )
    table = ConsoleTable(service)
    await table.say("alice: !challenge @bob 1")
    await table.say("bob: !accept")
    found = await service.table(Place(SERVER, "general"))
    assert found is not None and found.match.turn is not None
    turn = found.match.turn
    await table.say(f"{found.plain[turn]}: !resign")
    await table.say(f"{found.plain[1 - turn]}: !accept")
    for _ in range(1000):
        kinds = [puzzle.kind for puzzle in await server_puzzles(store)]
        if kinds.count(CHECKER) >= checkers:
            break
        await asyncio.sleep(0.01)
    return service


async def test_an_analysed_matchs_rolls_are_ranked_after_it_into_checker_puzzles(
    db_path: Path | str,
) -> None:
    store = await Store.open(db_path)
    engine = Ranking()
    service = await analysed(store, engine, checkers=1)
    try:
        (worth,) = rolls_to_rank(engine.result.decisions, PLIES)
        assert [query.gnubg_id for query in engine.ranked] == [worth.gnubg_id]
        assert engine.ranked[0].match_key == 1
        made = await server_puzzles(store)
        checkers = [puzzle for puzzle in made if puzzle.kind == CHECKER]
        assert [puzzle.gnubg_id for puzzle in checkers] == [worth.gnubg_id]
        assert all(qualifies(puzzle) for puzzle in made)
        assert len(made) == 1 + len(server_puzzle_rows("x", 1, engine.result.decisions, 2, 0.0))
        p = schema.server_puzzles
        for row in await store.fetch_all(select(p.c.data, p.c.server_id)):
            assert "alice" not in row.data and "bob" not in row.data
            assert row.server_id == SERVER
        found = await pool.find(store.puzzles, SERVER, checkers[0].key)
        assert found == checkers[0]
    finally:
        service.close()
        await store.close()


async def test_without_an_engine_to_rank_them_the_cube_puzzles_still_come(
    db_path: Path | str,
) -> None:
    store = await Store.open(db_path)
    engine = Ranking(UnavailableEngine())
    service = await analysed(store, engine, checkers=0)
    try:
        for _ in range(600):  # the ranking asked, and gave up
            if engine.ranked:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        made = await server_puzzles(store)
        assert engine.ranked and made and all(puzzle.kind != CHECKER for puzzle in made)
    finally:
        service.close()
        await store.close()


def test_the_rolls_ranked_are_each_position_once_widest_gaps_first() -> None:
    rolls = [d for d in DECISIONS if d.kind == CHECKER and len(d.candidates) >= 2]
    two = [replace(d, candidates=d.candidates) for d in two_ply() if worth_ranking(d, PLIES)]
    assert rolls_to_rank(rolls, PLIES) == []  # none of them two plays 0.05 apart
    assert rolls_to_rank(two + two, PLIES) == two
    assert rolls_to_rank(two, 1) == []
