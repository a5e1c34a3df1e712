"""The layout helpers: every place is on the image, nothing overlaps, top and bottom mirror."""

from __future__ import annotations

import pytest

from bot.render.geometry import (
    CHECKERS,
    DEFAULT_SIZE,
    MAX_BAR_STACK,
    MAX_STACK,
    Side,
    bar_center,
    board_mid_y,
    checker_center,
    cube_center,
    dice_centers,
    layout,
    point_number_center,
    point_x,
    tray_count_center,
    tray_slab_box,
)

SIZES = [DEFAULT_SIZE, (600, 467), (1350, 1050), (900, 900)]


@pytest.mark.parametrize("size", SIZES)
def test_viewer_home_board_is_bottom_right(size: tuple[int, int]) -> None:
    mid = board_mid_y(size)
    xs = [point_x(point, size) for point in range(1, 25)]
    # 1-12 run right to left along the bottom, 13-24 left to right along the top.
    assert xs[:12] == sorted(xs[:12], reverse=True)
    assert xs[12:] == sorted(xs[12:])
    assert checker_center(1, 0, size)[1] > mid > checker_center(24, 0, size)[1]
    assert point_x(1, size) == max(xs) and point_x(24, size) == max(xs)
    geo = layout(size)
    assert point_x(6, size) > geo.bar_x1 > geo.bar_x0 > point_x(7, size)


@pytest.mark.parametrize("size", SIZES)
def test_places_are_vertical_mirrors(size: tuple[int, int]) -> None:
    geo = layout(size)
    for point in range(1, 25):
        for index in range(MAX_STACK):
            x, y = checker_center(point, index, size)
            mx, my = checker_center(25 - point, index, size)
            assert mx == pytest.approx(x)
            assert my == pytest.approx(geo.mirror_y(y))
        assert point_number_center(25 - point, size)[1] == pytest.approx(
            geo.mirror_y(point_number_center(point, size)[1])
        )
    for index in range(MAX_BAR_STACK):
        assert bar_center("top", index, size)[1] == pytest.approx(
            geo.mirror_y(bar_center("bottom", index, size)[1])
        )
    for index in range(CHECKERS):
        top, bottom = tray_slab_box("top", index, size), tray_slab_box("bottom", index, size)
        assert top[1] == pytest.approx(geo.mirror_y(bottom[3]), abs=1)
    cube_bottom = cube_center("bottom", size)[1]
    assert cube_center("top", size)[1] == pytest.approx(geo.mirror_y(cube_bottom))


@pytest.mark.parametrize("size", SIZES)
def test_stacks_fit_their_half_and_inside_the_image(size: tuple[int, int]) -> None:
    geo = layout(size)
    radius = geo.checker / 2
    for point in range(1, 25):
        for index in range(MAX_STACK):
            x, y = checker_center(point, index, size)
            assert geo.field_x0 <= x - radius and x + radius <= geo.field_x1
            assert geo.field_top <= y - radius and y + radius <= geo.field_bottom
            if point <= 12:
                assert y - radius >= geo.mid_y
            else:
                assert y + radius <= geo.mid_y
        left, right = point_x(point, size) - radius, point_x(point, size) + radius
        assert not (left < geo.bar_x1 and right > geo.bar_x0), "a checker overlaps the bar"
    bottom_end = tray_slab_box("bottom", CHECKERS - 1, size)
    top_end = tray_slab_box("top", CHECKERS - 1, size)
    assert top_end[3] < tray_count_center("top", CHECKERS, size)[1]
    assert (
        tray_count_center("top", CHECKERS, size)[1] < tray_count_center("bottom", CHECKERS, size)[1]
    )
    assert tray_count_center("bottom", CHECKERS, size)[1] < bottom_end[1]


def test_dice_sit_in_the_rollers_right_hand_quadrant() -> None:
    geo = layout(DEFAULT_SIZE)
    for x, _ in dice_centers("bottom", 4):
        assert geo.bar_x1 + geo.die / 2 <= x <= geo.field_x1 - geo.die / 2
    for x, _ in dice_centers("top", 2):
        assert geo.field_x0 + geo.die / 2 <= x <= geo.bar_x0 - geo.die / 2


def test_cube_column_is_left_of_the_board() -> None:
    geo = layout(DEFAULT_SIZE)
    wheres: tuple[Side | None, ...] = (None, "top", "bottom")
    for where in wheres:
        x, y = cube_center(where)
        assert x + geo.cube / 2 <= geo.board[0]
        assert geo.field_top <= y - geo.cube / 2 and y + geo.cube / 2 <= geo.field_bottom


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        checker_center(0, 0)
    with pytest.raises(ValueError):
        checker_center(25, 0)
    with pytest.raises(ValueError):
        checker_center(3, MAX_STACK)
    with pytest.raises(ValueError):
        layout((100, 100))
