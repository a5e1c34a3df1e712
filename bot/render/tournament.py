"""Tournament images as PNG bytes, no I/O: the look they share, and the end-of-tournament report
chart. The knockout bracket is :mod:`bot.render.bracket`; the standings and the round-robin
crosstable are :mod:`bot.render.standings`.

All of them are drawn on the board's dark background in its palette (:mod:`bot.render.theme`),
at most :data:`WIDTH` pixels wide with every text :data:`TEXT` pixels or more: Discord shows an
image about 400 px wide on a phone, so text must survive being scaled down to under half (the
board's rule, :func:`bot.render.labels.min_text_size`). Every text is a label
(:mod:`bot.render.labels`): tests read their sizes and boxes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import images as say
from bot.i18n.core import ENGLISH, Language
from bot.render import theme
from bot.render.fonts import font
from bot.render.labels import MIN_TEXT, Label, Role, paint, place
from bot.render.png import encode_png
from bot.render.text import fit_text, text_length

__all__ = [
    "DASH",
    "MINUS",
    "ReportLayout",
    "ReportRow",
    "pr_colour",
    "render_report_chart",
    "report_layout",
]

RGB = theme.RGB
PANEL: RGB = theme.STRIP
BOX: RGB = theme.STATUS
WIDTH = 900
"""The widest a tournament image is drawn: text of :data:`TEXT` px is 10 px on a phone."""
TEXT = MIN_TEXT
MARGIN = 24
MINUS = "\u2212"  # wider than a hyphen, as wide as a plus
DASH = "\u2013"
HEADER = 112  # the title and subtitle above every image's content


def fitted(
    text: str, max_width: float, *, sizes: Sequence[int] = (24, TEXT), bold: bool = False
) -> tuple[str, int, bool]:
    """``text`` in the largest of ``sizes`` it fits ``max_width`` in whole, that size, and
    whether it was cut short (with an ellipsis, in the smallest size, when it fits in none)."""
    for size in sizes:
        if text_length(text, font(size, bold=bold)) <= max_width:
            return text, size, False
    shown = fit_text(text, font(sizes[-1], bold=bold), max_width)
    return shown, sizes[-1], shown != text


def write(
    draw: Pen,
    role: Role,
    text: str,
    size: int,
    xy: tuple[float, float],
    colour: RGB,
    *,
    bold: bool = False,
    anchor: str = "lm",
    cut: bool = False,
) -> Label:
    """Draw one line of text as a label (see :func:`bot.render.labels.place`), added to the
    pen's sink."""
    label = place(role, text, size, xy, colour, bold=bold, anchor=anchor, cut=cut)
    return paint(draw, label, draw.labels)


def signed(value: float, decimals: int = 0) -> str:
    """``value`` with its sign (a true minus for negatives): "+3", "0", "+1.25"."""
    text = f"{abs(value):.{decimals}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else MINUS) + text


class Pen(ImageDraw.ImageDraw):
    """Draws on a tournament image; ``labels``: where each text drawn is added as a
    :class:`Label` (the readability tests' sink), or None."""

    def __init__(self, image: Image.Image, labels: list[Label] | None) -> None:
        super().__init__(image)
        self.labels = labels


def canvas(width: int, height: int, labels: list[Label] | None = None) -> tuple[Image.Image, Pen]:
    """A blank image and its pen (``labels``: the texts' sink, see :class:`Pen`)."""
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    return image, Pen(image, labels)


def draw_header(draw: Pen, *, title: str, subtitle: str, width: int) -> None:
    """The title (bold) and a muted subtitle under it, each cut to the image's width."""
    room = width - 2 * MARGIN
    shown, size, cut = fitted(title, room, sizes=(34, 30, 26), bold=True)
    write(draw, "title", shown, size, (MARGIN, 40), theme.TEXT, bold=True, cut=cut)
    if subtitle:
        shown, size, cut = fitted(subtitle, room, sizes=(TEXT,))
        write(draw, "detail", shown, size, (MARGIN, 82), theme.MUTED, cut=cut)


