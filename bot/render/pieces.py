"""The moving parts drawn on the static board: checkers, trays, the cube, dice and the marks of
the last play."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.geometry import (
    CHECKERS,
    MAX_BAR_STACK,
    MAX_STACK,
    Layout,
    Side,
    Size,
    bar_center,
    checker_center,
    cube_center,
    dice_centers,
    layout,
    point_number_center,
    point_x,
    roller_area_center,
    tray_count_center,
    tray_slab_box,
)
from bot.render.labels import Label, Role, paint, pixel_box, place
from bot.render.sprites import (
    checker_sprite,
    cube_sprite,
    cube_text_size,
    die_sprite,
    paste,
    ring_sprite,
    sprite_box,
)
from bot.render.stacks import marked, stack_layout
from bot.render.state import LastPlay
from bot.render.static import number_label, static_board
from bot.render.view import View

RGB = theme.RGB
Box = tuple[int, int, int, int]
Op = tuple[Box, tuple[object, ...], Callable[[Image.Image, ImageDraw.ImageDraw], object]]
"""One thing drawn over the static board: a box holding every pixel it changes, what those
pixels depend on besides the image's size, and what draws it (on an image, with its draw)."""
_BAR = 25
_SIDES: tuple[Side, Side] = ("bottom", "top")
_OFF = 0


@lru_cache(maxsize=64)
def tray_patch(size: Size, side: Side, player: int, off: int) -> tuple[Box, Image.Image]:
    """A tray holding ``off`` of ``player``'s checkers as slabs: its box on the board and its
    pixels (the static board's, the slabs drawn over them), pasted whole where nothing else is
    drawn before it (up to 30 rounded rectangles a board otherwise)."""
    geo = layout(size)
    image = static_board(size).copy()
    draw = ImageDraw.Draw(image)
    colours = theme.PLAYER_COLOURS[player]
    slabs = [tray_slab_box(side, index, size) for index in range(off)]
    for slab in slabs:
        draw.rounded_rectangle(
            slab,
            radius=max(1, round(3 * geo.scale)),
            fill=colours.fill,
            outline=colours.outline,
        )
    box = (
        math.floor(min(slab[0] for slab in slabs)),
        math.floor(min(slab[1] for slab in slabs)),
        math.ceil(max(slab[2] for slab in slabs)) + 1,
        math.ceil(max(slab[3] for slab in slabs)) + 1,
    )
    return box, image.crop(box)


