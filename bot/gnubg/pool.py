"""gnubg worker processes: each its own one-process pool, so a hung one can be killed by pid.

gnubg crashes when called from threads and prints to the C stdout, so it runs only in spawned
processes whose initializer imports it (:func:`bot.gnubg.worker.initialise`). A worker serves
one request at a time. A request with an affinity (the engine gives a match's id) always goes to
the same worker, ``affinity % size``, and waits for it while it is busy: gnubg's cache there
already holds the match's positions, which makes the bot's next search cheaper than a cold
one. Other requests take any idle worker. Waiting requests are served first come, first served.
A crash (``BrokenProcessPool``) or a timeout kills the worker, starts a fresh one in its place
(its slot: the same affinities go to it) and raises :class:`~bot.gnubg.api.EngineFailure`; the
next request finds a working worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections import deque
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
        self._workers: list[Worker] = []  # by slot; made at the first request
        self._busy: list[bool] = []
        # Requests waiting for a worker: the slot each wants (None: any), in arrival order.
        self._waiting: deque[tuple[int | None, asyncio.Future[int]]] = deque()
        self._closed = False
        self.restarts = 0

    def _new_worker(self, slot: int) -> Worker:
        return Worker(f"{self.name}-{slot}", self._initializer)

    def _made(self) -> None:
        if not self._workers:
            self._workers = [self._new_worker(slot) for slot in range(self.size)]
            self._busy = [False] * self.size

    async def _take(self, wanted: int | None) -> int:
        """The slot of a worker for one request: ``wanted``'s, or any idle one when None."""
        self._made()
        if wanted is None:
            idle = next((slot for slot, busy in enumerate(self._busy) if not busy), None)
        else:
            idle = None if self._busy[wanted] else wanted
        if idle is not None:  # a waiting request would have been given it already
            self._busy[idle] = True
            return idle
        given: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        entry = (wanted, given)
        self._waiting.append(entry)
        try:
            return await given
        except asyncio.CancelledError:
            if given.done() and not given.cancelled() and given.exception() is None:
                self._give_back(given.result())  # handed over just as its caller gave up
            elif entry in self._waiting:
                self._waiting.remove(entry)
            raise

    def _give_back(self, slot: int) -> None:
        """The request in ``slot`` is done: the first waiting request that can use it has it."""
        for entry in self._waiting:
            wanted, given = entry
            if not given.done() and wanted in (None, slot):
                self._waiting.remove(entry)
                given.set_result(slot)
                return
        self._busy[slot] = False

    async def start(self) -> None:
        """Start every worker (gnubg loads its nets: ~0.2 s each) so no player waits for it."""
        if self._closed:
            raise EngineFailure(CLOSED)
        slots = [await self._take(slot) for slot in range(self.size)]
        try:
            await asyncio.gather(*(self._workers[slot].warm() for slot in slots))
        except BrokenProcessPool:
            for slot in slots:
                self._workers[slot].kill()
                self._replace(slot)
            raise EngineFailure(CRASHED) from None
        finally:
            for slot in slots:
                self._give_back(slot)

    def pids(self) -> list[int]:
        """The running workers' process ids (for RSS figures and tests)."""
        return [pid for worker in self._workers if (pid := worker.pid()) is not None]

    def calls(self) -> list[int]:
        """The requests each slot's worker has served since it started (for tests)."""
        return [worker.calls for worker in self._workers]

    def _replace(self, slot: int) -> None:
        fresh = self._new_worker(slot)
        self._workers[slot] = fresh
        self.restarts += 1
        if not self._closed:
            fresh.executor.submit(os.getpid)  # spawns it now, not when the next player asks

    async def call(
        self, function: Callable[..., T], *args: Any, timeout: float, affinity: int | None = None
    ) -> T:
        """``function(*args)`` in a worker, the one of ``affinity`` if given, else an idle
        one; its own exceptions come back as they are."""
        if self._closed:
            raise EngineFailure(CLOSED)
        slot = await self._take(None if affinity is None else affinity % self.size)
        worker = self._workers[slot]
        try:
            worker.calls += 1
            future = worker.executor.submit(function, *args)
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except BrokenProcessPool:
            if self._closed:
                raise EngineFailure(CLOSED) from None
            log.error("%s crashed running %s", worker.name, function.__name__)
            worker.kill()
            self._replace(slot)
            raise EngineFailure(CRASHED) from None
        except TimeoutError:
            log.error(
                "%s took over %gs running %s: killed", worker.name, timeout, function.__name__
            )
            worker.kill()
            self._replace(slot)
            raise EngineFailure(TIMED_OUT.format(seconds=seconds_text(timeout))) from None
        except asyncio.CancelledError:
            # The caller gave up: the worker may still be busy with the request, so it can't
            # serve the next one until it has finished. Replace it rather than wait.
            worker.kill()
            self._replace(slot)
            raise
        finally:
            if self._closed:
                self._workers[slot].kill()
            else:
                self._give_back(slot)

    async def close(self) -> None:
        """Stop every worker; a request in progress or waiting ends with :class:`EngineFailure`."""
        self._closed = True
        while self._waiting:
            _, given = self._waiting.popleft()
            if not given.done():
                given.set_exception(EngineFailure(CLOSED))
        for worker in self._workers:
            worker.kill()
        # Let each executor's manager thread see its process gone and end now: one still
        # running at interpreter exit can be woken through a pipe it already closed (an
        # "OSError: Bad file descriptor" traceback after a clean stop).
        for worker in self._workers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.to_thread(worker.executor.shutdown, wait=True), 10)
