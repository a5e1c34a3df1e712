"""Plays drawn on the board as arrows: what was played and what GNU Backgammon would play.

An :class:`Arrow` moves one checker of the player on roll (``state.players[state.on_roll]``,
the position's mover) from ``source`` to ``target``, in that player's own numbering as gnubg
writes plays: 25 = the bar, 0 = off, 1-24 from the mover's home board. :func:`arrows_of` reads
a play's gnubg notation (``24/18*/13 8/2(2)``) into arrows, one per step written, so a checker
that hits on its way (``24/18*/13``) gives two arrows, and the blot it hits is ringed.

Arrows are laid on the board *before* the play: each starts at the top checker of its source
(or the mover's bar stack) and ends where that checker lands (the point's next free place, or
the next slab of the tray when bearing off: its left quarter, clear of the tray's count), each
kind's arrows played one after the other on their own copy of the position. Arrows from (or
to) one place are moved a little apart, and each kind bows by its own amount, so the played
and the best arrow of one checker part. :func:`arrow_layout` gives every arrow's pixels for tests.

The renderer draws every arrow it is given: when the play made is the best, the caller passes
one set only.

Kinds: ``"played"`` a solid warm yellow, ``"best"`` a dashed cyan, ``"candidate"`` a thinner
solid violet; all three have a dark edge, so they read on the felt, both point colours and both
checker colours, and they differ in style as well as colour for colour-blind players.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Literal

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.geometry import (
    CHECKERS,
    DEFAULT_SIZE,
    MAX_BAR_STACK,
    MAX_STACK,
    Layout,
    Size,
    bar_center,
    checker_center,
    layout,
    tray_slab_box,
)
from bot.render.state import BoardState
from bot.render.view import View
from bot.rules.notation import BAR, NO_LEGAL_MOVE, OFF, normalise_play_text, parse_segments

__all__ = ["ARROW_KINDS", "Arrow", "ArrowKind", "ArrowPath", "arrow_layout", "arrows_of"]

ArrowKind = Literal["played", "best", "candidate"]
ARROW_KINDS: tuple[str, ...] = ("played", "best", "candidate")
XY = tuple[float, float]

_SUPERSAMPLE = 2
_BULGE = {"played": 0.10, "best": 0.17, "candidate": 0.24}
"""How far each kind's curve bows towards the middle of the board, as a share of its length:
the played and the best arrow of one checker part after their common start."""


@dataclass(frozen=True, slots=True)
class Arrow:
    """One checker of the player on roll moved from ``source`` (25 = the bar, 1-24) to ``target``
    (0 = off, 1-24), on that player's own numbering, as ``kind`` (played, best or candidate)."""

    source: int
    target: int
    kind: ArrowKind = "played"

    def __post_init__(self) -> None:
        if not 1 <= self.source <= BAR:
            raise ValueError(f"an arrow starts on 1-24 or the bar (25), not {self.source!r}")
        if not OFF <= self.target < self.source:
            raise ValueError(
                f"an arrow from {self.source} ends on a lower point or off (0), not {self.target!r}"
            )
        if self.kind not in ARROW_KINDS:
            raise ValueError(f"an arrow is one of {', '.join(ARROW_KINDS)}, not {self.kind!r}")


@dataclass(frozen=True, slots=True)
class ArrowPath:
    """Where one arrow is drawn, in pixels: a quadratic curve from ``start`` through ``control``
    to ``end`` (the arrowhead's tip), and the centre of the blot it hits at its target, if any."""

    arrow: Arrow
    start: XY
    control: XY
    end: XY
    hit: XY | None
    width: float
    """The shaft's width, without its dark edge."""
    head: float
    """The arrowhead's length along the curve."""
    ring: float = 0.0
    """The radius of the middle of the ring round the blot hit (0: none)."""

    def at(self, t: float) -> XY:
        """The curve's point at ``t`` (0 = start, 1 = end)."""
        u = 1 - t
        (x0, y0), (x1, y1), (x2, y2) = self.start, self.control, self.end
        return u * u * x0 + 2 * u * t * x1 + t * t * x2, u * u * y0 + 2 * u * t * y1 + t * t * y2

    @property
    def middle(self) -> XY:
        return self.at(0.5)

    @property
    def head_point(self) -> XY:
        """A point well inside the arrowhead: on the curve, a third of the head from its tip."""
        x, y = self.end
        dx, dy = _unit(self.end, self.control)
        return x - dx * self.head / 3, y - dy * self.head / 3

    def polyline(self, count: int = 16) -> list[XY]:
        return [self.at(index / count) for index in range(count + 1)]


