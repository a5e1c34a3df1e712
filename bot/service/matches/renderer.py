"""The renderer's thread: board pictures drawn off the event loop, one at a time, in order.

Each call is handed over once each way: put in the thread's queue, its result set on the event
loop's own future by ``call_soon_threadsafe``. ``run_in_executor`` on a thread pool makes a
concurrent future for it too (a lock and a condition), wraps it, and copies its state over in
one more callback: about a tenth of the event loop's CPU per board more.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

_T = TypeVar("_T")
_Call = tuple[asyncio.Future[Any], Callable[[], Any]]


class Renderer:
    """One thread (started at the first call, named ``render_0``) that runs the calls given."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False

    def run(self, call: Callable[[], _T]) -> asyncio.Future[_T]:
        """``call()`` in the thread, after those given before; its result (or error) on the
        running loop's future."""
        if self._closed:
            raise RuntimeError("the renderer was closed")
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="render_0", daemon=True)
            self._thread.start()
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._calls.put((future, call))
        return future

    def close(self) -> None:
        """Draw what was given, then end the thread."""
        self._closed = True
        if self._thread is not None:
            self._calls.put(None)
            self._thread.join()

    def _serve(self) -> None:
        while (item := self._calls.get()) is not None:
            future, call = item
            try:
                outcome: tuple[bool, Any] = (True, call())
            except BaseException as error:  # (as a thread pool's: the caller's to see)
                outcome = (False, error)
            with suppress(RuntimeError):  # the loop closed meanwhile: no one waits
                future.get_loop().call_soon_threadsafe(_settle, future, outcome)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.cancelled():  # the caller stopped waiting
        return
    done, value = outcome
    if done:
        future.set_result(value)
    else:
        future.set_exception(value)
