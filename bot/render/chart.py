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
from bot.render.labels import Label, Role, paint, place
from bot.render.text import fit_text, text_length, wrap_text

__all__ = ["ChartLayout", "chart_labels", "chart_layout", "render_chart"]

RGB = theme.RGB
PANEL: RGB = theme.STRIP
GRID: RGB = theme.GRID
LINE: RGB = theme.TEXT
BLUNDER: RGB = theme.HIT
FILLS: tuple[RGB, RGB] = theme.PLAYER_FILLS
"""The players' fills: the board's checker colours, softened onto the panel."""
GAP = 14  # pixels between games
TEXT_SIZE = 25
"""The smallest text, in the default 1000 px wide chart: 10 px on a phone."""
TITLE_SIZES = (30, 29, 28, 27, 26, 25)


class Point(NamedTuple):
    """Player 0's chances (0..1: of the game for money, of the match in match play) after one
    decision of game ``game``; ``blunder`` marks a very bad decision there."""

    game: int
    chance: float
    blunder: bool = False


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
    labels = chart_labels(points, names, length=length, plies=plies, width=width, height=height)
    layout = chart_layout(points, width=width, height=height)
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((layout.left, layout.top, layout.right, layout.bottom), fill=PANEL)
    _fill(draw, layout, points)
    _grid(draw, layout)
    _games(draw, layout)
    for label in labels:
        paint(draw, label)
    _line(draw, layout, points)
    return encode_png(image)


def chart_labels(
    points: Sequence[Point],
    names: Sequence[str],
    *,
    length: int,
    plies: int,
    width: int = 1000,
    height: int = 500,
) -> tuple[Label, ...]:
    """Every text of the chart :func:`render_chart` draws, with its font size and box: the
    title, the line under it, the percentages, the players (▲ at the top, ▼ at the bottom of the
    plot, each with the plot's width: a name is shown whole), the games' numbers."""
    if width < 400 or height < 250:
        raise ValueError(
            f"a chart of {width}x{height} pixels is too small to read: use at least 400x250"
        )
    shown = tuple(names)
    if len(shown) != 2:
        raise ValueError(f"a chart has two player names, not {len(shown)}")
    layout = chart_layout(points, width=width, height=height)
    labels = _header(shown, width, length=length, plies=plies)
    labels += _axis(layout)
    labels += _legend(layout, shown)
    labels += _game_labels(layout)
    if not points:
        middle = ((layout.left + layout.right) / 2, (layout.top + layout.bottom) / 2)
        empty = "No decisions to chart"
        labels.append(place("title", empty, 26, middle, theme.MUTED, anchor="mm", halo=PANEL))
    return tuple(labels)


def _header(names: tuple[str, ...], width: int, *, length: int, plies: int) -> list[Label]:
    """The players (in their colours) on the first line, what is charted on the second; the
    first line says what is charted when the names don't fit on one line (the legend in the
    plot shows them whole)."""
    what = (
        f"{length}-point match: chances to win the match"
        if length
        else "Money game: chances to win the game"
    )
    room = width - 48
    vs = "  vs  "
    for size in TITLE_SIZES:
        face = font(size, bold=True)
        if sum(text_length(part, face) for part in (names[0], vs, names[1])) <= room:
            labels: list[Label] = []
            x = 24.0
            for part, colour in zip(
                (names[0], vs, names[1]),
                (theme.PLAYER_TEXT[0], theme.MUTED, theme.PLAYER_TEXT[1]),
                strict=True,
            ):
                role: Role = "title" if part == vs else "name"
                labels.append(place(role, part, size, (x, 32), colour, bold=True))
                x += text_length(part, face)
            detail = f"{what} · {plies}-ply ·"
            break
    else:
        size = next(
            (size for size in TITLE_SIZES if text_length(what, font(size, bold=True)) <= room),
            TITLE_SIZES[-1],
        )
        shown = fit_text(what, font(size, bold=True), room)
        labels = [place("title", shown, size, (24, 32), theme.TEXT, bold=True)]
        detail = f"{plies}-ply ·"
    face = font(TEXT_SIZE)
    key = (("●", BLUNDER), (" very bad decisions", theme.MUTED))
    key_width = sum(text_length(part, face) for part, _ in key)
    detail = fit_text(detail, face, room - key_width - text_length(" ", face)) + " "
    x = 24.0
    for part, colour in ((detail, theme.MUTED), *key):
        labels.append(place("detail", part, TEXT_SIZE, (x, 70), colour))
        x += text_length(part, face)
    return labels


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


def _grid(draw: ImageDraw.ImageDraw, layout: ChartLayout) -> None:
    for percent in (25, 50, 75):
        y = layout.y(percent / 100)
        if percent == 50:
            _dashed(draw, layout.left, layout.right, y, theme.MUTED, 3)
        else:
            _dashed(draw, layout.left, layout.right, y, GRID, 1)


def _axis(layout: ChartLayout) -> list[Label]:
    return [
        place(
            "axis",
            f"{percent}%",
            TEXT_SIZE,
            (layout.left - 10, layout.y(percent / 100)),
            theme.MUTED,
            anchor="rm",
        )
        for percent in (0, 25, 50, 75, 100)
    ]


def _legend(layout: ChartLayout, names: tuple[str, ...]) -> list[Label]:
    """Each player's name in their colour, player 0's (ahead: up) at the top of the plot; on two
    lines if it needs them."""
    face = font(TEXT_SIZE, bold=True)
    room = layout.right - layout.left - 20
    pitch = TEXT_SIZE + 4
    labels = []
    for player, (mark, y, away) in enumerate(
        (("▲ ", layout.top + 18, 1), ("▼ ", layout.bottom - 18, -1))
    ):
        lines, cut = wrap_text(mark + names[player], face, room)
        middle = y + away * pitch * (len(lines) - 1) / 2
        colour = theme.PLAYER_TEXT[player]
        labels.append(
            place(
                "name",
                lines,
                TEXT_SIZE,
                (layout.left + 10, middle),
                colour,
                bold=True,
                pitch=pitch,
                cut=cut,
                halo=PANEL,
            )
        )
    return labels


def _dashed(
    draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float, colour: RGB, width: int
) -> None:
    x = x0
    while x < x1:
        draw.line((x, y, min(x + 10, x1), y), fill=colour, width=width)
        x += 18


def _games(draw: ImageDraw.ImageDraw, layout: ChartLayout) -> None:
    """A gap of the background between games."""
    for _, first, _ in layout.games[1:]:
        x = first - GAP / 2
        draw.line((x, layout.top, x, layout.bottom), fill=theme.BACKGROUND, width=GAP - 4)


def _game_labels(layout: ChartLayout) -> list[Label]:
    """Each game's number under it ("Game 3", or "3" where that is too wide; none where even
    that is)."""
    face = font(TEXT_SIZE)
    labels = []
    for game, first, last in layout.games:
        text = f"Game {game}"
        if last - first < text_length(text, face) + 8:
            text = str(game)
        if last - first + GAP >= text_length(text, face):
            labels.append(
                place(
                    "game",
                    text,
                    TEXT_SIZE,
                    ((first + last) / 2, layout.bottom + 26),
                    theme.MUTED,
                    anchor="mm",
                )
            )
    return labels


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
