"""WorkerPool with ``depth`` 2: a busy worker holds the request it serves next in its pipe and
starts it the moment it has answered, even while the event loop is busy; that request's
timeout counts from its start, and a worker that dies before reaching it leaves it to be asked
again. Real worker processes (the functions of :mod:`tests.gnubg.misbehave`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.gnubg.api import EngineFailure
from bot.gnubg.pool import WorkerPool
from tests.gnubg import misbehave

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module")
async def piped() -> AsyncIterator[WorkerPool]:
    pool = WorkerPool(1, name="piped", depth=2)
    await pool.start()
    yield pool
    await pool.close()


async def until(condition: object, seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "never got there"
        await asyncio.sleep(0.005)


async def test_the_next_request_starts_while_the_event_loop_is_busy(piped: WorkerPool) -> None:
    first = asyncio.create_task(piped.call(misbehave.sleep, 0.2, timeout=10))
    second = asyncio.create_task(piped.call(misbehave.clock, timeout=10))
    await until(lambda: piped.held() == [2])  # the second waits in the pipe
    answered = time.monotonic() + 0.2
    time.sleep(0.6)  # the event loop is busy long after the first answer
    assert await first == 0.2
    started = await second
    assert started < answered + 0.3  # the worker didn't wait for the loop (it'd be +0.4)


async def test_a_piped_requests_timeout_counts_from_its_start(piped: WorkerPool) -> None:
    first = asyncio.create_task(piped.call(misbehave.sleep, 0.5, timeout=10))
    second = asyncio.create_task(piped.call(misbehave.sleep, 0.1, timeout=0.4))
    assert list(await asyncio.gather(first, second)) == [0.5, 0.1]  # 0.6 s after it was asked


async def test_a_request_in_a_crashed_workers_pipe_is_asked_again(piped: WorkerPool) -> None:
    before = await piped.call(misbehave.process_id, timeout=10)
    crash = asyncio.create_task(piped.call(misbehave.exit_after, 0.2, timeout=10))
    after = asyncio.create_task(piped.call(misbehave.process_id, timeout=10))
    await until(lambda: piped.held() == [2])
    with pytest.raises(EngineFailure, match="crashed while thinking"):
        await crash
    assert await after not in (before, None)  # the fresh worker's answer, not a failure
    assert piped.pids() == [await after]


async def test_a_request_in_a_hung_workers_pipe_is_asked_again(piped: WorkerPool) -> None:
    before = await piped.call(misbehave.process_id, timeout=10)
    hang = asyncio.create_task(piped.call(misbehave.sleep, 30, timeout=0.3))
    after = asyncio.create_task(piped.call(misbehave.process_id, timeout=10))
    with pytest.raises(EngineFailure, match=r"more than 0\.3 s and was stopped"):
        await hang
    assert await after != before
    assert piped.idle == 1 and piped.waiting == 0


async def test_a_piped_request_given_up_leaves_the_worker_serving(piped: WorkerPool) -> None:
    before = await piped.call(misbehave.process_id, timeout=10)
    busy = asyncio.create_task(piped.call(misbehave.sleep, 0.3, timeout=10))
    piped_call = asyncio.create_task(piped.call(misbehave.sleep, 0.2, timeout=10))
    await until(lambda: piped.held() == [2])
    piped_call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await piped_call
    assert await busy == 0.3  # not killed with the request given up
    assert piped.idle == 0  # the worker still serves the request given up...
    await until(lambda: piped.idle == 1)  # ...and is free once it has answered
    assert await piped.call(misbehave.process_id, timeout=10) == before


async def test_a_running_request_given_up_replaces_the_worker_and_asks_the_next_again(
    piped: WorkerPool,
) -> None:
    before = await piped.call(misbehave.process_id, timeout=10)
    running = asyncio.create_task(piped.call(misbehave.sleep, 5, timeout=10))
    after = asyncio.create_task(piped.call(misbehave.process_id, timeout=10))
    await until(lambda: piped.held() == [2])
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert await asyncio.wait_for(after, 5) != before
    assert piped.pids() == [await after]


async def test_a_worker_holds_at_least_one_request() -> None:
    with pytest.raises(ValueError, match="at least 1 request at a time, not 0"):
        WorkerPool(1, depth=0)
