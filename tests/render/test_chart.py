"""The analysis chart: its size, and the pixels where the layout says things are."""

from __future__ import annotations

import io
from typing import cast

import pytest
from PIL import Image

from bot.render import theme
from bot.render.chart import BLUNDER, FILLS, PANEL, Point, chart_layout, render_chart

NAMES = ("alice", "bob")


def chart(
    points: tuple[Point, ...],
    names: tuple[str, str] = NAMES,
    *,
    length: int = 5,
    width: int = 1000,
    height: int = 500,
) -> bytes:
    return render_chart(points, names, length=length, plies=2, width=width, height=height)


# game 1: alice pulls ahead (90%), game 2: bob does (10%), with a blunder at 30%
POINTS = (
    tuple(Point(1, 0.5 + 0.4 * min(i, 10) / 10) for i in range(20))
    + tuple(Point(2, 0.5 - 0.4 * min(i, 10) / 10) for i in range(20))
    + (Point(3, 0.3, blunder=True), Point(3, 0.3), Point(3, 0.3))
)


def image_of(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(
    pixel: float | tuple[int, ...] | None, colour: tuple[int, int, int], tolerance: int = 14
) -> bool:
    """``pixel`` as Pillow's getpixel and getcolors give it: a tuple for an RGB image."""
    assert isinstance(pixel, tuple), pixel
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def test_size_and_format() -> None:
    data = chart(POINTS)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert image_of(data).size == (1000, 500)
    assert image_of(chart(POINTS, width=800, height=400)).size == (800, 400)


def test_the_player_ahead_fills_between_the_line_and_fifty_percent() -> None:
    image = image_of(chart(POINTS))
    layout = chart_layout(POINTS, width=1000, height=500)
    alice_ahead = layout.xs[15]  # alice at 90%
    assert near(image.getpixel((round(alice_ahead), round(layout.y(0.7)))), FILLS[0])
    assert near(image.getpixel((round(alice_ahead), round(layout.y(0.3)))), PANEL)
    bob_ahead = layout.xs[35]  # alice at 10%
    assert near(image.getpixel((round(bob_ahead), round(layout.y(0.3)))), FILLS[1])
    assert near(image.getpixel((round(bob_ahead), round(layout.y(0.7)))), PANEL)


def test_games_are_separated_and_blunders_marked() -> None:
    image = image_of(chart(POINTS))
    layout = chart_layout(POINTS, width=1000, height=500)
    assert [game for game, _, _ in layout.games] == [1, 2, 3]
    between = (layout.xs[19] + layout.xs[20]) / 2
    assert layout.xs[20] - layout.xs[19] > layout.xs[19] - layout.xs[18]  # a gap
    assert near(image.getpixel((round(between), round(layout.y(0.8)))), theme.BACKGROUND)
    x, y = layout.xs[40], layout.y(0.3)
    assert near(image.getpixel((round(x), round(y))), BLUNDER)
    assert not any(
        near(image.getpixel((round(layout.xs[i]), round(layout.y(0.3)))), BLUNDER) for i in (41, 42)
    )


def test_the_fifty_percent_line_and_labels() -> None:
    image = image_of(chart(()))  # nothing to chart: the frame still reads
    layout = chart_layout((), width=1000, height=500)
    middle = round(layout.y(0.5))
    row = [image.getpixel((x, middle)) for x in range(layout.left, layout.right)]
    assert sum(near(pixel, theme.MUTED, 20) for pixel in row) > len(row) / 3  # dashed
    title = image.crop((0, 0, 1000, layout.top - 30))
    colours = title.getcolors(maxcolors=1 << 20) or []
    assert any(near(colour, theme.PLAYER_COLOURS[0].fill, 10) for _, colour in colours)


def test_money_and_match_titles_differ() -> None:
    assert chart(POINTS, length=0) != chart(POINTS)


@pytest.mark.parametrize(("names", "size"), [(("a",), (1000, 500)), (("a", "b"), (300, 200))])
def test_bad_options_are_refused(names: tuple[str, ...], size: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match=r"names|too small"):
        # one name is a wrong argument on purpose
        chart(POINTS, cast("tuple[str, str]", names), width=size[0], height=size[1])


def test_names_in_any_script() -> None:
    data = chart(POINTS, ("Мария 🎲", "علي"))
    assert image_of(data).size == (1000, 500)
