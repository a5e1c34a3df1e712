"""A worker process behind its pipe (bot.gnubg.process) read by whichever event loop asks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVarTuple

import pytest

from bot.gnubg.api import EngineFailure
from bot.gnubg.pool import WorkerPool
from tests.gnubg import misbehave

if TYPE_CHECKING:
    from _typeshed import HasFileno

Ts = TypeVarTuple("Ts")


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


class NoReaders(asyncio.SelectorEventLoop):
    """An event loop that can't watch a pipe, as Windows' proactor loop."""

    def add_reader(
        self, fd: int | HasFileno, callback: Callable[[*Ts], object], *args: *Ts
    ) -> None:
        raise NotImplementedError


def test_where_the_loop_cant_watch_the_pipe_a_thread_reads_it() -> None:
    async def serve() -> tuple[int, int]:
        pool = WorkerPool(1, name="proactor")
        try:
            first = await pool.call(misbehave.process_id, timeout=10)
            with pytest.raises(EngineFailure, match="crashed while thinking"):
                await pool.call(misbehave.exit_at_once, timeout=10)
            with pytest.raises(ValueError, match="refused"):
                await pool.call(misbehave.refuse, "it", timeout=10)
            return first, await pool.call(misbehave.process_id, timeout=10)
        finally:
            await pool.close()

    with asyncio.Runner(loop_factory=NoReaders) as runner:
        first, after = runner.run(serve())
    assert first != after  # the crashed worker was replaced, and its answers still come
