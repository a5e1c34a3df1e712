"""Where a stack of checkers goes: a pure function of the image's size, the player, where and how
many, worked out once (a board lays out 20-30 stacks)."""

from __future__ import annotations

import math
from functools import lru_cache

from bot.render import theme
from bot.render.geometry import (
    MAX_BAR_STACK,
    MAX_STACK,
    Box,
    Side,
    Size,
    bar_center,
    checker_center,
    layout,
)
from bot.render.labels import Label
from bot.render.sprites import checker_sprite, sprite_box
from bot.render.static import number_label


@lru_cache(maxsize=2048)
def stack_layout(
    size: Size, player: int, where: int | Side, count: int
) -> tuple[Box, tuple[tuple[float, float], ...], Label | None]:
    """Where ``player``'s ``count`` checkers go on the viewer's point ``where`` (1-24) or on a
    side's bar: the box of every pixel they cover, each checker's centre, and the count written
    on the last when there are more than are drawn."""
    geo = layout(size)
    if isinstance(where, int):
        centers = tuple(
            checker_center(where, index, size) for index in range(min(count, MAX_STACK))
        )
    else:
        shown = min(count, MAX_BAR_STACK)
        centers = tuple(bar_center(where, index, size) for index in range(shown))
    sprite = checker_sprite(geo.checker, player)
    boxes = [sprite_box(sprite, center) for center in centers]
    label = None
    if count > len(centers):
        colour = theme.PLAYER_COLOURS[player].text
        label = number_label("count", count, geo, centers[-1], colour)
        boxes.append(marked(label.box))
    box = (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )
    return box, centers, label


def marked(box: tuple[float, float, float, float], margin: float = 2) -> Box:
    """A box around everything drawn in ``box`` (a text's), with ``margin`` pixels to spare."""
    x0, y0, x1, y1 = box
    return (
        math.floor(x0 - margin),
        math.floor(y0 - margin),
        math.ceil(x1 + margin) + 1,
        math.ceil(y1 + margin) + 1,
    )
