"""Tables of a Swiss or round-robin tournament as PNG bytes, no I/O: the standings, and the
round-robin crosstable (every player against every other).

The standings show the top rows and, when the viewer is further down, a "⋯" and the viewer's own
row, so a 256-player table stays one small image about what the viewer cares about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.render import theme
from bot.render.board import encode_png
from bot.render.fonts import font
from bot.render.text import draw_text, text_length
from bot.render.tournament import (
    DASH,
    DIM,
    GRID,
    HEADER,
    LINE,
    LOSS,
    MARGIN,
    MEDALS,
    MINUS,
    PANEL,
    WIN,
    canvas,
    draw_header,
    fitted,
    signed,
)
from bot.rules.text import plural
from bot.rules.tournaments.model import MAX_ROUND_ROBIN, Entrant, Result, Standing

__all__ = [
    "GridLayout",
    "StandingsLayout",
    "grid_layout",
    "render_round_robin_grid",
    "render_standings",
    "standings_layout",
]

RGB = theme.RGB
ROW = 46
SEPARATOR = 40
ZEBRA: RGB = theme.blend(PANEL, theme.BACKGROUND, 0.7)
MINE: RGB = theme.blend(theme.HIGHLIGHT, theme.BACKGROUND, 0.2)
WIN_TINT: RGB = theme.blend(WIN, PANEL, 0.34)
LOSS_TINT: RGB = theme.blend(LOSS, PANEL, 0.26)

# (header, width) of the number columns, right of the name
_COLUMNS = (("MP", 76), ("Played", 92), ("W-L", 90), ("Buchholz", 116), (f"+/{MINUS}", 88))


@dataclass(frozen=True, slots=True)
class StandingsLayout:
    """Where the standings go: each shown row as (player id, top, bottom), the "⋯" separator's
    (top, bottom) if there is one, and the columns' (header, left, right)."""

    width: int
    height: int
    rows: tuple[tuple[int, float, float], ...]
    separator: tuple[float, float] | None
    columns: tuple[tuple[str, float, float], ...]


def _shown(
    standings: Sequence[Standing], rows: int, highlight: int | None
) -> tuple[list[Standing], Standing | None]:
    top = list(standings[: max(0, rows)])
    if highlight is None or any(s.player_id == highlight for s in top):
        return top, None
    return top, next((s for s in standings if s.player_id == highlight), None)


def standings_layout(
    standings: Sequence[Standing],
    *,
    rows: int = 32,
    highlight: int | None = None,
    width: int = 1000,
) -> StandingsLayout:
    top, extra = _shown(standings, rows, highlight)
    y = HEADER + 8 + ROW  # under the column headers
    placed: list[tuple[int, float, float]] = []
    for standing in top:
        placed.append((standing.player_id, y, y + ROW))
        y += ROW
    separator = None
    if extra is not None:
        separator = (y, y + SEPARATOR)
        y += SEPARATOR
        placed.append((extra.player_id, y, y + ROW))
        y += ROW
    right = width - MARGIN
    columns: list[tuple[str, float, float]] = []
    for header, size in reversed(_COLUMNS):
        columns.insert(0, (header, right - size, right))
        right -= size
    columns.insert(0, ("Player", MARGIN + 64, right - 12))
    columns.insert(0, ("#", MARGIN, MARGIN + 52))
    height = int(y + (ROW if not placed else 0) + MARGIN)
    return StandingsLayout(width, height, tuple(placed), separator, tuple(columns))


def render_standings(
    *,
    title: str,
    subtitle: str,
    standings: Sequence[Standing],
    rows: int = 32,
    highlight: int | None = None,
    width: int = 1000,
) -> bytes:
    """The standings in the order given (by rank): rank, name, match points, played, won-lost,
    Buchholz and points difference; the first ``rows`` of them, and ``highlight``'s row after a
    "⋯" when it is further down. Withdrawn players are greyed and marked."""
    if width < 800:
        raise ValueError(f"standings {width} pixels wide are too narrow: use at least 800")
    layout = standings_layout(standings, rows=rows, highlight=highlight, width=width)
    image, draw = canvas(layout.width, layout.height)
    draw_header(draw, title=title, subtitle=subtitle, width=layout.width)
    heading = font(22, bold=True)
    y = HEADER + 8 + ROW / 2
    for index, (header, left, right) in enumerate(layout.columns):
        x, anchor = (left, "lm") if index == 1 else ((left + right) / 2, "mm")
        draw_text(draw, (x, y), header, heading, theme.MUTED, anchor)
    draw.line(
        (MARGIN, HEADER + 8 + ROW - 1, layout.width - MARGIN, HEADER + 8 + ROW - 1), fill=LINE
    )
    by_id = {standing.player_id: standing for standing in standings}
    for index, (player, top, bottom) in enumerate(layout.rows):
        standing = by_id[player]
        if player == highlight:
            fill: RGB | None = MINE
        else:
            fill = ZEBRA if index % 2 == 0 else None
        if fill is not None:
            draw.rectangle((MARGIN, top, layout.width - MARGIN, bottom - 1), fill=fill)
        if player == highlight:
            draw.rectangle((MARGIN, top, MARGIN + 4, bottom - 1), fill=theme.HIGHLIGHT)
        _standing(draw, layout, standing, (top + bottom) / 2, mine=player == highlight)
    if layout.separator is not None:
        top, bottom = layout.separator
        for dx in (-14, 0, 14):
            x, y = layout.width / 2 + dx, (top + bottom) / 2
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=DIM)
    if not standings:
        draw_text(
            draw,
            (layout.width / 2, HEADER + 8 + ROW * 1.5),
            "No standings yet",
            font(24),
            DIM,
            "mm",
        )
    return encode_png(image)


