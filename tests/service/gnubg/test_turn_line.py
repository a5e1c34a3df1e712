"""TurnLine: the places whose bot turn is under way, in the order they came."""

from __future__ import annotations

from bot.service.gnubg.turn_line import TurnLine
from bot.service.models import Place

A, B, C = (Place("guild", name) for name in "abc")


def test_each_place_counts_those_that_came_before_it() -> None:
    line = TurnLine()
    for place in (A, B, C):
        line.join(place)
    assert [line.ahead(place) for place in (A, B, C)] == [0, 1, 2]
    assert len(line) == 3 and B in line


def test_a_place_leaving_moves_those_behind_it_up() -> None:
    line = TurnLine()
    for place in (A, B, C):
        line.join(place)
    assert line.ahead(C) == 2
    line.leave(A)
    assert (line.ahead(B), line.ahead(C), len(line)) == (0, 1, 2)
    assert A not in line and line.ahead(A) == 0  # not in line: nobody ahead of it


def test_joining_again_keeps_the_place_and_leaving_twice_is_harmless() -> None:
    line = TurnLine()
    line.join(A)
    line.join(B)
    line.join(A)
    assert (line.ahead(A), line.ahead(B)) == (0, 1)
    line.leave(B)
    line.leave(B)
    line.join(B)
    line.join(C)
    assert [line.ahead(place) for place in (A, B, C)] == [0, 1, 2]