# -- the report chart ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReportRow:
    """One player in the end-of-tournament report. ``pr``: their Performance Rating over the
    tournament (eXtreme Gammon's: 500 x equity lost per decision; lower is better), None when
    none of their matches was analysed; ``best_match_pr`` their best (lowest) single match;
    ``luck`` signed, positive when lucky; ``rank`` their final place."""

    name: str
    pr: float | None
    best_match_pr: float | None
    luck: float | None
    matches: int
    rank: int
    unrated: str | None = None  # said in place of the bar when there is no PR (None: not analysed)


REPORT_ROW = 58
BAR = 28
_BAR_LEFT = 300
_LUCK = 84  # the luck column's width
_MATCHES = 110  # the matches column's width
_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True, slots=True)
class ReportLayout:
    """Where the report chart puts things: each row's vertical centre, the PR axis (``pr_max``
    at ``bar_right``, a number every ``step``) and each analysed player's bar as (left, top,
    right, bottom)."""

    width: int
    height: int
    bar_left: int
    bar_right: int
    pr_max: float
    centres: tuple[float, ...]
    bars: tuple[tuple[float, float, float, float] | None, ...]
    step: int = 5

    def x(self, pr: float) -> float:
        """The x of ``pr`` on the axis (0 at ``bar_left``)."""
        scale = (self.bar_right - self.bar_left) / self.pr_max
        return self.bar_left + min(self.pr_max, max(0.0, pr)) * scale

    @property
    def luck_x(self) -> float:
        """The centre of the luck column."""
        return self.width - MARGIN - _MATCHES - _LUCK / 2

    @property
    def matches_x(self) -> float:
        """The centre of the matches column."""
        return self.width - MARGIN - _MATCHES / 2


def report_layout(rows: Sequence[ReportRow], *, width: int = WIDTH) -> ReportLayout:
    values = [value for row in rows for value in (row.pr, row.best_match_pr) if value is not None]
    # room to the right of the longest bar for its number
    pr_max = max(10.0, 5 * math.ceil(max(values, default=0.0) * 1.2 / 5))
    top = HEADER + 56
    centres = tuple(top + REPORT_ROW * (index + 0.5) for index in range(len(rows)))
    bar_right = width - MARGIN - _MATCHES - _LUCK - 28
    # the axis's numbers a step apart that keeps each clear of the next
    widest = text_length(str(int(pr_max)), font(TEXT)) + 14
    step = next(
        (step for step in _STEPS if step * (bar_right - _BAR_LEFT) / pr_max >= widest),
        _STEPS[-1],
    )
    pr_max = step * math.ceil(pr_max / step)
    layout = ReportLayout(width, 0, _BAR_LEFT, bar_right, pr_max, centres, (), step)
    bars = tuple(
        None
        if row.pr is None
        else (
            float(_BAR_LEFT),
            centre - BAR / 2,
            max(_BAR_LEFT + 3.0, layout.x(row.pr)),
            centre + BAR / 2,
        )
        for row, centre in zip(rows, centres, strict=True)
    )
    height = round(top + REPORT_ROW * max(1, len(rows)) + 28)
    return ReportLayout(width, height, _BAR_LEFT, bar_right, pr_max, centres, bars, step)


def pr_colour(pr: float) -> RGB:
    """Green for a strong PR (5 or less), through amber (12) to red (20 or more)."""
    if pr <= 5:
        return theme.WIN
    if pr <= 12:
        return theme.blend(theme.AMBER, theme.WIN, (pr - 5) / 7)
    return theme.blend(theme.LOSS, theme.AMBER, min(1.0, (pr - 12) / 8))


