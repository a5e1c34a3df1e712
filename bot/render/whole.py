"""The whole board drawn at once on a copy of the static board: the image the tiles of
:func:`bot.render.board.render_board` add up to, drawn as it is where arrows go over the board or
its pieces cannot be cut in tiles; the texts' labels; the boards the palette is sampled from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PIL import Image, ImageDraw

from bot.i18n.core import ENGLISH, Language
from bot.render.arrows import Arrow, draw_arrows, paths_for
from bot.render.geometry import DEFAULT_SIZE, Size, layout
from bot.render.labels import Label
from bot.render.pieces import Box, Pieces
from bot.render.state import BoardState, LastPlay
from bot.render.static import point_labels, static_board
from bot.render.strips import Strips
from bot.render.view import View


def render_image(
    state: BoardState,
    *,
    viewer: int | None,
    size: Size = DEFAULT_SIZE,
    last_play: LastPlay | None = None,
    arrows: Sequence[Arrow] = (),
    language: Language = ENGLISH,
) -> Image.Image:
    """The board as an RGB Pillow image (what :func:`~bot.render.board.render_board` encodes)."""
    return drawn_whole(state, viewer, size, last_play, tuple(arrows), language)[0]


def board_labels(
    state: BoardState,
    *,
    viewer: int | None,
    size: Size = DEFAULT_SIZE,
    last_play: LastPlay | None = None,
    arrows: Sequence[Arrow] = (),
    language: Language = ENGLISH,
) -> tuple[Label, ...]:
    """Every text of the board :func:`render_image` draws, with its font size and box: the point
    numbers, counts and the cube's value, then the strips' names, pips, scores, clocks, match or
    last play, the arrows' legend and the status line."""
    return drawn_whole(state, viewer, size, last_play, tuple(arrows), language)[1]


def drawn_whole(
    state: BoardState,
    viewer: int | None,
    size: Size,
    last_play: LastPlay | None,
    arrows: tuple[Arrow, ...],
    language: Language = ENGLISH,
) -> tuple[Image.Image, tuple[Label, ...], tuple[Box, ...] | None]:
    """The image, its labels, and boxes holding every pixel drawn over the static board (None:
    anywhere, as arrows may be)."""
    if viewer not in (None, 0, 1):
        raise ValueError(f"viewer must be 0, 1 or None (a spectator), not {viewer!r}")
    size = (int(size[0]), int(size[1]))
    if last_play is not None:
        state = replace(state, last_play=last_play)
    view = View(state, state.on_roll if viewer is None else viewer)
    image = static_board(size).copy()
    draw = ImageDraw.Draw(image)
    geo = layout(size)
    pieces = Pieces(image, draw, geo, view)
    pieces.checkers()
    pieces.cube()
    pieces.dice()
    pieces.last_play(state.last_play)
    draw_arrows(image, geo, paths_for(view, geo, arrows))
    kinds = tuple(dict.fromkeys(arrow.kind for arrow in sorted(arrows, key=_legend_order)))
    strips = Strips(image, draw, geo, view, kinds, language=language)
    strips.paint()
    drawn = None if arrows else (geo.top_strip, geo.bottom_strip, geo.status_strip, *pieces.drawn)
    return image, (*point_labels(size), *pieces.labels, *strips.labels), drawn


def _legend_order(arrow: Arrow) -> int:
    return ("played", "best", "candidate").index(arrow.kind)