class Pieces:
    """Paints the pieces of one board image onto its copy of the static board: at once, or, given
    ``ops``, later, each drawing added there as an :data:`Op` in the order it would be drawn (a
    board pastes the pixels of ops kept from boards before, :mod:`bot.render.tiles`)."""

    def __init__(
        self,
        image: Image.Image,
        draw: ImageDraw.ImageDraw,
        geo: Layout,
        view: View,
        ops: list[Op] | None = None,
    ) -> None:
        self.image = image
        self.draw = draw
        self.geo = geo
        self.view = view
        self.state = view.state
        self.size: Size = (geo.width, geo.height)
        self.ops = ops
        self.labels: list[Label] = []
        """The texts drawn so far (counts, point numbers in pills, the cube's value)."""
        self.drawn: list[Box] = []
        """Boxes holding every pixel drawn over the static board so far (overlapping)."""

    def _op(
        self,
        box: Box,
        key: tuple[object, ...],
        draw: Callable[[Image.Image, ImageDraw.ImageDraw], object],
    ) -> None:
        self._add((box, key, draw))

    def _add(self, op: Op) -> None:
        self.drawn.append(op[0])
        if self.ops is None:
            op[2](self.image, self.draw)
        else:
            self.ops.append(op)

    def _paste(
        self, key: tuple[object, ...], sprite: Image.Image, center: tuple[float, float]
    ) -> None:
        self._op(sprite_box(sprite, center), (*key, center), partial(pasted, sprite, center))

    def _label(self, role: Role, value: int, center: tuple[float, float], colour: RGB) -> Label:
        """A count or point number centred on ``center``, recorded in :attr:`labels`."""
        label = number_label(role, value, self.geo, center, colour)
        self.labels.append(label)
        return label

    def _stack(self, player: int, where: int | Side, count: int) -> None:
        """``player``'s ``count`` checkers on a point (``where``, the viewer's 1-24) or on a
        side's bar."""
        op, label = stack_op(self.size, player, where, count)
        if label is not None:
            self.labels.append(label)
        self._add(op)

    def checkers(self) -> None:
        view = self.view
        for player in (0, 1):
            counts = view.counts(player)
            seen = counts[:24] if player == view.bottom else counts[23::-1]  # by the viewer's 1-24
            for point, count in enumerate(seen, 1):
                if count:
                    self._stack(player, point, count)
            side = view.side_of(player)
            if counts[24]:
                self._stack(player, side, counts[24])
            off = view.off(player)
            if off:
                self._tray(player, side, off)

    def every_stack(self) -> None:
        """Every stack a board may show, as ops (to make their tiles ahead): each player's 1 to
        15 checkers on each point, on each side's bar and in each side's tray."""
        for player in (0, 1):
            for count in range(1, CHECKERS + 1):
                for point in range(1, 25):
                    self._stack(player, point, count)
                for side in _SIDES:
                    self._stack(player, side, count)
                    self._tray(player, side, count)

    def _tray(self, player: int, side: Side, off: int) -> None:
        box, patch = tray_patch(self.size, side, player, off)
        center = tray_count_center(side, off, self.size)
        label = self._label("count", off, center, theme.FRAME_TEXT)
        mark = marked(label.box)
        whole = (
            min(box[0], mark[0]),
            min(box[1], mark[1]),
            max(box[2], mark[2]),
            max(box[3], mark[3]),
        )
        self._op(whole, ("tray", player, side, off), partial(_draw_tray, box, patch, label))

    def cube(self) -> None:
        state, geo = self.state, self.geo
        if state.phase == "doubled":
            center = roller_area_center(self.view.side_of(state.on_roll), self.size)
            self._cube(round(geo.cube * 1.15), str(2 * state.cube_value), True, center)
            return
        if state.phase == "over" or not state.cube_in_play:
            return
        where = None if state.cube_owner is None else self.view.side_of(state.cube_owner)
        text = "64" if where is None and state.cube_value == 1 else str(state.cube_value)
        self._cube(geo.cube, text, False, cube_center(where, self.size))

    def _cube(self, side: int, text: str, offered: bool, center: tuple[float, float]) -> None:
        self._paste(("cube", side, text, offered), cube_sprite(side, text, offered), center)
        self.cube_label(side, text, center)

    def cube_label(self, side: int, text: str, center: tuple[float, float]) -> None:
        """The cube's value, drawn into its sprite: recorded here for :attr:`labels`."""
        size = round(cube_text_size(side, text))
        label = place("cube", text, size, center, theme.CUBE_TEXT, bold=True, anchor="mm")
        self.labels.append(label)

    def dice(self) -> None:
        state = self.state
        if state.dice is None or state.phase != "move":
            return
        first, second = state.dice
        values = [first] * 4 if first == second else [first, second]
        side = self.view.side_of(state.on_roll)
        for index, (value, center) in enumerate(
            zip(values, dice_centers(side, len(values), self.size), strict=True)
        ):
            dim = index < state.dice_used
            sprite = die_sprite(self.geo.die, value, state.on_roll, dim)
            self._paste(("die", value, state.on_roll, dim), sprite, center)

    def last_play(self, last: LastPlay | None) -> None:
        if last is None:
            return
        view, size = self.view, self.size
        player, play = last.player, last.play
        side = view.side_of(player)
        counts = view.counts(player)
        net: Counter[int] = Counter()
        for source, dest in play.steps:
            net[source] -= 1
            net[dest] += 1
        marked: dict[int, bool] = {}
        for point, change in net.items():
            if change == 0 or point in (_BAR, _OFF):
                continue
            target = view.viewer_point(player, point)
            here = counts[point - 1]
            if change > 0:
                for index in range(max(0, min(here, MAX_STACK) - change), min(here, MAX_STACK)):
                    self._add(ring_op(size, False, target, index))
                marked[target] = True
            else:
                for index in range(here, min(here - change, MAX_STACK)):
                    self._add(ring_op(size, True, target, index))
                marked.setdefault(target, False)
        if net[_OFF] > 0:
            off = view.off(player)
            for index in range(max(0, off - net[_OFF]), off):
                self._slab(side, index)
        if net[_BAR] < 0 and counts[24] < MAX_BAR_STACK:
            self._add(ring_op(size, True, side, counts[24]))
        for target, arrived in sorted(marked.items()):
            self.number_pill(target, filled=arrived)
        for point in play.hits:
            self.hit_badge(view.viewer_point(player, point))

    def every_mark(self) -> None:
        """Every die, cube and mark of a last play that a board may show alone, as ops (to make
        their tiles ahead): each player's dice on each side, bright and dimmed, each cube where
        it may be, the dashed rings where checkers left, the point numbers in pills, the hit
        badges, the tray's slabs."""
        size, geo = self.size, self.geo
        for player in (0, 1):
            for value in range(1, 7):
                for dim in (False, True):
                    sprite = die_sprite(geo.die, value, player, dim)
                    for side in _SIDES:
                        for count in (2, 4):
                            for center in dice_centers(side, count, size):
                                self._paste(("die", value, player, dim), sprite, center)
        self._cube(geo.cube, "64", False, cube_center(None, size))
        for value in (2, 4, 8, 16, 32, 64):
            for side in _SIDES:
                self._cube(geo.cube, str(value), False, cube_center(side, size))
                center = roller_area_center(side, size)
                self._cube(round(geo.cube * 1.15), str(value), True, center)
                self._cube(round(geo.cube * 1.15), str(2 * value), True, center)
        ring_sprite(*ring_shape(size, False))  # drawn over a stack only, made ahead
        for point in range(1, 25):
            for index in range(MAX_STACK):
                self._add(ring_op(size, True, point, index))
            for filled in (False, True):
                self.number_pill(point, filled=filled)
            self.hit_badge(point)
        for side in _SIDES:
            for index in range(MAX_BAR_STACK):
                self._add(ring_op(size, True, side, index))
            for index in range(CHECKERS):
                self._slab(side, index)

    def _slab(self, side: Side, index: int) -> None:
        """The highlight around the ``index``-th slab in ``side``'s tray (one just borne off)."""
        x0, y0, x1, y1 = tray_slab_box(side, index, self.size)
        box = (x0 - 2, y0 - 1, x1 + 2, y1 + 1)
        radius = max(1, round(3 * self.geo.scale))
        self._op(marked(box), ("slab", box), partial(_draw_slab, box, radius))

    def number_pill(self, point: int, *, filled: bool) -> None:
        op, label = pill_op(self.size, point, filled)
        self.labels.append(label)
        self._add(op)

    def hit_badge(self, point: int) -> None:
        """A magenta disc with a white cross at the edge end of the point where a blot was hit."""
        self._add(badge_op(self.size, point))