def render_report_chart(
    *,
    title: str,
    rows: Sequence[ReportRow],
    subtitle: str | None = None,
    width: int = WIDTH,
    labels: list[Label] | None = None,
    language: Language = ENGLISH,
) -> bytes:
    """One bar per player for their PR over the tournament (longer is worse), their best match
    as a diamond on it, their luck and matches at the right; in the order of ``rows``; its words
    in ``language``."""
    if width < 800:
        raise ValueError(f"a report chart {width} pixels wide is too narrow: use at least 800")
    layout = report_layout(rows, width=width)
    image, draw = canvas(layout.width, layout.height, labels)
    draw_header(
        draw,
        title=title,
        subtitle=subtitle if subtitle is not None else say.REPORT_SUBTITLE(language),
        width=layout.width,
    )
    for centre in layout.centres[::2]:
        draw.rectangle(
            (MARGIN, centre - REPORT_ROW / 2, layout.width - MARGIN, centre + REPORT_ROW / 2),
            fill=PANEL,
        )
    _axis(draw, layout, language)
    for index, (row, centre, bar) in enumerate(zip(rows, layout.centres, layout.bars, strict=True)):
        shade = PANEL if index % 2 == 0 else theme.BACKGROUND
        _report_row(draw, layout, row, centre, bar, shade, language)
    if not rows:
        write(
            draw,
            "note",
            say.NO_PLAYERS(language),
            24,
            (layout.width / 2, HEADER + 80),
            theme.MUTED,
            anchor="mm",
        )
    return encode_png(image)


def _axis(draw: Pen, layout: ReportLayout, language: Language) -> None:
    top = HEADER + 36
    bottom = layout.height - 28
    for value in range(0, int(layout.pr_max) + 1, layout.step):
        x = layout.x(value)
        draw.line((x, top + 14, x, bottom), fill=theme.GRID, width=1)
        write(draw, "axis", str(value), TEXT, (x, top), theme.MUTED, anchor="mm")
    write(
        draw,
        "heading",
        "PR",
        TEXT,
        (layout.bar_left - 28, top),
        theme.MUTED,
        bold=True,
        anchor="rm",
    )
    luck, matches = say.LUCK(language), say.MATCHES(language)
    write(draw, "heading", luck, TEXT, (layout.luck_x, top), theme.MUTED, anchor="mm")
    write(draw, "heading", matches, TEXT, (layout.matches_x, top), theme.MUTED, anchor="mm")


def _report_row(
    draw: Pen,
    layout: ReportLayout,
    row: ReportRow,
    centre: float,
    bar: tuple[float, float, float, float] | None,
    background: RGB,
    language: Language,
) -> None:
    rank_colour = theme.MEDALS[row.rank - 1] if 1 <= row.rank <= 3 else theme.MUTED
    write(
        draw, "rank", str(row.rank), 24, (MARGIN + 40, centre), rank_colour, bold=True, anchor="rm"
    )
    name, size, cut = fitted(row.name, layout.bar_left - MARGIN - 52 - 16)
    write(draw, "name", name, size, (MARGIN + 52, centre), theme.TEXT, cut=cut)
    if row.luck is not None:
        colour = theme.WIN if row.luck > 0 else theme.LOSS if row.luck < 0 else theme.MUTED
        write(
            draw, "value", signed(row.luck, 2), TEXT, (layout.luck_x, centre), colour, anchor="mm"
        )
    write(
        draw, "value", str(row.matches), TEXT, (layout.matches_x, centre), theme.MUTED, anchor="mm"
    )
    if bar is None or row.pr is None:  # the note in place of a bar, the grid not through it
        half = REPORT_ROW / 2
        draw.rectangle(
            (layout.bar_left - 1, centre - half, layout.bar_right + 1, centre + half - 1),
            fill=background,
        )
        note = say.NOT_ANALYSED(language) if row.unrated is None else row.unrated
        write(draw, "note", note, TEXT, (layout.bar_left + 8, centre), theme.MUTED)
        return
    colour = pr_colour(row.pr)
    draw.rounded_rectangle(bar, radius=5, fill=colour)
    text = f"{row.pr:.1f}"
    if bar[2] + 10 + text_length(text, font(TEXT, bold=True)) <= layout.bar_right + 16:
        write(draw, "value", text, TEXT, (bar[2] + 10, centre), theme.TEXT, bold=True)
    else:
        write(
            draw,
            "value",
            text,
            TEXT,
            (bar[2] - 8, centre),
            theme.ARROW_EDGE,
            bold=True,
            anchor="rm",
        )
    if row.best_match_pr is not None:
        _diamond(draw, layout.x(row.best_match_pr), centre)


def _diamond(draw: Pen, x: float, y: float) -> None:
    size = 11
    points = [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
    draw.polygon(points, fill=theme.TEXT, outline=theme.BACKGROUND, width=2)
