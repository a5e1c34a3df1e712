"""The three ways the service says a duration, pinned to their outputs: a setting (exact), a
countdown (terse, rounded down) and a wait (rounded up, so a user who waits that long is let in)."""

from __future__ import annotations

import pytest

from bot.i18n.core import ENGLISH, Language
from bot.service.records.durations import (
    clock_text,
    countdown,
    quantity,
    setting_duration,
    wait_duration,
)


@pytest.mark.parametrize(
    ("number", "unit", "text"),
    [
        (1, "minute", "1 minute"),
        (1.0, "hour", "1 hour"),
        (0, "second", "0 seconds"),
        (2, "minute", "2 minutes"),
        (1.5, "hour", "1.5 hours"),
        (1_666_667, "minute", "1666667 minutes"),
        (1e7, "hour", "1e+07 hours"),
    ],
)
def test_quantity_says_the_number_and_its_unit_plural_unless_one(
    number: float, unit: str, text: str
) -> None:
    assert quantity(number, unit, language="en") == text


@pytest.mark.parametrize(
    ("hours", "text"),
    [
        (0, "0 minutes"),
        (1 / 60, "1 minute"),
        (0.5 / 60, "0.5 minutes"),
        (2.5 / 60, "2.5 minutes"),
        (10 / 60, "10 minutes"),
        (0.25, "15 minutes"),
        (1 / 3, "20 minutes"),
        (0.5, "30 minutes"),
        (59 / 60, "59 minutes"),
        (1, "1 hour"),
        (1.0, "1 hour"),
        (1.5, "1.5 hours"),
        (2, "2 hours"),
        (24.0, "24 hours"),
        (48, "48 hours"),
        (100_000, "100000 hours"),
        (10**7, "1e+07 hours"),
    ],
)
def test_setting_duration_is_exact_in_minutes_below_an_hour_else_hours(
    hours: float, text: str
) -> None:
    assert setting_duration(hours, language="en") == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (-5, "1 min"),
        (0, "1 min"),
        (59.9, "1 min"),
        (60, "1 min"),
        (119, "1 min"),
        (120, "2 min"),
        (600, "10 min"),
        (3599, "59 min"),
        (3600, "1 h 00 min"),
        (3661, "1 h 01 min"),
        (5400, "1 h 30 min"),
        (86_400, "24 h 00 min"),
        (90_000.5, "25 h 00 min"),
        (360_000, "100 h 00 min"),
    ],
)
def test_countdown_rounds_down_to_whole_minutes_and_never_says_zero(
    seconds: float, text: str
) -> None:
    assert countdown(seconds, language=ENGLISH) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (-1, "1 second"),
        (0, "1 second"),
        (0.001, "1 second"),
        (1, "1 second"),
        (1.2, "2 seconds"),
        (59, "59 seconds"),
        (89, "89 seconds"),
        (89.5, "90 seconds"),
        (90, "2 minutes"),
        (120, "2 minutes"),
        (121, "3 minutes"),
        (600, "10 minutes"),
        (3600, "60 minutes"),
        (86_400, "1440 minutes"),
        (10**8, "1666667 minutes"),
    ],
)
def test_wait_duration_rounds_up_in_seconds_below_90_else_minutes(
    seconds: float, text: str
) -> None:
    assert wait_duration(seconds, language="en") == text


@pytest.mark.parametrize(
    ("language", "short", "long"),
    [
        ("en", "4 min", "1 h 05 min"),
        ("de", "4 Min.", "1 Std. 05 Min."),
        ("el", "4 λεπ.", "1 ώρ. 05 λεπ."),
        ("tr", "4 dk", "1 sa 05 dk"),
        ("it", "4 min", "1 h 05 min"),
        ("es", "4 min", "1 h 05 min"),
    ],
)
def test_a_countdown_is_terse_in_the_language_given(
    language: Language, short: str, long: str
) -> None:
    assert countdown(240, language=language) == short
    assert countdown(3900, language=language) == long


def test_a_clocks_time_is_terse_in_the_language_given() -> None:
    times = (90, 120, 3600, 90.5)
    assert [clock_text(s, language="en") for s in times] == ["90 s", "2 min", "1 h", "90.5 s"]
    assert [clock_text(s, language="de") for s in times] == ["90 s", "2 Min.", "1 Std.", "90,5 s"]
    assert [clock_text(s, language="tr") for s in times] == ["90 sn", "2 dk", "1 sa", "90,5 sn"]
