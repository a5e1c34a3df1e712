"""The rendered image, checked structurally: pixels at known places, not golden files."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render import BoardState, LastPlay, render_board, render_image, status_text, theme
from bot.render.board import fit_text, fitted_status
from bot.render.fonts import BOLD, FONT_DIR, REGULAR, font
from bot.render.geometry import (
    DEFAULT_SIZE,
    MAX_BAR_STACK,
    MAX_STACK,
    Side,
    Size,
    bar_center,
    checker_center,
    cube_center,
    dice_centers,
    layout,
    point_number_center,
    roller_area_center,
    tray_count_center,
    tray_slab_box,
)
from bot.render.static import number_size
from bot.render.text import text_length
from bot.render.whole import board_labels
from bot.rules import Position

RGB = tuple[int, int, int]
PLAYERS = ("alice", "bob")
IVORY = theme.PLAYER_COLOURS[0].fill
NAVY = theme.PLAYER_COLOURS[1].fill


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixel(image: Image.Image, place: tuple[float, float]) -> RGB:
    value = image.getpixel((round(place[0]), round(place[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def close(colour: RGB, expected: RGB, tolerance: int = 8) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def state(position: Position, on_roll: int = 0, **kwargs: Any) -> BoardState:
    return BoardState(position, on_roll, PLAYERS, **kwargs)


def checker_colour(player: int) -> RGB:
    return theme.PLAYER_COLOURS[player].fill


def sides(board: BoardState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Player 0's and player 1's counts, each on their own numbering."""
    position = board.position
    if board.on_roll == 0:
        return position.mover, position.opponent
    return position.opponent, position.mover


def expected_checkers(board: BoardState, viewer: int) -> Iterable[tuple[int, int, int]]:
    """(viewer's point, index in stack, player) for every checker drawn on a point."""
    counts = sides(board)
    for player in (0, 1):
        for own_point in range(1, 25):
            point = own_point if player == viewer else 25 - own_point
            for index in range(min(counts[player][own_point - 1], MAX_STACK)):
                yield point, index, player


def dark_pixels(image: Image.Image, center: tuple[float, float], radius: int, colour: RGB) -> int:
    """Pixels within ``radius`` of ``center`` that are far from ``colour``."""
    cx, cy = round(center[0]), round(center[1])
    found = 0
    for x in range(cx - radius, cx + radius + 1):
        for y in range(cy - radius, cy + radius + 1):
            if (x - cx) ** 2 + (y - cy) ** 2 <= radius**2 and not close(
                pixel(image, (x, y)), colour, 40
            ):
                found += 1
    return found


# -- size, format, fonts -----------------------------------------------------------------------


@pytest.mark.parametrize("size", [DEFAULT_SIZE, (600, 467), (1200, 933)])
def test_png_has_the_requested_size_and_is_opaque(size: Size) -> None:
    png = render_board(state(Position.initial()), viewer=0, size=size)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    raw = Image.open(io.BytesIO(png))
    assert raw.size == size
    assert raw.mode in ("RGB", "P")
    assert "transparency" not in raw.info


def test_fonts_ship_with_the_repository_and_numbers_are_tall_enough() -> None:
    assert FONT_DIR.parts[-2:] == ("assets", "fonts")
    for path in (REGULAR, BOLD, FONT_DIR / "LICENSE-DejaVu.txt"):
        assert path.is_file(), path
    geo = layout(DEFAULT_SIZE)
    numbers = font(number_size(geo), bold=True)
    assert number_size(geo) >= 22  # 10 px on a phone, which shows the board 400 px wide
    for digits in ("1", "24", "15"):
        _, top, _, bottom = numbers.getbbox(digits, anchor="ls")
        assert bottom - top >= 16, digits


def test_png_stays_small() -> None:
    before = Position.from_points(
        {6: 6, 8: 2, 13: 3, 24: 1, 20: 1, 4: 2}, {6: 5, 7: 2, 8: 2, 13: 4, 15: 1, 25: 1}
    )
    play = before.parse_play("20/10*", (6, 4))
    board = state(
        before.play(play),
        1,
        match_length=7,
        score=(2, 4),
        cube_value=2,
        cube_owner=1,
        dice=(3, 1),
        phase="move",
        last_play=LastPlay(0, play),
    )
    for viewer in (0, 1, None):
        assert len(render_board(board, viewer=viewer)) <= 80 * 1024


