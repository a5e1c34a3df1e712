"""Text in any script cut into runs, each drawn with one font (:mod:`bot.render.text` measures
and draws them): each character with the first shipped font that has it, DejaVu first, then the
fallbacks of :mod:`bot.render.fonts`. Combining marks, variation selectors, skin tones and
zero-width joiners stay in their base character's run, so accents, emoji sequences and Arabic
words are shaped as one. A character no font has is drawn through its compatibility form if
that has glyphs (mathematical script letters as plain ones), dropped if it is invisible anyway,
and shown as U+FFFD otherwise.

Right-to-left: with Pillow's Raqm layout each right-to-left run is shaped right to left, and a
stretch of such runs with the spaces between them is laid out in reverse order, so an Arabic or
Hebrew name reads correctly inside an English line (numbers after a right-to-left word keep
their logical place: a simplification of the Unicode bidi algorithm). With the basic layout the
characters of a right-to-left run are reversed, unshaped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import overload

from PIL import ImageFont

from bot.render.fonts import EMOJI, Coverage, coverage, fallbacks

REPLACEMENT = "\ufffd"
_ZWJ = "\u200d"
_VS16 = "\ufe0f"
_JOINERS = frozenset({_ZWJ, "\u200c"})
_RTL = frozenset({"R", "AL"})
_INVISIBLE = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Mn", "Me", "Zl", "Zp"})


@dataclass(frozen=True)
class Run:
    """Part of a text drawn with one font file; ``rtl`` when its letters go right to left."""

    text: str
    path: Path
    rtl: bool = False


@lru_cache(maxsize=64)
def _file(name: str) -> Path:
    return Path(name)


def font_path(font: ImageFont.FreeTypeFont) -> Path:
    """The file of ``font`` (made a :class:`Path` once per file: this is called for every
    text measured)."""
    return _file(str(font.path))


def runs(text: str, primary: ImageFont.FreeTypeFont) -> tuple[Run, ...]:
    """``text`` cut into runs in display order (left to right), ``primary`` tried first."""
    return path_runs(text, font_path(primary))


@lru_cache(maxsize=4096)
def path_runs(text: str, primary: Path) -> tuple[Run, ...]:
    """:func:`runs` by the primary font's file."""
    if text.isascii() and text.isprintable() and text and _ascii(primary).issuperset(text):
        return (Run(text, primary),)  # what _split_runs finds, quicker
    return _split_runs(text, primary)


@lru_cache(maxsize=32)
def _ascii(primary: Path) -> frozenset[str]:
    """The printable ASCII characters ``primary`` has."""
    first = coverage(primary)
    return frozenset(char for char in map(chr, range(32, 127)) if char in first)


def _split_runs(text: str, primary: Path) -> tuple[Run, ...]:
    chain = _Chain((primary, *fallbacks(primary)))
    pieces: list[tuple[str, Coverage]] = []
    for index, char in enumerate(text):
        if pieces and continues(text, index):
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


def continues(text: str, index: int) -> bool:
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


def run_direction(font: ImageFont.FreeTypeFont, run: Run) -> str | None:
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
        if clusters and continues(text, index):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters
