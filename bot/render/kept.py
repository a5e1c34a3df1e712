"""What the renderer keeps between images, and forgetting it (:func:`forget_kept`)."""

from __future__ import annotations

import sys

from bot.bounded import Bounded
from bot.render import glyphs


def forget_kept() -> None:
    """Return the renderer to the state a new process has: every cache at the top level of a
    module of ``bot.render`` emptied (the ``functools.lru_cache`` of fonts, sprites, static
    boards, layouts, texts and their measures; the :class:`~bot.bounded.Bounded` stores of
    boards' tiles and strips) and the glyphs' tables, whose fonts then draw their texts whole
    until a warm-up checks their pairs again. Each thread's canvas stays: a copy of the static
    board, as a new one would be. For benchmarks and tests, not while boards are drawn."""
    for name, module in list(sys.modules.items()):
        if name != __package__ and not name.startswith(f"{__package__}."):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Bounded):
                value.clear()
            elif callable(getattr(value, "cache_clear", None)) and value.__module__ == name:
                value.cache_clear()
    glyphs._PAIRS.clear()
    glyphs._GLYPHS.clear()
