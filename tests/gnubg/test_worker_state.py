"""One long-lived play worker answers every request exactly as a fresh worker does: no state
(the current match, evaluation settings, move filters, the Jacoby and beaver rules, gnubg's
cache) leaks from one request into another.

The mix (:mod:`tests.gnubg.request_mix`): bot turns at every level (noise included), moves,
hints, ``!eval``, ``rate_play``, cube advice, resignations, match-winning chances and analyses,
over money games with and without Jacoby and beavers and matches of 1 to 7 points. The fresh
answer comes from a child forked, for each request, from a worker that has only started.
CI serves a sample; ``GNUBG_WORKER_REQUESTS=2000`` serves 2,000.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.gnubg.pool import WorkerPool
from tests.gnubg.request_mix import load_gnubg, outcome, pristine, request_mix

pytestmark = [
    pytest.mark.slow,
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(not hasattr(os, "fork"), reason="the fresh worker is forked"),
]

REQUESTS = int(os.environ.get("GNUBG_WORKER_REQUESTS", "40"))


@pytest.mark.timeout(max(180, REQUESTS))
async def test_one_worker_answers_every_request_as_a_fresh_worker() -> None:
    mix = request_mix(seed=int(os.environ.get("GNUBG_WORKER_SEED", "29")), count=REQUESTS)
    loop = asyncio.get_running_loop()
    long_lived = WorkerPool(1, name="long-lived")
    differences = []
    fresh = ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=load_gnubg,
    )
    try:
        for index, request in enumerate(mix):
            expected = loop.run_in_executor(fresh, pristine, request.function, *request.args)
            got = await long_lived.call(outcome, request.function, *request.args, timeout=300)
            answer = await expected
            if got != answer:
                differences.append(f"#{index} {request}:\n  long-lived {got}\n  fresh {answer}")
    finally:
        fresh.shutdown(cancel_futures=True)
        await long_lived.close()
    assert long_lived.restarts == 0
    assert not differences, f"{len(differences)} of {len(mix)}:\n" + "\n".join(differences[:5])
