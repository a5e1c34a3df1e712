"""Legal plays, notation and IDs for known positions.

Boards are drawn from the side of X, the player on roll, whose home board is bottom right.
"""

from __future__ import annotations

import gc
import random

import pytest

from bot.rules import Position
from bot.rules.position import encode_position_id


def notations(position: Position, d1: int, d2: int) -> list[str]:
    return sorted(play.notation for play in position.legal_plays(d1, d2))


def test_initial_position_facts() -> None:
    start = Position.initial()
    assert start.position_id() == "4HPwATDgc/ABMA"
    assert start.pip_counts() == (167, 167)
    assert start.borne_off() == (0, 0)
    assert Position.from_position_id("4HPwATDgc/ABMA") == start
    assert not start.is_game_over()


def test_opening_65_has_seven_plays_as_gnubg_prints_them() -> None:
    assert notations(Position.initial(), 6, 5) == sorted(
        ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"]
    )


def test_opening_11_has_42_plays_and_66_has_11() -> None:
    start = Position.initial()
    assert len(start.legal_plays(1, 1)) == 42
    assert len(start.legal_plays(6, 6)) == 11
    assert "8/7(2) 6/5(2)" in notations(start, 1, 1)
    assert "24/18(2) 13/7(2)" in notations(start, 6, 6)


@pytest.mark.parametrize(
    ("roll", "count"),
    [
        ((2, 1), 15),
        ((3, 1), 16),
        ((4, 2), 18),
        ((6, 1), 10),
        ((5, 2), 8),
        ((3, 3), 73),
        ((2, 2), 75),
        ((4, 4), 52),
        ((5, 5), 4),
    ],
)
def test_opening_play_counts(roll: tuple[int, int], count: int) -> None:
    assert len(Position.initial().legal_plays(*roll)) == count


def test_dice_order_does_not_matter() -> None:
    start = Position.initial()
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert notations(start, d1, d2) == notations(start, d2, d1)


# X on the bar; O holds X's 20 and 19 (O's 5 and 6 points).
#  +13-14-15-16-17-18-------19-20-21-22-23-24-+
#  |                  |   | O  O              |
#  |                  |BAR|                   |   X: 1 on the bar
#  |                  |   |                X  |   (X's 6 point: 14)
#  +12-11-10--9--8--7--------6--5--4--3--2--1-+
ON_BAR = Position.from_points({25: 1, 6: 14}, {5: 2, 6: 13})


def test_bar_entry_with_one_die_closed() -> None:
    # The 5 can't enter (20 is closed), so the 3 enters and the 5 is played after.
    assert notations(ON_BAR, 5, 3) == ["bar/17", "bar/22 6/1"]


def test_both_entry_points_closed_is_no_legal_move() -> None:
    plays = ON_BAR.legal_plays(5, 6)
    assert len(plays) == 1
    assert plays[0].notation == "no legal move"
    assert plays[0].steps == ()
    assert ON_BAR.play(plays[0]) == ON_BAR.swapped()


# X has two on 24 and thirteen on the 1 point; O holds X's 18 and 19.
#  +13-14-15-16-17-18-------19-20-21-22-23-24-+
#  |                O |   | O              X  |
#  |                O |   | O              X  |
#  ...
#  +12-11-10--9--8--7--------6--5--4--3--2--1-+ (X: 13 on the 1 point)
PARTIAL = Position.from_points({24: 2, 1: 13}, {7: 2, 6: 13})


def test_partial_double_plays_as_many_as_possible() -> None:
    # Each back checker gets one 3 (24/21); 21/18 is closed and nothing else can move.
    plays = PARTIAL.legal_plays(3, 3)
    assert [play.notation for play in plays] == ["24/21(2)"]
    assert len(plays[0].steps) == 2


# X: one checker on 24, fourteen on the 1 point. O holds X's 13 (O's 12) and X's 23.
#  +13-14-15-16-17-18-------19-20-21-22-23-24-+
#  | O                |   |             O  X  |
#  | O                |   |             O     |
LARGER_DIE = Position.from_points({24: 1, 1: 14}, {12: 2, 2: 13})


def test_only_one_die_playable_means_the_larger() -> None:
    # 24/18 or 24/19 alone are possible, but the next die always lands on the closed 13.
    assert notations(LARGER_DIE, 6, 5) == ["24/18"]
    assert notations(LARGER_DIE, 5, 6) == ["24/18"]


def test_bearing_off_with_higher_numbers() -> None:
    # X: one on the 4 point, two on the 2 point; 6-6 takes all three off.
    bear = Position.from_points({4: 1, 2: 2}, {6: 15})
    assert notations(bear, 6, 6) == ["4/off 2/off(2)"]
    # X: one on 6 and one on 5. A 6 bears off the 6, or the 4 first makes the 5 the highest.
    two = Position.from_points({6: 1, 5: 1}, {6: 15})
    assert notations(two, 6, 4) == ["6/2 5/off", "6/off 5/1"]
    # X: one on 5, one on 2; with 6-1 the 6 must take the 5 off, never the 2.
    three = Position.from_points({5: 1, 2: 1}, {6: 15})
    assert notations(three, 6, 1) == ["5/off", "5/off 2/1"]


