"""Fonts shipped with the package, never the host's: DejaVu Sans, then fallbacks for what it
lacks (Arabic and Indic scripts, Thai, CJK, emoji, and GNU Unifont as the last resort for the rest
of the Basic Multilingual Plane). Licences are beside them. They live in the repository's
``assets/fonts``; ``bot/assets`` links there, and a build copies the files into the package, so an
installed bot finds them through ``importlib.resources`` wherever it runs."""

from __future__ import annotations

import atexit
import struct
from contextlib import ExitStack
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from PIL import ImageFont

# FreeType opens fonts by path. An installed package is plain files, so as_file gives the folder
# itself; from a zipped package (Python 3.12+) it unpacks a copy, kept until the process exits.
_UNPACKED = ExitStack()
atexit.register(_UNPACKED.close)
FONT_DIR: Path = _UNPACKED.enter_context(
    resources.as_file(resources.files("bot") / "assets" / "fonts")
)
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

# Tried in this order for a character DejaVu lacks, in the weight of the text: a name in a
# regular line is not drawn bold, since bold marks a winner or a highlight. Noto Emoji and Unifont
# have one weight each.
_FALLBACK_NAMES = (
    "NotoSansArabic-{}.ttf",
    "NotoSansDevanagari-{}.ttf",
    "NotoSansBengali-{}.ttf",
    "NotoSansTamil-{}.ttf",
    "NotoSansThai-{}.ttf",
    "NotoEmoji-Bold.ttf",
    "NotoSansCJKjp-{}-subset.otf",
    "unifont-subset.otf",
    # The Supplementary Multilingual Plane: Unifont's scripts (Gothic, Old Italic, Linear B...),
    # then Noto's for the four that Unifont leaves out, in one weight.
    "unifont-upper.otf",
    "NotoSansCuneiform-Regular.ttf",
    "NotoSansEgyptianHieroglyphs-Regular.ttf",
    "NotoSansAnatolianHieroglyphs-Regular.ttf",
    "NotoSansBamum-Regular.ttf",
)
FALLBACKS: tuple[Path, ...] = tuple(FONT_DIR / name.format("Bold") for name in _FALLBACK_NAMES)
"""The fallbacks of bold text (DejaVu Sans Bold)."""
REGULAR_FALLBACKS: tuple[Path, ...] = tuple(
    FONT_DIR / name.format("Regular") for name in _FALLBACK_NAMES
)
"""The fallbacks of regular text (DejaVu Sans)."""
EMOJI = FONT_DIR / "NotoEmoji-Bold.ttf"

# DejaVu has only part of Arabic: a word must come from one font for its letters to join.
_ARABIC = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


class FontFileError(ValueError):
    """A font file in assets/fonts is missing or is not a font this renderer can read."""


def fallbacks(primary: Path) -> tuple[Path, ...]:
    """The fonts tried, in order, for a character ``primary`` lacks: of its weight."""
    return REGULAR_FALLBACKS if primary == REGULAR else FALLBACKS


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels (the em height)."""
    return face(BOLD if bold else REGULAR, size)


@lru_cache(maxsize=256)
def face(path: Path, size: int) -> ImageFont.FreeTypeFont:
    """The font file ``path`` at ``size`` pixels (at least 6)."""
    if not path.is_file():
        raise FileNotFoundError(f"the board's font is missing: {path}")
    return ImageFont.truetype(str(path), max(6, size))


@dataclass(frozen=True)
class Coverage:
    """The characters a font file draws (has a glyph other than .notdef for)."""

    path: Path
    code_points: frozenset[int]

    def __contains__(self, char: object) -> bool:
        return isinstance(char, str) and len(char) == 1 and ord(char) in self.code_points


@lru_cache(maxsize=32)
def coverage(path: Path) -> Coverage:
    """What ``path`` covers, read from its ``cmap`` table (DejaVu without its Arabic)."""
    if not path.is_file():
        raise FileNotFoundError(f"the board's font is missing: {path}")
    codes = read_cmap(path.read_bytes(), str(path))
    if path in (REGULAR, BOLD):
        codes = {code for code in codes if not any(low <= code <= high for low, high in _ARABIC)}
    return Coverage(path, frozenset(codes))


def read_cmap(data: bytes, name: str = "font") -> set[int]:
    """The code points mapped to a real glyph by the best Unicode subtable of an OpenType font's
    ``cmap`` (format 12 if there is one, else format 4)."""
    try:
        tables = struct.unpack_from(">H", data, 4)[0]
        for index in range(tables):
            tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
            if tag == b"cmap":
                break
        else:
            raise FontFileError(f"{name} has no cmap table")
        subtables: dict[int, int] = {}
        for index in range(struct.unpack_from(">H", data, offset + 2)[0]):
            platform, encoding, start = struct.unpack_from(">HHI", data, offset + 4 + 8 * index)
            if (platform, encoding) in ((0, 3), (0, 4), (0, 6), (3, 1), (3, 10)):
                kind = struct.unpack_from(">H", data, offset + start)[0]
                subtables.setdefault(kind, offset + start)
        if 12 in subtables:
            return _format_12(data, subtables[12])
        if 4 in subtables:
            return _format_4(data, subtables[4])
    except struct.error as error:
        raise FontFileError(f"{name} has a damaged cmap table ({error})") from error
    raise FontFileError(f"{name} has no Unicode cmap of format 4 or 12")


def _format_12(data: bytes, at: int) -> set[int]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    codes: set[int] = set()
    for index in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * index)
        codes.update(range(first + (1 if glyph == 0 else 0), last + 1))
    return codes


def _format_4(data: bytes, at: int) -> set[int]:
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts_at = at + 16 + 2 * segments
    starts = struct.unpack_from(f">{segments}H", data, starts_at)
    deltas = struct.unpack_from(f">{segments}h", data, starts_at + 2 * segments)
    ranges_at = starts_at + 4 * segments
    range_offsets = struct.unpack_from(f">{segments}H", data, ranges_at)
    codes: set[int] = set()
    for index in range(segments):
        first, last, delta, range_offset = (
            starts[index],
            ends[index],
            deltas[index],
            range_offsets[index],
        )
        last = min(last, 0xFFFE)
        if last < first:
            continue
        if range_offset == 0:
            # every code maps to code + delta: glyph 0 (none) for at most one of them
            none = -delta & 0xFFFF
            codes.update(code for code in range(first, last + 1) if code != none)
            continue
        where = ranges_at + 2 * index + range_offset
        glyphs = struct.unpack_from(f">{last - first + 1}H", data, where)
        codes.update(
            code
            for code, glyph in zip(range(first, last + 1), glyphs, strict=True)
            if glyph and (glyph + delta) & 0xFFFF
        )
    return codes