def _standing(
    draw: ImageDraw.ImageDraw, layout: StandingsLayout, standing: Standing, y: float, *, mine: bool
) -> None:
    gone = standing.withdrawn
    text = DIM if gone else theme.TEXT
    medal = MEDALS[standing.rank - 1] if 1 <= standing.rank <= 3 and not gone else None
    _, left, right = layout.columns[0]
    draw_text(draw, (right - 8, y), str(standing.rank), font(24, bold=True), medal or text, "rm")
    _, left, right = layout.columns[1]
    notes = []
    if standing.byes:
        notes.append("bye" if standing.byes == 1 else f"{standing.byes} byes")
    if gone:
        notes.append("withdrawn")
    note = f"({', '.join(notes)})" if notes else ""
    small = font(22)
    room = right - left - (text_length(note, small) + 10 if note else 0)
    name, face = fitted(standing.name, room, sizes=(24, 22), bold=mine)
    draw_text(draw, (left, y), name, face, theme.HIGHLIGHT if mine else text)
    if note:
        x = left + text_length(name, face) + 10
        draw_text(draw, (x, y + 1), note, small, LOSS if gone else theme.MUTED)
    values = (
        str(standing.match_points),
        str(standing.played),
        f"{standing.wins}-{standing.losses}",
        str(standing.buchholz),
        signed(standing.points_difference),
    )
    for index, value in enumerate(values):
        _, left, right = layout.columns[index + 2]
        face = font(24, bold=index == 0)
        draw_text(draw, ((left + right) / 2, y), value, face, text, "mm")


# -- the round-robin crosstable --------------------------------------------------------------


CELL_ROW = 58
_TOTALS = (("W-L", 92), (f"+/{MINUS}", 92))


@dataclass(frozen=True, slots=True)
class GridLayout:
    """Where the crosstable goes: the cells' left edges (``xs``, one per column player) and
    top edges (``ys``, one per row player), each ``cell`` x ``CELL_ROW`` pixels, and the totals'
    columns as (header, left, right)."""

    width: int
    height: int
    name_left: float
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    cell: int
    totals: tuple[tuple[str, float, float], ...]

    def box(self, row: int, column: int) -> tuple[float, float, float, float]:
        """The cell of row player ``row`` against column player ``column`` (from 0)."""
        x, y = self.xs[column], self.ys[row]
        return x, y, x + self.cell, y + CELL_ROW


def grid_layout(entrants: Sequence[Entrant]) -> GridLayout:
    count = len(entrants)
    cell = 86 if count <= 7 else 76
    name_width = 330 if count <= 8 else 300
    left = MARGIN + name_width
    # the column names stand upright over the grid: as tall as the longest needs
    longest = max((text_length(*_column_name(entrant.name)) for entrant in entrants), default=0)
    top = HEADER + round(min(230, max(110, longest + 60)))
    xs = tuple(float(left + cell * index) for index in range(count))
    ys = tuple(float(top + CELL_ROW * index) for index in range(count))
    x = left + cell * count + 12
    totals: list[tuple[str, float, float]] = []
    for name, size in _TOTALS:
        totals.append((name, x, x + size))
        x += size
    width = int(x + MARGIN)
    height = int(top + CELL_ROW * max(1, count) + MARGIN)
    return GridLayout(width, height, MARGIN, xs, ys, cell, tuple(totals))


