"""The analysis chart: player 0's chances through a match, move by move, as PNG bytes. No I/O.

Like the charts of gnubg and eXtreme Gammon: one line over the whole match, the area between it
and the 50% line filled in the colour of the player ahead (the checkers' colours of the board),
games separated and numbered, very bad decisions marked. Match play shows the match winning
chances (MWC), a money game the chances to win the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.board import encode_png
from bot.render.fonts import font
from bot.render.text import draw_text, fit_text, text_length

__all__ = ["ChartLayout", "chart_layout", "render_chart"]

RGB = theme.RGB
PANEL: RGB = theme.STRIP
GRID: RGB = (70, 76, 90)
LINE: RGB = theme.TEXT
BLUNDER: RGB = theme.HIT
GAP = 14  # pixels between games


class Point(NamedTuple):
    """Player 0's chances (0..1: of the game for money, of the match in match play) after one
    decision of game ``game``; ``blunder`` marks a very bad decision there."""

    game: int
    chance: float
    blunder: bool = False


def _blend(colour: RGB, under: RGB, amount: float) -> RGB:
    r, g, b = (round(c * amount + u * (1 - amount)) for c, u in zip(colour, under, strict=True))
    return r, g, b


# the players' fills: the board's checker colours, softened onto the panel
FILLS: tuple[RGB, RGB] = (
    _blend(theme.PLAYER_COLOURS[0].fill, PANEL, 0.72),
    _blend(theme.PLAYER_COLOURS[1].rim, PANEL, 0.9),
)


@dataclass(frozen=True, slots=True)
class ChartLayout:
    """Where things go: the plot's box and each point's place (also for tests)."""

    left: int
    top: int
    right: int
    bottom: int
    xs: tuple[float, ...]  # each chart point's x
    games: tuple[tuple[int, float, float], ...]  # (game, first x, last x)

    def y(self, chance: float) -> float:
        """The y of player 0's ``chance`` (0..1): 100% at the top."""
        return self.bottom - min(1.0, max(0.0, chance)) * (self.bottom - self.top)


def chart_layout(points: Sequence[Point], *, width: int, height: int) -> ChartLayout:
    left, top, right, bottom = 92, 96, width - 24, height - 56
    games: list[int] = []
    for point in points:
        if not games or games[-1] != point.game:
            games.append(point.game)
    gaps = max(0, len(games) - 1)
    count = len(points)
    step = (right - left - gaps * GAP) / max(1, count - 1) if count > 1 else 0.0
    xs: list[float] = []
    spans: list[tuple[int, float, float]] = []
    gap = 0
    for index, point in enumerate(points):
        if index and point.game != points[index - 1].game:
            gap += 1
        x = left + index * step + gap * GAP if count > 1 else (left + right) / 2
        xs.append(x)
        if spans and spans[-1][0] == point.game:
            spans[-1] = (point.game, spans[-1][1], x)
        else:
            spans.append((point.game, x, x))
    return ChartLayout(left, top, right, bottom, tuple(xs), tuple(spans))


def render_chart(
    points: Sequence[Point],
    names: Sequence[str],
    *,
    length: int,
    plies: int,
    width: int = 1000,
    height: int = 500,
) -> bytes:
    """The chart of a match's ``points`` as PNG bytes: ``names`` player 0's first, ``length``
    the match's (0 for money), ``plies`` those of the analysis."""
    if width < 400 or height < 250:
        raise ValueError(
            f"a chart of {width}x{height} pixels is too small to read: use at least 400x250"
        )
    shown = tuple(names)
    if len(shown) != 2:
        raise ValueError(f"a chart has two player names, not {len(shown)}")
    layout = chart_layout(points, width=width, height=height)
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    _title(draw, shown, width, length=length, plies=plies)
    draw.rectangle((layout.left, layout.top, layout.right, layout.bottom), fill=PANEL)
    _fill(draw, layout, points)
    _grid(draw, layout, shown)
    _games(draw, layout)
    _line(draw, layout, points)
    if not points:
        draw_text(
            draw,
            ((layout.left + layout.right) / 2, (layout.top + layout.bottom) / 2),
            "No decisions to chart",
            font(26),
            theme.MUTED,
            anchor="mm",
        )
    return encode_png(image)