def arrows_of(play: str, kind: ArrowKind = "played") -> tuple[Arrow, ...]:
    """The arrows of a play in gnubg notation (``24/18*/13``, ``bar/22``, ``6/off``, ``8/2(2)``,
    ``13/7 8/7``; FIBS ``13-7`` too): one per step written, ``(n)`` times. ``no legal move`` (or
    nothing) gives none. Raises :class:`bot.rules.InvalidMoveError` (a ValueError) when the text
    is not a play."""
    if normalise_play_text(play).strip().lower() in ("", NO_LEGAL_MOVE):
        return ()
    arrows: list[Arrow] = []
    for segment in parse_segments(play):
        for _ in range(segment.count):
            arrows.extend(Arrow(source, target, kind) for source, target in pairwise(segment.path))
    return tuple(arrows)


def arrow_layout(
    state: BoardState,
    viewer: int | None,
    arrows: Sequence[Arrow],
    *,
    size: Size = DEFAULT_SIZE,
) -> tuple[ArrowPath, ...]:
    """Each arrow's pixels on the board :func:`bot.render.render_image` draws for ``viewer``
    (``None``: the player on roll), in the order given. Raises ValueError when an arrow starts
    where the player on roll has no checker at that moment of its kind's play."""
    if viewer not in (None, 0, 1):
        raise ValueError(f"viewer must be 0, 1 or None (a spectator), not {viewer!r}")
    size = (int(size[0]), int(size[1]))
    view = View(state, state.on_roll if viewer is None else viewer)
    return paths_for(view, layout(size), tuple(arrows))


def paths_for(view: View, geo: Layout, arrows: tuple[Arrow, ...]) -> tuple[ArrowPath, ...]:
    """:func:`arrow_layout` for the renderer, which has the view and the layout at hand."""
    size: Size = (geo.width, geo.height)
    mover = view.state.on_roll
    side = view.side_of(mover)
    position = view.state.position
    boards: dict[str, tuple[list[int], list[int], list[int]]] = {}
    ends: list[tuple[Arrow, XY, XY, XY | None]] = []
    for arrow in arrows:
        if arrow.kind not in boards:
            boards[arrow.kind] = (list(position.mover), list(position.opponent), [view.off(mover)])
        mine, theirs, off = boards[arrow.kind]
        source, target = arrow.source, arrow.target
        here = mine[source - 1]
        if here <= 0:
            where = "the bar" if source == BAR else f"point {source}"
            raise ValueError(
                f"the arrow {source}/{target or 'off'} ({arrow.kind}) starts on {where}, where "
                "the player on roll has no checker then: arrows are drawn on the board before "
                "the play"
            )
        mine[source - 1] -= 1
        if source == BAR:
            start = bar_center(side, min(here, MAX_BAR_STACK) - 1, size)
        else:
            start = checker_center(view.viewer_point(mover, source), min(here, MAX_STACK) - 1, size)
        hit: XY | None = None
        if target == OFF:
            x0, y0, x1, y1 = tray_slab_box(side, min(off[0], CHECKERS - 1), size)
            end = x0 + (x1 - x0) / 4, (y0 + y1) / 2  # clear of the tray's count
            off[0] += 1
        else:
            shown = view.viewer_point(mover, target)
            if theirs[24 - target] == 1:  # a blot: hit, it goes to their bar
                theirs[24 - target] = 0
                theirs[24] += 1
                hit = checker_center(shown, 0, size)
            end = checker_center(shown, min(mine[target - 1], MAX_STACK - 1), size)
            mine[target - 1] += 1
        ends.append((arrow, start, end, hit))
    # Checkers moved together (8/5(2)) leave from the top down and land from the edge up: give
    # the first to leave the last place to land, so their arrows don't cross.
    alike: dict[Arrow, list[int]] = {}
    for index, (arrow, _, _, _) in enumerate(ends):
        alike.setdefault(arrow, []).append(index)
    for members in alike.values():
        landings = [ends[index][2:] for index in reversed(members)]
        for index, (end, hit) in zip(members, landings, strict=True):
            ends[index] = (ends[index][0], ends[index][1], end, hit)
    starts = _spread([start for _, start, _, _ in ends], [end for _, _, end, _ in ends], geo)
    finishes = _spread([end for _, _, end, _ in ends], [start for _, start, _, _ in ends], geo)
    middle = ((geo.field_x0 + geo.field_x1) / 2, geo.mid_y)
    paths = []
    for (arrow, _, _, hit), start, end in zip(ends, starts, finishes, strict=True):
        paths.append(_path(arrow, start, end, hit, middle, geo))
    return tuple(paths)


