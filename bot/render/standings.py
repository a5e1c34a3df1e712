"""Tables of a Swiss or round-robin tournament as PNG bytes, no I/O: the standings, and the
round-robin crosstable (every player against every other).

The standings show the top rows and, when the viewer is further down, a "⋯" and the viewer's own
row, so a 256-player table stays one small image about what the viewer cares about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import images as say
from bot.i18n.core import ENGLISH, Language, Message
from bot.render import theme
from bot.render.fonts import font
from bot.render.labels import Label
from bot.render.png import encode_png
from bot.render.text import text_length
from bot.render.tournament import (
    DASH,
    HEADER,
    MARGIN,
    MINUS,
    PANEL,
    TEXT,
    WIDTH,
    Pen,
    canvas,
    draw_header,
    fitted,
    signed,
    write,
)
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
WIN_TINT: RGB = theme.blend(theme.WIN, PANEL, 0.3)
LOSS_TINT: RGB = theme.blend(theme.LOSS, PANEL, 0.24)

# (header, least width) of the number columns, right of the name: wider where a language's
# header needs it
_COLUMNS: tuple[tuple[Message | str, int], ...] = (
    (say.MATCH_POINTS, 62),
    (say.PLAYED_COLUMN, 92),
    (say.WON_LOST, 76),
    (say.BUCHHOLZ, 122),
    (f"+/{MINUS}", 72),
)
_HEADER_PAD = 6  # a header's least room, either side together


def _headers(
    columns: tuple[tuple[Message | str, int], ...], language: Language
) -> list[tuple[str, int]]:
    """Each column's header in ``language`` and its width: as given, or the header's and some."""
    face = font(TEXT, bold=True)
    out = []
    for header, least in columns:
        text = header if isinstance(header, str) else header(language)
        out.append((text, max(least, round(text_length(text, face)) + _HEADER_PAD)))
    return out


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
    width: int = WIDTH,
    language: Language = ENGLISH,
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
    for header, size in reversed(_headers(_COLUMNS, language)):
        columns.insert(0, (header, right - size, right))
        right -= size
    columns.insert(0, (say.PLAYER(language), MARGIN + 58, right - 10))
    columns.insert(0, (say.RANK(language), MARGIN, MARGIN + 48))
    height = int(y + (ROW if not placed else 0) + MARGIN)
    return StandingsLayout(width, height, tuple(placed), separator, tuple(columns))


def render_standings(
    *,
    title: str,
    subtitle: str,
    standings: Sequence[Standing],
    rows: int = 32,
    highlight: int | None = None,
    width: int = WIDTH,
    labels: list[Label] | None = None,
    language: Language = ENGLISH,
) -> bytes:
    """The standings in the order given (by rank): rank, name, match points, played, won-lost,
    Buchholz and points difference; the first ``rows`` of them, and ``highlight``'s row after a
    "⋯" when it is further down. Withdrawn players are greyed and marked. Its words in
    ``language``."""
    if width < 800:
        raise ValueError(f"standings {width} pixels wide are too narrow: use at least 800")
    layout = standings_layout(
        standings, rows=rows, highlight=highlight, width=width, language=language
    )
    image, draw = canvas(layout.width, layout.height, labels)
    draw_header(draw, title=title, subtitle=subtitle, width=layout.width)
    y = HEADER + 8 + ROW / 2
    for index, (header, left, right) in enumerate(layout.columns):
        x, anchor = (left, "lm") if index == 1 else ((left + right) / 2, "mm")
        write(draw, "heading", header, TEXT, (x, y), theme.MUTED, bold=True, anchor=anchor)
    draw.line(
        (MARGIN, HEADER + 8 + ROW - 1, layout.width - MARGIN, HEADER + 8 + ROW - 1),
        fill=theme.LINE,
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
        mine = player == highlight
        _standing(draw, layout, standing, (top + bottom) / 2, mine=mine, language=language)
    if layout.separator is not None:
        top, bottom = layout.separator
        for dx in (-14, 0, 14):
            x, y = layout.width / 2 + dx, (top + bottom) / 2
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=theme.MUTED)
    if not standings:
        at = (layout.width / 2, HEADER + 8 + ROW * 1.5)
        write(draw, "note", say.NO_STANDINGS(language), 24, at, theme.MUTED, anchor="mm")
    return encode_png(image)


def _standing(
    draw: Pen,
    layout: StandingsLayout,
    standing: Standing,
    y: float,
    *,
    mine: bool,
    language: Language,
) -> None:
    gone = standing.withdrawn
    text = theme.MUTED if gone else theme.TEXT
    medal = theme.MEDALS[standing.rank - 1] if 1 <= standing.rank <= 3 and not gone else None
    _, left, right = layout.columns[0]
    rank = str(standing.rank)
    write(draw, "rank", rank, 24, (right - 8, y), medal or text, bold=True, anchor="rm")
    _, left, right = layout.columns[1]
    notes = []
    if standing.byes:
        notes.append(say.BYES(language, standing.byes))
    if gone:
        notes.append(say.WITHDRAWN(language))
    note = f"({', '.join(notes)})" if notes else ""
    room = right - left - (text_length(note, font(TEXT)) + 10 if note else 0)
    name, size, cut = fitted(standing.name, room, bold=mine)
    colour = theme.HIGHLIGHT if mine else text
    label = write(draw, "name", name, size, (left, y), colour, bold=mine, cut=cut)
    if note:
        colour = theme.LOSS if gone else theme.MUTED
        write(draw, "note", note, TEXT, (label.box[2] + 10, y), colour)
    values = (
        str(standing.match_points),
        str(standing.played),
        f"{standing.wins}-{standing.losses}",
        str(standing.buchholz),
        signed(standing.points_difference),
    )
    for index, value in enumerate(values):
        _, left, right = layout.columns[index + 2]
        at = ((left + right) / 2, y)
        write(draw, "value", value, 24, at, text, bold=index == 0, anchor="mm")


# -- the round-robin crosstable --------------------------------------------------------------


CELL_ROW = 58
_TOTALS: tuple[tuple[Message | str, int], ...] = ((say.WON_LOST, 70), (f"+/{MINUS}", 74))
_NAME_ROOM = 210  # the least room for the rows' names
_CELL_PAD = 14


@dataclass(frozen=True, slots=True)
class GridLayout:
    """Where the crosstable goes: the cells' left edges (``xs``, one per column player) and
    top edges (``ys``, one per row player), each ``cell`` x ``CELL_ROW`` pixels, the totals'
    columns as (header, left, right), and whether the cells show scores (else W and L: a
    score too wide for the cells of a large table)."""

    width: int
    height: int
    name_left: float
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    cell: int
    totals: tuple[tuple[str, float, float], ...]
    scores: bool = True

    def box(self, row: int, column: int) -> tuple[float, float, float, float]:
        """The cell of row player ``row`` against column player ``column`` (from 0)."""
        x, y = self.xs[column], self.ys[row]
        return x, y, x + self.cell, y + CELL_ROW


def grid_layout(
    entrants: Sequence[Entrant], results: Sequence[Result] = (), language: Language = ENGLISH
) -> GridLayout:
    """Columns are numbered (the rows' numbers), so each row's name has the room a phone needs;
    a cell is as wide as the widest score, or W/L where scores would not leave that room."""
    count = len(entrants)
    face = font(TEXT, bold=True)
    widest = max(
        (
            text_length(_score(result, result.first, language), face)
            for result in results
            if result.second
        ),
        default=0.0,
    )
    headers = _headers(_TOTALS, language)
    totals_width = sum(size for _, size in headers)
    room = WIDTH - 2 * MARGIN - 44 - 12 - totals_width - _NAME_ROOM
    scores = count == 0 or widest + _CELL_PAD <= room / count
    letter = max(text_length(entry(language), face) for entry in (say.WON, say.LOST))
    cell = int(max(48, min(86, (widest if scores else letter) + _CELL_PAD)))
    left = WIDTH - MARGIN - totals_width - 12 - cell * count
    top = HEADER + 56
    xs = tuple(float(left + cell * index) for index in range(count))
    ys = tuple(float(top + CELL_ROW * index) for index in range(count))
    x = left + cell * count + 12
    totals: list[tuple[str, float, float]] = []
    for name, size in headers:
        totals.append((name, x, x + size))
        x += size
    height = int(top + CELL_ROW * max(1, count) + MARGIN)
    return GridLayout(WIDTH, height, MARGIN, xs, ys, cell, tuple(totals), scores)


def render_round_robin_grid(
    *,
    title: str,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    subtitle: str = "",
    labels: list[Label] | None = None,
    language: Language = ENGLISH,
) -> bytes:
    """The crosstable: each cell the row player's points against the column player's ("3-1"),
    tinted green for the row player's win and red for a loss; the diagonal blank; wins, losses
    and points difference at the right."""
    players = list(entrants)
    if len(players) > MAX_ROUND_ROBIN:
        raise ValueError(
            f"a crosstable shows at most {MAX_ROUND_ROBIN} players, not {len(players)}"
        )
    layout = grid_layout(players, results, language)
    image, draw = canvas(layout.width, layout.height, labels)
    played = sum(1 for result in results if result.second is not None)
    draw_header(
        draw,
        title=title,
        subtitle=subtitle or say.ROUND_ROBIN(language, played, players=len(players)),
        width=layout.width,
    )
    index = {entrant.player_id: number for number, entrant in enumerate(players)}
    meetings: dict[tuple[int, int], list[Result]] = {}
    for result in results:
        if result.second is not None and result.first in index and result.second in index:
            a, b = index[result.first], index[result.second]
            meetings.setdefault((a, b), []).append(result)
            meetings.setdefault((b, a), []).append(result)
    _column_numbers(draw, layout)
    for row, entrant in enumerate(players):
        top = layout.ys[row]
        centre = top + CELL_ROW / 2
        if row % 2 == 0:
            draw.rectangle((MARGIN, top, layout.width - MARGIN, top + CELL_ROW - 1), fill=ZEBRA)
        number = str(row + 1)
        write(
            draw, "rank", number, TEXT, (MARGIN + 30, centre), theme.MUTED, bold=True, anchor="rm"
        )
        room = layout.xs[0] - MARGIN - 44 - 10 if layout.xs else 200
        name, size, cut = fitted(entrant.name, room)
        write(draw, "name", name, size, (MARGIN + 44, centre), theme.TEXT, cut=cut)
        wins = losses = difference = 0
        for column in range(len(players)):
            found = meetings.get((row, column), []) if row != column else []
            box = layout.box(row, column)
            _cell(
                draw,
                box,
                entrant.player_id,
                found,
                diagonal=row == column,
                scores=layout.scores,
                language=language,
            )
            for result in found:
                wins += result.winner == entrant.player_id
                losses += result.winner is not None and result.winner != entrant.player_id
                mine = result.points_of(entrant.player_id)
                difference += mine - (result.first_points + result.second_points - mine)
        totals = (f"{wins}-{losses}", signed(difference))
        for (_, left, right), value in zip(layout.totals, totals, strict=True):
            at = ((left + right) / 2, centre)
            write(draw, "value", value, TEXT, at, theme.TEXT, bold=True, anchor="mm")
    if layout.xs:
        right = layout.xs[-1] + layout.cell
        bottom = layout.ys[-1] + CELL_ROW
        for x in (*layout.xs, right):
            draw.line((x, layout.ys[0], x, bottom), fill=theme.GRID, width=2)
        for y in (*layout.ys, bottom):
            draw.line((layout.xs[0], y, right, y), fill=theme.GRID, width=2)
    return encode_png(image)


def _column_numbers(draw: Pen, layout: GridLayout) -> None:
    """Each column's number (its row's) over the grid, and the totals' headers."""
    y = (layout.ys[0] if layout.ys else HEADER + 56) - 22
    for column, left in enumerate(layout.xs):
        at = (left + layout.cell / 2, y)
        write(draw, "heading", str(column + 1), TEXT, at, theme.MUTED, bold=True, anchor="mm")
    for header, left, right in layout.totals:
        at = ((left + right) / 2, y)
        write(draw, "heading", header, TEXT, at, theme.MUTED, bold=True, anchor="mm")


