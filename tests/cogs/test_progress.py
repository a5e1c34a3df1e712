"""Progress messages in Discord: a job's message edited in place, at most one edit per interval,
the outcome at once with its chart; and ``!analysis`` end to end. The messages are the bot's
own, sent and edited through :mod:`tests.cogs.wire`."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from bot.cogs.progress import LiveProgress
from bot.i18n.posting import NO_ATTACH_CHART
from bot.service.commands.limits import Limiter
from bot.service.models import AnalysisQueued, Attachment, Job, Place, Reply, User
from bot.service.table import TableService, seeded_dice
from bot.settings import Settings
from bot.store import Store
from tests.cogs.wire import CHANNEL_ID, EDIT, GUILD_ID, SEED, Person, Wire, start
from tests.service.driver import FakeClock, play_out, start_match
from tests.service.fake_analyst import FakeAnalyst

JOB = AnalysisQueued(7, "en")
ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


class ScriptedService:
    """``follow`` yields the updates the test puts in its queue, until a final one."""

    def __init__(self) -> None:
        self.updates: asyncio.Queue[Reply] = asyncio.Queue()

    async def follow(self, job: Job) -> AsyncIterator[Reply]:
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


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings)
    yield wire
    await wire.close()


def edits(wire: Wire, message_id: int) -> list[dict[str, Any]]:
    """The edits of a message Discord made (not those it refused), with the files of each."""
    return [
        call.json | {"files": call.blobs}
        for call in wire.calls_of(EDIT)
        if call.ids["message_id"] == message_id and call.status == 200
    ]


async def test_edits_are_throttled_and_the_outcome_comes_at_once(wire: Wire) -> None:
    service = ScriptedService()
    clock = FakeClock(100.0)
    sleeper = Sleeper(clock)
    live = LiveProgress(cast(TableService, service), every=2.0, sleep=sleeper, clock=clock)
    message = await wire.post("queued")
    live.follow([(progress("queued"), message)])
    await service.updates.put(progress("queued"))  # what was sent: no edit
    await service.updates.put(progress("game 1 of 5 done"))
    await settle()
    assert edits(wire, message.id) == [] and sleeper.asked == [2.0]  # just sent: wait first
    for done in (2, 3, 4):  # arrive while the edit waits: only the newest is shown
        await service.updates.put(progress(f"game {done} of 5 done"))
    await settle()
    sleeper.release.set()
    await settle()
    assert [edit["content"] for edit in edits(wire, message.id)] == ["game 4 of 5 done"]
    clock.advance(0.5)
    await service.updates.put(progress("game 5 of 5 done"))
    await settle()
    assert sleeper.asked == [2.0, 1.5]  # 2 s after the last edit
    chart = Attachment("analysis-7.png", b"\x89PNG chart")
    await service.updates.put(Reply("**Analysis of match #7**", file=chart))
    await settle()
    sleeper.release.set()
    await live.wait()
    final = edits(wire, message.id)[-1]
    assert final["content"] == "**Analysis of match #7**"
    assert final["files"] == [("analysis-7.png", b"\x89PNG chart")]
    assert len(edits(wire, message.id)) == 2
    shown = wire.messages[message.id]  # as Discord keeps it now
    assert shown.content == "**Analysis of match #7**"
    assert shown.blobs == {"analysis-7.png": b"\x89PNG chart"}


async def test_without_attach_files_the_outcome_goes_as_text(wire: Wire) -> None:
    service = ScriptedService()
    live = LiveProgress(cast(TableService, service))
    message = await wire.post("queued")
    wire.refuse(EDIT, 403, files_only=True)  # no Attach Files: an upload is refused
    live.follow([(progress("queued"), message)])
    chart = Attachment("analysis-7.png", b"\x89PNG")
    await service.updates.put(Reply("The analysis", file=chart))
    await live.wait()
    [refused] = [call for call in wire.calls_of(EDIT) if call.status == 403]
    assert refused.blobs == [("analysis-7.png", b"\x89PNG")]
    [edit] = edits(wire, message.id)
    assert edit["content"] == f"The analysis\n{NO_ATTACH_CHART('en')}" and edit["files"] == []


async def test_private_and_unsent_replies_are_not_followed(wire: Wire) -> None:
    live = LiveProgress(cast(TableService, ScriptedService()))
    live.follow(
        [
            (Reply("x", job=JOB, private=True), await wire.post("x")),
            (progress("y"), None),
            (Reply("z"), await wire.post("z")),
        ]
    )
    await live.wait()
    assert wire.calls_of(EDIT) == []


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
async def analysis_wire(analysing_service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)
    wire = await start(analysing_service, settings, ALICE, BOB, CAROL, limiter=limiter)
    yield wire
    await wire.close()


@pytest.mark.slow
async def test_analysis_through_a_prefix_command(
    analysis_wire: Wire, analysing_service: TableService, analyst: FakeAnalyst
) -> None:
    wire = analysis_wire
    users = (User(str(ALICE.id), "alice"), User(str(BOB.id), "bob"))
    await start_match(analysing_service, PLACE, *users, 1)
    await play_out(analysing_service, PLACE, users, 5)
    table = await analysing_service.latest_table(PLACE)
    assert table is not None

    analyst.hold = asyncio.Event()
    [message] = await wire.type(CAROL, "!analyse", settle=False)  # the job goes on
    assert f"analyse match #{table.row.id}" in message.content
    analyst.hold.set()
    await wire.run(wire.bot.live.progress.wait())
    edited = wire.messages[message.id]  # as Discord shows it now
    assert edited.content.startswith(f"**Analysis of match #{table.row.id}")
    assert len(analyst.calls) == 1

    # stored: the result at once
    [result] = await wire.type(ALICE, f"!analyze {table.row.id}")
    assert result.content.startswith("**Analysis of match")
    assert len(analyst.calls) == 1
