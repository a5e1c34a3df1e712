"""Tournament images as PNG bytes, no I/O: the look they share, and the end-of-tournament report
chart. The knockout bracket is :mod:`bot.render.bracket`; the standings and the round-robin
crosstable are :mod:`bot.render.standings`.

All of them are drawn on the board's dark background in its palette, with names in the shipped
fonts at 22 px or more: Discord shows an image about 400 px wide on a phone, so text must survive
being scaled down to a third.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.render import theme
from bot.render.board import encode_png
from bot.render.fonts import font
from bot.render.text import draw_text, fit_text, text_length

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
LINE: RGB = (84, 90, 106)
GRID: RGB = (62, 68, 82)
WIN: RGB = (92, 200, 132)
LOSS: RGB = (226, 98, 90)
DIM: RGB = (112, 118, 132)
MEDALS: tuple[RGB, RGB, RGB] = ((246, 196, 64), (200, 208, 220), (214, 146, 92))
MARGIN = 24
MINUS = "\u2212"  # wider than a hyphen, as wide as a plus
DASH = "\u2013"
HEADER = 112  # the title and subtitle above every image's content


def fitted(
    text: str, max_width: float, *, sizes: Sequence[int] = (24, 22), bold: bool = False
) -> tuple[str, ImageFont.FreeTypeFont]:
    """``text`` in the largest of ``sizes`` it fits ``max_width`` in whole; cut short with an
    ellipsis in the smallest when it fits in none."""
    for size in sizes:
        face = font(size, bold=bold)
        if text_length(text, face) <= max_width:
            return text, face
    face = font(sizes[-1], bold=bold)
    return fit_text(text, face, max_width), face


def signed(value: float, decimals: int = 0) -> str:
    """``value`` with its sign (a true minus for negatives): "+3", "0", "+1.25"."""
    text = f"{abs(value):.{decimals}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else MINUS) + text


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    return image, ImageDraw.Draw(image)


def draw_header(draw: ImageDraw.ImageDraw, *, title: str, subtitle: str, width: int) -> None:
    """The title (bold) and a muted subtitle under it, each cut to the image's width."""
    room = width - 2 * MARGIN
    shown, face = fitted(title, room, sizes=(34, 30, 26), bold=True)
    draw_text(draw, (MARGIN, 40), shown, face, theme.TEXT)
    if subtitle:
        shown, face = fitted(subtitle, room, sizes=(22,))
        draw_text(draw, (MARGIN, 82), shown, face, theme.MUTED)


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


REPORT_ROW = 58
BAR = 28
_BAR_LEFT = 400
_RIGHT_COLUMNS = 200  # luck and matches


@dataclass(frozen=True, slots=True)
class ReportLayout:
    """Where the report chart puts things: each row's vertical centre, the PR axis (``pr_max``
    at ``bar_right``) and each analysed player's bar as (left, top, right, bottom)."""

    width: int
    height: int
    bar_left: int
    bar_right: int
    pr_max: float
    centres: tuple[float, ...]
    bars: tuple[tuple[float, float, float, float] | None, ...]

    def x(self, pr: float) -> float:
        """The x of ``pr`` on the axis (0 at ``bar_left``)."""
        scale = (self.bar_right - self.bar_left) / self.pr_max
        return self.bar_left + min(self.pr_max, max(0.0, pr)) * scale


def report_layout(rows: Sequence[ReportRow], *, width: int = 1100) -> ReportLayout:
    values = [value for row in rows for value in (row.pr, row.best_match_pr) if value is not None]
    # room to the right of the longest bar for its number
    pr_max = max(10.0, 5 * math.ceil(max(values, default=0.0) * 1.2 / 5))
    top = HEADER + 56
    centres = tuple(top + REPORT_ROW * (index + 0.5) for index in range(len(rows)))
    bar_right = width - _RIGHT_COLUMNS - MARGIN
    layout = ReportLayout(width, 0, _BAR_LEFT, bar_right, pr_max, centres, ())
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
    return ReportLayout(width, height, _BAR_LEFT, bar_right, pr_max, centres, bars)


