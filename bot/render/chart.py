"""The analysis chart: player 0's chances through a match, move by move, as PNG bytes. No I/O.

Like the charts of gnubg and eXtreme Gammon: one line over the whole match, the area between it
and the 50% line filled in the colour of the player ahead (the checkers' colours of the board),
games separated and numbered. Match play shows the match winning chances (MWC), a money game
the chances to win the game.

Marks on the line, where a decision was made: each player's doubtful moves, errors and blunders
as discs like that player's checkers (ivory or navy, edged), larger the worse (a blunder also
ringed in magenta); cube actions as a small cube above the line (white: double or take, crossed:
pass, hollow: no double). A legend under the plot shows them. Given the ``winner``, the line
goes on past the last decision to the winner's edge (100% or 0%) in the winner's colour, and
the title says who beat whom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.i18n import images as say
from bot.i18n.core import ENGLISH, Language
from bot.render import theme
from bot.render.chart_points import (
    CUBE_ACTIONS,
    ERROR_CLASSES,
    CubeMark,
    ErrorClass,
    Point,
    cube_action,
    error_class,
)
from bot.render.fonts import font
from bot.render.labels import Label, Role, paint, place
from bot.render.png import encode_png
from bot.render.text import fit_text, text_length, wrap_text

__all__ = [
    "CUBE_ACTIONS",
    "ERROR_CLASSES",
    "ChartLayout",
    "Point",
    "chart_labels",
    "chart_layout",
    "cube_action",
    "cube_place",
    "error_class",
    "render_chart",
]

RGB = theme.RGB
PANEL: RGB = theme.STRIP
GRID: RGB = theme.GRID
LINE: RGB = theme.TEXT
BLUNDER: RGB = theme.HIT
FILLS: tuple[RGB, RGB] = theme.PLAYER_FILLS
"""The players' fills: the board's checker colours, softened onto the panel."""
MARKS: tuple[tuple[RGB, RGB], tuple[RGB, RGB]] = (
    (theme.PLAYER_COLOURS[0].fill, theme.PLAYER_COLOURS[0].outline),
    (theme.PLAYER_COLOURS[1].fill, theme.PLAYER_COLOURS[1].outline),
)
"""Each player's error marks: their checkers' fill and edge."""
GAP = 14  # pixels between games
END = 18
"""Room right of the last decision, for the line to the winner's edge."""
LEGEND_ROW = 40
"""The legend's row under the games' numbers."""
TEXT_SIZE = 25
"""The smallest text, in the default 1000 px wide chart: 10 px on a phone."""
TITLE_SIZES = (30, 29, 28, 27, 26, 25)


