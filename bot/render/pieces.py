"""The moving parts drawn on the static board: checkers, trays, the cube, dice and the marks of
the last play."""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.geometry import (
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
from bot.render.labels import Label, Role, paint, place
from bot.render.sprites import (
    checker_sprite,
    cube_sprite,
    cube_text_size,
    die_sprite,
    paste,
    ring_sprite,
)
from bot.render.state import LastPlay
from bot.render.static import number_size, static_board
from bot.render.view import View

RGB = theme.RGB
Box = tuple[int, int, int, int]
_BAR = 25
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
    """Paints the pieces of one board image onto its copy of the static board."""

    def __init__(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, geo: Layout, view: View
    ) -> None:
        self.image = image
        self.draw = draw
        self.geo = geo
        self.view = view
        self.state = view.state
        self.size: Size = (geo.width, geo.height)
        self.labels: list[Label] = []
        """The texts drawn so far (counts, point numbers in pills, the cube's value)."""
        self.drawn: list[Box] = []
        """Boxes holding every pixel drawn over the static board so far (overlapping)."""

    def _mark(self, box: tuple[float, float, float, float], margin: float = 2) -> None:
        x0, y0, x1, y1 = box
        self.drawn.append(
            (
                math.floor(x0 - margin),
                math.floor(y0 - margin),
                math.ceil(x1 + margin) + 1,
                math.ceil(y1 + margin) + 1,
            )
        )

    def number(self, role: Role, value: int, center: tuple[float, float], colour: RGB) -> None:
        """A count or point number, centred on ``center``."""
        label = place(
            role, str(value), number_size(self.geo), center, colour, bold=True, anchor="mm"
        )
        paint(self.draw, label)
        self._mark(label.box)
        self.labels.append(label)

    def checkers(self) -> None:
        view, size = self.view, self.size
        for player in (0, 1):
            sprite = checker_sprite(self.geo.checker, player)
            text = theme.PLAYER_COLOURS[player].text
            for point in range(1, 25):
                count = view.count_on(player, point)
                for index in range(min(count, MAX_STACK)):
                    self.drawn.append(paste(self.image, sprite, checker_center(point, index, size)))
                if count > MAX_STACK:
                    self.number("count", count, checker_center(point, MAX_STACK - 1, size), text)
            side = view.side_of(player)
            on_bar = view.counts(player)[24]
            for index in range(min(on_bar, MAX_BAR_STACK)):
                self.drawn.append(paste(self.image, sprite, bar_center(side, index, size)))
            if on_bar > MAX_BAR_STACK:
                self.number("count", on_bar, bar_center(side, MAX_BAR_STACK - 1, size), text)
            self.tray(player, side)

    def tray(self, player: int, side: Side) -> None:
        off = self.view.off(player)
        if off:
            box, patch = tray_patch(self.size, side, player, off)
            self.image.im.paste(patch.im, box)
            self.drawn.append(box)
            self.number("count", off, tray_count_center(side, off, self.size), theme.FRAME_TEXT)

    def cube(self) -> None:
        state, geo = self.state, self.geo
        if state.phase == "doubled":
            offered = str(2 * state.cube_value)
            center = roller_area_center(self.view.side_of(state.on_roll), self.size)
            side = round(geo.cube * 1.15)
            self.drawn.append(paste(self.image, cube_sprite(side, offered, True), center))
            self.cube_label(side, offered, center)
            return
        if state.phase == "over" or not state.cube_in_play:
            return
        where = None if state.cube_owner is None else self.view.side_of(state.cube_owner)
        text = "64" if where is None and state.cube_value == 1 else str(state.cube_value)
        sprite = cube_sprite(geo.cube, text, False)
        self.drawn.append(paste(self.image, sprite, cube_center(where, self.size)))
        self.cube_label(geo.cube, text, cube_center(where, self.size))

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
            self.drawn.append(paste(self.image, sprite, center))

    def last_play(self, last: LastPlay | None) -> None:
        if last is None:
            return
        view, size, geo = self.view, self.size, self.geo
        player, play = last.player, last.play
        side = view.side_of(player)
        net: Counter[int] = Counter()
        for source, dest in play.steps:
            net[source] -= 1
            net[dest] += 1
        ring_width = max(2, round(3 * geo.scale))
        ring = ring_sprite(geo.checker + 2 * ring_width, ring_width, False)
        ghost = ring_sprite(geo.checker - 2, ring_width, True)
        marked: dict[int, bool] = {}
        for point, change in net.items():
            if change == 0 or point in (_BAR, _OFF):
                continue
            target = view.viewer_point(player, point)
            here = view.count_on(player, target)
            if change > 0:
                for index in range(max(0, min(here, MAX_STACK) - change), min(here, MAX_STACK)):
                    self.drawn.append(paste(self.image, ring, checker_center(target, index, size)))
                marked[target] = True
            else:
                for index in range(here, min(here - change, MAX_STACK)):
                    self.drawn.append(paste(self.image, ghost, checker_center(target, index, size)))
                marked.setdefault(target, False)
        if net[_OFF] > 0:
            off = view.off(player)
            for index in range(max(0, off - net[_OFF]), off):
                x0, y0, x1, y1 = tray_slab_box(side, index, size)
                self._mark((x0 - 2, y0 - 1, x1 + 2, y1 + 1))
                self.draw.rounded_rectangle(
                    (x0 - 2, y0 - 1, x1 + 2, y1 + 1),
                    radius=max(1, round(3 * geo.scale)),
                    outline=theme.HIGHLIGHT,
                    width=2,
                )
        if net[_BAR] < 0:
            on_bar = view.counts(player)[24]
            if on_bar < MAX_BAR_STACK:
                self.drawn.append(paste(self.image, ghost, bar_center(side, on_bar, size)))
        for target, arrived in sorted(marked.items()):
            self.number_pill(target, filled=arrived)
        for point in play.hits:
            self.hit_badge(view.viewer_point(player, point))

    def number_pill(self, point: int, *, filled: bool) -> None:
        geo = self.geo
        x, y = point_number_center(point, self.size)
        half_w = geo.point_width / 2 - 3 * geo.scale
        half_h = (geo.field_top - geo.board[1] - geo.frame) / 2 - 1
        box = (x - half_w, y - half_h, x + half_w, y + half_h)
        radius = round(half_h)
        self._mark(box)
        if filled:
            self.draw.rounded_rectangle(box, radius=radius, fill=theme.HIGHLIGHT)
            colour = theme.HIGHLIGHT_TEXT
        else:
            self.draw.rounded_rectangle(
                box,
                radius=radius,
                fill=theme.FRAME,
                outline=theme.HIGHLIGHT,
                width=max(2, round(2 * geo.scale)),
            )
            colour = theme.HIGHLIGHT
        self.number("point", point, (x, y), colour)

    def hit_badge(self, point: int) -> None:
        """A magenta disc with a white cross at the edge end of the point where a blot was hit."""
        geo = self.geo
        x = point_x(point, self.size)
        radius = geo.checker * 0.24
        top = point >= 13
        edge = geo.field_top if top else geo.field_bottom
        cx = x + geo.point_width / 2 - radius * 0.6
        cy = edge + radius * 1.05 if top else edge - radius * 1.05
        self._mark((cx - radius, cy - radius, cx + radius, cy + radius), margin=4 * geo.scale)
        self.draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=theme.HIT,
            outline=theme.TEXT,
            width=max(1, round(2 * geo.scale)),
        )
        arm = radius * 0.45
        width = max(2, round(3 * geo.scale))
        self.draw.line((cx - arm, cy - arm, cx + arm, cy + arm), fill=theme.TEXT, width=width)
        self.draw.line((cx - arm, cy + arm, cx + arm, cy - arm), fill=theme.TEXT, width=width)