def _spread(places: list[XY], others: list[XY], geo: Layout) -> list[XY]:
    """``places`` with those that coincide moved apart, across the line to their other end:
    several arrows from (or to) one place don't lie on one another."""
    spacing = geo.checker * 0.26
    moved = list(places)
    groups: dict[tuple[int, int], list[int]] = {}
    for index, (x, y) in enumerate(places):
        groups.setdefault((round(x / 3), round(y / 3)), []).append(index)
    for members in groups.values():
        if len(members) < 2:
            continue
        for rank, index in enumerate(members):
            dx, dy = _unit(others[index], places[index])
            shift = (rank - (len(members) - 1) / 2) * spacing
            x, y = places[index]
            moved[index] = x - dy * shift, y + dx * shift
    return moved


def _path(arrow: Arrow, start: XY, end: XY, hit: XY | None, middle: XY, geo: Layout) -> ArrowPath:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    dx, dy = _unit(end, start)
    normal = -dy, dx
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    towards = (middle[0] - mx) * normal[0] + (middle[1] - my) * normal[1]
    sign = 1.0 if towards >= 0 else -1.0
    bulge = sign * min(length * _BULGE[arrow.kind], geo.checker * 2.2)
    control = mx + normal[0] * bulge * 2, my + normal[1] * bulge * 2  # the curve peaks at half
    thin = arrow.kind == "candidate"
    width = max(3.0, geo.checker * (0.12 if thin else 0.16))
    head = min(max(8.0, geo.checker * 0.62), length * 0.6) if length else 0.0
    # the ring: just outside the blot's rim, in the arrow's colour between two dark edges
    ring = geo.checker / 2 + width * 0.6 - _edge(width) - width * 0.35 if hit else 0.0
    return ArrowPath(arrow, start, control, end, hit, width, head, ring)


def sample_path(kind: ArrowKind, start: XY, end: XY, geo: Layout) -> ArrowPath:
    """A straight arrow of ``kind`` from ``start`` to ``end``, drawn as the board's are: the
    legend's sample of it."""
    middle = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    path = _path(Arrow(1, 0, kind), start, end, None, middle, geo)
    return replace(path, control=middle)


def _edge(width: float) -> float:
    """The width of the dark edge of an arrow ``width`` wide."""
    return max(1.5, width * 0.3)


def _unit(to: XY, origin: XY) -> XY:
    dx, dy = to[0] - origin[0], to[1] - origin[1]
    norm = math.hypot(dx, dy)
    return (dx / norm, dy / norm) if norm else (0.0, 0.0)


# -- drawing ----------------------------------------------------------------------------------


def draw_arrows(image: Image.Image, geo: Layout, paths: Sequence[ArrowPath]) -> None:
    """Draw ``paths`` onto ``image``, anti-aliased: the part of the image they cover is drawn
    again at twice the size and shrunk back (a box filter leaves the rest as it was).
    The played arrows are drawn first, so the best ones' dashes show over them."""
    if not paths:
        return
    margin = geo.checker
    xs = [x for path in paths for x, _ in (path.start, path.control, path.end)]
    ys = [y for path in paths for _, y in (path.start, path.control, path.end)]
    k = _SUPERSAMPLE
    box = (
        max(0, int(min(xs) - margin)),
        max(0, int(min(ys) - margin)),
        min(geo.width, math.ceil(max(xs) + margin)),
        min(geo.height, math.ceil(max(ys) + margin)),
    )
    width, height = box[2] - box[0], box[3] - box[1]
    patch = image.crop(box).resize((width * k, height * k), Image.Resampling.NEAREST)
    draw = ImageDraw.Draw(patch)
    order = {kind: rank for rank, kind in enumerate(("candidate", "played", "best"))}
    for path in sorted(paths, key=lambda path: order[path.arrow.kind]):
        _draw(draw, path, (box[0], box[1]), k)
    image.paste(patch.reduce(k), box[:2])


def _draw(draw: ImageDraw.ImageDraw, path: ArrowPath, origin: XY, k: int) -> None:
    def big(xy: XY) -> XY:
        return (xy[0] - origin[0]) * k, (xy[1] - origin[1]) * k

    kind = path.arrow.kind
    colour = {"played": theme.ARROW_PLAYED, "best": theme.ARROW_BEST}.get(
        kind, theme.ARROW_CANDIDATE
    )
    edge_colour = theme.ARROW_EDGE
    width = path.width * k
    edge = _edge(path.width) * k
    line = [big(xy) for xy in _shaft(path)]
    tip = big(path.end)
    if path.hit is not None:
        _ring(draw, big(path.hit), path, k, colour, dashed=kind == "best")
    if kind == "best":
        for piece in _dashes(line, width * 2.4, width * 1.5):
            draw.polygon(_band(_extend(piece, edge), width + 2 * edge), fill=edge_colour)
            draw.polygon(_band(piece, width), fill=colour)
    else:
        draw.polygon(_band(line, width + 2 * edge), fill=edge_colour)
        _disc(draw, line[0], (width + 2 * edge) / 2, edge_colour)
        draw.polygon(_band(line, width), fill=colour)
        _disc(draw, line[0], width * 0.95, colour)
    # the head: a triangle along the curve's last direction, edged
    dx, dy = _unit(path.end, path.control)
    if dx == dy == 0:
        return
    length, half = path.head * k, path.head * k * 0.55
    base = tip[0] - dx * length, tip[1] - dy * length
    left = base[0] - dy * half, base[1] + dx * half
    right = base[0] + dy * half, base[1] - dx * half
    # the edge as a larger triangle with the same angles, its tip pushed forward
    grow = edge * 1.9
    e_tip = tip[0] + dx * grow, tip[1] + dy * grow
    e_base = base[0] - dx * edge * 0.7, base[1] - dy * edge * 0.7
    e_half = half + grow * 0.9
    e_left = e_base[0] - dy * e_half, e_base[1] + dx * e_half
    e_right = e_base[0] + dy * e_half, e_base[1] - dx * e_half
    draw.polygon([e_tip, e_left, e_right], fill=edge_colour)
    draw.polygon([tip, left, right], fill=colour)