RADII: dict[ErrorClass, int] = {"doubtful": 6, "error": 9, "blunder": 12}
"""An error mark's radius by class; a blunder's magenta ring goes 3 px further."""
CUBE_SIDE = 20
"""A cube mark's side."""


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
    """The plot's box and where each point goes. The last point is :data:`END` pixels left of
    the plot's right edge, the room for the line on to the winner's edge."""
    left, top, right, bottom = 92, 104, width - 24, height - 56 - LEGEND_ROW
    games: list[int] = []
    for point in points:
        if not games or games[-1] != point.game:
            games.append(point.game)
    gaps = max(0, len(games) - 1)
    count = len(points)
    step = (right - END - left - gaps * GAP) / max(1, count - 1) if count > 1 else 0.0
    xs: list[float] = []
    spans: list[tuple[int, float, float]] = []
    gap = 0
    for index, point in enumerate(points):
        if index and point.game != points[index - 1].game:
            gap += 1
        x = left + index * step + gap * GAP if count > 1 else (left + right - END) / 2
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
    winner: int | None = None,
    language: Language = ENGLISH,
) -> bytes:
    """The chart of a match's ``points`` as PNG bytes: ``names`` player 0's first, ``length``
    the match's (0 for money), ``plies`` those of the analysis, ``winner`` the player who won
    the match (None: not said, or not over); its words in ``language``."""
    labels, glyphs = _compose(points, names, length, plies, width, height, winner, language)
    layout = chart_layout(points, width=width, height=height)
    image = Image.new("RGB", (width, height), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((layout.left, layout.top, layout.right, layout.bottom), fill=PANEL)
    _fill(draw, layout, points)
    _grid(draw, layout)
    _games(draw, layout)
    if not points:  # the grid's lines stop short of the message, which is the last label
        x0, y0, x1, y1 = labels[-1].box
        draw.rectangle((x0 - 16, y0 - 4, x1 + 16, y1 + 4), fill=PANEL)
    for label in labels:
        paint(draw, label)
    _line(draw, layout, points, winner)
    _marks(draw, layout, points)
    for glyph in glyphs:
        _glyph(draw, glyph)
    return encode_png(image)


def chart_labels(
    points: Sequence[Point],
    names: Sequence[str],
    *,
    length: int,
    plies: int,
    width: int = 1000,
    height: int = 500,
    winner: int | None = None,
    language: Language = ENGLISH,
) -> tuple[Label, ...]:
    """Every text of the chart :func:`render_chart` draws, with its font size and box: the
    title, the line under it, the percentages, the players (▲ at the top, ▼ at the bottom of the
    plot, each with the plot's width: a name is shown whole), the games' numbers, the legend."""
    return _compose(points, names, length, plies, width, height, winner, language)[0]


class Glyph(NamedTuple):
    """A mark drawn outside the plot's line: in the legend, or beside a player's name."""

    kind: str  # an error class, a cube action, or "player"
    player: int | None
    x: float
    y: float


def _compose(
    points: Sequence[Point],
    names: Sequence[str],
    length: int,
    plies: int,
    width: int,
    height: int,
    winner: int | None,
    language: Language,
) -> tuple[tuple[Label, ...], tuple[Glyph, ...]]:
    if width < 400 or height < 250:
        raise ValueError(
            f"a chart of {width}x{height} pixels is too small to read: use at least 400x250"
        )
    shown = tuple(names)
    if len(shown) != 2:
        raise ValueError(f"a chart has two player names, not {len(shown)}")
    if winner not in (None, 0, 1):
        raise ValueError(f"the winner is player 0 or 1 (or None), not {winner!r}")
    for point in points:
        if point.player not in (None, 0, 1):
            raise ValueError(f"a decision's player is 0 or 1 (or None), not {point.player!r}")
        error_class(point)
        cube_action(point)
    layout = chart_layout(points, width=width, height=height)
    labels = _header(shown, width, length=length, plies=plies, winner=winner, language=language)
    labels += _axis(layout)
    names_shown, glyphs = _legend(layout, shown)
    labels += names_shown
    labels += _game_labels(layout, language)
    key, key_glyphs = _key(width, height, points, language)
    labels += key
    if not points:
        middle = ((layout.left + layout.right) / 2, (layout.top + layout.bottom) / 2)
        empty = say.CHART_EMPTY(language)
        labels.append(place("title", empty, 26, middle, theme.MUTED, anchor="mm"))
    return tuple(labels), (*glyphs, *key_glyphs)


def _header(
    names: tuple[str, ...],
    width: int,
    *,
    length: int,
    plies: int,
    winner: int | None,
    language: Language,
) -> list[Label]:
    """The players (in their colours) on the first line, "beat" between them when the winner
    is known, what is charted on the second; the first line says what is charted when the names
    don't fit on one line (the legend in the plot shows them whole)."""
    what = say.CHART_MATCH(language, length=length) if length else say.CHART_MONEY(language)
    room = width - 48
    order = (0, 1) if winner is None else (winner, 1 - winner)
    between = f"  {(say.CHART_VS if winner is None else say.CHART_BEAT)(language)}  "
    analysis = say.CHART_PLIES(language, plies=plies)
    parts = (
        (names[order[0]], theme.PLAYER_TEXT[order[0]]),
        (between, theme.MUTED),
        (names[order[1]], theme.PLAYER_TEXT[order[1]]),
    )
    for size in TITLE_SIZES:
        face = font(size, bold=True)
        if sum(text_length(part, face) for part, _ in parts) <= room:
            labels: list[Label] = []
            x = 24.0
            for part, colour in parts:
                role: Role = "title" if part == between else "name"
                labels.append(place(role, part, size, (x, 32), colour, bold=True))
                x += text_length(part, face)
            detail = f"{what} · {analysis}"
            break
    else:
        size = next(
            (size for size in TITLE_SIZES if text_length(what, font(size, bold=True)) <= room),
            TITLE_SIZES[-1],
        )
        shown = fit_text(what, font(size, bold=True), room)
        labels = [place("title", shown, size, (24, 32), theme.TEXT, bold=True)]
        detail = analysis
        if winner is not None:
            detail += f" · {say.CHART_WON(language, mark='▲▼'[winner])}"
    face = font(TEXT_SIZE)
    labels.append(place("detail", fit_text(detail, face, room), TEXT_SIZE, (24, 68), theme.MUTED))
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


def _legend(layout: ChartLayout, names: tuple[str, ...]) -> tuple[list[Label], list[Glyph]]:
    """Each player's name in their colour, player 0's (ahead: up) at the top of the plot; on two
    lines if it needs them; before it a disc like their error marks."""
    face = font(TEXT_SIZE, bold=True)
    disc = 2 * RADII["error"] + 8
    room = layout.right - layout.left - 20 - disc
    pitch = TEXT_SIZE + 4
    labels = []
    glyphs = []
    ascent, descent = face.getmetrics()
    for player, (mark, y, away) in enumerate(
        (("▲ ", layout.top + 18, 1), ("▼ ", layout.bottom - 18, -1))
    ):
        lines, cut = wrap_text(mark + names[player], face, room)
        middle = y + away * pitch * (len(lines) - 1) / 2
        colour = theme.PLAYER_TEXT[player]
        label = place(
            "name",
            lines,
            TEXT_SIZE,
            (layout.left + 10 + disc, middle),
            colour,
            bold=True,
            pitch=pitch,
            cut=cut,
            halo=PANEL,
        )
        labels.append(label)
        first = label.baselines[0] - (ascent - descent) / 2
        glyphs.append(Glyph("player", player, layout.left + 10 + RADII["error"] + 2, first))
    return labels, glyphs


def _key(
    width: int, height: int, points: Sequence[Point], language: Language
) -> tuple[list[Label], list[Glyph]]:
    """The legend's row under the plot: the error classes (a mark of each player), then the cube
    marks the chart shows; shorter when the chart is too narrow for all of it. A chart whose
    points don't say who decided keys its (magenta) blunder marks alone."""
    face = font(TEXT_SIZE)
    space = text_length(" ", face)
    if not any(point.player is not None for point in points):
        variants = [[("blunder", say.CHART_VERY_BAD(language))]]
    else:
        actions = {cube_action(point) for point in points}
        cubes = [
            (kind, text)
            for kind, text, shown in (
                ("double", say.CHART_DOUBLE_TAKE, bool(actions & {"double", "take"})),
                ("pass", say.CHART_PASS, "pass" in actions),
                ("no double", say.CHART_NO_DOUBLE, "no double" in actions),
            )
            if shown
        ]
        errors = [(kind, say.CHART_ERRORS[kind]) for kind in ERROR_CLASSES]
        cube = ("double", say.CHART_CUBE)
        variants = [
            [(kind, entry(language)) for kind, entry in variant]
            for variant in ([*errors, *cubes], [*errors, cube] if cubes else errors, errors)
        ]
    y = height - LEGEND_ROW / 2 - 2
    room = width - 48
    for variant in variants:
        widths = [_key_glyph_width(kind) + 6 + text_length(text, face) for kind, text in variant]
        if sum(widths) + 3 * space * (len(variant) - 1) <= room:
            break
    labels = []
    glyphs = []
    x = 24.0
    old = len(variants) == 1
    for (kind, text), item in zip(variant, widths, strict=True):
        if old:
            glyphs.append(Glyph(kind, None, x + RADII["blunder"] + 3, y))
        elif kind in ERROR_CLASSES:
            radius = RADII[kind] + (3 if kind == "blunder" else 0)
            glyphs.append(Glyph(kind, 0, x + radius, y))
            glyphs.append(Glyph(kind, 1, x + 3 * radius + 2, y))
        else:
            glyphs.append(Glyph(kind, None, x + CUBE_SIDE / 2, y))
        glyph_width = 2 * RADII["blunder"] + 6 if old else _key_glyph_width(kind)
        labels.append(place("legend", text, TEXT_SIZE, (x + glyph_width + 6, y), theme.MUTED))
        x += item + 3 * space
    return labels, glyphs


def _key_glyph_width(kind: str) -> float:
    if kind in ERROR_CLASSES:
        radius = RADII[kind] + (3 if kind == "blunder" else 0)
        return 4 * radius + 2
    return CUBE_SIDE


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


def _game_labels(layout: ChartLayout, language: Language) -> list[Label]:
    """Each game's number under it ("Game 3", or "3" where that is too wide; none where even
    that is)."""
    face = font(TEXT_SIZE)
    labels = []
    for game, first, last in layout.games:
        text = say.CHART_GAME(language, game=game)
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


def _line(
    draw: ImageDraw.ImageDraw, layout: ChartLayout, points: Sequence[Point], winner: int | None
) -> None:
    segment: list[tuple[float, float]] = []
    for index, point in enumerate(points):
        if index and point.game != points[index - 1].game:
            _segment(draw, segment)
            segment = []
        segment.append((layout.xs[index], layout.y(point.chance)))
    _segment(draw, segment)
    if winner is not None and points:
        # past the last decision, on to the winner's edge, in the winner's colour
        last = layout.xs[-1], layout.y(points[-1].chance)
        edge = layout.right - 6, layout.y(1.0 if winner == 0 else 0.0)
        draw.line((last, edge), fill=theme.PLAYER_TEXT[winner], width=4)
        fill, outline = MARKS[winner]
        x, y = edge
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=fill, outline=outline, width=2)