# -- checkers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", [0, 1])
def test_start_position_checkers_are_where_they_belong(viewer: int) -> None:
    board = state(Position.initial())
    image = decode(render_board(board, viewer=viewer))
    mine, theirs = checker_colour(viewer), checker_colour(1 - viewer)
    # The viewer's own 24, 13, 8 and 6 points, and the opponent's on 1, 12, 17, 19.
    for point, count, colour in [
        (24, 2, mine),
        (13, 5, mine),
        (8, 3, mine),
        (6, 5, mine),
        (1, 2, theirs),
        (12, 5, theirs),
        (17, 3, theirs),
        (19, 5, theirs),
    ]:
        for index in range(MAX_STACK):
            seen = pixel(image, checker_center(point, index))
            if index < count:
                assert close(seen, colour), (point, index, seen)
            else:
                assert not close(seen, IVORY, 30) and not close(seen, NAVY, 30), (point, index)
    for point in (2, 3, 4, 5, 7, 9, 10, 11, 14, 15, 16, 18, 20, 21, 22, 23):
        seen = pixel(image, checker_center(point, 0))
        assert not close(seen, IVORY, 30) and not close(seen, NAVY, 30), point


def test_colours_belong_to_players_not_viewers() -> None:
    position = Position.from_points({3: 1}, {5: 1})
    board = state(position, 0)
    as_zero = decode(render_board(board, viewer=0))
    as_one = decode(render_board(board, viewer=1))
    assert close(pixel(as_zero, checker_center(3, 0)), IVORY)
    assert close(pixel(as_one, checker_center(22, 0)), IVORY)
    assert close(pixel(as_zero, checker_center(20, 0)), NAVY)
    assert close(pixel(as_one, checker_center(5, 0)), NAVY)


def test_spectators_see_the_side_of_the_player_on_roll() -> None:
    position = Position.from_points({6: 7, 24: 2}, {6: 3, 13: 4})
    for on_roll in (0, 1):
        board = state(position, on_roll, dice=(6, 5), phase="move")
        assert render_board(board, viewer=None) == render_board(board, viewer=on_roll)
        image = decode(render_board(board, viewer=None))
        assert close(pixel(image, checker_center(6, 0)), checker_colour(on_roll))


def _positions() -> st.SearchStrategy[Position]:
    """Random legal boards: each side's checkers on points, bar and off, no shared points."""

    @st.composite
    def build(draw: st.DrawFn) -> Position:
        mover = [0] * 25
        opponent = [0] * 25
        for side, other in ((mover, opponent), (opponent, mover)):
            for _ in range(draw(st.integers(0, 15))):
                slot = draw(st.integers(0, 24))
                if slot < 24 and other[23 - slot]:
                    continue
                side[slot] += 1
        return Position(tuple(mover), tuple(opponent))

    return build()


@settings(max_examples=25, deadline=None)
@given(position=_positions(), on_roll=st.integers(0, 1))
def test_both_viewers_see_each_checker_at_mirrored_places(position: Position, on_roll: int) -> None:
    board = state(position, on_roll)
    images = {viewer: render_image(board, viewer=viewer) for viewer in (0, 1)}
    geo = layout(DEFAULT_SIZE)
    for point, index, player in expected_checkers(board, viewer=0):
        x, y = checker_center(point, index)
        # Viewer 1 sees player 0's point p as their own 25 - p: the same column, flipped
        # top to bottom about the board's middle.
        mirrored = checker_center(25 - point, index)
        assert mirrored == pytest.approx((x, geo.mirror_y(y)))
        here = pixel(images[0], (x, y))
        there = pixel(images[1], mirrored)
        if (
            index == MAX_STACK - 1
            and sides(board)[player][(point if player == 0 else 25 - point) - 1] > MAX_STACK
        ):
            # The count is written on this one: look between the digits and the rim.
            here = pixel(images[0], (x, y + geo.checker * 0.3))
            there = pixel(images[1], (mirrored[0], mirrored[1] + geo.checker * 0.3))
        assert close(here, checker_colour(player)), (point, index, player, here)
        assert close(there, checker_colour(player)), (point, index, player, there)
    # And the bar: each player's stack is on their own half for the viewer, so it flips too.
    counts = sides(board)
    for player in (0, 1):
        for index in range(min(counts[player][24], MAX_BAR_STACK - 1)):
            mine: Side = "bottom" if player == 0 else "top"
            flipped: Side = "top" if player == 0 else "bottom"
            assert close(pixel(images[0], bar_center(mine, index)), checker_colour(player))
            assert close(pixel(images[1], bar_center(flipped, index)), checker_colour(player))


