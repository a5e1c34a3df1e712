"""Every image's text reads on a phone, measured on the PNGs: the tournament images, the analysis
chart and the board (with a review's arrows). Sizes at least 2.4% of the width, boxes apart and
inside the image, contrast at least 4.5:1 (:mod:`tests.render.readable`), for many inputs: long
names, CJK names, many entrants, many rounds, long matches."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render import Arrow, BoardState, arrows_of, render_board, theme
from bot.render.bracket import render_bracket
from bot.render.chart import Point, chart_labels, render_chart
from bot.render.labels import Label
from bot.render.standings import render_round_robin_grid, render_standings
from bot.render.tournament import ReportRow, render_report_chart, report_layout
from bot.render.whole import board_labels
from bot.rules import Position
from bot.rules.tournaments.model import Entrant, Pairing, Result, Standing
from bot.service.models import clean_name
from tests.render.readable import decode, problems, rgb
from tests.render.test_phone_text import boards, colours_drawn

NAMES = [
    "alice",
    "李小龙",
    "Mikhail Vasilyevich Lomonosov",  # 29 characters
    "W" * 32,
    "김민준 (Kim)",
    "عربي",
    "GNU Backgammon",
    "bob",
]
name = st.one_of(st.sampled_from(NAMES), st.text(min_size=1, max_size=40).map(clean_name))


def readable(render: Callable[..., bytes]) -> tuple[bytes, list[Label]]:
    """The image ``render`` draws into a sink of labels (its ``labels`` option), and the labels
    drawn, which must all read on a phone."""
    labels: list[Label] = []
    png = render(labels=labels)
    found = problems(decode(png), labels)
    assert not found, "\n".join(found[:12])
    return png, labels


# -- the bracket ---------------------------------------------------------------------------------


def _bracket(count: int, decided: float, names: list[str], seed: int) -> dict[str, object]:
    """A knockout of ``count`` entrants with about ``decided`` of its matches played, round by
    round, with random scores (some without play: W and L)."""
    chance = random.Random(seed)
    rounds = max(1, (count - 1).bit_length())
    order = [1]
    while len(order) < 2**rounds:
        order = [s for top in order for s in (top, 2 * len(order) + 1 - top)]
    people = [
        Entrant(i, names[(i - 1) % len(names)] + (f" {i}" if i > 8 else ""), i)
        for i in range(1, count + 1)
    ]
    pairings: list[Pairing] = []
    results: list[Result] = []
    alive: list[int | None] = [s if s <= count else None for s in order]
    for round_ in range(1, rounds + 1):
        winners: list[int | None] = []
        for table in range(1, len(alive) // 2 + 1):
            a, b = alive[2 * table - 2], alive[2 * table - 1]
            if a is None:
                a, b = b, a
            if a is None:
                winners.append(None)
                continue
            pairings.append(Pairing(round_, table, a, b))
            if b is None:
                winners.append(a)
            elif chance.random() < decided:
                won = chance.choice((a, b))
                points = chance.choice(((7, 3), (11, 9), (25, 13), (0, 0)))
                first = points[0] if won == a else points[1]
                results.append(Result(round_, table, a, b, won, first, sum(points) - first))
                winners.append(won)
            else:
                winners.append(None)
        if any(w is None for w in winners) and round_ < rounds:
            break
        alive = winners
    highlight = chance.choice([None, *range(1, count + 1)])
    return {
        "title": "Friday Knockout of the Backgammon Club of Ulaanbaatar",
        "entrants": people,
        "pairings": pairings,
        "results": results,
        "rounds_total": rounds,
        "highlight": highlight,
    }


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 16, 32, 64])
@pytest.mark.parametrize("decided", [0.0, 0.6, 1.0])
def test_the_bracket_reads_on_a_phone(count: int, decided: float) -> None:
    png, labels = readable(partial(render_bracket, **_bracket(count, decided, NAMES, count)))  # type: ignore[arg-type]
    assert decode(png).width <= 900
    assert any(label.role == "name" for label in labels)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(name, min_size=8, max_size=8), st.integers(2, 16), st.integers(0, 99))
def test_the_bracket_reads_with_any_names(names: list[str], count: int, seed: int) -> None:
    readable(partial(render_bracket, **_bracket(count, 0.7, names, seed)))  # type: ignore[arg-type]


def test_a_name_drawn_as_a_swatch_is_measured_on_its_row() -> None:
    """A lone skin-tone modifier is a colour swatch filling its box in the text's colour: its
    background is the row around it, not itself (hypothesis found this one)."""
    readable(partial(render_bracket, **_bracket(8, 0.7, ["\U0001f3fb"] * 8, 3)))  # type: ignore[arg-type]


def test_cjk_names_are_regular_unless_they_won() -> None:
    people = [Entrant(1, "李小龙", 1), Entrant(2, "alice", 2)]
    pairings = [Pairing(1, 1, 1, 2)]
    for results, bold in (([], False), ([Result(1, 1, 1, 2, 1, 5, 3)], True)):
        _, labels = readable(
            partial(
                render_bracket,
                title="Final",
                entrants=people,
                pairings=pairings,
                results=results,
                rounds_total=1,
            )
        )
        (row,) = [label for label in labels if label.role == "name" and label.text == "李小龙"]
        assert row.bold is bold
        other = [label for label in labels if label.role == "name" and label.text == "alice"]
        assert not other[0].bold


# -- the report chart, the standings, the crosstable --------------------------------------------


@pytest.mark.parametrize("worst", [3.0, 19.0, 48.0, 103.1, 120.0, 640.0])
@pytest.mark.parametrize("count", [0, 1, 5, 24])
def test_the_report_chart_reads_on_a_phone(worst: float, count: int) -> None:
    chance = random.Random(count)
    rows = [
        ReportRow(
            NAMES[index % len(NAMES)],
            None if index % 7 == 3 else chance.uniform(0, worst),
            None if index % 7 == 3 else chance.uniform(0, worst) / 2,
            None if index % 5 == 4 else chance.uniform(-3, 3),
            chance.randint(1, 12),
            index + 1,
            "too short to rate" if index % 14 == 3 else "not analysed",
        )
        for index in range(count)
    ]
    if rows:
        rows[0] = ReportRow(rows[0].name, worst, worst / 2, -1.25, 3, 1)
    png, labels = readable(partial(render_report_chart, title="Autumn Swiss: PR", rows=rows))
    assert decode(png).width <= 900
    axis = [label for label in labels if label.role == "axis"]
    assert axis[0].text == "0" and len(axis) >= 3  # apart, so never "100110120"


@pytest.mark.parametrize("count", [0, 3, 12, 40, 256])
def test_the_standings_read_on_a_phone(count: int) -> None:
    table = [
        Standing(
            rank=index + 1,
            player_id=index,
            name=NAMES[index % len(NAMES)],
            played=8,
            wins=8 - index * 8 // max(1, count),
            losses=index * 8 // max(1, count),
            byes=2 if index % 9 == 1 else 1 if index % 17 == 0 else 0,
            match_points=8 - index * 8 // max(1, count),
            buchholz=140 - index % 13,
            points_difference=-130 + index % 61,
            withdrawn=index % 23 == 5,
        )
        for index in range(count)
    ]
    for highlight in (None, 2, count - 1):
        readable(
            partial(
                render_standings,
                title="Big Swiss",
                subtitle="Swiss, after round 8 of 8",
                standings=table,
                highlight=highlight,
            )
        )


@pytest.mark.parametrize("count", [2, 3, 7, 10])
@pytest.mark.parametrize("points", [(5, 3), (25, 13)])
def test_the_crosstable_reads_on_a_phone(count: int, points: tuple[int, int]) -> None:
    players = [Entrant(i, NAMES[i % len(NAMES)], i) for i in range(count)]
    results = [
        Result(1, a, a, b, a if (a + b) % 3 else b, *points)
        for a in range(count)
        for b in range(a + 1, count)
        if (a * b) % 4 != 1
    ]
    results += [Result(2, 1, 0, 1, 1, 2, 5), Result(3, 1, 0, 1, None, reason="forfeit")]
    png, _ = readable(
        partial(render_round_robin_grid, title="Round robin", entrants=players, results=results)
    )
    assert decode(png).width <= 900


# -- the analysis chart --------------------------------------------------------------------------


def _match(games: int, moves: int, seed: int) -> tuple[Point, ...]:
    chance = random.Random(seed)
    points: list[Point] = []
    for game in range(1, games + 1):
        level = 0.5
        for move in range(moves):
            level = min(1.0, max(0.0, level + chance.uniform(-0.12, 0.12)))
            error = chance.choice([None] * 6 + ["doubtful", "error", "blunder"])
            cube = chance.choice([None] * 12 + ["double", "take", "pass", "no double"])
            points.append(Point(game, level, player=move % 2, error=error, cube=cube))
    return tuple(points)


@pytest.mark.parametrize(("games", "moves"), [(0, 0), (1, 1), (1, 2), (3, 30), (9, 40), (25, 12)])
@pytest.mark.parametrize("names", [("alice", "bob"), ("李小龙", "W" * 32), (NAMES[2], NAMES[6])])
@pytest.mark.parametrize("winner", [None, 1])
def test_the_chart_reads_on_a_phone(
    games: int, moves: int, names: tuple[str, str], winner: int | None
) -> None:
    points = _match(games, moves, games * moves)
    length = 0 if games == 25 else 7
    png = render_chart(points, names, length=length, plies=2, winner=winner)
    labels = chart_labels(points, names, length=length, plies=2, winner=winner)
    found = problems(decode(png), labels)
    assert not found, "\n".join(found[:12])


def test_the_empty_chart_says_so_clear_of_the_fifty_percent_line() -> None:
    png = render_chart((), ("alice", "bob"), length=1, plies=2)
    labels = chart_labels((), ("alice", "bob"), length=1, plies=2)
    (empty,) = [label for label in labels if label.text == "No decisions to chart"]
    image = decode(png)
    x0, y0, x1, y1 = (round(value) for value in empty.box)
    # the box holds only the panel and the letters: no dash of the 50% line runs through it
    colours = {rgb(colour) for _, colour in image.crop((x0, y0, x1, y1)).getcolors(1 << 16) or []}
    assert all(
        sum(abs(a - b) for a, b in zip(colour, theme.MUTED, strict=True)) < 60
        or sum(abs(a - b) for a, b in zip(colour, theme.STRIP, strict=True)) < 60
        or _between(colour, theme.MUTED, theme.STRIP)
        for colour in colours
    )
    row = [image.getpixel((x, (y0 + y1) // 2)) for x in (*range(x0 - 14, x0), *range(x1, x1 + 14))]
    assert all(pixel == row[0] for pixel in row)  # the line stops short of it


def _between(
    colour: tuple[int, int, int], one: tuple[int, int, int], other: tuple[int, int, int]
) -> bool:
    return all(
        min(a, b) - 8 <= c <= max(a, b) + 8 for c, a, b in zip(colour, one, other, strict=True)
    )


# -- the board -----------------------------------------------------------------------------------


def _board_texts(board: BoardState, viewer: int, arrows: tuple[Arrow, ...]) -> list[Label]:
    """The board's texts as painted last: a point number drawn again in a pill of the last play
    replaces the frame's."""
    labels = list(board_labels(board, viewer=viewer, arrows=arrows))
    later = {(label.text, label.box) for label in labels[24:]}
    return [label for label in labels[:24] if (label.text, label.box) not in later] + labels[24:]