def test_bearing_off_becomes_legal_once_the_last_checker_is_home() -> None:
    # X: one on 7, five on 6. 7/6 brings the last checker home, then the 6 bears off.
    home_mid_turn = Position.from_points({7: 1, 6: 5}, {1: 15})
    assert notations(home_mid_turn, 6, 1) == ["7/1 6/5", "7/off"]
    # X: one on 8, four on 6. Whatever the 1 does, the 8 is still out: no bearing off.
    not_yet = Position.from_points({8: 1, 6: 4}, {1: 15})
    assert notations(not_yet, 6, 1) == ["8/1", "8/2 6/5"]
    assert all(step[1] != 0 for play in not_yet.legal_plays(6, 1) for step in play.steps)


def test_hits_are_starred_and_intermediate_hits_shown() -> None:
    # O has blots on X's 18 and 13 (O's 7 and 12).
    #  +13-14-15-16-17-18-------19-20-21-22-23-24-+
    #  | O              O |   | O              X |
    #  ...                                          X: 24 (2), 8 (8), 6 (5)
    pos = Position.from_points({24: 2, 8: 8, 6: 5}, {7: 1, 12: 1, 6: 5, 8: 5, 13: 3})
    found = notations(pos, 6, 5)
    assert "24/18*/13*" in found
    assert "24/18* 13/8" not in found
    assert "24/18* 8/3" in found
    play = next(p for p in pos.legal_plays(6, 5) if p.notation == "24/18*/13*")
    assert play.hits == (18, 13)
    after = pos.play(play)
    assert after.mover[24] == 2  # O, now on roll, has both hit checkers on the bar


def test_play_result_swaps_sides() -> None:
    start = Position.initial()
    play = start.parse_play("24/18 13/8", (6, 5))
    after = start.play(play)
    assert after.opponent == play.result.opponent
    assert after.mover == start.opponent
    assert after.pip_counts() == (167, 156)


def test_play_from_another_position_is_refused() -> None:
    play = Position.initial().legal_plays(6, 5)[0]
    with pytest.raises(ValueError, match="another position"):
        ON_BAR.play(play)


def test_plays_compare_by_position_and_result() -> None:
    start = Position.initial()
    assert start.parse_play("13/8 24/18", (6, 5)) == start.parse_play("24/18 13/8", (5, 6))
    assert len(set(start.legal_plays(1, 1))) == 42


def test_invalid_positions_are_refused() -> None:
    with pytest.raises(ValueError):
        Position((0,) * 24, (0,) * 25)
    with pytest.raises(ValueError):
        Position.from_points({6: 16}, {})
    with pytest.raises(ValueError, match="both players"):
        Position.from_points({6: 1}, {19: 1})
    with pytest.raises(ValueError):
        Position.initial().legal_plays(0, 7)


def test_ascii_board_shows_both_sides() -> None:
    text = str(Position.initial())
    assert "+13-14-15-16-17-18" in text
    assert text.count(" X ") == 15
    assert text.count(" O ") == 15
    assert "X: bar 0, off 0, pips 167" in text
    assert "Position ID: 4HPwATDgc/ABMA" in text
    stacked = str(Position.from_points({6: 9}, {6: 15}))
    assert " 9 " in stacked and "15 " in stacked


def test_positions_made_unchecked_equal_the_checked_ones() -> None:
    """A play's result and a swapped position skip the constructor's checks: each is the same
    value (equal, same hash, same ID) as the checked constructor makes, over seeded games."""
    rng = random.Random(32)
    for _ in range(20):
        position = Position.initial()
        while not position.is_game_over():
            play = rng.choice(position.legal_plays(rng.randint(1, 6), rng.randint(1, 6)))
            for made in (play.result, position.swapped()):
                checked = Position(made.mover, made.opponent)
                assert made == checked and hash(made) == hash(checked)
                assert made.position_id() == encode_position_id.__wrapped__(
                    made.opponent, made.mover
                )
            position = play.result


def test_legal_plays_leave_no_cyclic_garbage() -> None:
    """The search recurses through a closure: left holding itself, every roll's search (its
    lists, its cells) waited for the garbage collector instead of going at once."""
    position = Position.from_position_id("4HPwATDgc/ABMA")
    gc.disable()
    try:
        gc.collect()
        for d1, d2 in ((6, 5), (3, 3), (2, 1)):
            assert position.legal_plays(d1, d2)
        assert gc.collect() == 0
    finally:
        gc.enable()
