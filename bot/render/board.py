"""Drawing the board: a :class:`BoardState` and a viewer in, PNG bytes out. No I/O.

The static board (strips, frame, felt, points, point numbers; :mod:`bot.render.static`) is drawn
once per image size, supersampled for smooth edges (at the default size it ships drawn:
:mod:`bot.render.layers`); checkers, dice and the cube are anti-aliased sprites
(:mod:`bot.render.sprites`) drawn once per size and pasted by :mod:`bot.render.pieces`;
:mod:`bot.render.strips` writes the names, scores and the status line (whose wording is
:mod:`bot.render.status`). Plays to review are drawn over the pieces as arrows
(:mod:`bot.render.arrows`). The pixels are mapped on one palette per size
(:mod:`bot.render.palette`) and written as a PNG by :mod:`bot.render.png`.
:func:`~bot.render.whole.render_image` draws a whole image; :func:`render_board` pastes tiles
kept mapped on the palette over the static board mapped once (:mod:`bot.render.tiles`):
the pieces in groups apart (a stack, a stack with the last play's ring over it, a die), each
strip as a board showed it, else its parts (a name, each text of the row of pips and score, the
last play); what it has not kept it draws on its thread's canvas, maps and wipes. A roll's board
after the play before it pastes that board's pieces and looks up only its dice, and deflates only
the rows of its dice and status line (:func:`_encoded`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.bounded import Bounded
from bot.i18n.core import ENGLISH, Language
from bot.render.arrows import Arrow, arrows_of
from bot.render.fonts import font
from bot.render.geometry import DEFAULT_SIZE, Layout, Size, layout, roller_area_center
from bot.render.glyphs import warm_pairs, warm_texts
from bot.render.labels import MIN_TEXT
from bot.render.palette import Part, mapped, palette_bytes, paletted, static_rows
from bot.render.pieces import Box, Op, Pieces
from bot.render.png import Run, deflated, encode_png, pixels, png_bytes, png_of_runs
from bot.render.samples import palette_samples
from bot.render.state import BoardState, LastPlay
from bot.render.static import static_board
from bot.render.status import STATUS_SIZES, actor, fitted_status, status_text
from bot.render.strips import Strips
from bot.render.text import fit_text
from bot.render.tiles import Group, groups, overlap
from bot.render.view import View
from bot.render.whole import drawn_whole

__all__ = [
    "Arrow",
    "actor",
    "arrows_of",
    "encode_png",
    "fit_text",
    "fitted_status",
    "render_board",
    "status_text",
    "warm_up",
]

Kept = Bounded[tuple[object, ...], list[Part]]
LAYERS_KEPT = 4096  # the pieces' tiles kept mapped (at most 0.02 MB each at 900x734, a stack)
_LAYERS: Kept = Bounded(LAYERS_KEPT)
DICE_KEPT = 512  # the tiles with dice
_DICE: Kept = Bounded(DICE_KEPT)
STRIPS_KEPT = 512  # strips kept mapped, as the parts drawn in them
_STRIPS: Kept = Bounded(STRIPS_KEPT)
CELLS_KEPT = 2048  # the parts of strips kept mapped (a name, a row of pips and score...)
_CELLS: Kept = Bounded(CELLS_KEPT)
BOARDS_KEPT = 256  # boards' pieces kept as their tiles (those of _LAYERS) and their boxes
_BOARDS: Bounded[tuple[object, ...], tuple[list[Part], tuple[Box, ...]]] = Bounded(BOARDS_KEPT)
ENCODED_KEPT = 256  # boards' rows deflated in runs (about 0.04 MB each) and the parts pasted
_ENCODED: Bounded[tuple[object, ...], tuple[list[Part], tuple[Run, ...]]] = Bounded(ENCODED_KEPT)
_SCRATCH = threading.local()  # each thread's canvas by size (:func:`_canvas`)
_LAYERS_LOCK = threading.Lock()  # boards are drawn in threads
_SIGNS = "0123456789/-:*() "  # the characters of pip counts, scores, dice and plays
_DICE_SIGNS = "123456- "  # the status line's dice ("to move 3-1")
_DIGITS = "0123456789"  # point numbers in pills, counts on stacks and trays (bold)


def render_board(
    state: BoardState,
    *,
    viewer: int | None,
    size: Size = DEFAULT_SIZE,
    last_play: LastPlay | None = None,
    arrows: Sequence[Arrow] = (),
    language: Language = ENGLISH,
) -> bytes:
    """The board as PNG bytes, seen by player ``viewer`` (0 or 1; ``None`` = a spectator, who
    sees it from the side of the player on roll), its words in ``language``. ``last_play``
    overrides ``state.last_play``.

    ``arrows`` (:mod:`bot.render.arrows`) draw plays of the player on roll on this board, which
    is the position *before* them: e.g. ``arrows_of(played, "played") + arrows_of(best,
    "best")``. The renderer draws every arrow it is given: where the play made is the best,
    pass one set only."""
    if arrows or viewer not in (0, 1, None):
        image, _, drawn = drawn_whole(state, viewer, size, last_play, tuple(arrows), language)
        return png_bytes(paletted(image, drawn))
    size = (int(size[0]), int(size[1]))
    if last_play is not None:
        state = replace(state, last_play=last_play)
    geo = layout(size)
    canvas = _canvas(size)
    draw = _draw(canvas)
    view = View(state, state.on_roll if viewer is None else viewer)
    key = _pieces_key(state, view.bottom, size)
    ops: list[Op] = []
    try:
        parts = _pieces(Pieces(canvas, draw, geo, view, ops), ops, key)
        if parts is None:
            image, _, drawn = drawn_whole(state, viewer, size, None, (), language)
            return png_bytes(paletted(image, drawn))
        parts += _strips(canvas, draw, geo, view, language)
    except BaseException:
        _SCRATCH.canvases.pop(size, None)  # drawn on and maybe not wiped
        raise
    return _encoded(key, size, parts)


def _encoded(key: tuple[object, ...], size: Size, parts: list[Part]) -> bytes:
    """The PNG of the static board with ``parts`` pasted: its runs of rows (:func:`_cuts`)
    deflated, or as the board before with the same pieces (``key``) deflated them where both
    pasted the same parts (a roll's board: its dice and status line alone are new). Parts are
    apart, so rows where both pasted the same parts are the same pixels."""
    with _LAYERS_LOCK:
        before = _ENCODED.get(key)
    changed = [(0, size[1])] if before is None else _changed(parts, before[0])
    cuts = list(pairwise(_cuts(size)))
    anew = [any(y0 < bottom and top < y1 for y0, y1 in changed) for top, bottom in cuts]
    rows, into = _rows(size)
    width = size[0] + 1
    static = memoryview(_static_pixels(size))
    fresh = [cut for cut, new in zip(cuts, anew, strict=True) if new]
    for top, bottom in fresh:
        rows[top * width : bottom * width] = static[top * width : bottom * width]
    every = len(fresh) == len(cuts)
    for (x0, y0, x1, y1), part in parts:  # whole: the rows of runs not deflated are not read
        if every or any(y0 < bottom and top < y1 for top, bottom in fresh):
            into.paste(part, (x0 + 1, y0, x1 + 1, y1))
    data = memoryview(rows)
    made = iter([deflated(data[top * width : bottom * width]) for top, bottom in fresh])
    runs = () if before is None else before[1]  # a board before's, where it pasted the same
    kept = tuple(next(made) if new else runs[index] for index, new in enumerate(anew))
    with _LAYERS_LOCK:
        _ENCODED.put(key, (parts, kept))
    return png_of_runs(size, palette_bytes(size), kept)


def _rows(size: Size) -> tuple[bytearray, Any]:
    """This thread's rows of a board's PNG (each a filter byte, then the pixels), and a "P"
    image core over the same memory: a board copies the static board's into the runs it
    deflates, pastes its parts and deflates the rows where they lie, with no image made or
    read out (a copy of 0.66 MB each, at 900x734)."""
    buffers: dict[Size, tuple[bytearray, Any]] | None = getattr(_SCRATCH, "rows", None)
    if buffers is None:
        buffers = _SCRATCH.rows = {}
    found = buffers.get(size)
    if found is None:
        rows = bytearray(_static_pixels(size))
        mapped_rows = Image.frombuffer("P", (size[0] + 1, size[1]), rows, "raw", "P", 0, 1)
        found = buffers[size] = (rows, mapped_rows.im)
    return found


@lru_cache(maxsize=4)
def _static_pixels(size: Size) -> bytes:
    return pixels(static_rows(size))


def _changed(parts: list[Part], before: list[Part]) -> list[tuple[int, int]]:
    """The rows (top, bottom) of each part pasted by one board and not the other (each part
    the very one kept: the same object in both where it was)."""
    mine = {id(part): part for part in parts}
    theirs = {id(part): part for part in before}
    return [
        (part[0][1], part[0][3])
        for ours, other in ((mine, theirs), (theirs, mine))
        for index, part in ours.items()
        if index not in other
    ]


@lru_cache(maxsize=4)
def _cuts(size: Size) -> tuple[int, ...]:
    """The rows where a board's rows are cut in runs deflated apart (:func:`_encoded`): around
    the dice (or an offered cube) and above the status line, what a roll's board changes."""
    geo = layout(size)
    _, middle = roller_area_center("bottom", size)
    rows = {0, math.floor(middle - geo.die), math.ceil(middle + geo.die), geo.status_strip[1]}
    return (*sorted(row for row in rows if 0 <= row < size[1]), size[1])


def _pieces(pieces: Pieces, ops: list[Op], key: tuple[object, ...]) -> list[Part] | None:
    """The tiles of ``pieces``' board (checkers, cube, dice, the last play's marks; recording
    into ``ops``): the pieces' as the board before with the same pieces pasted them, if it did,
    and its dice; ``None`` where its groups could not be made apart or reach a strip (it is
    drawn whole)."""
    geo, canvas = pieces.geo, pieces.image
    strips = (geo.top_strip, geo.bottom_strip, geo.status_strip)
    with _LAYERS_LOCK:
        board = _BOARDS.get(key)
    if board is not None:  # a roll's board after the play before it: its dice alone are new
        pieces.dice()
        kept, boxes = board
        dice = groups(ops)
        if dice is not None and not any(
            overlap(box, other) for box, _ in dice for other in (*boxes, *strips)
        ):
            return kept + _tiles(canvas, _keyed(canvas.size, dice, ops), ops, _DICE)
        ops.clear()
    pieces.checkers()
    pieces.cube()
    pieces.dice()
    pieces.last_play(pieces.state.last_play)
    found = groups(ops)
    if found is None or any(overlap(strip, box) for strip in strips for box, _ in found):
        return None
    with_dice: list[Keyed] = []
    rest: list[Keyed] = []
    for group in _keyed(canvas.size, found, ops):
        (with_dice if any(op[0] == "die" for op in group[2][1:]) else rest).append(group)
    kept = _tiles(canvas, rest, ops, _LAYERS)
    if all(op[0] == "die" for _, _, group_key in with_dice for op in group_key[1:]):
        pieces_kept = (kept, tuple(group[0] for group in rest))
        with _LAYERS_LOCK:
            _BOARDS.put(key, pieces_kept)
    return kept + _tiles(canvas, with_dice, ops, _DICE)


def _canvas(size: Size) -> Image.Image:
    """This thread's copy of the static board: what a board has not kept is drawn on it, mapped
    on the palette and wiped (:func:`_tiles`), so that a board copies no whole image."""
    canvases: dict[Size, Image.Image] | None = getattr(_SCRATCH, "canvases", None)
    if canvases is None:
        canvases = _SCRATCH.canvases = {}
    canvas = canvases.get(size)
    if canvas is None:
        canvas = canvases[size] = static_board(size).copy()
    return canvas


def _draw(canvas: Image.Image) -> ImageDraw.ImageDraw:
    """This thread's draw on ``canvas`` (its :func:`_canvas`): made once, not for each board."""
    draws: dict[Size, tuple[Image.Image, ImageDraw.ImageDraw]] | None = getattr(
        _SCRATCH, "draws", None
    )
    if draws is None:
        draws = _SCRATCH.draws = {}
    found = draws.get(canvas.size)
    if found is None or found[0] is not canvas:
        found = draws[canvas.size] = (canvas, ImageDraw.Draw(canvas))
    return found[1]


Keyed = tuple[Box, tuple[int, ...], tuple[Any, ...]]
"""A :data:`~bot.render.tiles.Group` and what its pixels depend on: the image's size, then
each of its ops' keys in order (a tile is kept under it)."""


def _keyed(size: Size, found: Sequence[Group], ops: Sequence[Op]) -> list[Keyed]:
    return [(box, members, (size, *[ops[index][1] for index in members])) for box, members in found]


def _tiles(
    canvas: Image.Image, wanted: Sequence[Keyed], ops: Sequence[Op], kept: Kept
) -> list[Part]:
    """The pixels of each group of ``ops`` in its box, mapped on the palette: as ``kept`` when a
    board drew the same, else drawn on ``canvas``, kept, and wiped."""
    out: list[Part] = []
    missed = []
    with _LAYERS_LOCK:
        for group in wanted:
            parts = kept.get(group[2])
            if parts is None:
                missed.append(group)
            else:
                out += parts
    if not missed:
        return out
    static = static_board(canvas.size)
    draw = _draw(canvas)
    for box, members, key in missed:
        for index in members:
            ops[index][2](canvas, draw)
        parts = mapped(canvas, (box,))
        for part_box, _ in parts:
            canvas.im.paste(static.im.crop(part_box), part_box)
        with _LAYERS_LOCK:
            kept.put(key, parts)
        out += parts
    return out


def _strips(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, geo: Layout, view: View, language: Language
) -> list[Part]:
    """The strips of ``view``'s board mapped on the palette: each as kept when a board showed the
    same (names, pips, score, last play, status, in the same language), else made of the parts
    of it kept (a name, a row of pips and score, the last play) and those drawn anew."""
    out = []
    ops: list[Op] = []
    for strip, key, paint in Strips(canvas, draw, geo, view, language=language, ops=ops).parts():
        key = (canvas.size, *key)
        with _LAYERS_LOCK:
            found = _STRIPS.get(key)
        if found is None:
            ops.clear()
            paint()
            cells = groups(ops) or [(strip, tuple(range(len(ops))))]
            found = _tiles(canvas, _keyed(canvas.size, _within(cells, strip), ops), ops, _CELLS)
            with _LAYERS_LOCK:
                _STRIPS.put(key, found)
        out += found
    return out


def _within(found: Sequence[Group], strip: Box) -> list[Group]:
    """``found`` with each box cut to ``strip`` (a group wholly out of it left out)."""
    out = []
    for box, members in found:
        cut = (
            max(box[0], strip[0]),
            max(box[1], strip[1]),
            min(box[2], strip[2]),
            min(box[3], strip[3]),
        )
        if cut[0] < cut[2] and cut[1] < cut[3]:
            out.append((cut, members))
    return out


def warm_up(size: Size = DEFAULT_SIZE) -> None:
    """Draw (not encode) boards that use every sprite a board of ``size`` may paste, so that no
    player's board waits while one is made: each die face of each player, bright and dimmed,
    each cube and each offered, each count borne off on each side, the last play's marks; and
    the tiles of every stack of checkers, every die and every mark alone
    (:meth:`Pieces.every_stack`, :meth:`Pieces.every_mark`: 1,370, about 8 MB), so that a new
    position's board draws and maps only the marks over its checkers. First check the pairs of
    digits and signs of the strips' fonts and of the point numbers' (:mod:`bot.render.glyphs`),
    so that a pip count, a play or a point number is drawn from its glyphs; then the pairs of
    letters of the words those boards show ("pips", "to roll"...), in the fonts they show them.
    """
    from bot.rules import Position

    scale = layout(size).scale
    for base, bold, chars in (
        (MIN_TEXT, False, _SIGNS),
        (MIN_TEXT, True, _DIGITS),
        (STATUS_SIZES[0], True, _DICE_SIGNS),
    ):
        warm_pairs(font(max(10, round(base * scale)), bold=bold), chars)

    start, players = Position.initial(), ("", "")
    states = [
        BoardState(start, player, players, dice=(value, value), dice_used=2, phase="move")
        for player in (0, 1)
        for value in range(1, 7)
    ]
    for value in (1, 2, 4, 8, 16, 32, 64):
        owner = None if value == 1 else 0
        states.append(BoardState(start, 0, players, cube_value=value, cube_owner=owner))
        states.append(BoardState(start, 0, players, cube_value=value, phase="doubled"))
    for off in range(1, 15):
        left = Position.from_points({1: 15 - off}, {1: 15 - off})
        states.append(BoardState(left, 0, players))
    states.append(BoardState(Position.from_points({}, {1: 1}), 0, players, phase="over", winner=0))
    states += [state for state, arrows in palette_samples() if not arrows]
    texts: dict[ImageFont.FreeTypeFont, set[str]] = {}
    for state in states:
        for viewer in (0, 1):
            for label in drawn_whole(state, viewer, size, None, ())[1]:
                texts.setdefault(label.face, set()).update(label.lines)
    for face, lines in texts.items():
        warm_texts(face, sorted(lines))
    canvas, ops = _canvas(size), list[Op]()
    pieces = Pieces(canvas, ImageDraw.Draw(canvas), layout(size), View(states[0], 0), ops)
    pieces.every_stack()
    pieces.every_mark()
    alone = _keyed(size, [(box, (index,)) for index, (box, _, _) in enumerate(ops)], ops)
    _tiles(canvas, [group for group in alone if group[2][1][0] != "die"], ops, _LAYERS)
    _tiles(canvas, [group for group in alone if group[2][1][0] == "die"], ops, _DICE)


def _pieces_key(state: BoardState, seat: int, size: Size) -> tuple[object, ...]:
    """What the pieces of ``state`` seen by ``seat`` depend on (checkers, cube, the last play's
    marks; not the dice): a board with the same key pastes the tiles of the board before and
    draws only its dice and strips (a roll's board after the play before it)."""
    return (
        size,
        seat,
        state.on_roll,  # the position is the one on roll's: the other's the same is another board
        state.position,
        state.cube_value,
        state.cube_owner,
        state.cube_in_play,
        state.phase if state.phase in ("doubled", "over") else "",
        state.last_play,
    )
