"""End-to-end tests run the real ``python -m bot`` process: each is marked ``slow``. When one
fails, its report carries the bot's log (stdout and stderr)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Generator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess

HERE = Path(__file__).parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py colours its log inside Docker
LOG_LINES = 150


@pytest_asyncio.fixture(loop_scope="module")
async def own_fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord of the test's own, on its module's event loop."""
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.close()


@pytest.fixture
def fake(own_fake: FakeDiscord) -> FakeDiscord:
    """The fake Discord the bot talks to: the test's own, unless its module shares one."""
    return own_fake


@pytest_asyncio.fixture(loop_scope="module")
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The real bot on a SQLite file, GNU Backgammon analysing each finished match by itself at
    0-ply in one worker (the review's and drills' tests; other modules start their own)."""
    process = BotProcess(
        fake,
        tmp_path,
        tmp_path / "backgammon.sqlite3",
        {"ANALYSIS_AUTO": "1", "ANALYSIS_PLIES": "0", "ENGINE_WORKERS": "1"},
    )
    try:
        yield process
    finally:
        await process.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, None]:
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    for name, value in getattr(item, "funcargs", {}).items():
        if isinstance(value, BotProcess):
            lines = ANSI.sub("", value.output()).splitlines()[-LOG_LINES:]
            report.sections.append((f"bot log ({name}, {value.log})", "\n".join(lines)))
