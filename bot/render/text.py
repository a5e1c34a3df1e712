"""Text in any script: each character is drawn with the first shipped font that has it.

A text is cut into runs, each for one font (DejaVu first, then the fallbacks of
:mod:`bot.render.fonts`). Combining marks, variation selectors, skin tones and zero-width
joiners stay in their base character's run, so accents, emoji sequences and Arabic words are
shaped as one. A character no font has is drawn through its compatibility form if that has
glyphs (mathematical script letters as plain ones), dropped if it is invisible anyway, and
shown as U+FFFD otherwise.

Right-to-left: with Pillow's Raqm layout each right-to-left run is shaped right to left, and a
stretch of such runs with the spaces between them is laid out in reverse order, so an Arabic or
Hebrew name reads correctly inside an English line (numbers after a right-to-left word keep
their logical place: a simplification of the Unicode bidi algorithm). With the basic layout the
characters of a right-to-left run are reversed, unshaped.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

from PIL import ImageDraw, ImageFont

from bot.render.fonts import EMOJI, Coverage, coverage, face, fallbacks
from bot.render.glyphs import run_glyphs, run_length

ELLIPSIS = "…"
REPLACEMENT = "\ufffd"
_ZWJ = "\u200d"
_VS16 = "\ufe0f"
_JOINERS = frozenset({_ZWJ, "\u200c"})
_RTL = frozenset({"R", "AL"})
_INVISIBLE = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Mn", "Me", "Zl", "Zp"})
_ANCHORS = {"l": 0.0, "m": 0.5, "r": 1.0}

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Run:
    """Part of a text drawn with one font file; ``rtl`` when its letters go right to left."""

    text: str
    path: Path
    rtl: bool = False


@lru_cache(maxsize=64)
def _file(name: str) -> Path:
    return Path(name)


def _path(font: ImageFont.FreeTypeFont) -> Path:
    """The file of ``font`` (made a :class:`Path` once per file: this is called for every
    text measured)."""
    return _file(str(font.path))


def runs(text: str, primary: ImageFont.FreeTypeFont) -> tuple[Run, ...]:
    """``text`` cut into runs in display order (left to right), ``primary`` tried first."""
    return _runs(text, _path(primary))


def text_length(text: str, primary: ImageFont.FreeTypeFont) -> float:
    """The width in pixels of ``text`` drawn by :func:`draw_text` with ``primary``."""
    return _length(text, _path(primary), int(primary.size))


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
    path, size = _path(primary), int(primary.size)
    x, y = xy
    x -= _ANCHORS[anchor[0]] * _length(text, path, size)
    if anchor[1] == "m":
        ascent, descent = primary.getmetrics()
        y += (ascent - descent) / 2
    out = []
    shown_runs = _runs(text, path)
    for index, run in enumerate(shown_runs):
        font = face(run.path, size)
        direction = _direction(font, run)
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
    cuts = [index for index in range(1, len(text)) if not _continues(text, index)]
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
    cuts = [index for index in range(1, len(text)) if not _continues(text, index)]
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


# -- runs --------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _length(text: str, path: Path, size: int) -> float:
    total = 0.0
    for run in _runs(text, path):
        font = face(run.path, size)
        total += run_length(font, shown_text(font, run), _direction(font, run))
    return total


@lru_cache(maxsize=4096)
def _runs(text: str, primary: Path) -> tuple[Run, ...]:
    if text.isascii() and text.isprintable() and text:
        first = coverage(primary)
        if all(char in first for char in text):  # what _split_runs finds, quicker
            return (Run(text, primary),)
    return _split_runs(text, primary)


def _split_runs(text: str, primary: Path) -> tuple[Run, ...]:
    chain = _Chain((primary, *fallbacks(primary)))
    pieces: list[tuple[str, Coverage]] = []
    for index, char in enumerate(text):
        if pieces and _continues(text, index):
            last_text, last_font = pieces[-1]
            if char in last_font:
                pieces[-1] = (last_text + char, last_font)
                continue
            if not _visible(char):
                continue
        for shown in _displayable(char, chain):
            found = _font_for(shown, chain, emoji=text[index + 1 : index + 2] == _VS16)
            if pieces and pieces[-1][1] == found and not (shown == " " and found != chain[0]):
                pieces[-1] = (pieces[-1][0] + shown, found)
            else:
                pieces.append((shown, found))
    return _reorder(
        [
            Run(part, covered.path, _is_rtl(part))
            for piece, covered in pieces
            for part in _words_if_rtl(piece)
        ]
    )


class _Chain(Sequence[Coverage]):
    """The fonts tried for a character, in order, each file's cmap read only once a character
    gets that far down the chain (a start that draws only Latin names reads only DejaVu's)."""

    def __init__(self, paths: tuple[Path, ...]) -> None:
        self.paths = paths

    def __len__(self) -> int:
        return len(self.paths)

    @overload
    def __getitem__(self, index: int) -> Coverage: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Coverage]: ...

    def __getitem__(self, index: int | slice) -> Coverage | Sequence[Coverage]:
        if isinstance(index, slice):
            return [coverage(path) for path in self.paths[index]]
        return coverage(self.paths[index])


