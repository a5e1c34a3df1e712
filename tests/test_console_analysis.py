"""The console and ``!analysis``: it waits for the outcome and prints it (progress lines first)."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest

from bot.console import SERVER, Console, console_user
from bot.i18n.core import Language
from bot.service.gnubg.analysis import LEASE_SECONDS
from bot.service.models import Place
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.service.driver import FakeClock, play_out, start_match
from tests.service.fake_analyst import FakeAnalyst

PLACE = Place(SERVER, "general")
USERS = (console_user("alice"), console_user("bob"))


async def console_after_a_match(
    tmp_path: Path,
    *,
    as_json: bool,
    images: Path | None = None,
    draw: bool = False,
    locale: Language | None = None,
) -> tuple[Console, io.StringIO, FakeAnalyst, Store]:
    """``draw``: the service draws pictures (the chart) even without an ``images`` folder."""
    store = await Store.open(tmp_path / "console.sqlite3")
    analyst = FakeAnalyst()
    service = TableService(
        store,
        settings=Settings(analysis_auto=False),
        dice=seeded_dice(3),
        clock=FakeClock(),
        images=draw or images is not None,
        engine=analyst,
    )
    out = io.StringIO()
    console = Console(service, out, images=images, as_json=as_json, locale=locale)
    await start_match(service, PLACE, *USERS, 1)
    await play_out(service, PLACE, USERS, 2)
    return console, out, analyst, store


async def test_text_mode_prints_progress_then_the_analysis(tmp_path: Path) -> None:
    console, out, analyst, store = await console_after_a_match(tmp_path, as_json=False)
    analyst.hold = asyncio.Event()
    handling = asyncio.create_task(console.handle("carol: !analysis"))
    await analyst.started.wait()
    assert not handling.done()  # the console waits for the outcome
    analyst.hold.set()
    await handling
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("[#general] bot: GNU Backgammon will analyse match #1")
    assert any(
        line.startswith("[#general] bot: (progress) GNU Backgammon is analysing") for line in lines
    )
    assert "[#general] bot: **Analysis of match #1 (alice vs bob)**" in out.getvalue()
    await console.handle("carol: !analyze 1")  # stored: at once, no progress
    assert out.getvalue().count("**Analysis of match #1") == 2
    await store.close()


async def test_the_progress_speaks_the_commands_language(tmp_path: Path) -> None:
    console, out, _, store = await console_after_a_match(tmp_path, as_json=False, locale="de")
    await console.handle("carol: !analysis")
    progress = [line for line in out.getvalue().splitlines() if "(progress)" in line]
    assert progress and all("GNU Backgammon analysiert Match #1" in line for line in progress)
    await store.close()


async def test_json_mode_gives_the_outcome_among_the_replies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "bot.service.gnubg.analysis.chart_png", lambda analysis, names, winner, language: b"\x89PNG"
    )
    folder = tmp_path / "out"
    console, out, _, store = await console_after_a_match(tmp_path, as_json=True, images=folder)
    await console.handle("carol: !analysis")
    [record] = [json.loads(line) for line in out.getvalue().splitlines()]
    progress, outcome = record["replies"]
    assert "will analyse match #1" in progress["text"]
    assert outcome["text"].startswith("**Analysis of match #1")
    assert outcome["file"].endswith("analysis-1.png")
    assert Path(outcome["file"]).read_bytes() == b"\x89PNG"
    await store.close()


async def test_a_chart_without_images_is_named_not_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "bot.service.gnubg.analysis.chart_png",
        lambda analysis, names, winner, language: b"\x89PNG\x00",
    )
    console, out, _, store = await console_after_a_match(tmp_path, as_json=False, draw=True)
    await console.handle("carol: !analysis")
    assert "(analysis-1.png: 5 bytes; --images DIR saves it)" in out.getvalue()
    await store.close()


async def test_a_job_whose_runner_died_is_taken_over_while_the_console_follows_it(
    tmp_path: Path,
) -> None:
    """A console killed (kill -9) while it ran an analysis leaves the job leased to it. Another
    console asked for that analysis follows the job and looks at the queue every deadline poll
    meanwhile: once the lease lapses it takes the job and prints the analysis (it used to wait
    for ever: nothing ticked while it followed)."""
    clock = FakeClock()
    store = await Store.open(tmp_path / "console.sqlite3")
    service = TableService(
        store,
        settings=Settings(analysis_auto=False, deadline_poll_seconds=0.1),
        dice=seeded_dice(3),
        clock=clock,
        images=False,
        engine=FakeAnalyst(),
    )
    out = io.StringIO()
    console = Console(service, out, images=None, as_json=False)
    try:
        await start_match(service, PLACE, *USERS, 1)
        await play_out(service, PLACE, USERS, 2)
        async with store.transaction() as tx:
            await tx.analyses.queue(1, 2, clock(), asked_by=None)
        async with store.transaction() as tx:
            assert await tx.analyses.claim("the-killed-console", clock(), LEASE_SECONDS) is not None

        handling = asyncio.create_task(console.handle("carol: !analysis 1"))
        await asyncio.sleep(0.5)  # a few polls: the lease still holds
        assert not handling.done()
        assert "**Analysis of match #1" not in out.getvalue()
        clock.advance(LEASE_SECONDS + 1)
        await asyncio.wait_for(handling, 5)
        assert "[#general] bot: **Analysis of match #1 (alice vs bob)**" in out.getvalue()
        stored = await store.analyses.get(1)
        assert stored is not None and stored.status == "done"
    finally:
        service.close()
        await store.close()
