"""WorkerPool: crashes and hangs are contained, the event loop keeps running."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.gnubg.api import EngineFailure
from bot.gnubg.pool import WorkerPool
from bot.i18n.gnubg import CLOSED
from tests.gnubg import misbehave

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    pool = WorkerPool(1, name="test")
    await pool.start()
    yield pool
    await pool.close()


async def test_a_call_runs_in_the_worker_process(pool: WorkerPool) -> None:
    pid = await pool.call(misbehave.process_id, timeout=10)
    assert pid in pool.pids()
    assert pid != os.getpid()


async def test_the_workers_own_errors_come_back_as_they_are(pool: WorkerPool) -> None:
    with pytest.raises(ValueError, match="refused 'x'"):
        await pool.call(misbehave.refuse, "x", timeout=10)
    assert await pool.call(misbehave.sleep, 0, timeout=10) == 0  # and the worker is fine


@pytest.mark.parametrize("crash", [misbehave.exit_at_once, misbehave.segfault])
async def test_a_crash_replaces_the_worker(pool: WorkerPool, crash: object) -> None:
    before = await pool.call(misbehave.process_id, timeout=10)
    restarts = pool.restarts
    with pytest.raises(EngineFailure, match="crashed while thinking"):
        await pool.call(crash, timeout=10)  # type: ignore[arg-type]
    assert pool.restarts == restarts + 1
    after = await pool.call(misbehave.process_id, timeout=10)
    assert after != before


async def test_a_hang_times_out_and_the_worker_is_killed(pool: WorkerPool) -> None:
    before = await pool.call(misbehave.process_id, timeout=10)
    with pytest.raises(EngineFailure, match=r"more than 0\.5 s and was stopped"):
        await pool.call(misbehave.sleep, 30, timeout=0.5)
    after = await pool.call(misbehave.process_id, timeout=10)
    assert after != before
    with pytest.raises(ProcessLookupError):
        os.kill(before, 0)  # the hung process is gone


async def test_the_event_loop_keeps_running_during_a_call(pool: WorkerPool) -> None:
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    started = time.monotonic()
    await pool.call(misbehave.sleep, 0.5, timeout=10)
    stop.set()
    await task
    assert time.monotonic() - started >= 0.5
    assert ticks >= 10  # a blocked loop would tick once or twice


async def test_calls_queue_for_a_busy_worker(pool: WorkerPool) -> None:
    results = await asyncio.gather(
        *(pool.call(misbehave.sleep, 0.05 * n, timeout=10) for n in range(3))
    )
    assert results == [0, 0.05, 0.1]


async def test_a_request_and_answer_larger_than_the_pipe_cross_whole(pool: WorkerPool) -> None:
    text = "".join(chr(ord("a") + n % 26) for n in range(300_000))  # the pipe holds 64 KiB
    assert await pool.call(misbehave.reversed_text, text, timeout=10) == text[::-1]
    assert await pool.call(misbehave.reversed_text, "ab", timeout=10) == "ba"  # in step still


async def test_an_answer_that_cant_cross_is_an_error_and_the_worker_goes_on(
    pool: WorkerPool,
) -> None:
    before = await pool.call(misbehave.process_id, timeout=10)
    with pytest.raises(RuntimeError, match="unpicklable reply"):
        await pool.call(misbehave.unpicklable, timeout=10)
    assert await pool.call(misbehave.process_id, timeout=10) == before


async def test_a_closed_pool_refuses_politely() -> None:
    pool = WorkerPool(1, name="closing")
    await pool.call(misbehave.process_id, timeout=10)
    await pool.close()
    with pytest.raises(EngineFailure, match=CLOSED.en):
        await pool.call(misbehave.process_id, timeout=10)


async def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="at least 1 worker, not 0"):
        WorkerPool(0)


@pytest.mark.slow
async def test_workers_die_with_a_killed_parent() -> None:
    script = (
        "import asyncio, sys\n"
        "from bot.gnubg.pool import WorkerPool\n"
        "async def main():\n"
        "    pool = WorkerPool(2)\n"
        "    await pool.start()\n"
        "    print(*pool.pids(), flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    parent = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, stdout=asyncio.subprocess.PIPE
    )
    assert parent.stdout is not None
    pids = [int(pid) for pid in (await parent.stdout.readline()).split()]
    assert len(pids) == 2
    parent.kill()
    await parent.wait()
    for pid in pids:
        for _ in range(100):  # the kernel's SIGKILL is quick, but not instant
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.05)
        else:
            os.kill(pid, 9)
            raise AssertionError(f"worker {pid} outlived its parent")


@pytest_asyncio.fixture(loop_scope="module")
async def pair() -> AsyncIterator[WorkerPool]:
    pool = WorkerPool(2, name="pair")
    await pool.start()
    yield pool
    await pool.close()


async def test_calls_with_one_affinity_run_in_one_worker(pair: WorkerPool) -> None:
    first = {await pair.call(misbehave.process_id, timeout=10, affinity=7) for _ in range(4)}
    second = {await pair.call(misbehave.process_id, timeout=10, affinity=8) for _ in range(4)}
    assert len(first) == len(second) == 1 and first != second  # 7 % 2 and 8 % 2: both workers
    assert first | second == set(pair.pids())
    assert {await pair.call(misbehave.process_id, timeout=10, affinity=9)} == first


async def test_a_call_waits_for_its_workers_turn_and_others_take_an_idle_one(
    pair: WorkerPool,
) -> None:
    busy = asyncio.create_task(pair.call(misbehave.sleep, 0.5, timeout=10, affinity=0))
    await asyncio.sleep(0.05)  # it has its worker
    started = time.monotonic()
    anywhere = await pair.call(misbehave.process_id, timeout=10)
    assert time.monotonic() - started < 0.4  # the idle worker answered at once
    same = await pair.call(misbehave.process_id, timeout=10, affinity=2)
    assert time.monotonic() - started >= 0.4  # it waited for the busy one: 2 % 2 == 0 % 2
    await busy
    assert anywhere != same and {anywhere, same} == set(pair.pids())


async def test_an_affinitys_worker_replaced_after_a_crash_keeps_serving_it(
    pair: WorkerPool,
) -> None:
    before = await pair.call(misbehave.process_id, timeout=10, affinity=1)
    other = await pair.call(misbehave.process_id, timeout=10, affinity=0)
    with pytest.raises(EngineFailure, match="crashed while thinking"):
        await pair.call(misbehave.exit_at_once, timeout=10, affinity=1)
    after = await pair.call(misbehave.process_id, timeout=10, affinity=1)
    assert after != before and after in pair.pids()
    assert await pair.call(misbehave.process_id, timeout=10, affinity=0) == other


async def test_a_waiting_call_given_up_leaves_the_worker_to_the_next(pair: WorkerPool) -> None:
    busy = asyncio.create_task(pair.call(misbehave.sleep, 0.3, timeout=10, affinity=0))
    await asyncio.sleep(0.05)
    waiting = asyncio.create_task(pair.call(misbehave.process_id, timeout=10, affinity=0))
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await busy
    pid = await asyncio.wait_for(pair.call(misbehave.process_id, timeout=10, affinity=0), 5)
    assert pid in pair.pids()


async def test_calls_waiting_when_the_pool_closes_end_politely() -> None:
    pool = WorkerPool(1, name="closing-busy")
    await pool.start()
    busy = asyncio.create_task(pool.call(misbehave.sleep, 5, timeout=10))
    await asyncio.sleep(0.1)
    waiting = asyncio.create_task(pool.call(misbehave.process_id, timeout=10, affinity=3))
    await asyncio.sleep(0.05)
    await pool.close()
    for call in (busy, waiting):
        with pytest.raises(EngineFailure, match=CLOSED.en):
            await asyncio.wait_for(call, 5)
