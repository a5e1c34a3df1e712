"""ENGINE_WORKERS: a gnubg worker per core this process may use unless set, within 1-16."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.settings import MAX_ENGINE_WORKERS, Settings, SettingsError, usable_cores

NO_DOTENV = Path("/nonexistent/.env")


@pytest.fixture
def cores(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """A machine whose count the test sets (Python 3.13's process count taken out)."""
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    return monkeypatch


def test_the_default_is_the_cores_this_process_may_use(cores: pytest.MonkeyPatch) -> None:
    cores.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5}, raising=False)
    cores.setattr(os, "cpu_count", lambda: 64)  # the machine's: not all of them are ours
    assert usable_cores() == 3
    assert Settings().engine_workers == 3
    assert Settings.load({}, NO_DOTENV).engine_workers == 3


def test_python_313s_process_count_comes_first(cores: pytest.MonkeyPatch) -> None:
    cores.setattr(os, "process_cpu_count", lambda: 6, raising=False)
    cores.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert Settings.load({}, NO_DOTENV).engine_workers == 6


def test_without_affinity_the_cpu_count_and_at_least_one(cores: pytest.MonkeyPatch) -> None:
    cores.delattr(os, "sched_getaffinity", raising=False)
    cores.setattr(os, "cpu_count", lambda: 4)
    assert Settings.load({}, NO_DOTENV).engine_workers == 4
    cores.setattr(os, "cpu_count", lambda: None)  # the platform can't tell
    assert Settings.load({}, NO_DOTENV).engine_workers == 1


def test_a_large_machine_gets_the_most_that_may_be_set(cores: pytest.MonkeyPatch) -> None:
    cores.setattr(os, "sched_getaffinity", lambda pid: set(range(96)), raising=False)
    assert Settings.load({}, NO_DOTENV).engine_workers == MAX_ENGINE_WORKERS == 16


def test_the_setting_wins_over_the_cores(cores: pytest.MonkeyPatch) -> None:
    cores.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert Settings.load({"ENGINE_WORKERS": "1"}, NO_DOTENV).engine_workers == 1
    assert Settings.load({"ENGINE_WORKERS": "16"}, NO_DOTENV).engine_workers == 16
    assert Settings(engine_workers=3).engine_workers == 3


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("0", "ENGINE_WORKERS must be at least 1, not '0'"),
        ("17", "ENGINE_WORKERS must be at most 16, not '17'"),
        ("all", "ENGINE_WORKERS must be a whole number, not 'all'"),
    ],
)
def test_a_worker_count_out_of_range_is_refused(raw: str, said: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.load({"ENGINE_WORKERS": raw}, NO_DOTENV)
    assert str(refused.value) == said
