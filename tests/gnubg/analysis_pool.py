"""A minimal :class:`bot.gnubg.api.WorkerPool` for the analysis tests: one spawned worker process
(gnubg crashes in threads), replaced when it crashes or hangs, that records the functions called
and can be restarted on purpose (the real one is tested in test_pool.py)."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.gnubg.api import TURN_PRIORITY, EngineFailure
from bot.i18n.gnubg import CRASHED

T = TypeVar("T")


def _start_worker() -> None:
    from bot.gnubg.session import initialise

    initialise()


class SpawnPool:
    def __init__(self) -> None:
        self.calls: list[str] = []  # the functions called, in order
        self._executor = self._new_executor()

    @staticmethod
    def _new_executor() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
        )

    def restart(self) -> None:
        """Kill the worker and start another (as after a crash)."""
        for process in list(getattr(self._executor, "_processes", {}).values()):
            process.kill()
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._executor = self._new_executor()

    async def call(
        self,
        function: Callable[..., T],
        *args: Any,
        timeout: float,
        affinity: int | None = None,
        priority: int = TURN_PRIORITY,
    ) -> T:
        self.calls.append(function.__name__)
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self._executor, function, *args), timeout
            )
        except (BrokenProcessPool, TimeoutError) as error:
            self.restart()
            raise EngineFailure(CRASHED.said(), retry=True) from error

    async def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
