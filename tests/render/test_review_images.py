"""The review's pictures: plays drawn as arrows on the board, and the analysis chart's marks of
each player's errors and cube actions. Checked structurally: pixels where the layouts say."""

from __future__ import annotations

import io
import itertools
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render import (
    Arrow,
    ArrowPath,
    BoardState,
    arrow_layout,
    arrows_of,
    render_board,
    render_image,
    theme,
)
from bot.render.chart import (
    BLUNDER,
    CUBE_SIDE,
    PANEL,
    RADII,
    Point,
    chart_labels,
    chart_layout,
    cube_action,
    cube_place,
    error_class,
    render_chart,
)
from bot.render.geometry import (
    DEFAULT_SIZE,
    Side,
    bar_center,
    checker_center,
    layout,
    tray_slab_box,
)
from bot.render.labels import min_text_size
from bot.rules import InvalidMoveError, Play, Position

RGB = tuple[int, int, int]
PLAYERS = ("alice", "bob")
PLAYED, BEST = theme.ARROW_PLAYED, theme.ARROW_BEST
XY = tuple[float, float]


def pixel(image: Image.Image, place: XY) -> RGB:
    value = image.getpixel((round(place[0]), round(place[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def close(colour: RGB, expected: RGB, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def board(position: Position, on_roll: int = 0, **kwargs: Any) -> BoardState:
    return BoardState(position, on_roll, PLAYERS, **kwargs)


def steps_of(arrows: tuple[Arrow, ...]) -> list[tuple[int, int]]:
    return [(arrow.source, arrow.target) for arrow in arrows]


def along(path: ArrowPath, count: int = 40) -> list[XY]:
    """Points on the shaft, clear of the tail's dot and of the arrowhead."""
    return [path.at(0.1 + 0.6 * index / count) for index in range(count + 1)]


# -- reading plays ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "steps"),
    [
        ("24/18*/13", [(24, 18), (18, 13)]),
        ("bar/22", [(25, 22)]),
        ("bar/22*", [(25, 22)]),
        ("6/off", [(6, 0)]),
        ("8/2(2)", [(8, 2), (8, 2)]),
        ("13/7 8/7", [(13, 7), (8, 7)]),
        ("13/7*(2) 6/off(2)", [(13, 7), (13, 7), (6, 0), (6, 0)]),
        ("bar/20*/15 24/18", [(25, 20), (20, 15), (24, 18)]),
        ("13-7 8-7", [(13, 7), (8, 7)]),  # FIBS
        ("24/13", [(24, 13)]),  # one checker, no hit on its way: one arrow
        ("no legal move", []),
        ("", []),
    ],
)
def test_arrows_of_reads_gnubg_notation(play: str, steps: list[tuple[int, int]]) -> None:
    arrows = arrows_of(play, "best")
    assert steps_of(arrows) == steps
    assert all(arrow.kind == "best" for arrow in arrows)
    assert all(arrow.kind == "played" for arrow in arrows_of(play))


@pytest.mark.parametrize("play", ["13", "13/7(5)", "7/13", "off/6", "hello", "13/30"])
def test_arrows_of_refuses_what_is_not_a_play(play: str) -> None:
    with pytest.raises(InvalidMoveError if play != "7/13" else ValueError):
        arrows_of(play)


@pytest.mark.parametrize(
    ("source", "target", "kind"),
    [(26, 20, "played"), (0, 0, "played"), (6, 7, "played"), (6, -1, "best"), (6, 3, "worst")],
)
def test_bad_arrows_are_refused(source: int, target: int, kind: Any) -> None:
    with pytest.raises(ValueError, match="arrow"):
        Arrow(source, target, kind)


@st.composite
def positions_and_rolls(draw: st.DrawFn) -> tuple[Position, tuple[int, int]]:
    """A position reached by random plays from the start, or a random bear-off (a third of the
    time), and a roll."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.integers(0, 2)) == 0:
        mover = [0] * 25
        for _ in range(draw(st.integers(1, 15))):
            mover[rng.randint(0, 5)] += 1
        opponent = [0] * 25
        for _ in range(rng.randint(1, 15)):
            opponent[rng.randint(0, 17)] += 1  # never on the mover's home board
        position = Position(tuple(mover), tuple(opponent))
    else:
        position = Position.initial()
        for _ in range(draw(st.integers(0, 60))):
            if position.is_game_over():
                break
            position = position.play(
                rng.choice(position.legal_plays(rng.randint(1, 6), rng.randint(1, 6)))
            )
        if position.is_game_over():
            position = Position.initial()
    return position, (draw(st.integers(1, 6)), draw(st.integers(1, 6)))


def _after(position: Position, arrows: tuple[Arrow, ...]) -> list[int]:
    """The mover's 25 counts after ``arrows`` played one by one; each must start on a checker."""
    counts = list(position.mover)
    for arrow in arrows:
        assert counts[arrow.source - 1] > 0, arrow
        counts[arrow.source - 1] -= 1
        if arrow.target:
            counts[arrow.target - 1] += 1
    return counts


@settings(max_examples=60, deadline=None)
@given(positions_and_rolls())
def test_every_legal_plays_notation_gives_arrows_that_make_the_play(
    case: tuple[Position, tuple[int, int]],
) -> None:
    position, dice = case
    plays: list[Play] = position.legal_plays(*dice)
    state = board(position, dice=dice, phase="move")
    for play in plays:
        arrows = arrows_of(play.notation)
        if not play.steps:
            assert arrows == ()
            continue
        # played one by one from the position, they move the checkers the play moves
        assert _after(position, arrows) == list(play.result.opponent)
        assert sum(a.source - a.target for a in arrows) == play.pips()
        # each arrow is a run of the play's steps: its source is one of theirs, and so is its
        # target (a point the checker reaches, or off)
        assert {a.source for a in arrows} <= {source for source, _ in play.steps}
        assert {a.target for a in arrows} <= {target for _, target in play.steps}
        assert len(arrows) <= len(play.steps)
        # the board rings a blot where, and only where, the play hits
        paths = arrow_layout(state, 0, arrows)
        assert {path.arrow.target for path in paths if path.hit} == set(play.hits)


# -- arrows on the board -----------------------------------------------------------------------


def test_no_arrows_draws_the_board_as_before() -> None:
    state = board(Position.initial(), dice=(6, 5), phase="move")
    assert render_board(state, viewer=0, arrows=()) == render_board(state, viewer=0)
    assert arrow_layout(state, 0, ()) == ()


@pytest.mark.parametrize("viewer", [0, 1])
def test_played_and_best_arrows_are_drawn_in_their_colours(viewer: int) -> None:
    """The opening 6-2: played 24/18 13/11, best 13/5; the player on roll is player 1, so
    viewer 0 sees them from the top."""
    state = board(Position.initial(), 1, dice=(6, 2), phase="move")
    arrows = arrows_of("24/18 13/11", "played") + arrows_of("13/5", "best")
    plain = decode(render_board(state, viewer=viewer))
    drawn = decode(render_board(state, viewer=viewer, arrows=arrows))
    paths = arrow_layout(state, viewer, arrows)
    assert [path.arrow for path in paths] == list(arrows)
    for path in paths:
        colour = PLAYED if path.arrow.kind == "played" else BEST
        shaft = [pixel(drawn, xy) for xy in along(path)]
        hits = sum(close(value, colour) for value in shaft)
        if path.arrow.kind == "played":  # solid
            assert close(pixel(drawn, path.middle), colour), path
            assert hits >= 0.9 * len(shaft), path
        else:  # dashed: the colour on more than a third of the shaft, not on all of it
            assert 0.35 * len(shaft) <= hits < 0.9 * len(shaft), path
        assert close(pixel(drawn, path.head_point), colour), path
        for xy in (path.middle, path.head_point):
            assert pixel(drawn, xy) != pixel(plain, xy)
    # the two arrows from the 13 point don't lie on one another: their starts are apart
    from_13 = [path for path in paths if path.arrow.source == 13]
    assert len(from_13) == 2
    assert math.dist(from_13[0].start, from_13[1].start) >= layout(DEFAULT_SIZE).checker * 0.2
    # the played 24/18 starts on the top checker of the mover's 24 point and lands on 18
    (run,) = [path for path in paths if path.arrow.source == 24]
    shown = 24 if viewer == 1 else 1
    assert run.start == pytest.approx(checker_center(shown, 1))
    assert run.end == pytest.approx(checker_center(18 if viewer == 1 else 7, 0))


def test_played_and_best_colours_differ_and_read_on_the_board() -> None:
    def distance(one: RGB, other: RGB) -> float:
        return math.dist(one, other)

    assert distance(PLAYED, BEST) > 150
    for under in (
        theme.FELT,
        theme.POINT_LIGHT,
        theme.POINT_DARK,
        *(colours.fill for colours in theme.PLAYER_COLOURS),
    ):
        # each arrow has a dark edge: the edge stands out where the colour alone would not
        assert max(distance(PLAYED, under), distance(theme.ARROW_EDGE, under)) > 150
        assert max(distance(BEST, under), distance(theme.ARROW_EDGE, under)) > 150


@pytest.mark.parametrize(("viewer", "side", "entry"), [(0, "bottom", 22), (1, "top", 3)])
def test_an_arrow_from_the_bar_starts_on_the_bar_and_rings_the_blot_it_hits(
    viewer: int, side: Any, entry: int
) -> None:
    """Player 0 on roll with two on the bar enters bar/22* hitting a blot."""
    position = Position.from_points({25: 2, 13: 5, 6: 5, 8: 3}, {3: 1, 6: 5, 13: 5, 8: 4})
    state = board(position, dice=(3, 5), phase="move")
    arrows = arrows_of("bar/22* bar/20", "played")
    (hit, other) = arrow_layout(state, viewer, arrows)
    assert hit.start == pytest.approx(bar_center(side, 1))  # the top checker of two
    assert other.start == pytest.approx(bar_center(side, 0))
    assert hit.end == pytest.approx(checker_center(entry, 0))
    assert hit.hit == pytest.approx(checker_center(entry, 0))
    assert other.hit is None
    image = decode(render_board(state, viewer=viewer, arrows=arrows))
    # the ring: on the far side of the blot from where the arrow comes in
    dx, dy = hit.end[0] - hit.control[0], hit.end[1] - hit.control[1]
    norm = math.hypot(dx, dy)
    assert hit.hit is not None
    x, y = hit.hit
    assert close(pixel(image, (x + dx / norm * hit.ring, y + dy / norm * hit.ring)), PLAYED)
    plain = decode(render_board(state, viewer=viewer))
    assert not close(pixel(plain, (x + dx / norm * hit.ring, y + dy / norm * hit.ring)), PLAYED)


@pytest.mark.parametrize("viewer", [0, 1])
@pytest.mark.parametrize("on_roll", [0, 1])
def test_a_bear_off_arrow_ends_on_the_next_slab_of_the_movers_tray(
    viewer: int, on_roll: int
) -> None:
    mover = {6: 2, 5: 3, 2: 2}  # 8 off already
    other = {5: 3, 4: 4, 24: 1}
    position = Position.from_points(mover, other)
    state = board(position, on_roll, dice=(6, 5), phase="move")
    arrows = arrows_of("6/off 5/off", "best")
    first, second = arrow_layout(state, viewer, arrows)
    side: Side = "bottom" if viewer == on_roll else "top"
    for path, index in ((first, 8), (second, 9)):
        x0, y0, x1, y1 = tray_slab_box(side, index)
        assert path.end == pytest.approx((x0 + (x1 - x0) / 4, (y0 + y1) / 2))
    shown = 6 if viewer == on_roll else 19
    assert first.start == pytest.approx(checker_center(shown, 1))
    image = render_image(state, viewer=viewer, arrows=arrows)
    assert close(pixel(image, first.head_point), BEST)
    assert close(pixel(image, second.head_point), BEST)


def test_checkers_moved_together_have_arrows_apart_that_do_not_cross() -> None:
    state = board(Position.initial(), dice=(3, 3), phase="move")
    arrows = arrows_of("8/5(2) 6/3(2)")
    paths = arrow_layout(state, 0, arrows)
    for one, other in ((paths[0], paths[1]), (paths[2], paths[3])):
        assert math.dist(one.start, other.start) > 10
        assert math.dist(one.end, other.end) > 10
        assert math.dist(one.middle, other.middle) > 10
        # the top checker lands furthest from the edge: on the bottom side, higher up
        assert (one.start[1] < other.start[1]) == (one.end[1] < other.end[1])


def test_the_same_move_played_and_best_is_drawn_twice_apart() -> None:
    """The caller draws one set when the play is the best; given both, they are told apart."""
    state = board(Position.initial(), dice=(6, 1), phase="move")
    arrows = arrows_of("13/7", "played") + arrows_of("13/7", "best")
    played, best = arrow_layout(state, 0, arrows)
    assert math.dist(played.start, best.start) > 5
    assert math.dist(played.middle, best.middle) > 5


def test_an_arrow_from_an_empty_point_is_refused() -> None:
    state = board(Position.initial(), dice=(6, 5), phase="move")
    with pytest.raises(ValueError, match="before the play"):
        arrow_layout(state, 0, arrows_of("20/14"))
    with pytest.raises(ValueError, match="before the play"):
        render_board(state, viewer=0, arrows=arrows_of("bar/20"))
    with pytest.raises(ValueError, match="viewer"):
        arrow_layout(state, 2, ())


def test_arrows_read_on_a_small_board() -> None:
    size = (450, 367)
    state = board(Position.initial(), dice=(6, 2), phase="move")
    arrows = arrows_of("24/18 13/11", "played")
    image = render_image(state, viewer=0, size=size, arrows=arrows)
    for path in arrow_layout(state, 0, arrows, size=size):
        assert close(pixel(image, path.middle), PLAYED, 40)
        assert path.width >= 3


# -- the chart -----------------------------------------------------------------------------------

NAMES = ("alice", "bob")


def match_points() -> tuple[Point, ...]:
    """A 3-game match: game 1 alice's, game 2 bob's, game 3 (bob's) with a blunder of each, a
    double, take and pass, and a missed double."""
    points: list[Point] = []
    for game, start, slope in ((1, 0.5, 0.02), (2, 0.6, -0.03), (3, 0.4, -0.015)):
        for index in range(18):
            points.append(Point(game, start + slope * index, player=index % 2))
    marks = {
        5: Point(1, 0.6, player=1, error="blunder"),
        8: Point(1, 0.66, player=0, error="doubtful"),
        11: Point(1, 0.72, player=1, error="error"),
        20: Point(2, 0.54, player=0, cube="double"),
        21: Point(2, 0.51, player=1, cube="take"),
        40: Point(3, 0.33, player=0, error="very bad"),
        44: Point(3, 0.3, player=0, cube="no double", error="bad"),
        50: Point(3, 0.22, player=1, cube="redouble"),
        51: Point(3, 0.2, player=0, cube="pass"),
    }
    for index, point in marks.items():
        points[index] = point
    return tuple(points[:52])


def chart(points: tuple[Point, ...], **kwargs: Any) -> Image.Image:
    return decode(render_chart(points, NAMES, length=7, plies=2, **kwargs))


def test_each_players_errors_are_in_their_colour_sized_by_class() -> None:
    points = match_points()
    image = chart(points)
    plot = chart_layout(points, width=1000, height=500)
    ivory, navy = theme.PLAYER_COLOURS[0].fill, theme.PLAYER_COLOURS[1].fill

    def at(index: int, dx: float = 0) -> RGB:
        return pixel(image, (plot.xs[index] + dx, plot.y(points[index].chance)))

    assert close(at(5), navy, 12)  # bob's blunder at its x
    assert close(at(5, RADII["blunder"] + 1.5), BLUNDER, 12)  # ringed in magenta
    assert close(at(40), ivory, 12)  # alice's blunder
    assert close(at(40, RADII["blunder"] + 1.5), BLUNDER, 12)
    assert close(at(11), navy, 12)  # bob's error
    assert close(at(8), ivory, 12)  # alice's doubtful move
    # the worse, the larger: a doubtful mark's radius right of the middle is still in an
    # error's mark, and past the edge of a doubtful's
    assert close(at(11, RADII["doubtful"]), navy, 12)
    assert not close(at(8, RADII["doubtful"] + 2), ivory, 12)
    # no mark where there is no error: the line
    assert close(at(14), theme.TEXT, 12) and not close(at(14), ivory, 12)


def test_cube_actions_are_marked_with_a_cube() -> None:
    points = match_points()
    image = chart(points)
    plot = chart_layout(points, width=1000, height=500)
    placed: list[XY] = []
    for index, point in enumerate(points):
        action = cube_action(point)
        if action is None:
            continue
        x, y = cube_place(plot, points, index, placed)
        placed.append((x, y))
        assert plot.top <= y - CUBE_SIDE / 2 and y + CUBE_SIDE / 2 <= plot.bottom
        centre = pixel(image, (x, y))
        expected = {"pass": theme.CUBE_OUTLINE, "no double": PANEL}.get(action, theme.CUBE)
        assert close(centre, expected, 12), (index, action, centre)
        assert close(pixel(image, (x - CUBE_SIDE / 2 + 3.5, y)), theme.CUBE, 12)
    assert len(placed) == 5
    # the double and the take just after it are not drawn on one another
    assert math.dist(placed[0], placed[1]) >= CUBE_SIDE


def test_the_legend_keys_players_error_classes_and_cube_marks() -> None:
    points = match_points()
    labels = chart_labels(points, NAMES, length=7, plies=2)
    legend = [label for label in labels if label.role == "legend"]
    assert [label.text for label in legend] == [
        "doubtful",
        "error",
        "blunder",
        "double, take",
        "pass",
        "no double",
    ]
    for label in legend:
        assert label.size >= 25
        x0, y0, x1, y1 = label.box
        assert x0 >= 0 and x1 <= 1000 and y1 <= 500
        assert y0 > chart_layout(points, width=1000, height=500).bottom + 40  # under the games
    for one, other in itertools.pairwise(legend):
        assert one.box[2] < other.box[0]
    image = chart(points)
    # the legend's doubtful marks: one of each player, before the word
    first = legend[0]
    y = (first.box[1] + first.box[3]) / 2
    row = [pixel(image, (x, y)) for x in range(20, round(first.box[0]))]
    assert any(close(value, theme.PLAYER_COLOURS[0].fill, 12) for value in row)
    assert any(close(value, theme.PLAYER_COLOURS[1].fill, 12) for value in row)
    # a chart without cube actions keys none; a narrow one keys them as one "cube"
    quiet = tuple(point._replace(cube=None) for point in points)
    texts = [label.text for label in chart_labels(quiet, NAMES, length=7, plies=2)]
    assert "blunder" in texts and "pass" not in texts and "double, take" not in texts
    narrow = chart_labels(points, NAMES, length=7, plies=2, width=800, height=400)
    keyed = [label.text for label in narrow if label.role == "legend"]
    assert keyed[:3] == ["doubtful", "error", "blunder"]
    assert "cube" in keyed or "double, take" in keyed
    for label in narrow:
        assert label.size >= min_text_size(800)
        assert label.box[2] <= 800


def test_old_points_still_chart_their_blunders_in_magenta() -> None:
    points = (Point(1, 0.5), Point(1, 0.4, True), Point(1, 0.45))
    image = chart(points)
    plot = chart_layout(points, width=1000, height=500)
    assert close(pixel(image, (plot.xs[1], plot.y(0.4))), BLUNDER, 12)
    texts = [label.text for label in chart_labels(points, NAMES, length=7, plies=2)]
    assert "very bad decisions" in texts


def test_the_winner_is_told_apart() -> None:
    points = match_points()
    plot = chart_layout(points, width=1000, height=500)
    for winner, edge in ((0, 1.0), (1, 0.0)):
        image = chart(points, winner=winner)
        end = (plot.right - 6, plot.y(edge))
        assert close(pixel(image, end), theme.PLAYER_COLOURS[winner].fill, 12)
        # the line goes on from the last decision towards the winner's edge
        last = plot.xs[-1], plot.y(points[-1].chance)
        middle = (last[0] + end[0]) / 2, (last[1] + end[1]) / 2
        assert close(pixel(image, middle), theme.PLAYER_TEXT[winner], 30)
        labels = chart_labels(points, NAMES, length=7, plies=2, winner=winner)
        title = [label.text for label in labels if label.baselines[0] < plot.top - 40]
        assert title[:3] == [NAMES[winner], "  beat  ", NAMES[1 - winner]]
    untold = chart(points)
    assert close(pixel(untold, (plot.right - 6, plot.y(0.0))), PANEL, 6)
    assert plot.xs[-1] < plot.right - 10  # room for it


@pytest.mark.parametrize(
    ("point", "message"),
    [
        (Point(1, 0.5, error="awful"), "error"),
        (Point(1, 0.5, cube="triple"), "cube"),
        (Point(1, 0.5, player=2), "player"),
    ],
)
def test_bad_marks_are_refused(point: Point, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        chart_labels((point,), NAMES, length=7, plies=2)
    with pytest.raises(ValueError, match="winner"):
        chart_labels((), NAMES, length=7, plies=2, winner=3)


def test_gnubgs_words_for_errors_and_cube_actions_are_read() -> None:
    assert error_class(Point(1, 0.5, error="Very bad")) == "blunder"
    assert error_class(Point(1, 0.5, error="bad")) == "error"
    assert error_class(Point(1, 0.5, True)) == "blunder"
    assert error_class(Point(1, 0.5)) is None
    words = {"Double": "double", "Redouble": "double", "Take": "take", "Beaver": "take"}
    words |= {"Pass": "pass", "No double": "no double", "No redouble": "no double"}
    for word, action in words.items():
        assert cube_action(Point(1, 0.5, cube=word)) == action


def test_the_review_chart_draws_in_theme_colours() -> None:
    """Every colour the chart's new marks use is the board's (theme.py), not a new one."""
    image = chart(match_points(), winner=1)
    allowed = {
        theme.BACKGROUND,
        theme.STRIP,
        theme.TEXT,
        theme.MUTED,
        theme.GRID,
        theme.HIT,
        theme.CUBE,
        theme.CUBE_OUTLINE,
        *theme.PLAYER_FILLS,
        *theme.PLAYER_TEXT,
        *(c for colours in theme.PLAYER_COLOURS for c in (colours.fill, colours.outline)),
    }
    counts = image.getcolors(maxcolors=1 << 20) or []
    total = sum(count for count, _ in counts)
    themed = sum(count for count, colour in counts if colour in allowed)
    assert themed > 0.9 * total  # the rest: the text's anti-aliased edges
