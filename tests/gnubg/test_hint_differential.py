"""``!hint`` against gnubg's own ``hint``: the same first play, always.

The hint goes the project's way (the engine's play worker, the coach's count and plies); gnubg's
own answer comes from a gnubg that has done nothing else (:mod:`tests.gnubg.gnubgs_own`). The
positions are seeded random self-play, each in one of :data:`EVERY_CONTEXT` (money with and
without Jacoby and beavers, owned cubes, match scores, Crawford, post-Crawford, 1-point, DMP).
CI checks a sample; ``GNUBG_HINT_POSITIONS=500`` checks 500.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
import pytest_asyncio

from bot.gnubg.api import Query
from bot.gnubg.engine import GnubgEngine
from bot.gnubg.samples import EVERY_CONTEXT, Case, Context, cases
from bot.gnubg.session import Situation
from bot.service.gnubg.coach import COACH_PLIES, HINT_PLAYS
from bot.settings import Settings
from tests.gnubg.gnubgs_own import hint_first_play, oracle

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

POSITIONS = int(os.environ.get("GNUBG_HINT_POSITIONS", "10"))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine() -> AsyncIterator[GnubgEngine]:
    """One play worker; a hint of a busy position can take seconds of a loaded machine."""
    engine = GnubgEngine(Settings(engine_workers=1, engine_timeout_seconds=120.0))
    await engine.play_pool.start()
    yield engine
    await engine.close()


def hint_cases(count: int) -> list[Case]:
    """``count`` rolled positions with a choice of plays, every context in turn."""
    chosen: list[Case] = []
    for case in cases(seed=29, count=count * 3):
        assert case.dice is not None
        if len(case.position.legal_plays(*case.dice)) > 1:
            context = EVERY_CONTEXT[len(chosen) % len(EVERY_CONTEXT)]
            chosen.append(replace(case, context=context))
    return chosen[:count]


@pytest.mark.timeout(max(120, POSITIONS * 5))
async def test_the_hints_first_play_is_gnubgs_own(engine: GnubgEngine) -> None:
    chosen = hint_cases(POSITIONS)
    assert len(chosen) == POSITIONS
    loop = asyncio.get_running_loop()
    with oracle() as own:
        expected = [
            loop.run_in_executor(own, hint_first_play, case, COACH_PLIES) for case in chosen
        ]
        contexts = set()
        for case, gnubgs in zip(chosen, expected, strict=True):
            assert case.dice is not None
            options = await engine.hint_plays(case.query(), count=HINT_PLAYS, plies=COACH_PLIES)
            play, equity, plies = await gnubgs
            gnubgs_play = case.position.parse_play(play, case.dice)
            assert case.position.parse_play(options[0].play, case.dice) == gnubgs_play, (
                case.query(),
                options,
                play,
            )
            if plies == COACH_PLIES:  # its filters kept more than one play: its own figure
                assert options[0].equity == equity
            assert options[0].difference == 0
            contexts.add(case.context)
    assert contexts == set(EVERY_CONTEXT[:POSITIONS])


ISSUE_POSITIONS = (  # (gnubg ID, Jacoby, gnubg's play): the top five at 0-ply missed it
    ("jHeDAQM418EAMQ:MIE2AAAAAAAE", False, "21/16 8/3(2) 7/2"),
    ("4HPkASRm2xgDCA:cAkKAAAAAAAA", True, "22/20 10/6"),
)


@pytest.mark.parametrize(("gnubg_id", "jacoby", "best"), ISSUE_POSITIONS)
async def test_the_hint_finds_the_play_gnubgs_filters_keep(
    engine: GnubgEngine, gnubg_id: str, jacoby: bool, best: str
) -> None:
    situation = Situation.of(Query(gnubg_id, jacoby=jacoby))
    fields = situation.fields
    context = Context(length=fields.length, score=fields.score, jacoby=jacoby)
    case = Case(situation.position, fields.dice, fields.on_roll, context)
    with oracle() as own:
        assert own.submit(hint_first_play, case, COACH_PLIES).result()[0] == best
    options = await engine.hint_plays(case.query(), count=HINT_PLAYS, plies=COACH_PLIES)
    assert options[0].play == best
    assert [o.plies for o in options] == [COACH_PLIES] * HINT_PLAYS
