"""Progress messages in Discord: a job's message edited in place, at most one edit per interval,
the outcome at once with its chart; and ``!analysis`` end to end through dpytest."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import discord.ext.test as dpytest
import pytest

from bot.cogs.progress import NO_ATTACH, LiveProgress
from bot.discord_bot import BackgammonBot, bot_intents
from bot.service.commands.limits import Limiter
from bot.service.models import Attachment, Place, Reply
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.fakes import SEED, FakeMessage, file_bytes
from tests.service.driver import FakeClock, play_out, start_match
from tests.service.fake_analyst import FakeAnalyst

JOB = "analysis:7"


class ScriptedService:
    """``follow`` yields the updates the test puts in its queue, until a final one."""

    def __init__(self) -> None:
        self.updates: asyncio.Queue[Reply] = asyncio.Queue()

    async def follow(self, job: str) -> AsyncIterator[Reply]:
        assert job == JOB
        while True:
            update = await self.updates.get()
            yield update
            if update.job is None:
                return


class Sleeper:
    """A ``sleep`` the test lets go of: each call waits until released, then moves the clock
    on by the time asked."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.asked: list[float] = []
        self.release = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await self.release.wait()
        self.release.clear()
        self.clock.advance(seconds)


def progress(text: str) -> Reply:
    return Reply(text, job=JOB)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_edits_are_throttled_and_the_outcome_comes_at_once() -> None:
    service = ScriptedService()
    clock = FakeClock(100.0)
    sleeper = Sleeper(clock)
    live = LiveProgress(cast(TableService, service), every=2.0, sleep=sleeper, clock=clock)
    message = FakeMessage()
    live.follow([(progress("queued"), cast(discord.Message, message))])
    await service.updates.put(progress("queued"))  # what was sent: no edit
    await service.updates.put(progress("game 1 of 5 done"))
    await settle()
    assert message.edits == [] and sleeper.asked == [2.0]  # just sent: wait before editing
    for done in (2, 3, 4):  # arrive while the edit waits: only the newest is shown
        await service.updates.put(progress(f"game {done} of 5 done"))
    await settle()
    sleeper.release.set()
    await settle()
    assert [edit["content"] for edit in message.edits] == ["game 4 of 5 done"]
    clock.advance(0.5)
    await service.updates.put(progress("game 5 of 5 done"))
    await settle()
    assert sleeper.asked == [2.0, 1.5]  # 2 s after the last edit
    chart = Attachment("analysis-7.png", b"\x89PNG chart")
    await service.updates.put(Reply("**Analysis of match #7**", file=chart))
    await settle()
    sleeper.release.set()
    await live.wait()
    final = message.edits[-1]
    assert final["content"] == "**Analysis of match #7**"
    [attached] = final["attachments"]
    assert attached.filename == "analysis-7.png" and file_bytes(attached) == b"\x89PNG chart"
    assert len(message.edits) == 2


class NoFiles(FakeMessage):
    async def edit(self, **kwargs: Any) -> FakeMessage:
        if "attachments" in kwargs:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "no files")
        return await super().edit(**kwargs)


async def test_without_attach_files_the_outcome_goes_as_text() -> None:
    service = ScriptedService()
    live = LiveProgress(cast(TableService, service))
    message = NoFiles()
    live.follow([(progress("queued"), cast(discord.Message, message))])
    chart = Attachment("analysis-7.png", b"\x89PNG")
    await service.updates.put(Reply("The analysis", file=chart))
    await live.wait()
    assert message.edits == [{"content": f"The analysis\n{NO_ATTACH}"}]


async def test_private_and_unsent_replies_are_not_followed() -> None:
    live = LiveProgress(cast(TableService, ScriptedService()))
    live.follow(
        [
            (Reply("x", job=JOB, private=True), cast(discord.Message, FakeMessage())),
            (progress("y"), None),
            (Reply("z"), cast(discord.Message, FakeMessage())),
        ]
    )
    await live.wait()


# -- end to end ---------------------------------------------------------------------------------


@pytest.fixture
def analyst() -> FakeAnalyst:
    return FakeAnalyst()


@pytest.fixture
async def analysing_service(
    store: Store, settings: Settings, clock: FakeClock, analyst: FakeAnalyst
) -> AsyncIterator[TableService]:
    quiet = Settings(database=settings.database, analysis_auto=False)
    service = TableService(
        store, settings=quiet, dice=seeded_dice(SEED), clock=clock, engine=analyst, images=False
    )
    yield service
    await service.analyses.stop()
    service.close()


@pytest.fixture
async def bot(
    analysing_service: TableService,
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[BackgammonBot]:
    monkeypatch.chdir(tmp_path)
    intents = bot_intents()
    intents.members = True
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)
    bot = BackgammonBot(analysing_service, settings, intents=intents, limiter=limiter)
    await bot._async_setup_hook()
    dpytest.configure(bot, members=["alice", "bob", "carol"])
    await bot.setup_hook()
    yield bot
    await dpytest.empty_queue()


@pytest.mark.slow
async def test_analysis_through_a_prefix_command(
    bot: BackgammonBot, analysing_service: TableService, analyst: FakeAnalyst
) -> None:
    channel = dpytest.get_config().channels[0]
    place = Place(str(channel.guild.id), str(channel.id))
    alice, bob, carol = dpytest.get_config().members
    from bot.service.models import User

    users = (User(str(alice.id), "alice"), User(str(bob.id), "bob"))
    await start_match(analysing_service, place, *users, 1)
    await play_out(analysing_service, place, users, 5)
    table = await analysing_service.latest_table(place)
    assert table is not None

    analyst.hold = asyncio.Event()
    await dpytest.message("!analyse", member=carol)
    message = dpytest.get_message()
    assert f"analyse match #{table.row.id}" in str(message.content)
    analyst.hold.set()
    await bot.live.progress.wait()
    edited = await channel.fetch_message(message.id)
    assert str(edited.content).startswith(f"**Analysis of match #{table.row.id}")
    assert len(analyst.calls) == 1

    await dpytest.message(f"!analyze {table.row.id}", member=alice)  # stored: the result at once
    assert str(dpytest.get_message().content).startswith("**Analysis of match")
    assert len(analyst.calls) == 1
