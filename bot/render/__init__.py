"""Board images: a pure function from a :class:`BoardState` and a viewer to PNG bytes."""

from __future__ import annotations

from bot.render.arrows import Arrow, ArrowPath, arrow_layout, arrows_of
from bot.render.board import render_board, status_text, warm_up
from bot.render.kept import forget_kept
from bot.render.state import BoardState, LastPlay
from bot.render.whole import render_image

__all__ = [
    "Arrow",
    "ArrowPath",
    "BoardState",
    "LastPlay",
    "arrow_layout",
    "arrows_of",
    "forget_kept",
    "render_board",
    "render_image",
    "status_text",
    "warm_up",
]
