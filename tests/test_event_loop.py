"""The event loop the bot, its console and the tests run on (:mod:`bot.event_loop`)."""

from __future__ import annotations

import asyncio

import pytest

from bot import console, event_loop

uvloop = pytest.importorskip("uvloop", reason="uvloop is not installed here (Windows)")


async def running_loop() -> type[asyncio.AbstractEventLoop]:
    return type(asyncio.get_running_loop())


def test_the_bot_runs_on_uvloop_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(event_loop.CHOICE_VARIABLE, raising=False)
    assert event_loop.loop_name() == "uvloop"
    assert event_loop.run(running_loop()) is uvloop.Loop


@pytest.mark.parametrize("asked", ["asyncio", " AsyncIO "])
def test_asyncio_s_own_loop_when_the_variable_asks_for_it(
    monkeypatch: pytest.MonkeyPatch, asked: str
) -> None:
    monkeypatch.setenv(event_loop.CHOICE_VARIABLE, asked)
    assert event_loop.loop_name() == "asyncio"
    assert event_loop.run(running_loop()) is not uvloop.Loop


async def test_the_tests_run_on_the_bots_loop() -> None:
    on_uvloop = isinstance(asyncio.get_running_loop(), uvloop.Loop)
    assert on_uvloop == (event_loop.loop_name() == "uvloop")


def test_the_console_runs_on_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(event_loop.CHOICE_VARIABLE, raising=False)
    seen: list[type[asyncio.AbstractEventLoop]] = []

    async def shown(*args: object) -> int:
        seen.append(await running_loop())
        return 0

    monkeypatch.setattr(console, "run_console", shown)
    assert console.main([]) == 0
    assert seen == [uvloop.Loop]
