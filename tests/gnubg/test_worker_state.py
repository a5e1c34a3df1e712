"""One long-lived play worker answers every request exactly as a fresh worker does: no state
(the current match, evaluation settings, move filters, the Jacoby and beaver rules, gnubg's
cache) leaks from one request into another.

The mix (:mod:`tests.gnubg.request_mix`): bot turns at every level (noise included, some in one
request with the roll that follows), moves, hints, ``!eval``, ``rate_play``, cube advice,
resignations, match-winning chances and analyses, over money games with and without Jacoby and
beavers and matches of 1 to 7 points. The fresh answer comes from a child forked, for each
request, from a worker that has only started.
CI serves a sample; ``GNUBG_WORKER_REQUESTS=2000`` serves 2,000.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.gnubg import worker
from bot.gnubg.api import Level, Query
from bot.gnubg.pool import WorkerPool
from bot.rules.matchid import MatchIdFields, encode_match_id
from bot.rules.position import Position
from tests.gnubg.request_mix import Request, load_gnubg, outcome, pristine, request_mix

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(not hasattr(os, "fork"), reason="the fresh worker is forked"),
]

REQUESTS = int(os.environ.get("GNUBG_WORKER_REQUESTS", "40"))


@pytest.fixture(scope="module")
def fresh() -> Iterator[ProcessPoolExecutor]:
    """Where :func:`pristine` runs: a process that has only loaded gnubg."""
    executor = ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=load_gnubg
    )
    yield executor
    executor.shutdown(cancel_futures=True)


@pytest.mark.slow
@pytest.mark.timeout(max(180, REQUESTS))
async def test_one_worker_answers_every_request_as_a_fresh_worker(
    fresh: ProcessPoolExecutor,
) -> None:
    mix = request_mix(seed=int(os.environ.get("GNUBG_WORKER_SEED", "29")), count=REQUESTS)
    loop = asyncio.get_running_loop()
    long_lived = WorkerPool(1, name="long-lived")
    differences = []
    try:
        for index, request in enumerate(mix):
            expected = loop.run_in_executor(fresh, pristine, request.function, *request.args)
            got = await long_lived.call(outcome, request.function, *request.args, timeout=300)
            answer = await expected
            if got != answer:
                differences.append(f"#{index} {request}:\n  long-lived {got}\n  fresh {answer}")
    finally:
        await long_lived.close()
    assert long_lived.restarts == 0
    assert not differences, f"{len(differences)} of {len(mix)}:\n" + "\n".join(differences[:5])


def _opening_62(length: int) -> Query:
    fields = MatchIdFields(dice=(6, 2), length=length)
    return Query(f"{Position.initial().position_id()}:{encode_match_id(fields)}")


# (what the worker served first, then the request whose answer it changed), as the mix found
LEAKS = {
    # gnubg's cache keys of a money game (no score in them) and of a 1-point match are the same:
    # the opening 6-2 of a 1-point match read the money game's cubeful equities as its own
    "a money game, then a 1-point match": (
        Request(worker.hint_plays, (_opening_62(0), 5, 2)),
        Request(worker.hint_plays, (_opening_62(1), 5, 2)),
    ),
    # evaluations made inside a 2-ply search, read back by a 1-ply cube hint elsewhere (the
    # worker's `set cache` of the same size, meant to empty the cache, left it as it was)
    "a 2-ply hint, then a 1-ply cube hint": (
        Request(worker.hint_plays, (Query("kk/wATDgc/ABMA:MAEPAAAAAAAA", jacoby=True), 5, 2)),
        Request(
            worker.cube_advice,
            (Query("4OvgASLCJ/gAWA:cAkAAAAAAAAA", jacoby=True), Level("1-ply", 1, 0.0, prune=True)),
        ),
    ),
}


@pytest.mark.parametrize("name", LEAKS)
async def test_a_request_is_answered_as_if_it_were_the_first(
    fresh: ProcessPoolExecutor, name: str
) -> None:
    before, request = LEAKS[name]
    pool = WorkerPool(1, name="leak")
    try:
        await pool.call(outcome, before.function, *before.args, timeout=60)
        got = await pool.call(outcome, request.function, *request.args, timeout=60)
    finally:
        await pool.close()
    loop = asyncio.get_running_loop()
    expected = await loop.run_in_executor(fresh, pristine, request.function, *request.args)
    assert got == expected
    assert got[0] == "answer"
