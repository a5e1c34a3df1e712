"""Where things go on the image: pure functions of the image size, shared by renderer and tests.

Everything is from the viewer's side: the viewer's points are numbered 1-24 with their home board
(1-6) bottom right, 7-12 bottom left, 13-18 top left and 19-24 top right. ``"bottom"`` is the
viewer's side (the viewer's checkers, bar stack, tray and cube), ``"top"`` the opponent's. The
board is symmetric top to bottom about :func:`board_mid_y`: the viewer's point ``p`` and point
``25 - p`` are mirror images, which is what the other player sees.

Layout, top to bottom: the top player's strip, the board, the bottom player's strip, the status
line. Left to right: the cube column, then the board's frame holding the left quadrant (points
7-18), the bar, the right quadrant (points 1-6 and 19-24) and the trays for borne-off checkers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Side = Literal["bottom", "top"]
Size = tuple[int, int]
Box = tuple[int, int, int, int]

DEFAULT_SIZE: Size = (900, 734)
MAX_STACK = 5
"""Checkers drawn on a point; a taller stack shows its count on the outermost drawn checker."""
MAX_BAR_STACK = 4
CHECKERS = 15
STRIP_HEIGHT = 60
"""A player's strip at the default size: room for a name on two lines of 22 px text."""
_BASE_W, _BASE_H = DEFAULT_SIZE


@dataclass(frozen=True)
class Layout:
    """Pixel coordinates of every region, for one image size."""

    width: int
    height: int
    scale: float
    top_strip: Box
    bottom_strip: Box
    status_strip: Box
    board: Box
    frame: int
    field_top: int
    field_bottom: int
    field_x0: int
    field_x1: int
    bar_x0: int
    bar_x1: int
    tray_x0: int
    tray_x1: int
    point_width: float
    checker: int
    triangle: int
    slab: int
    slab_pitch: int
    cube: int
    die: int
    cube_x: int

    @property
    def mid_y(self) -> float:
        return (self.field_top + self.field_bottom) / 2

    @property
    def half(self) -> float:
        return (self.field_bottom - self.field_top) / 2

    @property
    def right_x0(self) -> int:
        return self.bar_x1

    @property
    def left_x1(self) -> int:
        return self.bar_x0

    def mirror_y(self, y: float) -> float:
        return self.field_top + self.field_bottom - y


@lru_cache(maxsize=8)
def layout(size: Size = DEFAULT_SIZE) -> Layout:
    width, height = size
    if width < 300 or height < 240:
        raise ValueError(f"a board image needs at least 300x240 pixels, not {width}x{height}")
    sx, sy = width / _BASE_W, height / _BASE_H
    scale = min(sx, sy)
    top_h, bottom_h, status_h = round(STRIP_HEIGHT * sy), round(STRIP_HEIGHT * sy), round(46 * sy)
    board_y0, board_y1 = top_h, height - bottom_h - status_h
    frame = max(4, round(10 * scale))
    band = round(26 * scale)
    field_top, field_bottom = board_y0 + frame + band, board_y1 - frame - band
    cube_col = round(62 * sx)
    board_x0, board_x1 = cube_col, width - round(6 * sx)
    tray_x1 = board_x1 - frame
    tray_x0 = tray_x1 - round(60 * sx)
    field_x0, field_x1 = board_x0 + frame, tray_x0 - frame
    bar_w = round(52 * sx)
    point_width = (field_x1 - field_x0 - bar_w) / 12
    bar_x0 = round(field_x0 + 6 * point_width)
    bar_x1 = bar_x0 + bar_w
    half = (field_bottom - field_top) / 2
    checker = int(min(point_width - 6 * scale, (half - 22 * scale) / MAX_STACK))
    slab_pitch = max(3, int((half - 40 * scale) / CHECKERS))
    return Layout(
        width=width,
        height=height,
        scale=scale,
        top_strip=(0, 0, width, board_y0),
        bottom_strip=(0, board_y1, width, board_y1 + bottom_h),
        status_strip=(0, board_y1 + bottom_h, width, height),
        board=(board_x0, board_y0, board_x1, board_y1),
        frame=frame,
        field_top=field_top,
        field_bottom=field_bottom,
        field_x0=field_x0,
        field_x1=field_x1,
        bar_x0=bar_x0,
        bar_x1=bar_x1,
        tray_x0=tray_x0,
        tray_x1=tray_x1,
        point_width=point_width,
        checker=checker,
        triangle=round(checker * (MAX_STACK - 0.35)),
        slab=max(2, slab_pitch - max(1, round(2 * scale))),
        slab_pitch=slab_pitch,
        cube=round(46 * scale),
        die=round(38 * scale),
        cube_x=cube_col // 2 + round(2 * sx),
    )


def board_mid_y(size: Size = DEFAULT_SIZE) -> float:
    """The horizontal line the board is symmetric about."""
    return layout(size).mid_y


def is_top(point: int) -> bool:
    _check_point(point)
    return point >= 13


