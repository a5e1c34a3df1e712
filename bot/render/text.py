"""Text in any script measured, boxed, drawn, fitted and wrapped, run by run (which font draws
each character, and in what order: :mod:`bot.render.runs`); an ASCII run drawn from its glyphs
kept where that gives Pillow's pixels (:mod:`bot.render.glyphs`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageDraw, ImageFont

from bot.render.fonts import face
from bot.render.glyphs import composed, run_glyphs, run_length
from bot.render.runs import continues, font_path, path_runs, run_direction, shown_text

ELLIPSIS = "…"
_ANCHORS = {"l": 0.0, "m": 0.5, "r": 1.0}

RGB = tuple[int, int, int]


@lru_cache(maxsize=4096)  # a board measures a text it shows four or five times
def text_length(text: str, primary: ImageFont.FreeTypeFont) -> float:
    """The width in pixels of ``text`` drawn by :func:`draw_text` with ``primary``."""
    return _length(text, font_path(primary), int(primary.size))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    primary: ImageFont.FreeTypeFont,
    fill: RGB,
    anchor: str = "lm",
    *,
    halo: RGB | None = None,
) -> None:
    """Draw ``text`` at ``xy``. ``anchor``: l/m/r (left, centre, right) then m (middle of
    ``primary``'s line) or s (its baseline). ``halo``: a rim of that colour around the letters,
    so that they read over anything."""
    stroke = 0 if halo is None else max(2, int(primary.size) // 8)
    for font, shown, direction, pen in _pens(xy, text, primary, anchor):
        if halo is not None:
            _draw_line(draw, pen, shown, font, direction, stroke, halo)
        if halo != fill:
            _draw_line(draw, pen, shown, font, direction, 0, fill)


@lru_cache(maxsize=1024)  # a strip's separators and texts are boxed again where it is drawn anew
def text_box(
    xy: tuple[float, float],
    text: str,
    primary: ImageFont.FreeTypeFont,
    anchor: str = "lm",
    *,
    halo: bool = False,
) -> tuple[int, int, int, int] | None:
    """The box of every pixel :func:`draw_text` may change drawing ``text`` (``halo``: with
    one), or None if it draws none: the letters' rendered coverage, not their advance."""
    stroke = max(2, int(primary.size) // 8) if halo else 0
    boxes = []
    for font, shown, direction, pen in _pens(xy, text, primary, anchor):
        for width in {0, stroke}:
            if width == 0 and (found := composed(font, shown, direction, pen)) is not None:
                if found[1] is not None:  # its glyphs' box, worked out as they were placed
                    boxes.append(found[1])
                continue
            for (x, y), mask in _parts(font, shown, direction, width, pen):
                if mask.size[0] and mask.size[1]:
                    boxes.append((x, y, x + mask.size[0], y + mask.size[1]))
    return enclosing(boxes)


def enclosing(boxes: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int, int] | None:
    """The smallest box holding all of ``boxes`` (None for none)."""
    if not boxes:
        return None
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )


def _pens(
    xy: tuple[float, float], text: str, primary: ImageFont.FreeTypeFont, anchor: str
) -> list[tuple[ImageFont.FreeTypeFont, str, str | None, tuple[float, float]]]:
    """Each run of ``text`` as :func:`draw_text` draws it: its font, its letters in drawing
    order, its direction and where its pen starts (on the baseline)."""
    if anchor[0] not in _ANCHORS or anchor[1] not in "ms":
        raise ValueError(f"anchor must be one of lm, mm, rm, ls, ms, rs, not {anchor!r}")
    path, size = font_path(primary), int(primary.size)
    x, y = xy
    if anchor[0] != "l":
        x -= _ANCHORS[anchor[0]] * _length(text, path, size)
    if anchor[1] == "m":
        ascent, descent = primary.getmetrics()
        y += (ascent - descent) / 2
    out = []
    shown_runs = path_runs(text, path)
    for index, run in enumerate(shown_runs):
        font = face(run.path, size)
        direction = run_direction(font, run)
        shown = shown_text(font, run)
        out.append((font, shown, direction, (x, y)))
        if index + 1 < len(shown_runs):  # the last run's advance is not needed (measuring it is
            x += _advance(font, shown, direction)  # a layout of the text, as its drawing is)
    return out


@lru_cache(maxsize=2048)
def _advance(font: ImageFont.FreeTypeFont, text: str, direction: str | None) -> float:
    return font.getlength(text, direction=direction)


def _draw_line(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    direction: str | None,
    stroke: int,
    colour: RGB,
) -> None:
    """What ``draw.text(xy, text, colour, font, "ls", direction=direction, stroke_width=stroke)``
    draws on an RGB image: with a halo, Pillow draws the stroke in its colour and then the
    letters without one, and so do the two calls of :func:`draw_text`. The rendered letters are
    kept (:func:`_mask`), or its glyphs kept (:mod:`bot.render.glyphs`): rendering them is most
    of the cost of a text."""
    ink = draw.draw.draw_ink(colour)
    for corner, mask in _parts(font, text, direction, stroke, xy):
        draw.draw.draw_bitmap(corner, mask, ink)


def _parts(
    font: ImageFont.FreeTypeFont,
    text: str,
    direction: str | None,
    stroke: int,
    xy: tuple[float, float],
) -> Sequence[tuple[tuple[int, int], Any]]:
    """The letters' coverage as Pillow draws them: its glyphs kept where they make the same
    pixels, else the whole run's."""
    if stroke == 0 and (glyphs := run_glyphs(font, text, direction, xy)) is not None:
        return glyphs
    return [_letters(font, text, direction, stroke, xy)]


def _letters(
    font: ImageFont.FreeTypeFont,
    text: str,
    direction: str | None,
    stroke: int,
    xy: tuple[float, float],
) -> tuple[tuple[int, int], Any]:
    """The letters' coverage (an "L" image core) for a pen at ``xy``, and the corner where it is
    drawn."""
    x, y = xy
    mask, (dx, dy) = _mask(font, text, direction, stroke, math.modf(x)[0], math.modf(y)[0])
    return (int(x) + dx, int(y) + dy), mask


@lru_cache(maxsize=1024)  # about 6 KB each; a game's boards find 92% of their texts here
def _mask(
    font: ImageFont.FreeTypeFont,
    text: str,
    direction: str | None,
    stroke: int,
    start_x: float,
    start_y: float,
) -> tuple[Any, tuple[int, int]]:
    """The letters' coverage (an "L" image core) and its offset from the pen, as Pillow's
    ``ImageDraw.text`` renders them for a pen whose position has these fractions."""
    return font.getmask2(
        text,
        "L",
        direction,
        None,
        None,
        stroke,
        "ls",
        0,
        (start_x, start_y),
        stroke_filled=True,
    )


def fit_text(text: str, primary: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``max_width`` pixels; never
    inside a character with its marks or an emoji sequence."""
    text = " ".join(text.split())
    if text_length(text, primary) <= max_width:
        return text
    cuts = [index for index in range(1, len(text)) if not continues(text, index)]
    low, high = 0, len(cuts)
    while low < high:
        middle = (low + high + 1) // 2
        if text_length(text[: cuts[middle - 1]].rstrip() + ELLIPSIS, primary) <= max_width:
            low = middle
        else:
            high = middle - 1
    return (text[: cuts[low - 1]].rstrip() if low else "") + ELLIPSIS


_SOFT_BREAKS = frozenset("_-./·:,;+&")


def wrap_text(
    text: str, primary: ImageFont.FreeTypeFont, max_width: float
) -> tuple[tuple[str, ...], bool]:
    """``text`` on one line, or else on two lines each at most ``max_width`` pixels wide, and
    whether it had to be cut short (with an ellipsis at the end of the second line).

    Two lines break at a space if one lets both lines fit, else after punctuation (``_``, ``-``,
    ``.``...), else between any two characters; of the breaks that fit, the one whose longer line
    is shortest. Never inside a character with its marks or an emoji sequence."""
    text = " ".join(text.split())
    if text_length(text, primary) <= max_width:
        return (text,), False
    cuts = [index for index in range(1, len(text)) if not continues(text, index)]
    best: tuple[float, int, str, str] | None = None
    for index in cuts:
        first, second = text[:index].rstrip(), text[index:].lstrip()
        if not first or not second:
            continue
        if text[index - 1] == " " or text[index] == " ":
            kind = 0
        elif text[index - 1] in _SOFT_BREAKS:
            kind = 1
        else:
            kind = 2
        if best is not None and kind > best[1]:
            continue
        longer = max(text_length(first, primary), text_length(second, primary))
        if longer <= max_width and (best is None or (kind, longer) < (best[1], best[0])):
            best = (longer, kind, first, second)
    if best is not None:
        return (best[2], best[3]), False
    # Too long for two lines: as much as fits on the first, the rest cut on the second.
    first = fit_text(text, primary, max_width)[: -len(ELLIPSIS)].rstrip()
    if not first:
        return (fit_text(text, primary, max_width),), True
    rest = text[len(first) :].lstrip()
    return (first, fit_text(rest, primary, max_width)), True


@lru_cache(maxsize=4096)
def _length(text: str, path: Path, size: int) -> float:
    total = 0.0
    for run in path_runs(text, path):
        font = face(run.path, size)
        total += run_length(font, shown_text(font, run), run_direction(font, run))
    return total
