"""The shipped layers (bot/render/layers/) hold what the renderer draws today."""

from __future__ import annotations

from bot.render.geometry import DEFAULT_SIZE
from bot.render.layers import shipped_palette, shipped_static
from bot.render.palette import sample_palette
from bot.render.static import draw_static_board

WRITE = "python -m bot.render.make_layers"


def test_the_shipped_static_board_is_the_drawn_one() -> None:
    shipped = shipped_static(DEFAULT_SIZE)
    assert shipped is not None
    assert shipped.tobytes() == draw_static_board(DEFAULT_SIZE).tobytes(), f"run {WRITE}"


def test_the_shipped_palette_is_the_sample_boards_one() -> None:
    shipped = shipped_palette(DEFAULT_SIZE)
    assert shipped is not None
    assert shipped.getpalette() == sample_palette(DEFAULT_SIZE).getpalette(), f"run {WRITE}"


def test_other_sizes_are_drawn() -> None:
    assert shipped_static((400, 326)) is None
    assert shipped_palette((400, 326)) is None
