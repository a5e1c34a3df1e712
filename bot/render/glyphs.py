"""A run of text drawn from its glyphs kept, where that gives Pillow's pixels.

Pillow renders a text by laying it out with Raqm (advances in 64ths of a pixel), rendering each
glyph at a whole pixel (the pen rounded) and blending the glyphs into one mask. Where no two
glyphs' pixels meet, no pair of letters is kerned or joined, the mask is the glyphs' own masks
side by side: so an ASCII run is drawn from each glyph's mask kept and its advance, without a
layout or a rendering of the whole text (most of the cost of a new pip count, last play or
status line). Each pair of letters is checked once against Pillow's rendering of the pair (same
width, same pixels, no pixel shared at any pen fraction); a run with a pair that fails, a glyph
reaching two letters on, a halo, or any other script is rendered whole (:mod:`bot.render.text`),
and so is any run of a font whose pairs were not warmed (:func:`warm_pairs`, by the board's
warm-up: the strips' regular text and the status line's bold).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from operator import add, itemgetter
from typing import Any

from PIL import Image, ImageChops, ImageFont

Glyph = tuple[int, Any, int, int, int, int]
"""A glyph's advance (64ths of a pixel), its coverage (an "L" image core; None where it has no
pixels), the offset of its corner from the pen's pixel (x, y), its width and its height."""
Part = tuple[tuple[int, int], Any]
"""A glyph's coverage and the pixel where its corner goes."""
Box = tuple[int, int, int, int]


_PAIRS: dict[ImageFont.FreeTypeFont, dict[str, bool]] = {}
"""The fonts whose runs are drawn from glyphs (:func:`warm_pairs`), each with its pairs of
letters checked (at most 95 x 95, the ASCII ones)."""
CHECKS_A_RUN = 2  # pairs a run drawn checks (about 0.1 ms each), so that a new name costs little
_GLYPHS: dict[tuple[ImageFont.FreeTypeFont, float], dict[str, Glyph]] = {}
"""Each font's glyphs by the fraction of the pen's height, each a :data:`Glyph`."""
_ADVANCE = itemgetter(0)
TABLES_KEPT = 64  # (font, pen height) tables of at most 95 glyphs each


def run_length(font: ImageFont.FreeTypeFont, text: str, direction: str | None) -> float:
    """What ``font.getlength(text, direction=direction)`` gives, from the glyphs' advances where
    they draw the run."""
    if _composable(font, text, direction, 0):
        table = _table(font, 0.0)
        try:
            advances: Iterable[int] = map(_ADVANCE, map(table.__getitem__, text))
            return sum(advances) / 64
        except KeyError:  # a glyph not made yet
            return sum((table.get(char) or _glyph(font, char, 0.0))[0] for char in text) / 64
    return font.getlength(text, direction=direction)


def run_glyphs(
    font: ImageFont.FreeTypeFont, text: str, direction: str | None, xy: tuple[float, float]
) -> tuple[Part, ...] | None:
    """The glyphs Pillow draws for ``text`` with its pen at ``xy`` (on the baseline), each at
    its corner, or None where the run is not drawn from glyphs (it is rendered whole)."""
    found = composed(font, text, direction, xy)
    return None if found is None else found[0]


def composed(
    font: ImageFont.FreeTypeFont, text: str, direction: str | None, xy: tuple[float, float]
) -> tuple[tuple[Part, ...], Box | None] | None:
    """:func:`run_glyphs` and the box around their pixels (None: the run has none)."""
    return _run_glyphs(font, text, direction, xy) if font in _PAIRS else None


@lru_cache(maxsize=256)  # a text is boxed, then drawn
def _run_glyphs(
    font: ImageFont.FreeTypeFont, text: str, direction: str | None, xy: tuple[float, float]
) -> tuple[tuple[Part, ...], Box | None] | None:
    x, y = xy
    if x < 0 or y < 0 or not _composable(font, text, direction, CHECKS_A_RUN):
        return None  # (left of the image, C's rounding of the pen differs from floor(+0.5))
    start_x, start_y = math.modf(x)[0], math.modf(y)[0]
    left, top = int(x), int(y)
    pen = math.floor(start_x * 64 + 0.5)  # C's round(), as Pillow places the pen
    table = _table(font, start_y)
    out: list[Part] = []
    end = before = -(1 << 30)  # the last visible glyph's right end, and the one's before it
    last = -2  # where the last visible glyph is in the text
    x_min = y_min = 1 << 30
    x_max = y_max = -(1 << 30)
    for index, char in enumerate(text):
        advance, mask, dx, dy, width, height = table.get(char) or _glyph(font, char, start_y)
        if mask is not None:
            x0 = left + ((pen + 32) >> 6) + dx
            if before > x0 or (last != index - 1 and end > x0):
                return None  # a glyph reaching past its neighbour: blended, rendered whole
            y0 = top + dy
            out.append(((x0, y0), mask))
            before, end, last = end, x0 + width, index
            if x0 < x_min:
                x_min = x0
            if end > x_max:
                x_max = end
            if y0 < y_min:
                y_min = y0
            if y0 + height > y_max:
                y_max = y0 + height
        pen += advance
    return tuple(out), ((x_min, y_min, x_max, y_max) if out else None)