def point_x(point: int, size: Size = DEFAULT_SIZE) -> float:
    """The x of the middle of the viewer's ``point`` (1-24)."""
    _check_point(point)
    geo = layout(size)
    pw = geo.point_width
    if point <= 6:
        return geo.field_x1 - (point - 0.5) * pw
    if point <= 12:
        return geo.field_x0 + (12 - point + 0.5) * pw
    if point <= 18:
        return geo.field_x0 + (point - 12 - 0.5) * pw
    return geo.field_x1 - (24 - point + 0.5) * pw


def checker_center(point: int, index: int, size: Size = DEFAULT_SIZE) -> tuple[float, float]:
    """The centre of the ``index``-th checker (0 = at the edge) on the viewer's ``point``."""
    if not 0 <= index < MAX_STACK:
        raise ValueError(f"only {MAX_STACK} checkers are drawn on a point, not index {index}")
    geo = layout(size)
    offset = geo.checker * (index + 0.5)
    y = geo.field_top + offset if is_top(point) else geo.field_bottom - offset
    return point_x(point, size), y


def point_number_center(point: int, size: Size = DEFAULT_SIZE) -> tuple[float, float]:
    """The centre of the viewer's point number, in the frame above or below the point."""
    geo = layout(size)
    band = geo.field_top - geo.board[1] - geo.frame
    if is_top(point):
        return point_x(point, size), geo.board[1] + geo.frame + band / 2
    return point_x(point, size), geo.board[3] - geo.frame - band / 2


def bar_center(side: Side, index: int, size: Size = DEFAULT_SIZE) -> tuple[float, float]:
    """The centre of a checker on the bar: each side's stack grows from the middle outwards."""
    if not 0 <= index < MAX_BAR_STACK:
        raise ValueError(f"only {MAX_BAR_STACK} checkers are drawn on the bar, not {index}")
    geo = layout(size)
    offset = geo.checker * (index + 0.9)
    x = (geo.bar_x0 + geo.bar_x1) / 2
    return x, geo.mid_y + offset if side == "bottom" else geo.mid_y - offset


def tray_slab_box(side: Side, index: int, size: Size = DEFAULT_SIZE) -> Box:
    """The rectangle of the ``index``-th borne-off checker (0 = at the edge) in a tray."""
    if not 0 <= index < CHECKERS:
        raise ValueError(f"a tray holds {CHECKERS} checkers, not index {index}")
    geo = layout(size)
    inset = max(2, round(7 * geo.scale))
    x0, x1 = geo.tray_x0 + inset, geo.tray_x1 - inset
    edge = max(1, round(3 * geo.scale))
    if side == "bottom":
        y1 = geo.field_bottom - edge - index * geo.slab_pitch
        return x0, y1 - geo.slab, x1, y1
    y0 = geo.field_top + edge + index * geo.slab_pitch
    return x0, y0, x1, y0 + geo.slab


def tray_count_center(side: Side, count: int, size: Size = DEFAULT_SIZE) -> tuple[float, float]:
    """Where a tray's count of ``count`` (1-15) borne-off checkers is written: past its stack."""
    if not 1 <= count <= CHECKERS:
        raise ValueError(f"a tray holds 1 to {CHECKERS} checkers, not {count}")
    geo = layout(size)
    _, y0, _, y1 = tray_slab_box(side, count - 1, size)
    offset = 13 * geo.scale
    return (geo.tray_x0 + geo.tray_x1) / 2, y0 - offset if side == "bottom" else y1 + offset


def cube_center(where: Side | None, size: Size = DEFAULT_SIZE) -> tuple[float, float]:
    """The cube in the left column: ``None`` = centred, else at its owner's end."""
    geo = layout(size)
    if where is None:
        return geo.cube_x, geo.mid_y
    offset = geo.cube / 2 + 4 * geo.scale
    return geo.cube_x, geo.field_bottom - offset if where == "bottom" else geo.field_top + offset


def roller_area_center(side: Side, size: Size = DEFAULT_SIZE) -> tuple[float, float]:
    """The middle of the quadrant on the roller's right: where their dice (or offered cube) go.

    The bottom player rolls into the right half, the top player (facing them) into the left.
    """
    geo = layout(size)
    if side == "bottom":
        return (geo.bar_x1 + geo.field_x1) / 2, geo.mid_y
    return (geo.field_x0 + geo.bar_x0) / 2, geo.mid_y


def dice_centers(side: Side, count: int, size: Size = DEFAULT_SIZE) -> list[tuple[float, float]]:
    """Centres of ``count`` dice (2, or 4 for doubles) in the roller's quadrant."""
    geo = layout(size)
    cx, cy = roller_area_center(side, size)
    pitch = geo.die + 10 * geo.scale
    return [(cx + (i - (count - 1) / 2) * pitch, cy) for i in range(count)]


def _check_point(point: int) -> None:
    if not 1 <= point <= 24:
        raise ValueError(f"points are numbered 1-24, not {point}")