def _displayable(char: str, chain: Sequence[Coverage]) -> str:
    """``char`` if a font has it; else its compatibility form if fonts have that; else nothing
    for an invisible character, U+FFFD for a visible one. Control and format characters other
    than joiners are dropped even where a font has them (Raqm would obey a bidi override, and
    Unifont draws controls as boxes); any space is a plain space."""
    if char.isspace():
        return " "
    if unicodedata.category(char) in ("Cc", "Cf") and char not in _JOINERS:
        return ""
    if any(char in font for font in chain):
        return char
    compatible = unicodedata.normalize("NFKC", char)
    if compatible != char and all(any(part in font for font in chain) for part in compatible):
        return compatible
    return "" if not _visible(char) else REPLACEMENT


def _font_for(char: str, chain: Sequence[Coverage], *, emoji: bool) -> Coverage:
    if char == " ":
        return chain[0]
    if emoji:
        emoji_font = coverage(EMOJI)
        if char in emoji_font:
            return emoji_font
    return next((font for font in chain if char in font), chain[0])


def _reorder(found: list[Run]) -> tuple[Run, ...]:
    """Right-to-left runs with the neutral runs between them, in reverse order."""
    ordered: list[Run] = []
    index = 0
    while index < len(found):
        if not found[index].rtl:
            ordered.append(found[index])
            index += 1
            continue
        end = index + 1
        last_rtl = index
        while end < len(found) and (found[end].rtl or _is_neutral(found[end].text)):
            if found[end].rtl:
                last_rtl = end
            end += 1
        ordered.extend(reversed(found[index : last_rtl + 1]))
        index = last_rtl + 1
    return tuple(ordered)


def _words_if_rtl(piece: str) -> list[str]:
    """A piece with right-to-left letters cut into words and spaces, so that spaces stay
    between the words when a stretch of right-to-left words is reversed."""
    if not any(unicodedata.bidirectional(char) in _RTL for char in piece):
        return [piece]
    return [part for part in re.split(r"( +)", piece) if part]


def _continues(text: str, index: int) -> bool:
    """True when ``text[index]`` belongs to the character before it (a mark, a variation
    selector, a skin tone, a joiner or what follows a joiner)."""
    char = text[index]
    if text[index - 1] == _ZWJ or char == _ZWJ:
        return True
    if 0x1F3FB <= ord(char) <= 0x1F3FF or 0xE0020 <= ord(char) <= 0xE007F:
        return True
    return unicodedata.category(char) in ("Mn", "Me", "Mc") or 0xFE00 <= ord(char) <= 0xFE0F


def _visible(char: str) -> bool:
    return unicodedata.category(char) not in _INVISIBLE and not char.isspace()


def _is_rtl(text: str) -> bool:
    """Right-to-left letters and no left-to-right ones (a mixed run is laid out left to right,
    Raqm reordering inside it)."""
    kinds = {unicodedata.bidirectional(char) for char in text}
    return bool(kinds & _RTL) and "L" not in kinds


def _is_neutral(text: str) -> bool:
    return all(
        unicodedata.bidirectional(char) in ("WS", "ON", "CS", "ES", "ET", "BN", "NSM")
        for char in text
    )


def _direction(font: ImageFont.FreeTypeFont, run: Run) -> str | None:
    if font.layout_engine == ImageFont.Layout.RAQM:
        return "rtl" if run.rtl else "ltr"
    return None


def shown_text(font: ImageFont.FreeTypeFont, run: Run) -> str:
    """``run``'s text in the order to draw it: reversed for right-to-left text when the font has
    no bidirectional layout (Pillow without Raqm)."""
    if run.rtl and font.layout_engine != ImageFont.Layout.RAQM:
        return "".join(reversed(_clusters(run.text)))
    return run.text


def _clusters(text: str) -> list[str]:
    clusters: list[str] = []
    for index, char in enumerate(text):
        if clusters and _continues(text, index):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters
