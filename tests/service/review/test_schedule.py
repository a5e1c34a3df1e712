"""The drills' schedule (SM-2 with right/wrong answers): intervals grow on right answers, a miss
resets to a day and lowers the ease, never below the minimum."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.service.review.schedule import (
    DAY,
    EASE_PENALTY,
    FIRST_DAYS,
    MIN_EASE,
    SECOND_DAYS,
    START_EASE,
    Schedule,
    answered,
    in_days,
)

answers = st.lists(st.booleans(), max_size=40)


def after(history: list[bool]) -> Schedule:
    state = Schedule()
    for right in history:
        state = answered(state, right)
    return state


def test_the_classic_sm2_steps() -> None:
    state = after([True, True, True])
    assert [after([True] * n).interval_days for n in (1, 2, 3)] == [1.0, 6.0, 15.0]
    assert state.ease == START_EASE and state.streak == 3 and state.reps == 3
    missed = answered(state, False)
    assert missed.interval_days == FIRST_DAYS and missed.streak == 0 and missed.lapses == 1
    assert missed.ease == START_EASE - EASE_PENALTY
    assert missed.due_after(100.0) == 100.0 + DAY
    assert in_days(1, language="en") == "tomorrow" and in_days(6, language="en") == "in 6 days"


@given(answers)
def test_right_answers_make_the_interval_grow(history: list[bool]) -> None:
    state = after(history)
    right = answered(state, True)
    assert right.interval_days > state.interval_days or (
        state.streak == 0 and right.interval_days == FIRST_DAYS
    )
    again = answered(right, True)
    assert again.interval_days > right.interval_days
    assert again.interval_days >= SECOND_DAYS
    assert right.ease == max(MIN_EASE, state.ease)


@given(answers)
def test_a_miss_resets_to_one_day_and_lowers_the_ease(history: list[bool]) -> None:
    state = after(history)
    missed = answered(state, False)
    assert missed.interval_days == FIRST_DAYS and missed.streak == 0
    assert missed.ease == max(MIN_EASE, state.ease - EASE_PENALTY)
    assert missed.ease <= state.ease
    assert missed.lapses == state.lapses + 1 and missed.reps == state.reps + 1


@given(answers)
def test_the_ease_never_falls_below_the_minimum(history: list[bool]) -> None:
    state = Schedule()
    for right in history:
        state = answered(state, right)
        assert MIN_EASE <= state.ease <= START_EASE
        assert state.interval_days >= FIRST_DAYS
    assert state.reps == len(history) and state.lapses == history.count(False)
