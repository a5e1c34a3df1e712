"""Capture what C code prints: file descriptors 1 and 2 redirected to a temporary file.

gnubg prints to the C stdout and stderr, not through Python. Process-wide, so only for a gnubg
worker process (and its main thread); :mod:`bot.gnubg.worker` re-exports it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass
class Captured:
    """What the C code printed on stdout and stderr inside a :func:`captured_output` block."""

    text: str = ""


@contextlib.contextmanager
def captured_output() -> Iterator[Captured]:
    """Capture everything written to file descriptors 1 and 2 (gnubg prints from C).

    Process-wide: use it only in a worker process, from its main thread. The text is in the
    yielded :class:`Captured` once the block ends.
    """
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    sys.stderr.flush()
    libc.fflush(None)
    saved = (os.dup(1), os.dup(2))
    captured = Captured()
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            libc.fflush(None)
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for descriptor in saved:
                os.close(descriptor)
            sink.seek(0)
            captured.text = sink.read().decode("utf-8", "replace")
