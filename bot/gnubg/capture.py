"""Capture what C code prints: file descriptors 1 and 2 redirected to a temporary file.

gnubg prints to the C stdout and stderr, not through Python. Process-wide, so only for a gnubg
worker process (and its main thread); :mod:`bot.gnubg.worker` re-exports it.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO


@dataclass
class Captured:
    """What the C code printed on stdout and stderr inside a :func:`captured_output` block."""

    text: str = ""


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None)


@functools.cache
def _sink() -> BinaryIO:
    """The file this process's captures write to, opened once: a worker captures around every
    gnubg command, and a new temporary file each time costs more than the command."""
    return tempfile.TemporaryFile()


_depth = 0  # captures open now: an inner one writes to a file of its own


@contextlib.contextmanager
def captured_output() -> Iterator[Captured]:
    """Capture everything written to file descriptors 1 and 2 (gnubg prints from C).

    Process-wide: use it only in a worker process, from its main thread. The text is in the
    yielded :class:`Captured` once the block ends.
    """
    global _depth
    libc = _libc()
    sys.stdout.flush()
    sys.stderr.flush()
    libc.fflush(None)
    saved = (os.dup(1), os.dup(2))
    captured = Captured()
    with contextlib.ExitStack() as stack:
        sink = _sink() if not _depth else stack.enter_context(tempfile.TemporaryFile())
        sink.seek(0)
        sink.truncate()
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        _depth += 1
        try:
            yield captured
        finally:
            _depth -= 1
            sys.stdout.flush()
            sys.stderr.flush()
            libc.fflush(None)
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for descriptor in saved:
                os.close(descriptor)
            sink.seek(0)
            captured.text = sink.read().decode("utf-8", "replace")