def _marks(draw: ImageDraw.ImageDraw, layout: ChartLayout, points: Sequence[Point]) -> None:
    """The error marks on the line (the worse on top), and the cube marks above it."""
    marked = [
        (ERROR_CLASSES.index(kind), index, kind)
        for index, point in enumerate(points)
        if (kind := error_class(point)) is not None
    ]
    for _, index, kind in sorted(marked):
        point = points[index]
        _error_mark(draw, kind, point.player, layout.xs[index], layout.y(point.chance))
    placed: list[tuple[float, float]] = []
    for index, point in enumerate(points):
        action = cube_action(point)
        if action is not None:
            x, y = cube_place(layout, points, index, placed)
            placed.append((x, y))
            _cube_mark(draw, action, x, y)


def cube_place(
    layout: ChartLayout,
    points: Sequence[Point],
    index: int,
    placed: Sequence[tuple[float, float]] = (),
) -> tuple[float, float]:
    """The centre of the cube mark of ``points[index]``: above the line clear of a blunder's
    mark (below it near the top), higher (or lower) again where it would cover a cube mark
    ``placed`` before it (a double and the take just after)."""
    x, y = layout.xs[index], layout.y(points[index].chance)
    offset = RADII["blunder"] + 3 + CUBE_SIDE / 2 + 2
    pitch = CUBE_SIDE + 3
    half = CUBE_SIDE / 2
    tries = [y - offset - n * pitch for n in range(3)] + [y + offset + n * pitch for n in range(3)]
    inside = [at for at in tries if layout.top + half <= at <= layout.bottom - half] or [tries[0]]
    for at in inside:
        if all(abs(x - px) >= pitch or abs(at - py) >= pitch for px, py in placed):
            return x, at
    return x, inside[0]