@lru_cache(maxsize=512)
def ring_op(size: Size, dashed: bool, where: int | Side, index: int) -> Op:
    """The op of the ring around the ``index``-th checker on the viewer's point ``where`` (or a
    side's bar) that a checker of the last play arrived in, or ``dashed`` where one left."""
    ring = ring_shape(size, dashed)
    center = (
        checker_center(where, index, size)
        if isinstance(where, int)
        else bar_center(where, index, size)
    )
    sprite = ring_sprite(*ring)
    return sprite_box(sprite, center), ("ring", *ring, center), partial(pasted, sprite, center)


def ring_shape(size: Size, dashed: bool) -> tuple[int, int, bool]:
    """The ring's sprite (:func:`~bot.render.sprites.ring_sprite`: diameter, width, dashes)."""
    geo = layout(size)
    width = max(2, round(3 * geo.scale))
    return (geo.checker - 2, width, True) if dashed else (geo.checker + 2 * width, width, False)


@lru_cache(maxsize=64)
def pill_op(size: Size, point: int, filled: bool) -> tuple[Op, Label]:
    """The op of the viewer's point number ``point`` in a pill (``filled`` where a checker of
    the last play arrived, else outlined), and the number."""
    geo = layout(size)
    x, y = point_number_center(point, size)
    half_w = geo.point_width / 2 - 3 * geo.scale
    half_h = (geo.field_top - geo.board[1] - geo.frame) / 2 - 1
    box = (x - half_w, y - half_h, x + half_w, y + half_h)
    colour = theme.HIGHLIGHT_TEXT if filled else theme.HIGHLIGHT
    label = number_label("point", point, geo, (x, y), colour)
    # Pillow rounds a rounded rectangle's corners and draws inside them; the number's
    # letters inside it: a box as tight keeps a pill apart from the checker below it.
    whole = (round(box[0]), round(box[1]), round(box[2]) + 1, round(box[3]) + 1)
    mark = pixel_box(label) or whole
    whole = (
        min(whole[0], mark[0]),
        min(whole[1], mark[1]),
        max(whole[2], mark[2]),
        max(whole[3], mark[3]),
    )
    width = max(2, round(2 * geo.scale))
    draw = partial(_draw_pill, box, round(half_h), filled, label, width)
    return (whole, ("pill", point, filled), draw), label


