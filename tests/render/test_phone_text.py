"""Images that read on a phone: Discord shows an image about 400 px wide there, so names, scores,
pips and point numbers must be 22 px or more in the 900 px wide board (10 px on the phone), names
up to 32 characters are shown whole, and the board and the chart draw in one palette."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import ImageDraw, ImageFont

from bot.render import BoardState, LastPlay, forget_kept, render_board, theme
from bot.render import text as text_module
from bot.render.chart import Point, chart_labels, render_chart
from bot.render.fonts import font
from bot.render.geometry import DEFAULT_SIZE, Size, layout, point_number_center
from bot.render.labels import MIN_TEXT, Label, min_text_size
from bot.render.static import draw_static_board, point_labels
from bot.render.text import ELLIPSIS, text_length, wrap_text
from bot.render.whole import board_labels
from bot.rules import Position

GNU = "GNU Backgammon"
LONG = "Abcdefghijklmnopqrstuvwxyz123456"  # 32 characters
WIDE = "W" * 32  # the widest 32 characters: two lines
TOO_LONG = "W" * 60
# the proportions of the default board, larger and smaller
SIZES: list[Size] = [DEFAULT_SIZE, (600, 489), (1200, 979)]
MUST_READ = ("name", "pips", "score", "point")


def _middle_game() -> tuple[Position, LastPlay]:
    before = Position.from_points(
        {6: 6, 8: 2, 13: 3, 24: 1, 20: 1, 4: 2}, {6: 5, 7: 2, 8: 2, 13: 4, 15: 1, 25: 1}
    )
    play = before.parse_play("20/10*", (6, 4))
    return before.play(play), LastPlay(0, play)


def boards(players: tuple[str, str]) -> list[BoardState]:
    """Every kind of board: to roll, to move after a play (with a clock, Crawford), doubled,
    resigned, over; stacks, the bar and trays with counts written on them."""
    after, last = _middle_game()
    counts = Position.from_points({25: 6, 6: 8, 1: 1}, {25: 1, 23: 1})  # 6 on the bar, 8 on 6
    return [
        BoardState(Position.initial(), 0, players, match_length=7, phase="roll"),
        BoardState(
            after,
            1,
            players,
            match_length=11,
            score=(9, 10),
            crawford=True,
            cube_value=4,
            cube_owner=1,
            dice=(3, 1),
            phase="move",
            last_play=last,
            clock=(600.0, 581.0),
            clock_running=1,
            clock_delay=12.0,
        ),
        BoardState(after, 0, players, cube_value=2, cube_owner=0, phase="doubled"),
        BoardState(counts, 1, players, phase="resigned", resignation=2, cube_value=2),
        BoardState(
            counts, 0, players, match_length=5, score=(5, 2), phase="over", winner=0, cube_value=2
        ),
    ]


def names_of(labels: tuple[Label, ...]) -> list[Label]:
    return [label for label in labels if label.role == "name"]


def whole(label: Label, name: str) -> bool:
    """The label shows all of ``name`` (on one line or two), uncut."""
    return not label.cut and "".join(label.text.split()) == "".join(name.split())


def overlap(one: tuple[float, ...], other: tuple[float, ...]) -> bool:
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


# -- sizes ---------------------------------------------------------------------------------------


def test_the_floor_is_22_px_in_a_900_px_board_and_10_px_on_a_phone() -> None:
    assert MIN_TEXT == 22
    assert min_text_size(900) == 22
    assert min_text_size(400) == pytest.approx(9.8, abs=0.1)
    assert min_text_size(1000) > 24


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [("alice", "bob"), (GNU, LONG), (WIDE, TOO_LONG)])
def test_every_text_on_the_board_reads_on_a_phone(size: Size, players: tuple[str, str]) -> None:
    floor = round(min_text_size(size[0]))  # fonts come in whole pixels
    for board, viewer in itertools.product(boards(players), (0, 1)):
        labels = board_labels(board, viewer=viewer, size=size)
        assert {"name", "pips", "point", "status"} <= {label.role for label in labels}
        for label in labels:
            assert label.size >= floor, (label.role, label.text, label.size, floor)
        assert sum(label.role == "point" for label in labels) >= 24
        assert len(names_of(labels)) == 2


def test_the_texts_that_must_read_are_there_and_large() -> None:
    after, last = _middle_game()
    board = BoardState(
        after, 1, ("alice", "bob"), match_length=7, score=(2, 4), dice=(3, 1), phase="move"
    )
    labels = board_labels(board, viewer=1, last_play=last)
    found = {role: [label for label in labels if label.role == role] for role in MUST_READ}
    assert [label.text for label in found["name"]] == ["alice", "bob"]  # top strip first
    assert {label.text for label in found["pips"]} == {"162 pips", "133 pips"}
    assert {label.text for label in found["score"]} == {"score 2", "score 4"}
    assert {int(label.text) for label in found["point"]} == set(range(1, 25))
    for label in itertools.chain(*found.values()):
        assert label.size >= 22
        cap = font(label.size, bold=label.bold).getbbox("H", anchor="ls")
        assert cap[3] - cap[1] >= 16, label  # capitals 16 px: 7 px on a phone
    played = [label for label in labels if label.role == "last_play"]
    assert [label.text for label in played] == ["alice played 6-4: 20/10*"]


def test_point_number_labels_sit_in_the_frame_over_their_points() -> None:
    geo = layout(DEFAULT_SIZE)
    for label in point_labels(DEFAULT_SIZE):
        x0, y0, x1, y1 = label.box
        cx, cy = point_number_center(int(label.text))
        assert x0 < cx < x1 and y0 < cy < y1
        assert x1 - x0 < geo.point_width
        if int(label.text) >= 13:
            assert geo.board[1] <= y0 and y1 <= geo.field_top + 4
        else:
            assert geo.field_bottom - 4 <= y0 and y1 <= geo.board[3]


# -- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [(GNU, LONG), (LONG, GNU), (WIDE, LONG), (LONG, LONG)])
def test_names_up_to_32_characters_are_drawn_whole(players: tuple[str, str]) -> None:
    assert all(len(name) <= 32 for name in players)
    for board, viewer in itertools.product(boards(players), (0, 1, None)):
        labels = board_labels(board, viewer=viewer)
        shown = names_of(labels)
        top = 1 - (board.on_roll if viewer is None else viewer)
        assert whole(shown[0], players[top]), shown[0]
        assert whole(shown[1], players[1 - top]), shown[1]
        for label in shown:
            assert label.size >= 22
            if len(label.lines) == 2:
                assert label.size == 22  # two lines only once the name is at the smallest size


def test_a_name_shrinks_then_takes_two_lines_then_is_cut() -> None:
    def name_label(name: str) -> Label:
        board = BoardState(
            Position.initial(), 0, (name, "bob"), match_length=7, clock=(600.0, 600.0)
        )
        return names_of(board_labels(board, viewer=1))[0]  # player 0 in the top strip

    short, long, wide, too_long = (name_label(n) for n in ("alice", LONG, WIDE, TOO_LONG))
    assert short.size == 26 and short.lines == ("alice",) and not short.cut
    assert 22 <= long.size < 26 and long.lines == (LONG,)
    assert wide.size == 22 and len(wide.lines) == 2 and whole(wide, WIDE)
    assert too_long.cut and too_long.size == 22 and len(too_long.lines) == 2
    assert too_long.lines[1].endswith(ELLIPSIS)


def test_gnu_backgammon_is_not_cut_anywhere_on_the_board() -> None:
    for board, viewer in itertools.product(boards((GNU, LONG)), (0, 1)):
        for label in board_labels(board, viewer=viewer):
            if label.role in ("name", "status", "last_play") and GNU[:6] in label.text:
                assert GNU in label.text, label
                if label.role != "last_play":
                    assert not label.cut, label


@pytest.mark.parametrize("players", [(GNU, LONG), (WIDE, TOO_LONG)])
def test_strip_texts_stay_in_their_strip_and_apart(players: tuple[str, str]) -> None:
    geo = layout(DEFAULT_SIZE)
    strips = (geo.top_strip, geo.bottom_strip)
    after, last = _middle_game()
    board = BoardState(
        after,
        1,
        players,
        match_length=11,
        crawford=True,
        dice=(3, 1),
        phase="move",
        clock=(600.0, 12.0),
        clock_running=0,
        clock_delay=5.0,
    )
    labels = board_labels(board, viewer=0, last_play=last)
    texts = [label for label in labels if label.role not in ("point", "count", "cube", "status")]
    assert {label.role for label in texts} == {
        "name",
        "pips",
        "score",
        "clock",
        "match",
        "last_play",
    }
    for label in texts:
        box = label.box
        assert any(
            s[0] <= box[0] and box[2] <= s[2] and s[1] <= box[1] and box[3] <= s[3] + 1
            for s in strips
        ), label
    for one, other in itertools.combinations(texts, 2):
        assert not overlap(one.box, other.box), (one.text, other.text)
    (status,) = [label for label in labels if label.role == "status"]
    x0, _, x1, _ = geo.status_strip
    assert x0 <= status.box[0] and status.box[2] <= x1


def test_wrapping_prefers_a_space_then_punctuation_and_balances_the_lines() -> None:
    face = font(22, bold=True)
    assert wrap_text(GNU, face, 400) == ((GNU,), False)
    room = text_length("Sir Reginald Backgammonington", face)
    lines, cut = wrap_text("Sir Reginald Backgammonington III", face, room)
    assert not cut and lines == ("Sir Reginald", "Backgammonington III")
    lines, cut = wrap_text("the_quiet_one_from_discord_12345", face, 300)
    assert not cut and lines == ("the_quiet_one_", "from_discord_12345")
    lines, cut = wrap_text(WIDE, face, 420)
    assert not cut and lines == ("W" * 16, "W" * 16)
    family = "👨\u200d👩\u200d👧"
    lines, cut = wrap_text(family * 12, face, 160)
    assert all(not line.startswith("\u200d") and not line.endswith("\u200d") for line in lines)
    lines, cut = wrap_text(TOO_LONG, face, 420)
    assert cut and lines[1].endswith(ELLIPSIS)
    assert all(text_length(line, face) <= 420 for line in lines)


# -- the chart -----------------------------------------------------------------------------------

POINTS = tuple(Point(1, 0.5 + 0.02 * i, blunder=i == 3) for i in range(20)) + tuple(
    Point(2, 0.6 - 0.03 * i) for i in range(15)
)


@pytest.mark.parametrize("names", [("alice", "bob"), (GNU, LONG), (WIDE, LONG)])
@pytest.mark.parametrize("width", [1000, 800])
def test_chart_text_reads_on_a_phone_and_names_are_whole(
    names: tuple[str, str], width: int
) -> None:
    labels = chart_labels(POINTS, names, length=7, plies=2, width=width, height=width // 2)
    for label in labels:
        assert label.size >= min_text_size(width), (label.role, label.text, label.size)
    legend = [label for label in labels if label.role == "name" and label.text[0] in "▲▼"]
    assert [label.text[0] for label in legend] == ["▲", "▼"]
    for label, name in zip(legend, names, strict=True):
        assert whole(label, "▲" + name) or whole(label, "▼" + name), label
    assert {label.role for label in labels} >= {"name", "detail", "axis", "game"}


def test_chart_title_names_the_players_when_they_fit() -> None:
    short = chart_labels(POINTS, (GNU, LONG), length=7, plies=2)
    assert [label.text for label in short if label.role == "name"][:2] == [GNU, LONG]
    wide = chart_labels(POINTS, (WIDE, LONG), length=7, plies=2)
    assert wide[0].role == "title" and wide[0].text == "7-point match: chances to win the match"


# -- one palette -----------------------------------------------------------------------------


def palette() -> dict[int, str]:
    """The id of every colour theme.py defines, with its name."""
    found: dict[int, str] = {}
    for name, value in vars(theme).items():
        if isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) for v in value):
            found[id(value)] = name
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                if isinstance(item, theme.CheckerColours):
                    for field in ("fill", "rim", "outline", "text"):
                        found.setdefault(id(getattr(item, field)), f"{name}[{index}].{field}")
                elif isinstance(item, tuple) and len(item) == 3:
                    found.setdefault(id(item), f"{name}[{index}]")
    return found


_DRAWING = ("rectangle", "rounded_rectangle", "polygon", "ellipse", "line", "arc", "text")


@contextmanager
def colours_drawn() -> Iterator[list[tuple[str, Any]]]:
    """Every colour passed to a drawing call (fill, outline, halo) while the block runs."""
    seen: list[tuple[str, Any]] = []
    originals: dict[str, Callable[..., Any]] = {}

    def spy(method: str) -> Callable[..., Any]:
        original = originals[method]

        def drawing(self: ImageDraw.ImageDraw, *args: Any, **kwargs: Any) -> Any:
            for key in ("fill", "outline", "stroke_fill"):
                if kwargs.get(key) is not None:
                    seen.append((method, kwargs[key]))
            return original(self, *args, **kwargs)

        return drawing

    draw_line = text_module._draw_line

    def text_line(  # bot.render.text draws its letters itself
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        font: ImageFont.FreeTypeFont,
        direction: str | None,
        stroke: int,
        colour: tuple[int, int, int],
    ) -> None:
        seen.append(("text", colour))
        draw_line(draw, xy, text, font, direction, stroke, colour)

    for method in _DRAWING:
        originals[method] = getattr(ImageDraw.ImageDraw, method)
        setattr(ImageDraw.ImageDraw, method, spy(method))
    text_module._draw_line = text_line
    try:
        yield seen
    finally:
        for method, original in originals.items():
            setattr(ImageDraw.ImageDraw, method, original)
        text_module._draw_line = draw_line


def test_the_board_and_the_chart_draw_in_theme_colours_only() -> None:
    known = palette()
    forget_kept()  # sprites, static boards and the pieces of boards drawn before
    with colours_drawn() as board_colours:
        draw_static_board(DEFAULT_SIZE)  # shipped drawn (bot.render.layers)
        for board in boards((GNU, LONG)):
            render_board(board, viewer=0)
    with colours_drawn() as chart_colours:
        render_chart(POINTS, (GNU, LONG), length=7, plies=2)
        render_chart((), ("alice", "bob"), length=0, plies=2)
    for method, colour in board_colours + chart_colours:
        assert id(colour) in known, (method, colour)
    board_ids = {id(colour) for _, colour in board_colours}
    chart_ids = {id(colour) for _, colour in chart_colours}
    shared = {known[colour] for colour in board_ids & chart_ids}
    # the chart's texts, panel and blunder marks are the board's colours, the very same objects
    assert {"TEXT", "MUTED", "STRIP", "HIT"} <= shared
    assert "PLAYER_COLOURS[0].fill" in shared  # ivory: player 0's checkers and name
    assert theme.PLAYER_TEXT[0] is theme.PLAYER_COLOURS[0].fill
    assert {known[colour] for colour in chart_ids - board_ids} <= {
        "BACKGROUND",  # the board's too, as the image's background (not a drawing call)
        "GRID",
        "PLAYER_FILLS[0]",
        "PLAYER_FILLS[1]",
        "PLAYER_TEXT[1]",
    }
