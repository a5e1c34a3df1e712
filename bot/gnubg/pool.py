"""gnubg worker processes: each a process of its own behind a pipe (:mod:`bot.gnubg.process`),
so a hung one can be killed by pid.

gnubg crashes when called from threads and prints to the C stdout, so it runs only in spawned
processes whose initializer imports it (:func:`bot.gnubg.session.initialise`). A worker serves
one request at a time; the others wait, and a worker that comes free takes the next of them:

* **Priority first.** A request has a priority (0 is the highest: :data:`TURN_PRIORITY` for the
  bot's turns, :data:`ADVICE_PRIORITY` for hints and evaluations); within one, first come, first
  served. A request overtaken by :attr:`WorkerPool.overtakes` later ones of a higher priority is
  served as the highest from then on: a stream of bot turns can't keep a hint waiting for ever.
* **Affinity.** A request with an affinity (the engine gives a match's id) goes to the worker
  ``affinity % size``: one match's requests in one worker, matches spread over the workers (each
  request starts from an empty gnubg cache: see :func:`bot.gnubg.session.request`). A worker
  that comes free serves its own requests (and those that name none) first. When it has none,
  it takes a request waiting for another, busy worker if at least :attr:`WorkerPool.patience`
  others wait there ahead of it: the first in line for its worker waits for it (one request's
  time at most), the others don't leave a worker idle.
* **Only on idle workers, never waiting** (:meth:`WorkerPool.call_if_idle`): a request that
  helps another (the bot's play searched beside its cube decision) starts at once in a worker
  idle at that moment, while another idle one is left for the request it helps, or not at
  all. It never waits: queued, it would start after the request it helps had done its work.
* **The next request in the worker's pipe** (``depth`` 2): while no worker is idle, a busy
  worker is handed the request it serves next (by the order above), which waits in its pipe.
  The worker starts it the moment it has answered, not after the event loop has read the
  answer and sent the next one (a wait for a core when the machine is busy: p90 3.9 ms a
  request at 16 channels, against a 30 ms search). Its timeout counts from that start.

A crash (``BrokenProcessPool``) or a timeout kills the worker, starts a fresh one in its place
(its slot: the same affinities go to it) and raises :class:`~bot.gnubg.api.EngineFailure`; the
next request finds a working worker. A request still waiting in the dead worker's pipe never
ran: it is asked again, of the workers there are now.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import os
import signal
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.gnubg.api import TURN_PRIORITY, EngineFailure
from bot.gnubg.process import PipeProcess
from bot.gnubg.session import idle, initialise
from bot.i18n import gnubg as say

T = TypeVar("T")
log = logging.getLogger(__name__)

# A request waits for its own busy worker only while fewer than this many wait there ahead of
# it; past that, a worker with nothing of its own takes it (its cache is cold, but it is free).
AFFINITY_PATIENCE = 1
# Per worker: how many later requests of a higher priority may be served before a waiting one.
OVERTAKES_PER_WORKER = 8


ExecutorFactory = Callable[[Callable[[], None]], Executor]


def spawned_process(initializer: Callable[[], None]) -> Executor:
    """A worker's executor: one spawned process that runs ``initializer`` first, its requests
    and answers through a pipe the event loop reads (:mod:`bot.gnubg.process`), gnubg's cache
    emptied after each answer (:func:`bot.gnubg.session.idle`)."""
    return PipeProcess(initializer, idle)


class Worker:
    """One gnubg process (a :class:`PipeProcess`, or what a test's executor factory makes)
    and the requests sent to it that it has not answered yet, in its order."""

    def __init__(
        self,
        name: str,
        initializer: Callable[[], None],
        executor: ExecutorFactory,
    ) -> None:
        self.name = name
        self.executor = executor(initializer)
        self.calls = 0
        self.sent: collections.deque[asyncio.Future[Any]] = collections.deque()

    def send(self, function: Callable[..., T], args: tuple[Any, ...]) -> asyncio.Future[T]:
        """``function(*args)`` sent to the process: its answer, once it has served the requests
        sent before it."""
        self.calls += 1
        if isinstance(self.executor, PipeProcess):
            answer: asyncio.Future[T] = self.executor.request(function, *args)
        else:
            answer = asyncio.wrap_future(self.executor.submit(function, *args))
        self.sent.append(answer)
        answer.add_done_callback(self._answered)
        return answer

    def _answered(self, answer: asyncio.Future[Any]) -> None:
        self.sent.remove(answer)
        if not answer.cancelled():
            answer.exception()  # retrieved: a request given up still gets its answer here

    def pid(self) -> int | None:
        return self.executor.pid() if isinstance(self.executor, PipeProcess) else None

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


class _NeverStarted(Exception):
    """The worker died before it reached this request, waiting in its pipe: ask again."""


def _reached(ahead: tuple[asyncio.Future[Any], ...]) -> bool:
    """Whether the worker reached the request sent after ``ahead``: it answered each of them
    (an error of the request's own is an answer too) and did not die on one."""
    return all(
        done.done() and not done.cancelled() and not isinstance(done.exception(), BrokenProcessPool)
        for done in ahead
    )


@dataclass(eq=False)
class _Waiting:
    """A request waiting for a worker: ``given`` gets the slot it may use."""

    priority: int
    order: int  # arrival number
    wanted: int | None  # the slot of its affinity; None: any
    given: asyncio.Future[int]
    overtaken: int = 0  # later requests of a higher priority served before it


class WorkerPool:
    """``size`` gnubg workers (satisfies :class:`bot.gnubg.api.WorkerPool`). ``executor``
    makes each worker's executor from the initializer (tests give one that runs nothing)."""

    def __init__(
        self,
        size: int,
        *,
        name: str = "gnubg",
        initializer: Callable[[], None] = initialise,
        executor: ExecutorFactory = spawned_process,
        patience: int = AFFINITY_PATIENCE,
        overtakes: int | None = None,
        depth: int = 1,
    ) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 worker, not {size}")
        if depth < 1:
            raise ValueError(f"a worker holds at least 1 request at a time, not {depth}")
        self.size = size
        self.depth = depth
        self.name = name
        self.patience = patience
        self.overtakes = OVERTAKES_PER_WORKER * size if overtakes is None else overtakes
        self._initializer = initializer
        self._executor = executor
        self._workers: list[Worker] = []  # by slot; made at the first request
        self._held: list[int] = []  # by slot: requests handed to the worker, not yet done
        self._waiting: list[_Waiting] = []
        self._arrivals = itertools.count()
        self._closed = False
        self.restarts = 0

    def _new_worker(self, slot: int) -> Worker:
        return Worker(f"{self.name}-{slot}", self._initializer, self._executor)

    def _made(self) -> None:
        if not self._workers:
            self._workers = [self._new_worker(slot) for slot in range(self.size)]
            self._held = [0] * self.size

    @property
    def waiting(self) -> int:
        """Requests waiting for a worker now."""
        return len(self._waiting)

    @property
    def idle(self) -> int:
        """Workers serving no request now (all of them before the first request)."""
        return self._held.count(0) if self._workers else self.size

    async def _take(self, wanted: int | None, priority: int, order: int) -> int:
        """The slot of a worker for one request (arrival number ``order``), once the order
        above gives it one."""
        self._made()
        given: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        entry = _Waiting(priority, order, wanted, given)
        self._waiting.append(entry)
        self._dispatch()
        try:
            return await given
        except asyncio.CancelledError:
            if given.done() and not given.cancelled() and given.exception() is None:
                self._give_back(given.result())  # handed over just as its caller gave up
            elif entry in self._waiting:
                self._waiting.remove(entry)
            raise

    def _rank(self, entry: _Waiting) -> tuple[int, int]:
        overtaken = entry.overtaken >= self.overtakes
        return (0 if overtaken else entry.priority, entry.order)

    def _give_back(self, slot: int) -> None:
        """The request in ``slot`` is done: the worker serves the next waiting request."""
        self._held[slot] -= 1
        self._dispatch()

    def _dispatch(self) -> None:
        """Give every worker that may take a request now the one it should serve next, while
        there is one."""
        handed = True
        while handed and self._waiting:
            handed = False
            for slot in range(self.size):
                if not self._takes(slot):
                    continue
                entry = self._next_for(slot)
                if entry is not None:
                    self._hand(entry, slot)
                    handed = True

    def _takes(self, slot: int) -> bool:
        """Whether ``slot``'s worker may be handed a request now: it is idle, or it has room
        in its pipe while no worker is idle."""
        held = self._held[slot]
        return held == 0 or (held < self.depth and 0 not in self._held)

    def _next_for(self, slot: int) -> _Waiting | None:
        """The request idle ``slot`` serves next (None: none): the highest priority first, and
        within one its own requests (or those for any worker) before one that waits behind
        ``patience`` others for its own busy worker."""
        ranked = sorted((e for e in self._waiting if not e.given.done()), key=self._rank)
        own = next((entry for entry in ranked if entry.wanted in (None, slot)), None)
        ahead = [0] * self.size
        for entry in ranked:
            if own is not None and self._rank(entry)[0] >= self._rank(own)[0]:
                break
            wanted = entry.wanted
            assert wanted is not None and wanted != slot  # else it would be ``own``
            if self._takes(wanted):
                continue  # its own worker may take it too: it takes it
            if ahead[wanted] >= self.patience:
                return entry
            ahead[wanted] += 1
        return own

    def _hand(self, entry: _Waiting, slot: int) -> None:
        self._waiting.remove(entry)
        self._held[slot] += 1
        for other in self._waiting:
            if other.order < entry.order and other.priority > entry.priority:
                other.overtaken += 1
        entry.given.set_result(slot)

    async def start(self) -> None:
        """Start every worker (gnubg loads its nets: ~0.2 s each) so no player waits for it."""
        if self._closed:
            raise EngineFailure(say.CLOSED.said())
        slots = [
            await self._take(slot, TURN_PRIORITY, next(self._arrivals)) for slot in range(self.size)
        ]
        try:
            await asyncio.gather(*(self._workers[slot].warm() for slot in slots))
        except BrokenProcessPool:
            for slot in slots:
                self._workers[slot].kill()
                self._replace(slot)
            raise EngineFailure(say.CRASHED.said(), retry=True) from None
        finally:
            for slot in slots:
                self._give_back(slot)

    def pids(self) -> list[int]:
        """The running workers' process ids (for RSS figures and tests)."""
        return [pid for worker in self._workers if (pid := worker.pid()) is not None]

    def held(self) -> list[int]:
        """The requests handed to each slot's worker now, served or waiting in its pipe (for
        tests)."""
        return list(self._held)

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
        self,
        function: Callable[..., T],
        *args: Any,
        timeout: float,
        affinity: int | None = None,
        priority: int = TURN_PRIORITY,
    ) -> T:
        """``function(*args)`` in a worker, in the order the module describes: the one of
        ``affinity`` if given, else any; ``priority`` 0 is served first. Its own exceptions
        come back as they are."""
        if self._closed:
            raise EngineFailure(say.CLOSED.said())
        if priority < 0:
            raise ValueError(f"priorities are 0 (the highest) or more, not {priority}")
        wanted = None if affinity is None else affinity % self.size
        order = next(self._arrivals)
        while True:  # asked again in its place when its worker died before reaching it
            slot = await self._take(wanted, priority, order)
            try:
                return await self._run(slot, function, args, timeout)
            except _NeverStarted:
                continue

    def call_if_idle(
        self,
        function: Callable[..., T],
        *args: Any,
        timeout: float,
        leave: int | None = None,
    ) -> asyncio.Task[T] | None:
        """``function(*args)`` started now, as a task, in a worker idle now, leaving one idle
        worker for the caller's own request (the one of affinity ``leave`` if given); None,
        nothing started, when there is no such pair of idle workers or a request waits. It
        never waits behind, nor takes a worker from, a request asked before it (see
        :meth:`GnubgEngine.take_turn`, its use). Its failures come back as :meth:`call`'s."""
        if self._closed or self._waiting:
            return None
        self._made()
        idle = [slot for slot, held in enumerate(self._held) if not held]
        kept = (idle[0] if idle else None) if leave is None else leave % self.size
        free = [slot for slot in idle if slot != kept]
        if kept not in idle or not free:
            return None
        slot = free[-1]
        self._held[slot] += 1
        return asyncio.get_running_loop().create_task(self._run(slot, function, args, timeout))

    async def _run(
        self, slot: int, function: Callable[..., T], args: tuple[Any, ...], timeout: float
    ) -> T:
        """``function(*args)`` in the worker of ``slot``, given to this request; the worker
        serves the next one after it. Raises :class:`_NeverStarted` when the worker died
        before it reached the request (it waited in its pipe behind another)."""
        worker = self._workers[slot]
        ahead = tuple(worker.sent)  # the requests the worker serves before this one
        answer = worker.send(function, args)
        later = False  # the slot is given back when the worker has answered, not now
        try:
            if ahead:
                await asyncio.wait(ahead)
            # (``asyncio.timeout``, not ``wait_for``: no future and callback more per request;
            # shielded: the answer is the worker's, given up or not, see ``Worker.sent``)
            async with asyncio.timeout(timeout):
                return await asyncio.shield(answer)
        except BrokenProcessPool:
            if self._closed:
                raise EngineFailure(say.CLOSED.said()) from None
            if not _reached(ahead):
                raise _NeverStarted from None
            log.error("%s crashed running %s", worker.name, function.__name__)
            self._renew(slot, worker)
            raise EngineFailure(say.CRASHED.said(), retry=True) from None
        except TimeoutError:
            log.error(
                "%s took over %gs running %s: killed", worker.name, timeout, function.__name__
            )
            self._renew(slot, worker)
            raise EngineFailure(say.TIMED_OUT.said(seconds=f"{timeout:g}"), retry=True) from None
        except asyncio.CancelledError:
            if not answer.done():
                if _reached(ahead):
                    # The caller gave up while the worker serves the request: it can't serve
                    # the next one until it has finished. Replace it rather than wait.
                    self._renew(slot, worker)
                else:  # still in the pipe: the worker serves it, and its answer is dropped
                    later = True
                    answer.add_done_callback(lambda _: self._give_back(slot))
            raise
        finally:
            if self._closed:
                self._workers[slot].kill()
            elif not later:
                self._give_back(slot)

    def _renew(self, slot: int, worker: Worker) -> None:
        """Kill ``worker`` (a hung or dead one) and start a fresh one in its slot, unless that
        was done already (by another request it had)."""
        if self._workers[slot] is worker:
            worker.kill()
            self._replace(slot)

    async def close(self) -> None:
        """Stop every worker; a request in progress or waiting ends with :class:`EngineFailure`."""
        self._closed = True
        waiting, self._waiting = self._waiting, []
        for entry in waiting:
            if not entry.given.done():
                entry.given.set_exception(EngineFailure(say.CLOSED.said()))
        for worker in self._workers:
            worker.kill()
        # Let each executor's manager thread see its process gone and end now: one still
        # running at interpreter exit can be woken through a pipe it already closed (an
        # "OSError: Bad file descriptor" traceback after a clean stop).
        for worker in self._workers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.to_thread(worker.executor.shutdown, wait=True), 10)