def _composable(
    font: ImageFont.FreeTypeFont, text: str, direction: str | None, checks: int
) -> bool:
    """Whether every pair of ``text``'s letters is checked and drawn from glyphs, checking at
    most ``checks`` pairs not checked yet."""
    pairs = _PAIRS.get(font)
    if pairs is None or direction != "ltr" or not text:
        return False
    if not text.isascii() or not text.isprintable():
        return False
    if all(map(pairs.get, map(add, text, text[1:]))):  # every pair checked and drawn: in C
        return True
    for index in range(1, len(text)):
        pair = text[index - 1 : index + 1]
        found = pairs.get(pair)
        if found is None:
            if checks == 0:
                return False
            checks -= 1
            found = pairs[pair] = _pair(font, pair)
        if not found:
            return False
    return True


def _table(font: ImageFont.FreeTypeFont, start_y: float) -> dict[str, Glyph]:
    table = _GLYPHS.get((font, start_y))
    if table is None:
        if len(_GLYPHS) >= TABLES_KEPT:
            _GLYPHS.clear()
        table = _GLYPHS[(font, start_y)] = {}
    return table


def _glyph(font: ImageFont.FreeTypeFont, char: str, start_y: float) -> Glyph:
    """``char``'s glyph, kept in its table."""
    mask, (dx, dy) = _render(font, char, (0.0, start_y))
    width, height = mask.size
    advance = round(font.getlength(char, direction="ltr") * 64)
    glyph = (advance, mask if width and height else None, dx, dy, width, height)
    _table(font, start_y)[char] = glyph
    return glyph


def _render(font: ImageFont.FreeTypeFont, text: str, start: tuple[float, float]) -> Any:
    return font.getmask2(text, "L", "ltr", None, None, 0, "ls", 0, start, stroke_filled=True)


def _pair(font: ImageFont.FreeTypeFont, pair: str) -> bool:
    """Whether Raqm lays ``pair`` out as its glyphs' advances and Pillow's mask of it is its
    glyphs' masks apart, at each distance a pen's fraction puts them."""
    first, second = (_glyph(font, char, 0.0) for char in pair)
    if round(font.getlength(pair, direction="ltr") * 64) != first[0] + second[0]:
        return False
    rendered, corner = _render(font, pair, (0.0, 0.0))
    outer = _box(corner, rendered)
    whole = _placed(rendered, corner, outer)
    steps = {((pen + first[0] + 32) >> 6) - ((pen + 32) >> 6) for pen in range(64)}
    for step in steps:
        shown = [
            ((at + glyph[2], glyph[3]), glyph[1])
            for at, glyph in ((0, first), (step, second))
            if glyph[1] is not None
        ]
        if len(shown) == 2:
            area = _union(_box(*shown[0]), _box(*shown[1]))
            if (
                area is not None
                and ImageChops.multiply(
                    _placed(shown[0][1], shown[0][0], area), _placed(shown[1][1], shown[1][0], area)
                ).getbbox()
            ):
                return False  # pixels shared: Pillow blends them
        if step == (first[0] + 32) >> 6:  # as the pair was rendered, its pen at a whole pixel
            drawn = Image.new("L", whole.size)
            for at, mask in shown:
                if not _within(_box(at, mask), outer):
                    return False
                drawn = ImageChops.lighter(drawn, _placed(mask, at, outer))
            if drawn.tobytes() != whole.tobytes():
                return False
    return True


def _box(corner: tuple[int, int], mask: Any) -> Box:
    return (corner[0], corner[1], corner[0] + mask.size[0], corner[1] + mask.size[1])


def _union(a: Box, b: Box) -> Box | None:
    """The box around ``a`` and ``b`` where they overlap, else None."""
    if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
        return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
    return None


def _within(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _placed(mask: Any, corner: tuple[int, int], area: Box) -> Image.Image:
    """``mask`` with its corner at ``corner`` on a blank ``area`` (holding it)."""
    out = Image.new("L", (area[2] - area[0], area[3] - area[1]))
    width, height = mask.size
    if width and height:
        x, y = corner[0] - area[0], corner[1] - area[1]
        out.im.paste(mask, (x, y, x + width, y + height))
    return out


def warm_pairs(font: ImageFont.FreeTypeFont, chars: str) -> None:
    """Draw ``font``'s runs from glyphs from now on, every pair of ``chars`` (a number's
    digits, a play's signs) checked ahead of any board."""
    _check_pairs(font, (first + second for first in chars for second in chars))


def warm_texts(font: ImageFont.FreeTypeFont, texts: Iterable[str]) -> None:
    """Draw ``font``'s runs from glyphs from now on, the pairs of letters next to each other in
    ``texts`` (words every board shows: "pips", "to roll") checked ahead of any board."""
    _check_pairs(
        font,
        (
            text[index - 1 : index + 1]
            for text in texts
            if text.isascii() and text.isprintable()
            for index in range(1, len(text))
        ),
    )


def _check_pairs(font: ImageFont.FreeTypeFont, pairs: Iterable[str]) -> None:
    checked = _PAIRS.setdefault(font, {})
    for pair in pairs:
        if pair not in checked:
            checked[pair] = _pair(font, pair)
