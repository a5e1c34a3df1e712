"""Module-level functions that misbehave inside a worker (pickled by name, so not in a test
module): a crash, a segfault, a hang, and a plain error."""

from __future__ import annotations

import ctypes
import os
import time


def process_id() -> int:
    return os.getpid()


def exit_at_once() -> None:
    os._exit(3)


def segfault() -> None:
    ctypes.string_at(0)  # reads address 0: SIGSEGV


def sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def refuse(text: str) -> None:
    raise ValueError(f"refused {text!r}")


def reversed_text(text: str) -> str:
    return text[::-1]


def unpicklable() -> object:
    return lambda: None  # a lambda can't cross back to the bot's process


def clock() -> float:
    """The monotonic clock (one for every process on Linux) when the worker runs this."""
    return time.monotonic()


def exit_after(seconds: float) -> None:
    time.sleep(seconds)
    os._exit(3)