@pytest.mark.parametrize("players", [("alice", "bob"), ("李小龙", "W" * 32), (NAMES[2], "عربي")])
@pytest.mark.parametrize("reviewed", [False, True])
def test_every_board_text_reads_against_its_background(
    players: tuple[str, str], reviewed: bool
) -> None:
    """Sizes, overlaps and contrast (4.5:1 and more, the strips' grey too) of every board of
    the phone tests, and of a review's board with its arrows and their legend."""
    checked: list[tuple[BoardState, int, tuple[Arrow, ...]]] = [
        (board, viewer, ()) for board in boards(players) for viewer in (0, 1)
    ]
    if reviewed:
        start = BoardState(Position.initial(), 1, players, match_length=5, dice=(6, 5))
        arrows = arrows_of("24/18 13/8", "played") + arrows_of("13/7 13/8", "best")
        checked = [(replace(start, phase="move"), viewer, arrows) for viewer in (1,)]
    for board, viewer, shown in checked:
        png = render_board(board, viewer=viewer, arrows=shown)
        labels = _board_texts(board, viewer, shown)
        assert any(label.role == "legend" for label in labels) is bool(shown)
        found = problems(decode(png), labels)
        assert not found, "\n".join(found[:12])


def test_the_review_board_keys_its_arrows() -> None:
    board = BoardState(Position.initial(), 0, ("alice", "bob"), dice=(6, 5), phase="move")
    both = arrows_of("24/18 13/8", "played") + arrows_of("24/13", "best")
    labels = board_labels(board, viewer=0, arrows=both)
    legend = [label for label in labels if label.role == "legend"]
    assert [(label.text, label.colour) for label in legend] == [
        ("played", theme.ARROW_PLAYED),
        ("best", theme.ARROW_BEST),
    ]
    status = next(label for label in labels if label.role == "status")
    assert legend[0].box[2] < status.box[0] and status.box[2] < legend[1].box[0]
    image = decode(render_board(board, viewer=0, arrows=both))
    # each word has its arrow before it, drawn in its colour
    for label, colour in zip(legend, (theme.ARROW_PLAYED, theme.ARROW_BEST), strict=True):
        x0, y0, _, y1 = label.box
        sample = image.crop((round(x0) - 80, round(y0), round(x0) - 4, round(y1)))
        assert any(
            sum(abs(a - b) for a, b in zip(rgb(pixel), colour, strict=True)) < 40
            for _, pixel in sample.getcolors(1 << 16) or []
        )
    one = board_labels(board, viewer=0, arrows=arrows_of("24/13", "played"))
    assert [label.text for label in one if label.role == "legend"] == ["played"]
    assert not [label for label in board_labels(board, viewer=0) if label.role == "legend"]