def render_round_robin_grid(
    *, title: str, entrants: Sequence[Entrant], results: Sequence[Result], subtitle: str = ""
) -> bytes:
    """The crosstable: each cell the row player's points against the column player's ("3-1"),
    tinted green for the row player's win and red for a loss; the diagonal blank; wins, losses
    and points difference at the right."""
    players = list(entrants)
    if len(players) > MAX_ROUND_ROBIN:
        raise ValueError(
            f"a crosstable shows at most {MAX_ROUND_ROBIN} players, not {len(players)}"
        )
    layout = grid_layout(players)
    image, draw = canvas(layout.width, layout.height)
    played = sum(1 for result in results if result.second is not None)
    draw_header(
        draw,
        title=title,
        subtitle=subtitle
        or f"Round robin · {len(players)} players · {plural(played, 'match')} played",
        width=layout.width,
    )
    index = {entrant.player_id: number for number, entrant in enumerate(players)}
    meetings: dict[tuple[int, int], list[Result]] = {}
    for result in results:
        if result.second is not None and result.first in index and result.second in index:
            a, b = index[result.first], index[result.second]
            meetings.setdefault((a, b), []).append(result)
            meetings.setdefault((b, a), []).append(result)
    _column_names(image, draw, layout, players)
    for row, entrant in enumerate(players):
        top = layout.ys[row]
        centre = top + CELL_ROW / 2
        if row % 2 == 0:
            draw.rectangle((MARGIN, top, layout.width - MARGIN, top + CELL_ROW - 1), fill=ZEBRA)
        draw_text(draw, (MARGIN + 30, centre), str(row + 1), font(22, bold=True), theme.MUTED, "rm")
        name, face = fitted(entrant.name, layout.xs[0] - MARGIN - 52 if layout.xs else 200)
        draw_text(draw, (MARGIN + 42, centre), name, face, theme.TEXT)
        wins = losses = difference = 0
        for column in range(len(players)):
            found = meetings.get((row, column), []) if row != column else []
            _cell(draw, layout.box(row, column), entrant.player_id, found, diagonal=row == column)
            for result in found:
                wins += result.winner == entrant.player_id
                losses += result.winner is not None and result.winner != entrant.player_id
                mine = result.points_of(entrant.player_id)
                difference += mine - (result.first_points + result.second_points - mine)
        totals = (f"{wins}-{losses}", signed(difference))
        for (_, left, right), value in zip(layout.totals, totals, strict=True):
            draw_text(
                draw, ((left + right) / 2, centre), value, font(24, bold=True), theme.TEXT, "mm"
            )
    if layout.xs:
        right = layout.xs[-1] + layout.cell
        bottom = layout.ys[-1] + CELL_ROW
        for x in (*layout.xs, right):
            draw.line((x, layout.ys[0], x, bottom), fill=GRID, width=2)
        for y in (*layout.ys, bottom):
            draw.line((layout.xs[0], y, right, y), fill=GRID, width=2)
    return encode_png(image)


def _column_name(name: str) -> tuple[str, ImageFont.FreeTypeFont]:
    return fitted(name, 200, sizes=(22,))


def _column_names(
    image: Image.Image, draw: ImageDraw.ImageDraw, layout: GridLayout, players: Sequence[Entrant]
) -> None:
    """Each column's number over the grid, and its player's name above it reading upwards."""
    top = layout.ys[0] if layout.ys else HEADER
    for column, entrant in enumerate(players):
        centre = layout.xs[column] + layout.cell / 2
        draw_text(draw, (centre, top - 18), str(column + 1), font(22, bold=True), theme.MUTED, "mm")
        text, face = _column_name(entrant.name)
        length = int(text_length(text, face)) + 8
        strip = Image.new("RGB", (length, 32), theme.BACKGROUND)
        draw_text(ImageDraw.Draw(strip), (2, 16), text, face, theme.TEXT)
        upright = strip.rotate(90, expand=True)
        image.paste(upright, (round(centre - 16), round(top - 40 - length)))
    for header, left, right in layout.totals:
        draw_text(
            draw, ((left + right) / 2, top - 18), header, font(22, bold=True), theme.MUTED, "mm"
        )


def _cell(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    player: int,
    found: Sequence[Result],
    *,
    diagonal: bool,
) -> None:
    if diagonal:
        draw.rectangle(box, fill=GRID)
        return
    if not found:
        draw.rectangle(box, fill=PANEL)
        return
    last = found[-1]
    fill = PANEL if last.winner is None else WIN_TINT if last.winner == player else LOSS_TINT
    draw.rectangle(box, fill=fill)
    shown = found[-2:]
    face = font(22, bold=True)
    left, top, right, bottom = box
    step = (bottom - top) / (len(shown) + 1)
    for number, result in enumerate(shown, start=1):
        draw_text(
            draw,
            ((left + right) / 2, top + step * number),
            _score(result, player),
            face,
            theme.TEXT,
            "mm",
        )


def _score(result: Result, player: int) -> str:
    """``player``'s points first, or W/L for a match decided without play."""
    mine = result.points_of(player)
    theirs = result.first_points + result.second_points - mine
    if mine or theirs:
        return f"{mine}-{theirs}"
    if result.winner is None:
        return DASH
    return "W" if result.winner == player else "L"