def test_counts_are_written_on_stacks_taller_than_five() -> None:
    def top_checker_marks(count: int) -> int:
        position = Position.from_points({6: count}, {})
        image = render_image(state(position), viewer=0)
        return dark_pixels(image, checker_center(6, MAX_STACK - 1), 7, IVORY)

    assert top_checker_marks(5) == 0
    for count in (6, 9, 15):
        assert top_checker_marks(count) > 15, count
    seven = render_image(state(Position.from_points({6: 7}, {})), viewer=0)
    nine = render_image(state(Position.from_points({6: 9}, {})), viewer=0)
    assert seven.tobytes() != nine.tobytes()


def test_counts_on_the_bar_and_in_the_trays() -> None:
    position = Position.from_points({25: 6, 1: 2}, {25: 1, 23: 1})  # 7 of player 0's off
    image = render_image(state(position), viewer=0)
    for index in range(MAX_BAR_STACK - 1):
        assert close(pixel(image, bar_center("bottom", index)), IVORY)
    assert dark_pixels(image, bar_center("bottom", MAX_BAR_STACK - 1), 7, IVORY) > 15
    assert close(pixel(image, bar_center("top", 0)), NAVY)
    for index in range(7):
        box = tray_slab_box("bottom", index)
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        assert close(pixel(image, middle), IVORY)
    box = tray_slab_box("bottom", 7)
    assert not close(pixel(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)), IVORY, 30)
    tray = pixel(image, (layout(DEFAULT_SIZE).tray_x0 + 3, tray_count_center("bottom", 7)[1]))
    assert dark_pixels(image, tray_count_center("bottom", 7), 7, tray) > 10
    # Thirteen of player 1's are off, shown in the top tray.
    for index in range(13):
        box = tray_slab_box("top", index)
        assert close(pixel(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)), NAVY)


# -- cube and dice -----------------------------------------------------------------------------


def cube_shown(image: Image.Image, center: tuple[float, float]) -> bool:
    """The cube's face colour just inside its corner (its middle holds the value)."""
    inset = layout(DEFAULT_SIZE).cube * 0.3
    return close(pixel(image, (center[0] - inset, center[1] - inset)), theme.CUBE, 12)


@pytest.mark.parametrize("viewer", [0, 1])
@pytest.mark.parametrize("owner", [None, 0, 1])
def test_cube_is_on_its_owners_side(viewer: int, owner: int | None) -> None:
    board = state(Position.initial(), cube_value=1 if owner is None else 4, cube_owner=owner)
    image = decode(render_board(board, viewer=viewer))
    expected = None if owner is None else ("bottom" if owner == viewer else "top")
    places = {None: cube_center(None), "bottom": cube_center("bottom"), "top": cube_center("top")}
    for where, place in places.items():
        assert cube_shown(image, place) == (where == expected), (where, expected)


@pytest.mark.parametrize(
    ("match", "shown"),
    [
        ({"match_length": 1}, False),  # nobody may double: gnubg draws no cube (it drew "64")
        ({"match_length": 5, "score": (4, 2), "crawford": True}, False),
        ({"match_length": 5, "score": (4, 2)}, True),  # after the Crawford game
        ({"match_length": 0}, True),
    ],
)
def test_no_cube_where_nobody_may_double(match: dict[str, Any], shown: bool) -> None:
    board = state(Position.initial(), **match)
    image = decode(render_board(board, viewer=0))
    assert cube_shown(image, cube_center(None)) is shown
    labels = board_labels(board, viewer=0)
    assert any(label.role == "cube" for label in labels) is shown
    assert "64" not in {label.text for label in labels if label.role == "cube"} or shown


def test_offered_cube_sits_on_the_doublers_side() -> None:
    board = state(Position.initial(), 1, cube_value=2, cube_owner=1, phase="doubled")
    image = render_image(board, viewer=0)
    doubler_area = roller_area_center("top")
    assert cube_shown(image, doubler_area)
    assert not cube_shown(image, cube_center("top"))
    assert status_text(board) == "bob doubled to 4 — alice to take or drop"


def test_dice_are_on_the_rollers_side_and_used_ones_dimmed() -> None:
    position = Position.initial()
    above_middle_pip = layout(DEFAULT_SIZE).die * 0.38
    cases: list[tuple[int, int, Side]] = [(0, 0, "bottom"), (1, 0, "top"), (1, 1, "bottom")]
    for on_roll, viewer, side in cases:
        board = state(position, on_roll, dice=(6, 5), phase="move")
        image = render_image(board, viewer=viewer)
        colour = checker_colour(on_roll)
        for x, y in dice_centers(side, 2):
            assert close(pixel(image, (x, y - above_middle_pip)), colour, 12), (on_roll, viewer)
        other: Side = "top" if side == "bottom" else "bottom"
        for x, y in dice_centers(other, 2):
            assert not close(pixel(image, (x, y - above_middle_pip)), colour, 30)
    doubles = state(position, 0, dice=(3, 3), dice_used=2, phase="move")
    image = render_image(doubles, viewer=0)
    centers = dice_centers("bottom", 4)
    faces = [pixel(image, (x, y - above_middle_pip)) for x, y in centers]
    assert not close(faces[0], IVORY, 30) and not close(faces[1], IVORY, 30)
    assert close(faces[2], IVORY, 12) and close(faces[3], IVORY, 12)


