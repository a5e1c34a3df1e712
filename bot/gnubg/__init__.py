"""GNU Backgammon as the bot's opponent, tutor and analyst.

gnubg runs only in worker processes of its own (:mod:`bot.gnubg.worker`); the bot's process never
imports it. :mod:`bot.gnubg.api` is the contract: plain values and the :class:`Engine` protocol.
"""

from __future__ import annotations

import importlib.util


def installed() -> bool:
    """Whether the gnubg bindings are installed (checked without importing them here)."""
    return importlib.util.find_spec("gnubg") is not None