def _error_mark(
    draw: ImageDraw.ImageDraw, kind: ErrorClass, player: int | None, x: float, y: float
) -> None:
    """A disc like the player's checkers, sized by class; a blunder also ringed in magenta. Of
    no player said: magenta, as the chart marked blunders before it knew who made them."""
    radius = RADII[kind]
    if kind == "blunder":
        ring = radius + 3
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), fill=BLUNDER)
    if player is None:
        fill, outline = BLUNDER, theme.BACKGROUND
    else:
        fill, outline = MARKS[player]
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=2
    )


def _cube_mark(draw: ImageDraw.ImageDraw, action: CubeMark, x: float, y: float) -> None:
    """A small cube: white for a double or a take, crossed for a pass, hollow for no double."""
    half = CUBE_SIDE / 2
    box = (x - half, y - half, x + half, y + half)
    draw.rounded_rectangle(box, radius=4, fill=theme.CUBE_OUTLINE)
    inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
    draw.rounded_rectangle(inner, radius=3, fill=theme.CUBE)
    if action == "no double":
        hole = (box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5)
        draw.rectangle(hole, fill=PANEL)
    elif action == "pass":
        arm = half - 5
        draw.line((x - arm, y - arm, x + arm, y + arm), fill=theme.CUBE_OUTLINE, width=3)
        draw.line((x - arm, y + arm, x + arm, y - arm), fill=theme.CUBE_OUTLINE, width=3)


def _glyph(draw: ImageDraw.ImageDraw, glyph: Glyph) -> None:
    if glyph.kind == "player":
        _error_mark(draw, "error", glyph.player, glyph.x, glyph.y)
    elif glyph.kind in ERROR_CLASSES:
        _error_mark(draw, glyph.kind, glyph.player, glyph.x, glyph.y)
    else:
        _cube_mark(draw, glyph.kind, glyph.x, glyph.y)  # type: ignore[arg-type]


def _segment(draw: ImageDraw.ImageDraw, segment: list[tuple[float, float]]) -> None:
    if len(segment) > 1:
        draw.line(segment, fill=LINE, width=3, joint="curve")
    elif segment:
        x, y = segment[0]
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=LINE)