# -- the last play -----------------------------------------------------------------------------


def test_last_play_marks_its_points_and_the_hit() -> None:
    before = Position.from_points(
        {6: 6, 8: 2, 13: 3, 24: 1, 20: 1, 4: 2}, {6: 5, 7: 2, 8: 2, 13: 4, 15: 1, 25: 1}
    )
    play = before.parse_play("20/10*", (6, 4))
    after = before.play(play)
    plain = state(after, 1, dice=(3, 1), phase="move")
    marked = state(after, 1, dice=(3, 1), phase="move", last_play=LastPlay(0, play))
    for viewer in (0, 1):
        image = render_image(marked, viewer=viewer)
        without = render_image(plain, viewer=viewer)
        # Alice's 20 and 10 are the viewer's 20 and 10 for alice, 5 and 15 for bob.
        source, dest = (20, 10) if viewer == 0 else (5, 15)
        for point in (source, dest):
            number = point_number_center(point)
            geo = layout(DEFAULT_SIZE)
            pill_edge = (number[0] - (geo.point_width / 2 - 3 * geo.scale) + 1, number[1])
            assert close(pixel(image, pill_edge), theme.HIGHLIGHT, 40), (viewer, point)
            assert not close(pixel(without, pill_edge), theme.HIGHLIGHT, 40)
        # The arriving checker is ringed; the point it left shows a dashed ghost.
        x, y = checker_center(dest, 0)
        ring = layout(DEFAULT_SIZE).checker / 2 + 1
        assert any(
            close(pixel(image, (x + dx, y)), theme.HIGHLIGHT, 40)
            for dx in (ring - 1, ring, ring + 1, -ring - 1, -ring, -ring + 1)
        )
        magenta = sum(
            close(pixel(image, (x + dx, y + dy)), theme.HIT, 30)
            for dx in range(-40, 41, 2)
            for dy in range(-40, 41, 2)
        )
        assert magenta > 5, viewer
        assert (
            sum(
                close(pixel(without, (x + dx, y + dy)), theme.HIT, 30)
                for dx in range(-40, 41, 2)
                for dy in range(-40, 41, 2)
            )
            == 0
        )


# -- text --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"phase": "roll"}, "alice to roll or double"),
        ({"phase": "move", "dice": (6, 5)}, "alice to move 6-5"),
        ({"phase": "doubled", "cube_value": 1}, "alice doubled to 2 — bob to take or drop"),
        (
            {"phase": "doubled", "cube_value": 2, "beavers": True},
            "alice doubled to 4 — bob to take, drop or beaver",
        ),
        (
            {"phase": "doubled", "match_length": 5, "beavers": True},
            "alice doubled to 2 — bob to take or drop",
        ),
        ({"phase": "resigned"}, "alice offers to resign — bob to accept or reject"),
        (
            {"phase": "resigned", "resignation": 2},
            "alice offers to resign a gammon (2 points) — bob to accept or reject",
        ),
        (
            {"phase": "resigned", "resignation": 1},
            "alice offers to resign a single game (1 point) — bob to accept or reject",
        ),
        (
            {"phase": "resigned", "resignation": 3, "cube_value": 4},
            "alice offers to resign a backgammon (12 points) — bob to accept or reject",
        ),
        (
            {"phase": "over", "winner": 1, "match_length": 5, "score": (2, 5)},
            "bob wins the match 5-2",
        ),
        (
            {
                "phase": "over",
                "winner": 1,
                "match_length": 5,
                "score": (2, 6),
                "result": "gammon",
                "points": 4,
            },
            "bob wins a gammon and the match 6-2",
        ),
        ({"phase": "over", "winner": 1, "match_length": 5, "score": (2, 3)}, "bob wins the game"),
        (
            {
                "phase": "over",
                "winner": 1,
                "match_length": 5,
                "score": (2, 4),
                "result": "gammon",
                "points": 4,
            },
            "bob wins a gammon: 4 points",
        ),
        ({"phase": "over", "winner": 0}, "alice wins the game"),
        (
            {"phase": "over", "winner": 0, "score": (2, 0), "result": "single", "points": 2},
            "alice wins 2 points",
        ),
        (
            {"phase": "over", "winner": 0, "score": (1, 0), "result": "single", "points": 1},
            "alice wins 1 point",
        ),
        (
            {"phase": "over", "winner": 1, "score": (0, 8), "result": "backgammon", "points": 8},
            "bob wins a backgammon: 8 points",
        ),
    ],
)
def test_status_line(kwargs: dict[str, Any], expected: str) -> None:
    assert status_text(state(Position.initial(), **kwargs)) == expected