def _cell(
    draw: Pen,
    box: tuple[float, float, float, float],
    player: int,
    found: Sequence[Result],
    *,
    diagonal: bool,
    scores: bool,
    language: Language,
) -> None:
    if diagonal:
        draw.rectangle(box, fill=theme.GRID)
        return
    if not found:
        draw.rectangle(box, fill=PANEL)
        return
    last = found[-1]
    fill = PANEL if last.winner is None else WIN_TINT if last.winner == player else LOSS_TINT
    draw.rectangle(box, fill=fill)
    shown = found[-2:]
    left, top, right, bottom = box
    pitch = TEXT + 5  # two meetings' lines just clear of each other
    first = (top + bottom) / 2 - pitch * (len(shown) - 1) / 2
    for number, result in enumerate(shown):
        text = _score(result, player, language) if scores else _won(result, player, language)
        at = ((left + right) / 2, first + pitch * number)
        write(draw, "value", text, TEXT, at, theme.TEXT, bold=True, anchor="mm")


def _score(result: Result, player: int, language: Language) -> str:
    """``player``'s points first, or W/L for a match decided without play."""
    mine = result.points_of(player)
    theirs = result.first_points + result.second_points - mine
    if mine or theirs:
        return f"{mine}-{theirs}"
    return _won(result, player, language)


def _won(result: Result, player: int, language: Language) -> str:
    if result.winner is None:
        return DASH
    return (say.WON if result.winner == player else say.LOST)(language)
