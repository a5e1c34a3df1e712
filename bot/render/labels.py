"""Every text on a board image as a :class:`Label`: what it says, its font size and its box.

The renderers draw every text as a label through :func:`paint`, which adds it to a sink where the
caller gave one (the tournament images' ``labels`` option, :class:`bot.render.tournament.Pen`),
and :func:`bot.render.whole.board_labels` hands the board's to
tests (the board paints its point numbers once per size), which check that text is large enough to
read on a phone, reads against its background, is not cut and does not overlap other text.

Discord shows an image about 400 px wide on a phone; text 10 px tall there is 22.5 px in a 900 px
wide image. :func:`min_text_size` is that floor for an image of any width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

from PIL import ImageDraw, ImageFont

from bot.render.fonts import font
from bot.render.text import RGB, draw_text, enclosing, text_box, text_length

Role = Literal[
    "name",
    "pips",
    "score",
    "winner",
    "clock",
    "match",
    "last_play",
    "status",
    "point",
    "count",
    "cube",
    "title",
    "detail",
    "axis",
    "game",
    "legend",
    "rank",
    "seed",
    "heading",
    "value",
    "note",
]
Box = tuple[float, float, float, float]

MIN_TEXT = 22
"""Font size in pixels of the smallest text of a 900 px wide image."""
BASE_WIDTH = 900
PHONE_WIDTH = 400


def min_text_size(width: float) -> float:
    """The smallest font size (pixels) that reads on a phone in an image ``width`` pixels wide."""
    return MIN_TEXT * width / BASE_WIDTH


@dataclass(frozen=True)
class Label:
    """One text as drawn: ``text`` (lines joined by a newline), the font's ``size`` in pixels
    (its em), ``bold``, its ``box`` (x0, y0, x1, y1: from the first line's ascender to the last
    line's descender), ``cut`` when it was cut short with an ellipsis, where its lines go (``xs``
    their left ends, ``baselines``), and the colour of a ``halo`` around the letters if any."""

    role: Role
    text: str
    size: int
    bold: bool
    colour: RGB
    xs: tuple[float, ...]
    baselines: tuple[float, ...]
    cut: bool = False
    halo: RGB | None = None

    # A label is placed once and measured, boxed and drawn several times: what it works out is
    # kept on it (a frozen dataclass has a __dict__ for cached_property).
    @cached_property
    def lines(self) -> tuple[str, ...]:
        return tuple(self.text.split("\n"))

    @cached_property
    def face(self) -> ImageFont.FreeTypeFont:
        return font(self.size, bold=self.bold)

    @property
    def width(self) -> float:
        return max(text_length(line, self.face) for line in self.lines)

    @cached_property
    def box(self) -> Box:
        ascent, descent = self.face.getmetrics()
        face = self.face
        x0 = min(self.xs)
        x1 = max(x + text_length(line, face) for x, line in zip(self.xs, self.lines, strict=True))
        return x0, self.baselines[0] - ascent, x1, self.baselines[-1] + descent


@lru_cache(maxsize=4096)  # a board places the same counts, numbers and names again
def place(
    role: Role,
    lines: tuple[str, ...] | str,
    size: int,
    xy: tuple[float, float],
    colour: RGB,
    *,
    bold: bool = False,
    anchor: str = "lm",
    pitch: float = 0.0,
    cut: bool = False,
    halo: RGB | None = None,
) -> Label:
    """A label whose lines (``pitch`` pixels apart) are anchored as a block at ``xy``: ``anchor``
    l/m/r (left, centre, right; each line on its own) then m (the block's middle, each line's
    middle being half way between its ascender and descender) or s (the first line's baseline)."""
    shown = (lines,) if isinstance(lines, str) else lines
    face = font(size, bold=bold)
    ascent, descent = face.getmetrics()
    x, y = xy
    middle = anchor[1] == "m"
    first = y - pitch * (len(shown) - 1) / 2 + (ascent - descent) / 2 if middle else y
    baselines = tuple(first + pitch * index for index in range(len(shown)))
    share = {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]]
    xs = tuple(x - share * text_length(line, face) for line in shown)
    return Label(role, "\n".join(shown), size, bold, colour, xs, baselines, cut, halo)


def paint(draw: ImageDraw.ImageDraw, label: Label, sink: list[Label] | None = None) -> Label:
    """Draw ``label`` (and add it to ``sink``, if given)."""
    if sink is not None:
        sink.append(label)
    face = label.face
    for line, x, baseline in zip(label.lines, label.xs, label.baselines, strict=True):
        draw_text(draw, (x, baseline), line, face, label.colour, "ls", halo=label.halo)
    return label


@lru_cache(maxsize=4096)  # a board's strips measure the same names, rows and lines again
def pixel_box(label: Label) -> tuple[int, int, int, int] | None:
    """The box of every pixel :func:`paint` may change drawing ``label`` (its letters' rendered
    coverage, which may reach past :attr:`Label.box`), or None if it draws none."""
    face = label.face
    boxes = [
        box
        for line, x, baseline in zip(label.lines, label.xs, label.baselines, strict=True)
        if (box := text_box((x, baseline), line, face, "ls", halo=label.halo is not None))
    ]
    return enclosing(boxes)