def pr_colour(pr: float) -> RGB:
    """Green for a strong PR (5 or less), through amber (12) to red (20 or more)."""
    amber: RGB = (236, 190, 70)
    if pr <= 5:
        return WIN
    if pr <= 12:
        return theme.blend(amber, WIN, (pr - 5) / 7)
    return theme.blend(LOSS, amber, min(1.0, (pr - 12) / 8))


def render_report_chart(
    *, title: str, rows: Sequence[ReportRow], subtitle: str | None = None, width: int = 1100
) -> bytes:
    """One bar per player for their PR over the tournament (longer is worse), their best match
    as a diamond on it, their luck and matches at the right; in the order of ``rows``."""
    if width < 800:
        raise ValueError(f"a report chart {width} pixels wide is too narrow: use at least 800")
    layout = report_layout(rows, width=width)
    image, draw = canvas(layout.width, layout.height)
    draw_header(
        draw,
        title=title,
        subtitle=subtitle
        if subtitle is not None
        else "Performance rating (PR) over the tournament: lower is better · ◆ best match",
        width=layout.width,
    )
    for centre in layout.centres[::2]:
        draw.rectangle(
            (MARGIN, centre - REPORT_ROW / 2, layout.width - MARGIN, centre + REPORT_ROW / 2),
            fill=PANEL,
        )
    _axis(draw, layout)
    for row, centre, bar in zip(rows, layout.centres, layout.bars, strict=True):
        _report_row(draw, layout, row, centre, bar)
    if not rows:
        draw_text(
            draw, (layout.width / 2, HEADER + 80), "No players", font(24), theme.MUTED, anchor="mm"
        )
    return encode_png(image)


def _axis(draw: ImageDraw.ImageDraw, layout: ReportLayout) -> None:
    label = font(22)
    top = HEADER + 36
    bottom = layout.height - 28
    step = 5 if layout.pr_max <= 40 else 10
    for value in range(0, int(layout.pr_max) + 1, step):
        x = layout.x(value)
        draw.line((x, top + 12, x, bottom), fill=GRID, width=1)
        draw_text(draw, (x, top), str(value), label, theme.MUTED, anchor="mm")
    draw_text(draw, (layout.bar_left - 28, top), "PR", font(22, bold=True), theme.MUTED, "rm")
    right = layout.width - MARGIN
    draw_text(draw, (right - 130, top), "luck", label, theme.MUTED, anchor="mm")
    draw_text(draw, (right - 44, top), "matches", label, theme.MUTED, anchor="mm")


def _report_row(
    draw: ImageDraw.ImageDraw,
    layout: ReportLayout,
    row: ReportRow,
    centre: float,
    bar: tuple[float, float, float, float] | None,
) -> None:
    rank_colour = MEDALS[row.rank - 1] if 1 <= row.rank <= 3 else theme.MUTED
    draw_text(draw, (MARGIN + 48, centre), str(row.rank), font(24, bold=True), rank_colour, "rm")
    name, face = fitted(row.name, layout.bar_left - MARGIN - 72, sizes=(24, 22))
    draw_text(draw, (MARGIN + 60, centre), name, face, theme.TEXT)
    right = layout.width - MARGIN
    value = font(22)
    if row.luck is not None:
        colour = WIN if row.luck > 0 else LOSS if row.luck < 0 else theme.MUTED
        draw_text(draw, (right - 130, centre), signed(row.luck, 2), value, colour, anchor="mm")
    draw_text(draw, (right - 44, centre), str(row.matches), value, theme.MUTED, anchor="mm")
    if bar is None or row.pr is None:
        draw_text(draw, (layout.bar_left + 8, centre), "not analysed", font(22), DIM)
        return
    colour = pr_colour(row.pr)
    draw.rounded_rectangle(bar, radius=5, fill=colour)
    label = font(22, bold=True)
    text = f"{row.pr:.1f}"
    if bar[2] + 10 + text_length(text, label) <= layout.bar_right + 30:
        draw_text(draw, (bar[2] + 10, centre), text, label, theme.TEXT)
    else:
        draw_text(draw, (bar[2] - 8, centre), text, label, theme.BACKGROUND, anchor="rm")
    if row.best_match_pr is not None:
        _diamond(draw, layout.x(row.best_match_pr), centre)


def _diamond(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    size = 11
    points = [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
    draw.polygon(points, fill=theme.TEXT, outline=theme.BACKGROUND, width=2)