def _title(
    draw: ImageDraw.ImageDraw, names: Sequence[str], width: int, *, length: int, plies: int
) -> None:
    what = (
        f"{length}-point match: chances to win the match"
        if length
        else "Money game: chances to win the game"
    )
    face = font(30, bold=True)
    half = (width - 24 - 110) / 2
    first = fit_text(names[0], face, half)
    second = fit_text(names[1], face, half)
    x = 24.0
    draw_text(draw, (x, 32), first, face, theme.PLAYER_COLOURS[0].fill)
    x += text_length(first, face)
    draw_text(draw, (x, 32), "  vs  ", face, theme.MUTED)
    x += text_length("  vs  ", face)
    draw_text(draw, (x, 32), second, face, FILLS[1])
    detail = f"{what} · {plies}-ply · very bad decisions marked"
    draw_text(draw, (24, 70), fit_text(detail, font(21), width - 48), font(21), theme.MUTED)


def _fill(draw: ImageDraw.ImageDraw, layout: ChartLayout, points: Sequence[Point]) -> None:
    """Between the line and the 50% line, in the colour of the player ahead."""
    middle = layout.y(0.5)
    for index in range(1, len(points)):
        before, after = points[index - 1], points[index]
        if before.game != after.game:
            continue
        x0, x1 = layout.xs[index - 1], layout.xs[index]
        y0, y1 = layout.y(before.chance), layout.y(after.chance)
        if (y0 - middle) * (y1 - middle) < 0:  # crosses 50%: split where it does
            cross = x0 + (x1 - x0) * (middle - y0) / (y1 - y0)
            _band(draw, x0, y0, cross, middle, middle)
            _band(draw, cross, middle, x1, y1, middle)
        else:
            _band(draw, x0, y0, x1, y1, middle)


def _band(
    draw: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, middle: float
) -> None:
    ahead = 0 if min(y0, y1) < middle else 1
    draw.polygon([(x0, middle), (x0, y0), (x1, y1), (x1, middle)], fill=FILLS[ahead])


def _grid(draw: ImageDraw.ImageDraw, layout: ChartLayout, names: Sequence[str]) -> None:
    label = font(20)
    for percent in (0, 25, 50, 75, 100):
        y = layout.y(percent / 100)
        if percent == 50:
            _dashed(draw, layout.left, layout.right, y, theme.MUTED, 3)
        elif percent not in (0, 100):
            _dashed(draw, layout.left, layout.right, y, GRID, 1)
        draw_text(draw, (layout.left - 10, y), f"{percent}%", label, theme.MUTED, anchor="rm")
    small = font(20, bold=True)
    room = (layout.right - layout.left) / 2
    draw_text(
        draw,
        (layout.left + 10, layout.top + 16),
        fit_text(f"▲ {names[0]}", small, room),
        small,
        theme.PLAYER_COLOURS[0].fill,
    )
    draw_text(
        draw,
        (layout.left + 10, layout.bottom - 16),
        fit_text(f"▼ {names[1]}", small, room),
        small,
        FILLS[1],
    )


def _dashed(
    draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float, colour: RGB, width: int
) -> None:
    x = x0
    while x < x1:
        draw.line((x, y, min(x + 10, x1), y), fill=colour, width=width)
        x += 18


def _games(draw: ImageDraw.ImageDraw, layout: ChartLayout) -> None:
    label = font(22)
    for index, (game, first, last) in enumerate(layout.games):
        if index:
            x = first - GAP / 2
            draw.line((x, layout.top, x, layout.bottom), fill=theme.BACKGROUND, width=GAP - 4)
        text = f"Game {game}"
        if last - first < draw.textlength(text, font=label) + 8:
            text = str(game)
        if last - first + GAP >= draw.textlength(text, font=label):
            draw_text(
                draw,
                ((first + last) / 2, layout.bottom + 26),
                text,
                label,
                theme.MUTED,
                anchor="mm",
            )


def _line(draw: ImageDraw.ImageDraw, layout: ChartLayout, points: Sequence[Point]) -> None:
    segment: list[tuple[float, float]] = []
    for index, point in enumerate(points):
        if index and point.game != points[index - 1].game:
            _segment(draw, segment)
            segment = []
        segment.append((layout.xs[index], layout.y(point.chance)))
    _segment(draw, segment)
    for index, point in enumerate(points):
        if point.blunder:
            x, y = layout.xs[index], layout.y(point.chance)
            draw.ellipse(
                (x - 7, y - 7, x + 7, y + 7), fill=BLUNDER, outline=theme.BACKGROUND, width=2
            )


def _segment(draw: ImageDraw.ImageDraw, segment: list[tuple[float, float]]) -> None:
    if len(segment) > 1:
        draw.line(segment, fill=LINE, width=3, joint="curve")
    elif segment:
        x, y = segment[0]
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=LINE)
