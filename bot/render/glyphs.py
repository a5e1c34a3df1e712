"""A run of text drawn from its glyphs kept, where that gives Pillow's pixels.

Pillow renders a text by laying it out with Raqm (advances in 64ths of a pixel), rendering each
glyph at a whole pixel (the pen rounded) and blending the glyphs into one mask. Where no two
glyphs' pixels meet, no pair of letters is kerned or joined, the mask is the glyphs' own masks
side by side: so an ASCII run is drawn from each glyph's mask kept and its advance, without a
layout or a rendering of the whole text (most of the cost of a new pip count, last play or
status line). Each pair of letters is checked once against Pillow's rendering of the pair (same
width, same pixels, no pixel shared at any pen fraction); a run with a pair that fails, a glyph
reaching two letters on, or any other script is rendered whole (:mod:`bot.render.text`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageFont

Glyph = tuple[int, Any, int, int]
"""A glyph's advance (64ths of a pixel), its coverage (an "L" image core) and that's corner from
the pen's pixel."""
Part = tuple[tuple[int, int], Any]
"""A glyph's coverage and the pixel where its corner goes."""


PAIRS_KEPT = 65536  # pairs of letters checked, each font's (a bool each)
_PAIRS: dict[tuple[ImageFont.FreeTypeFont, str], bool] = {}
_FONTS: set[ImageFont.FreeTypeFont] = set()  # the fonts whose runs are drawn from glyphs
CHECKS_A_RUN = 2  # pairs a run drawn checks (about 0.1 ms each), so that a new name costs little


def run_length(font: ImageFont.FreeTypeFont, text: str, direction: str | None) -> float:
    """What ``font.getlength(text, direction=direction)`` gives, from the glyphs' advances where
    they draw the run."""
    if _composable(font, text, direction, 0):
        return sum(_glyph(font, char, 0.0)[0] for char in text) / 64
    return font.getlength(text, direction=direction)


def run_glyphs(
    font: ImageFont.FreeTypeFont, text: str, direction: str | None, xy: tuple[float, float]
) -> tuple[Part, ...] | None:
    """The glyphs Pillow draws for ``text`` with its pen at ``xy`` (on the baseline), each at
    its corner, or None where the run is not drawn from glyphs (it is rendered whole)."""
    return _run_glyphs(font, text, direction, xy) if font in _FONTS else None


@lru_cache(maxsize=256)  # a text is boxed, then drawn
def _run_glyphs(
    font: ImageFont.FreeTypeFont, text: str, direction: str | None, xy: tuple[float, float]
) -> tuple[Part, ...] | None:
    if not _composable(font, text, direction, CHECKS_A_RUN):
        return None
    x, y = xy
    start_x, start_y = math.modf(x)[0], math.modf(y)[0]
    left, top = int(x), int(y)
    pen = math.floor(start_x * 64 + 0.5)  # C's round(), as Pillow places the pen
    out: list[Part] = []
    ends: list[int] = []  # each visible glyph's right end, and where it is in the text
    at: list[int] = []
    for index, char in enumerate(text):
        advance, mask, dx, dy = _glyph(font, char, start_y)
        width = mask.size[0]
        if width and mask.size[1]:
            x0 = left + ((pen + 32) >> 6) + dx
            if ends and (
                (at[-1] != index - 1 and ends[-1] > x0) or (len(ends) > 1 and ends[-2] > x0)
            ):
                return None  # a glyph reaching past its neighbour: blended, rendered whole
            out.append(((x0, top + dy), mask))
            ends.append(x0 + width)
            at.append(index)
        pen += advance
    return tuple(out)


def _composable(
    font: ImageFont.FreeTypeFont, text: str, direction: str | None, checks: int
) -> bool:
    """Whether every pair of ``text``'s letters is checked and drawn from glyphs, checking at
    most ``checks`` pairs not checked yet."""
    if font not in _FONTS or direction != "ltr" or not text:
        return False
    if not text.isascii() or not text.isprintable():
        return False
    for index in range(1, len(text)):
        pair = text[index - 1 : index + 1]
        found = _PAIRS.get((font, pair))
        if found is None:
            if checks == 0:
                return False
            checks -= 1
            found = _check(font, pair)
        if not found:
            return False
    return True


@lru_cache(maxsize=4096)
def _glyph(font: ImageFont.FreeTypeFont, char: str, start_y: float) -> Glyph:
    mask, (dx, dy) = _render(font, char, (0.0, start_y))
    return round(font.getlength(char, direction="ltr") * 64), mask, dx, dy


def _render(font: ImageFont.FreeTypeFont, text: str, start: tuple[float, float]) -> Any:
    return font.getmask2(text, "L", "ltr", None, None, 0, "ls", 0, start, stroke_filled=True)


def _check(font: ImageFont.FreeTypeFont, pair: str) -> bool:
    """:func:`_pair`, kept."""
    if len(_PAIRS) >= PAIRS_KEPT:
        _PAIRS.clear()
    found = _PAIRS[(font, pair)] = _pair(font, pair)
    return found


def _pair(font: ImageFont.FreeTypeFont, pair: str) -> bool:
    """Whether Raqm lays ``pair`` out as its glyphs' advances and Pillow's mask of it is its
    glyphs' masks apart, at each distance a pen's fraction puts them."""
    first, second = (_glyph(font, char, 0.0) for char in pair)
    if round(font.getlength(pair, direction="ltr") * 64) != first[0] + second[0]:
        return False
    rendered, corner = _render(font, pair, (0.0, 0.0))
    whole = _placed(rendered, corner, _box(corner, rendered))
    steps = {((pen + first[0] + 32) >> 6) - ((pen + 32) >> 6) for pen in range(64)}
    for step in steps:
        a = ((first[2], first[3]), first[1])
        b = ((step + second[2], second[3]), second[1])
        area = _union(_box(*a), _box(*b))
        shared = (
            area is not None
            and ImageChops.multiply(_placed(a[1], a[0], area), _placed(b[1], b[0], area)).getbbox()
        )
        if shared:
            return False  # pixels shared: Pillow blends them
        if step == (first[0] + 32) >> 6:  # as the pair was rendered, its pen at a whole pixel
            drawn = Image.new("L", whole.size)
            for at, mask in (a, b):
                box = _box(at, mask)
                if box[2] > box[0] and box[3] > box[1]:
                    inside = _within(box, _box(corner, rendered))
                    if not inside:
                        return False
                    drawn = ImageChops.lighter(drawn, _placed(mask, at, _box(corner, rendered)))
            if drawn.tobytes() != whole.tobytes():
                return False
    return True


Box = tuple[int, int, int, int]


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
    _FONTS.add(font)
    for first in chars:
        for second in chars:
            if (font, first + second) not in _PAIRS:
                _check(font, first + second)
