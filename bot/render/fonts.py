"""Fonts shipped in the repository's ``assets/fonts`` (DejaVu Sans), never the host's."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels (the em height)."""
    path = BOLD if bold else REGULAR
    if not path.is_file():
        raise FileNotFoundError(f"the board's font is missing: {path}")
    return ImageFont.truetype(str(path), max(6, size))
