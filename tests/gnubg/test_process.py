"""A worker process behind its pipe (bot.gnubg.process) read by whichever event loop asks."""

from __future__ import annotations

import asyncio

from bot.gnubg.pool import WorkerPool
from tests.gnubg import misbehave


def test_a_pool_started_in_one_event_loop_serves_the_next() -> None:
    """Tests start a module's pool in a fixture's loop and call it from another."""
    pool = WorkerPool(1, name="loops")
    asyncio.run(pool.start())
    started = pool.pids()

    async def ask() -> int:
        return await asyncio.wait_for(pool.call(misbehave.process_id, timeout=10), 10)

    try:
        assert asyncio.run(ask()) == started[0]
        assert asyncio.run(ask()) == started[0]
    finally:
        asyncio.run(pool.close())
