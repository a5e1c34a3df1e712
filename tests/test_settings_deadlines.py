"""The settings that size deadlines: how often they are looked at, and the reminder's floor."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError

NO_DOTENV = Path("/nonexistent/.env")


def test_deadlines_are_looked_at_every_five_seconds_unless_told() -> None:
    assert Settings.load({}, NO_DOTENV).deadline_poll_seconds == 5.0
    told = Settings.load({"DEADLINE_POLL_SECONDS": "0.5"}, NO_DOTENV)
    assert told.deadline_poll_seconds == 0.5


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("0", "DEADLINE_POLL_SECONDS must be at least 0.1, not '0'"),
        ("120", "DEADLINE_POLL_SECONDS must be at most 60, not '120'"),
        ("soon", "DEADLINE_POLL_SECONDS must be a number, not 'soon'"),
    ],
)
def test_a_poll_interval_out_of_range_is_refused(raw: str, said: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.load({"DEADLINE_POLL_SECONDS": raw}, NO_DOTENV)
    assert str(refused.value) == said


def test_a_reminder_may_come_after_seconds_for_tests_but_not_at_once() -> None:
    assert Settings.load({"REMINDER_HOURS": "0.001"}, NO_DOTENV).reminder_hours == 0.001
    with pytest.raises(SettingsError, match=r"REMINDER_HOURS must be at least 0\.001"):
        Settings.load({"REMINDER_HOURS": "0"}, NO_DOTENV)
