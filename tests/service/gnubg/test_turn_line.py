"""TurnLine: the places whose bot turn is under way, in the order they came, and the watches
that wake a queued turn's follower when its place has come."""

from __future__ import annotations

import asyncio

from bot.service.gnubg.turn_line import TurnLine, next_shown
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


def test_a_queued_turns_place_is_shown_at_each_step_near_the_front_else_at_halves() -> None:
    assert [next_shown(shown) for shown in (0, 1, 5)] == [0, 1, 5]  # each step from 5 ahead
    assert [next_shown(shown) for shown in (6, 11, 12, 40)] == [6, 6, 7, 21]


async def test_a_watch_is_set_once_its_place_has_come_or_left_the_line() -> None:
    line = TurnLine()
    places = [Place("guild", str(n)) for n in range(9)]
    for place in places:
        line.join(place)
    last, near = asyncio.Event(), asyncio.Event()
    line.watch(places[8], 5, last)  # 8 ahead: set once 4 are
    line.watch(places[2], 2, near)
    for gone in range(3):
        assert not last.is_set()
        line.leave(places[gone])
    assert near.is_set() and not last.is_set()  # (places[2] at the front: left its watch)
    line.leave(places[3])
    assert last.is_set() and line.ahead(places[8]) == 4


async def test_a_watch_on_a_place_out_of_line_waits_for_it_to_leave_again() -> None:
    """A place not in line (its turn's flow let go, its replies still being made) is not set
    at once: its follower would look again and again without the loop running."""
    line = TurnLine()
    line.join(A)
    wake = asyncio.Event()
    line.watch(B, 1, wake)
    line.leave(A)
    assert not wake.is_set()
    line.join(B)
    line.leave(B)
    assert wake.is_set()
    unwatched = asyncio.Event()
    line.join(C)
    line.watch(C, 5, unwatched)  # already fewer than 5 ahead
    assert unwatched.is_set()
    kept = asyncio.Event()
    line.join(A)
    line.watch(A, 1, kept)
    line.unwatch(kept)
    line.leave(C)
    assert not kept.is_set()
