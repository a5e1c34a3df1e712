"""One palette of 256 colours for every board of a size, and a board's pixels mapped on it
(each pixel on its own, no dithering): as shipped (:mod:`bot.render.layers`), or sampled from
boards that show every colour the renderer draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.render.geometry import Size
from bot.render.layers import shipped_palette
from bot.render.pieces import Box
from bot.render.samples import palette_samples
from bot.render.static import static_board
from bot.render.whole import render_image

Part = tuple[Box, Any]
"""A box of a board and its pixels mapped on the palette (a "P" image core: a board pastes
hundreds, and Pillow's ``Image`` around each costs more than the pasting)."""


def paletted(image: Image.Image, drawn: tuple[Box, ...] | None) -> Image.Image:
    """``image`` mapped on its size's palette, as :func:`~bot.render.png.encode_png` maps it.
    Each pixel maps on its own (no dithering), so only the boxes ``drawn`` over the static board
    are mapped (about a third of a board): the rest is the static board's, mapped once per
    size."""
    if drawn is None:
        return image.quantize(palette=palette(image.size), dither=Image.Dither.NONE)
    out = _static_paletted(image.size).copy()
    for box, part in mapped(image, drawn):
        out.im.paste(part, box)
    return out


def mapped(image: Image.Image, boxes: Sequence[Box]) -> list[Part]:
    """The pixels of ``image`` in ``boxes`` (merged, within the image), mapped on its palette."""
    colours = palette(image.size).im
    width, height = image.size
    pixels = image.im
    parts = []
    for box in merged(boxes):
        box = (max(box[0], 0), max(box[1], 0), min(box[2], width), min(box[3], height))
        if box[0] < box[2] and box[1] < box[3]:  # Image.quantize(palette=...) on the cores
            parts.append((box, pixels.crop(box).convert("P", Image.Dither.NONE, colours)))
    return parts


def merged(boxes: Sequence[Box]) -> list[Box]:
    """``boxes`` with each run of overlapping or touching ones (left to right) made one box
    around them (a stack of checkers is one box); every pixel of the boxes is in the result."""
    out: list[Box] = []
    for box in sorted(boxes):
        if out:
            x0, y0, x1, y1 = out[-1]
            if box[0] <= x1 and box[1] <= y1 and y0 <= box[3]:
                out[-1] = (x0, min(y0, box[1]), max(x1, box[2]), max(y1, box[3]))
                continue
        out.append(box)
    return out


@lru_cache(maxsize=4)
def _static_paletted(size: Size) -> Image.Image:
    return static_board(size).quantize(palette=palette(size), dither=Image.Dither.NONE)


@lru_cache(maxsize=4)
def static_rows(size: Size) -> Image.Image:
    """The static board mapped on the palette, one column wider: a zero before each row (its
    filter byte in the PNG, :func:`~bot.render.png.png_of_runs`)."""
    rows = Image.new("P", (size[0] + 1, size[1]), 0)
    rows.paste(_static_paletted(size), (1, 0))
    return rows


@lru_cache(maxsize=4)
def palette_bytes(size: Size) -> bytes:
    return bytes((palette(size).getpalette() or [])[: 3 * 256])


@lru_cache(maxsize=4)
def palette(size: Size) -> Image.Image:
    """One palette for every board of this size: as shipped (:mod:`bot.render.layers`), or
    worked out."""
    shipped = shipped_palette(size)
    return sample_palette(size) if shipped is None else shipped


def sample_palette(size: Size) -> Image.Image:
    """The palette of sample boards that show every colour the renderer draws (both checkers,
    highlights, hits, dice, cube, arrows of every kind, all the text)."""
    samples = [
        render_image(state, viewer=viewer, size=size, arrows=arrows)
        for state, arrows in palette_samples()
        for viewer in (0, 1)
    ]
    sheet = Image.new("RGB", (size[0], size[1] * len(samples)))
    for index, sample in enumerate(samples):
        sheet.paste(sample, (0, size[1] * index))
    return sheet.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