def test_long_names_are_shortened_never_overflow() -> None:
    face = font(20, bold=True)
    long = "Sir Reginald Backgammonington the Third of Far Too Long Names " * 3
    short = fit_text(long, face, 200)
    assert short.endswith("…") and face.getlength(short) <= 200
    assert fit_text("bob", face, 200) == "bob"
    board = BoardState(
        Position.initial(), 0, (long, "🎲" * 80), match_length=7, crawford=True, phase="doubled"
    )
    for viewer in (0, 1, None):
        image = decode(render_board(board, viewer=viewer))
        assert image.size == DEFAULT_SIZE


def test_status_line_keeps_the_offer_when_names_are_long() -> None:
    geo = layout(DEFAULT_SIZE)
    face = font(round(21 * geo.scale), bold=True)
    room = geo.width - 80 * geo.scale
    long = ("Sir Reginald Backgammonington III", "the_quiet_one_from_discord_12345")
    resigned = BoardState(
        Position.initial(), 0, long, phase="resigned", resignation=3, cube_value=8
    )
    text = fitted_status(resigned, face, room)
    assert text.endswith("offers to resign a backgammon (24 points)")
    assert text_length(text, face) <= room
    doubled = BoardState(Position.initial(), 0, long, phase="doubled", beavers=True)
    assert fitted_status(doubled, face, room).endswith("take, drop or beaver")
    short = state(Position.initial(), phase="resigned", resignation=2)
    assert fitted_status(short, face, room) == status_text(short)


def test_status_line_shows_the_resignation_level_in_the_image() -> None:
    # The level is written into the status strip: the strip's pixels differ by level.
    geo = layout(DEFAULT_SIZE)
    x0, y0, x1, y1 = (round(v) for v in geo.status_strip)

    def strip(level: int) -> bytes:
        board = state(Position.initial(), phase="resigned", resignation=level)
        return render_image(board, viewer=0).crop((x0, y0, x1, y1)).tobytes()

    assert len({strip(level) for level in (0, 1, 2, 3)}) == 4


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        render_board(state(Position.initial()), viewer=2)
    with pytest.raises(ValueError):
        state(Position.initial(), phase="thinking")
    with pytest.raises(ValueError):
        BoardState(Position.initial(), 2, PLAYERS)
    with pytest.raises(ValueError, match="resignation"):
        state(Position.initial(), phase="resigned", resignation=4)
    with pytest.raises(ValueError, match="result"):
        state(Position.initial(), phase="over", winner=0, result="triple")
    with pytest.raises(ValueError, match="points"):
        state(Position.initial(), phase="over", winner=0, points=-1)


def test_a_clock_is_drawn_in_both_player_strips() -> None:
    geo = layout(DEFAULT_SIZE)

    def strips(board: BoardState) -> tuple[bytes, bytes]:
        image = render_image(board, viewer=0)
        return image.crop(geo.top_strip).tobytes(), image.crop(geo.bottom_strip).tobytes()

    plain = strips(state(Position.initial()))
    clocked = strips(
        state(Position.initial(), clock=(600.0, 581.0), clock_running=0, clock_delay=15.0)
    )
    assert clocked[0] != plain[0] and clocked[1] != plain[1]
    # Another bank, another picture: the time is drawn, not a fixed mark.
    later = strips(state(Position.initial(), clock=(600.0, 522.0), clock_running=0))
    assert later != clocked


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"clock": (-1.0, 5.0)}, "clock banks must not be negative"),
        ({"clock_running": 0}, "clock_running must be None, or 0 or 1 with a clock"),
        ({"clock": (1.0, 1.0), "clock_running": 2}, "clock_running must be None"),
        ({"clock_delay": -1.0}, "clock_delay must not be negative"),
    ],
)
def test_bad_clocks_are_refused(fields: dict[str, Any], said: str) -> None:
    with pytest.raises(ValueError, match=said):
        BoardState(Position.initial(), 0, PLAYERS, **fields)