# -- one palette ---------------------------------------------------------------------------------


def _theme_colours() -> set[tuple[int, int, int]]:
    return {(colour[0], colour[1], colour[2]) for colour in palette_values()}


def palette_values() -> list[tuple[int, ...]]:
    found: list[tuple[int, ...]] = []
    for value in vars(theme).values():
        items = (
            value
            if isinstance(value, tuple) and value and not isinstance(value[0], int)
            else (value,)
        )
        for item in items:
            if isinstance(item, theme.CheckerColours):
                found += [item.fill, item.rim, item.outline, item.text]
            elif (
                isinstance(item, tuple) and len(item) == 3 and all(isinstance(v, int) for v in item)
            ):
                found.append(item)
    return found


def _blend_of_theme(colour: tuple[int, int, int], known: set[tuple[int, int, int]]) -> bool:
    """``colour`` is a theme colour, or one laid over another (:func:`theme.blend`)."""
    if colour in known:
        return True
    for top in known:
        for under in known:
            spread = [a - b for a, b in zip(top, under, strict=True)]
            channel = max(range(3), key=lambda index: abs(spread[index]))
            if spread[channel] == 0:
                continue
            amount = (colour[channel] - under[channel]) / spread[channel]
            if 0 <= amount <= 1 and theme.blend(top, under, amount) == colour:
                return True
    return False