def _shaft(path: ArrowPath) -> list[XY]:
    """The curve from its start to the arrowhead's base (where the shaft ends)."""
    points = path.polyline()
    keep = [points[0]]
    for point in points[1:]:
        if math.dist(point, path.end) <= path.head * 0.85:
            break
        keep.append(point)
    dx, dy = _unit(path.end, path.control)
    keep.append((path.end[0] - dx * path.head * 0.85, path.end[1] - dy * path.head * 0.85))
    return keep


def _dashes(line: list[XY], dash: float, gap: float) -> list[list[XY]]:
    """The pieces of the polyline ``line`` of a dashed line; the last dash reaches its end."""
    pieces: list[list[XY]] = []
    current: list[XY] = [line[0]]
    drawing, left = True, dash
    for a, b in pairwise(line):
        length = math.dist(a, b)
        at = 0.0
        while length - at > left:
            at += left
            point = a[0] + (b[0] - a[0]) * at / length, a[1] + (b[1] - a[1]) * at / length
            if drawing:
                current.append(point)
                pieces.append(current)
            else:
                current = [point]
            drawing, left = not drawing, dash if not drawing else gap
        left -= length - at
        if drawing:
            current.append(b)
    if drawing and len(current) > 1:
        pieces.append(current)
    elif not drawing:
        pieces.append([line[-1], line[-1]])  # the head takes over
    return [piece for piece in pieces if len(piece) > 1]


def _band(line: list[XY], width: float) -> list[XY]:
    """The outline of the polyline ``line`` drawn ``width`` wide: one polygon, quicker than
    a thick line with round joints, and as smooth on a gentle curve."""
    half = width / 2
    left: list[XY] = []
    right: list[XY] = []
    last = len(line) - 1
    for index, (x, y) in enumerate(line):
        dx, dy = _unit(line[min(index + 1, last)], line[max(index - 1, 0)])
        left.append((x - dy * half, y + dx * half))
        right.append((x + dy * half, y - dx * half))
    return left + right[::-1]


def _extend(piece: list[XY], amount: float) -> list[XY]:
    """The polyline lengthened by ``amount`` at both ends, along its end directions."""
    if len(piece) < 2 or piece[0] == piece[-1]:
        return piece
    (ax, ay), (bx, by) = piece[0], piece[1]
    dx, dy = _unit((ax, ay), (bx, by))
    first = ax + dx * amount, ay + dy * amount
    (cx, cy), (ex, ey) = piece[-2], piece[-1]
    dx, dy = _unit((ex, ey), (cx, cy))
    last = ex + dx * amount, ey + dy * amount
    return [first, *piece, last]


def _disc(draw: ImageDraw.ImageDraw, center: XY, radius: float, colour: theme.RGB) -> None:
    x, y = center
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)


def _ring(
    draw: ImageDraw.ImageDraw,
    center: XY,
    path: ArrowPath,
    k: int,
    colour: theme.RGB,
    *,
    dashed: bool,
) -> None:
    """A ring round the blot the arrow hits (the head covers its middle, the ring its rim)."""
    x, y = center
    band = path.width * 0.7 * k
    edge = _edge(path.width) * k
    outer = path.ring * k + band / 2 + edge
    box = (x - outer, y - outer, x + outer, y + outer)
    draw.ellipse(box, outline=theme.ARROW_EDGE, width=round(band + 2 * edge))
    inner = (box[0] + edge, box[1] + edge, box[2] - edge, box[3] - edge)
    if not dashed:
        draw.ellipse(inner, outline=colour, width=round(band))
        return
    for dash in range(10):
        draw.arc(inner, dash * 36, dash * 36 + 22, fill=colour, width=round(band))
