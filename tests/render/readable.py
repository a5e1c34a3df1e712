"""What makes an image's text readable on a phone, measured on the PNG: every text at least
:func:`min_text_size` of the image's width (2.4%: Discord shows images about 400 px wide there),
no two texts' boxes overlapping, each inside the image, and each at least 4.5:1 against what is
under it (WCAG 2's contrast of relative luminances)."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable

from PIL import Image

from bot.render.labels import Box, Label, min_text_size

RGB = tuple[int, int, int]
MIN_CONTRAST = 4.5


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def rgb(value: float | tuple[int, ...] | None) -> RGB:
    """A pixel (``getpixel``) or a ``getcolors`` colour of an RGB image: Pillow types them as
    any mode's (a number for one band, None for no image)."""
    assert isinstance(value, tuple) and len(value) == 3, value
    return value[0], value[1], value[2]


def luminance(colour: RGB) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(value) for value in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: RGB, other: RGB) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def overlap(one: Box, other: Box) -> bool:
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


def box_area(box: tuple[int, int, int, int]) -> int:
    return max(1, (box[2] - box[0]) * (box[3] - box[1]))


def background(image: Image.Image, label: Label) -> RGB:
    """What the text is drawn on: its halo, else the commonest colour in its box on the image
    (the letters cover less of a line's box than what is between them)."""
    if label.halo is not None:
        return label.halo
    x0, y0, x1, y1 = (round(value) for value in label.box)
    box = (max(0, x0), max(0, y0), min(image.width, x1), min(image.height, y1))
    counts = sorted(
        ((count, rgb(colour)) for count, colour in image.crop(box).getcolors(box_area(box)) or []),
        reverse=True,
    )
    # A text that fills its box in its own colour (a lone skin-tone modifier is a swatch) is
    # on what the rest of the box shows, when the rest is a fair share of it.
    others = [(count, colour) for count, colour in counts if colour != rgb(label.colour)]
    if others and counts[0][1] == rgb(label.colour) and others[0][0] >= 0.15 * box_area(box):
        return others[0][1]
    return counts[0][1]


def problems(image: Image.Image, labels: Iterable[Label]) -> list[str]:
    """Every way the texts fail to read: too small, outside the image, overlapping another,
    too little contrast. Empty when they all read."""
    shown = list(labels)
    width, height = image.size
    floor = round(min_text_size(width))  # fonts come in whole pixels: 24 px at 1,000
    found: list[str] = []
    for label in shown:
        x0, y0, x1, y1 = label.box
        if label.size < floor or label.size < 0.024 * width:
            found.append(f"{label.text!r} is {label.size} px: at least {floor} px at {width} px")
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            found.append(f"{label.text!r} goes out of the image: {label.box}")
        under = background(image, label)
        ratio = contrast(label.colour, under)
        if ratio < MIN_CONTRAST:
            found.append(f"{label.text!r}: {label.colour} on {under} is {ratio:.2f}:1")
    for one, other in itertools.combinations(shown, 2):
        if overlap(one.box, other.box):
            found.append(f"{one.text!r} {one.box} overlaps {other.text!r} {other.box}")
    return found