def test_tournament_images_draw_in_the_boards_palette() -> None:
    known = _theme_colours()
    with colours_drawn() as drawn:
        render_bracket(**_bracket(8, 0.6, NAMES, 3))  # type: ignore[arg-type]
        render_report_chart(
            title="R",
            rows=[
                ReportRow("a", 3, 2, 1, 1, 1),
                ReportRow("b", 30, 9, -1, 2, 2),
                ReportRow("c", 9, 9, 0, 2, 3),
            ],
        )
        table = [
            Standing(i + 1, i, NAMES[i], 3, 2, 1, int(i == 1), 2, 4, 3, withdrawn=i == 4)
            for i in range(6)
        ]
        render_standings(title="S", subtitle="s", standings=table, highlight=2)
        players = [Entrant(i, NAMES[i], i) for i in range(4)]
        render_round_robin_grid(
            title="G",
            entrants=players,
            results=[Result(1, 1, 0, 1, 0, 5, 3), Result(1, 2, 2, 3, 3, 1, 5)],
        )
    colours = {tuple(colour)[:3] for _, colour in drawn if isinstance(colour, tuple)}
    assert colours
    strays = [colour for colour in colours if not _blend_of_theme(colour, known)]
    assert not strays


def test_the_reports_grid_stays_clear_of_a_row_without_a_bar() -> None:
    rows = [
        ReportRow("alice", 5.2, 4.0, 0.3, 3, 1),
        ReportRow("bob", None, None, None, 2, 2, "too short to rate"),
        ReportRow("carol", None, None, None, 1, 3),
        ReportRow("dan", 12.0, 9.0, -0.2, 2, 4),
    ]
    image = decode(render_report_chart(title="Autumn: PR", rows=rows))
    layout = report_layout(rows)
    on_grid = round(layout.x(layout.step * 2))
    off_grid = round(layout.x(layout.step * 2.5))
    for index, crossed in ((1, False), (2, False), (3, True)):
        y = round(layout.centres[index] + 20)  # under the row's note or bar
        line, behind = image.getpixel((on_grid, y)), image.getpixel((off_grid, y))
        assert (line != behind) is crossed, (rows[index].name, line, behind)
