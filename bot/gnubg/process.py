"""One spawned worker process behind a pipe the event loop reads itself (see :mod:`bot.gnubg.pool`).

A ``ProcessPoolExecutor`` of one process passes each request through two threads of the bot's
process (its manager thread and its queue's feeder thread) and each answer back through the
manager thread: five wake-ups for one request, each a wait for a core when the machine is busy.
Here the event loop writes the request into the pipe and reads the answer when the pipe becomes
readable: two wake-ups, the worker's and the loop's (a round trip around a 40 ms search on this
2-core machine with other work running: 0.5-0.7 ms at the median, 1.3-4.3 ms before; see
``bench/profile_play.py``).

:class:`PipeProcess` is an :class:`~concurrent.futures.Executor` as the pool wants one; submit
from the event loop's thread. The worker serves requests in order, one at a time. Its death (a
crash, a kill) shows as :class:`BrokenProcessPool` on every request not answered.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

# An answer's future: the executor's (``submit``) or the event loop's (``request``).
Answer = Future[Any] | asyncio.Future[Any]

# A request larger than this is written from a thread: the pipe holds 64 KiB, and a worker still
# starting (its initializer) reads nothing yet.
DIRECT_WRITE_BYTES = 32_768
ANSWER, ERROR = 0, 1


def serve(
    connection: Connection, initializer: Callable[[], None], idle: Callable[[], None] | None
) -> None:
    """The worker process: run ``initializer``, then answer each ``(function, args)`` read from
    ``connection`` with ``(ANSWER, value)`` or ``(ERROR, exception)`` until the pipe closes;
    ``idle`` runs after each answer is sent (while the bot reads it)."""
    initializer()
    while True:
        try:
            request = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            function, args = pickle.loads(request)
            reply: tuple[int, Any] = (ANSWER, function(*args))
        except Exception as error:
            reply = (ERROR, error)
        try:
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer or exception that can't cross the pipe
            data = pickle.dumps((ERROR, RuntimeError(f"unpicklable reply: {error!r}")))
        connection.send_bytes(data)
        if idle is not None:
            with contextlib.suppress(Exception):
                idle()


class PipeProcess(Executor):
    """One spawned process running :func:`serve` (see the module); ``idle`` runs in it after
    each answer."""

    def __init__(
        self, initializer: Callable[[], None], idle: Callable[[], None] | None = None
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self._connection, theirs = context.Pipe()
        self._process = context.Process(
            target=serve, args=(theirs, initializer, idle), name="gnubg-worker", daemon=True
        )
        self._process.start()
        theirs.close()  # so that the worker's death reads as the end of the pipe here
        self._waiting: collections.deque[Answer] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reading = False  # the loop watches the pipe (else a thread reads it: _listen)
        self._reader: threading.Thread | None = None
        self._open = True

    def pid(self) -> int | None:
        return self._process.pid if self._process.is_alive() else None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if kwargs:
            raise TypeError("a worker request takes positional arguments only")
        future: Future[Any] = Future()
        self._send(future, fn, args)
        return future

    def request(self, fn: Callable[..., Any], /, *args: Any) -> asyncio.Future[Any]:
        """:meth:`submit` for the event loop: its answer is set in the loop's own thread,
        where the pipe is read, with no hand-over from another thread (``wrap_future`` wakes
        the loop once more for each answer)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._send(future, fn, args)
        return future

    def _send(self, future: Answer, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        if not self._open:
            _settle(future, ERROR, BrokenProcessPool("the worker was stopped"))
            return
        data = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # the first request, or a pool used from another loop since
            self._stop_reading()
            self._loop = loop
            self._listen(loop)
        self._waiting.append(future)
        if len(data) <= DIRECT_WRITE_BYTES:
            self._write(data)
        else:
            loop.run_in_executor(None, self._write, data)

    def _write(self, data: bytes) -> None:
        # a worker gone: the end of the pipe fails the waiting requests
        with contextlib.suppress(OSError):
            self._connection.send_bytes(data)

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            loop.add_reader(self._connection.fileno(), self._readable)
            # uvloop's reader (libuv's poll) makes the pipe non-blocking: a message larger than
            # the pipe would then be read or written in part, and the two ends fall out of step.
            # The loop reads only when the pipe is readable, and a message is written whole.
            os.set_blocking(self._connection.fileno(), True)
            self._reading = True
        except NotImplementedError:  # Windows' proactor loop: a thread waits on the pipe
            if self._reader is None:
                self._reader = threading.Thread(
                    target=self._read_in_thread, name="gnubg-pipe", daemon=True
                )
                self._reader.start()

    def _stop_reading(self) -> None:
        if self._reading and self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._connection.fileno())
        self._reading = False

    def _read_in_thread(self) -> None:
        while True:
            try:
                data: bytes | None = self._connection.recv_bytes()
            except (EOFError, OSError):
                data = None
            loop = self._loop
            if loop is None or loop.is_closed():
                return
            with contextlib.suppress(RuntimeError):  # closed meanwhile
                loop.call_soon_threadsafe(self._deliver, data)
            if data is None:
                return

    def _readable(self) -> None:
        try:
            data: bytes | None = self._connection.recv_bytes()
        except (EOFError, OSError):
            data = None
        self._deliver(data)

    def _deliver(self, data: bytes | None) -> None:
        """One answer read from the pipe (None: its end, the worker gone)."""
        if data is None:
            self._broken(f"the worker {self._process.pid} ended")
            return
        try:
            kind, value = pickle.loads(data)
        except pickle.UnpicklingError as error:
            kind, value = ERROR, RuntimeError(f"unreadable reply: {error!r}")
        if self._waiting:
            _settle(self._waiting.popleft(), kind, value)

    def _broken(self, why: str) -> None:
        self._close_pipe()
        while self._waiting:
            _settle(self._waiting.popleft(), ERROR, BrokenProcessPool(why))

    def _close_pipe(self) -> None:
        if not self._open:
            return
        self._open = False
        self._stop_reading()
        self._connection.close()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the worker at once (a request under way can't be stopped otherwise); the
        first call must come from the event loop's thread."""
        if self._open:
            self._broken("the worker was stopped")
            if self._process.is_alive() and self._process.pid is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(self._process.pid, signal.SIGKILL)
        if wait:
            self._process.join()
        else:  # reap it when it has gone (a zombie keeps its pid)
            threading.Thread(target=self._process.join, name="reap", daemon=True).start()


def _settle(future: Answer, kind: int, value: Any) -> None:
    """Give ``future`` its answer (``ANSWER``) or error, unless it was cancelled."""
    if isinstance(future, Future):
        if not future.set_running_or_notify_cancel():
            return
    elif future.cancelled():
        return
    if kind == ANSWER:
        future.set_result(value)
    else:
        future.set_exception(value)
