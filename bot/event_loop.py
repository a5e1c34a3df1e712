"""The event loop every entry point runs on: uvloop's where it is installed (Linux and macOS),
else asyncio's own.

uvloop's loop costs the bot's process about 0.5 ms less CPU a bot play than asyncio's (its
handles, wake-ups from the renderer's and SQLite's threads, and the gnubg workers' pipes are
C), which on two cores shared with the gnubg workers is throughput (docs/speed.md). Windows
has no uvloop: asyncio's loop serves there, and wherever ``BACKGAMMON_EVENT_LOOP=asyncio``
asks for it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

CHOICE_VARIABLE = "BACKGAMMON_EVENT_LOOP"
"""``asyncio`` to run on asyncio's own loop even where uvloop is installed."""


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes the loop: uvloop's ``new_event_loop`` where it can be imported and not
    refused by :data:`CHOICE_VARIABLE`, else asyncio's."""
    if os.environ.get(CHOICE_VARIABLE, "").strip().lower() != "asyncio":
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.new_event_loop
    return asyncio.new_event_loop


def loop_name() -> str:
    """``uvloop`` or ``asyncio``: the loop :func:`run` runs on here."""
    return "asyncio" if loop_factory() is asyncio.new_event_loop else "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the loop :func:`loop_factory` makes."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
