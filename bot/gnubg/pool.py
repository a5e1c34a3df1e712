"""gnubg worker processes: each its own one-process pool, so a hung one can be killed by pid.

gnubg crashes when called from threads and prints to the C stdout, so it runs only in spawned
processes whose initializer imports it (:func:`bot.gnubg.worker.initialise`). A worker serves
one request at a time: idle workers wait in a queue, a request takes one and gives it back. A
crash (``BrokenProcessPool``) or a timeout kills the worker, starts a fresh one in its place
and raises :class:`~bot.gnubg.api.EngineFailure`; the next request finds a working worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.gnubg.api import RETRY, EngineFailure
from bot.gnubg.worker import initialise

T = TypeVar("T")
log = logging.getLogger(__name__)

CRASHED = "GNU Backgammon crashed while thinking; it has been restarted." + RETRY
TIMED_OUT = (
    "GNU Backgammon took longer than {seconds} and was stopped; it has been restarted." + RETRY
)
CLOSED = "GNU Backgammon is shutting down: try again once the bot is back."


def seconds_text(seconds: float) -> str:
    """``1 second``, ``0.5 seconds``, ``10 seconds``."""
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


class Worker:
    """One gnubg process: a ``ProcessPoolExecutor`` of one spawned process."""

    def __init__(self, name: str, initializer: Callable[[], None]) -> None:
        self.name = name
        self._initializer = initializer
        self.executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=initializer,
        )
        self.calls = 0

    def pid(self) -> int | None:
        processes = getattr(self.executor, "_processes", None) or {}
        return next(iter(processes), None)

    async def warm(self) -> None:
        """Start the process now (the pool starts it lazily at the first call)."""
        await asyncio.wrap_future(self.executor.submit(os.getpid))

    def kill(self) -> None:
        """Stop the process at once (a hung gnubg can't be cancelled), then the executor."""
        pid = self.pid()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        self.executor.shutdown(wait=False, cancel_futures=True)


class WorkerPool:
    """``size`` gnubg workers (satisfies :class:`bot.gnubg.api.WorkerPool`)."""

    def __init__(
        self, size: int, *, name: str = "gnubg", initializer: Callable[[], None] = initialise
    ) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 worker, not {size}")
        self.size = size
        self.name = name
        self._initializer = initializer
        self._workers: list[Worker] = []
        self._idle: asyncio.Queue[Worker] | None = None
        self._closed = False
        self.restarts = 0

    def _new_worker(self, index: int) -> Worker:
        return Worker(f"{self.name}-{index}", self._initializer)

    def _queue(self) -> asyncio.Queue[Worker]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            self._workers = [self._new_worker(index) for index in range(self.size)]
            for worker in self._workers:
                self._idle.put_nowait(worker)
        return self._idle

    async def start(self) -> None:
        """Start every worker (gnubg loads its nets: ~0.2 s each) so no player waits for it."""
        if self._closed:
            raise EngineFailure(CLOSED)
        idle = self._queue()
        taken = [await idle.get() for _ in range(self.size)]
        try:
            await asyncio.gather(*(worker.warm() for worker in taken))
        except BrokenProcessPool:
            for index, worker in enumerate(taken):
                worker.kill()
                taken[index] = self._replace(worker)
            raise EngineFailure(CRASHED) from None
        finally:
            for worker in taken:
                idle.put_nowait(worker)

    def pids(self) -> list[int]:
        """The running workers' process ids (for RSS figures and tests)."""
        return [pid for worker in self._workers if (pid := worker.pid()) is not None]

    def _replace(self, broken: Worker) -> Worker:
        index = self._workers.index(broken)
        fresh = self._new_worker(index)
        self._workers[index] = fresh
        self.restarts += 1
        if not self._closed:
            fresh.executor.submit(os.getpid)  # spawns it now, not when the next player asks
        return fresh

    async def call(self, function: Callable[..., T], *args: Any, timeout: float) -> T:
        """``function(*args)`` in an idle worker; its own exceptions come back as they are."""
        if self._closed:
            raise EngineFailure(CLOSED)
        idle = self._queue()
        worker = await idle.get()
        keep = worker
        try:
            worker.calls += 1
            future = worker.executor.submit(function, *args)
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except BrokenProcessPool:
            if self._closed:
                raise EngineFailure(CLOSED) from None
            log.error("%s crashed running %s", worker.name, function.__name__)
            worker.kill()
            keep = self._replace(worker)
            raise EngineFailure(CRASHED) from None
        except TimeoutError:
            log.error(
                "%s took over %gs running %s: killed", worker.name, timeout, function.__name__
            )
            worker.kill()
            keep = self._replace(worker)
            raise EngineFailure(TIMED_OUT.format(seconds=seconds_text(timeout))) from None
        except asyncio.CancelledError:
            # The caller gave up: the worker may still be busy with the request, so it can't
            # serve the next one until it has finished. Replace it rather than wait.
            worker.kill()
            keep = self._replace(worker)
            raise
        finally:
            if self._closed:
                keep.kill()
            else:
                idle.put_nowait(keep)

    async def close(self) -> None:
        """Stop every worker; a request in progress ends with :class:`EngineFailure`."""
        self._closed = True
        for worker in self._workers:
            worker.kill()
        # Let each executor's manager thread see its process gone and end now: one still
        # running at interpreter exit can be woken through a pipe it already closed (an
        # "OSError: Bad file descriptor" traceback after a clean stop).
        for worker in self._workers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.to_thread(worker.executor.shutdown, wait=True), 10)