@lru_cache(maxsize=32)
def badge_op(size: Size, point: int) -> Op:
    """The op of the hit badge on the viewer's point ``point``."""
    geo = layout(size)
    x = point_x(point, size)
    radius = geo.checker * 0.24
    top = point >= 13
    edge = geo.field_top if top else geo.field_bottom
    cx = x + geo.point_width / 2 - radius * 0.6
    cy = edge + radius * 1.05 if top else edge - radius * 1.05
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    draw = partial(_draw_badge, cx, cy, radius, geo.scale)
    return marked(box, margin=4 * geo.scale), ("hit", point), draw


@lru_cache(maxsize=2048)
def stack_op(size: Size, player: int, where: int | Side, count: int) -> tuple[Op, Label | None]:
    """The op of ``player``'s ``count`` checkers on the viewer's point ``where`` or a side's
    bar (:func:`bot.render.stacks.stack_layout`), and the count written on it if any."""
    box, centers, label = stack_layout(size, player, where, count)
    kind = "point" if isinstance(where, int) else "bar"
    sprite = checker_sprite(layout(size).checker, player)
    return (box, (kind, player, where, count), partial(_draw_stack, sprite, centers, label)), label


def drawn_or_recorded(
    op: Op, image: Image.Image, draw: ImageDraw.ImageDraw, ops: list[Op] | None
) -> None:
    """``op`` drawn now on ``image``, or recorded in ``ops`` where a board pastes the tiles it
    kept and draws only the groups it has not seen (:mod:`bot.render.tiles`)."""
    if ops is None:
        op[2](image, draw)
    else:
        ops.append(op)


def pasted(
    sprite: Image.Image, center: tuple[float, float], image: Image.Image, _: ImageDraw.ImageDraw
) -> None:
    """:func:`bot.render.sprites.paste`, as an op draws."""
    paste(image, sprite, center)


def _draw_stack(
    sprite: Image.Image,
    centers: tuple[tuple[float, float], ...],
    label: Label | None,
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
) -> None:
    for center in centers:
        paste(image, sprite, center)
    if label is not None:
        paint(draw, label)


def _draw_tray(
    box: Box, patch: Image.Image, label: Label, image: Image.Image, draw: ImageDraw.ImageDraw
) -> None:
    image.im.paste(patch.im, box)
    paint(draw, label)


def _draw_slab(
    box: tuple[int, int, int, int], radius: int, _: Image.Image, draw: ImageDraw.ImageDraw
) -> None:
    draw.rounded_rectangle(box, radius=radius, outline=theme.HIGHLIGHT, width=2)


def _draw_pill(
    box: tuple[float, float, float, float],
    radius: int,
    filled: bool,
    label: Label,
    width: int,
    _: Image.Image,
    draw: ImageDraw.ImageDraw,
) -> None:
    if filled:
        draw.rounded_rectangle(box, radius=radius, fill=theme.HIGHLIGHT)
    else:
        draw.rounded_rectangle(
            box, radius=radius, fill=theme.FRAME, outline=theme.HIGHLIGHT, width=width
        )
    paint(draw, label)


def _draw_badge(
    cx: float, cy: float, radius: float, scale: float, _: Image.Image, draw: ImageDraw.ImageDraw
) -> None:
    draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        fill=theme.HIT,
        outline=theme.TEXT,
        width=max(1, round(2 * scale)),
    )
    arm = radius * 0.45
    width = max(2, round(3 * scale))
    draw.line((cx - arm, cy - arm, cx + arm, cy + arm), fill=theme.TEXT, width=width)
    draw.line((cx - arm, cy + arm, cx + arm, cy - arm), fill=theme.TEXT, width=width)
