"""The Discord bot's background task posts what fell due: a reminder pings the player to act in
the match's channel, a flag ends a clocked match there; other processes' servers are left.

Through :mod:`tests.cogs.wire`: a real bot, its posts coming back as REST calls."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.service.models import Place, User
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, GET_CHANNEL, GUILD_ID, Person, Wire, start
from tests.service.driver import FakeClock

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
HERE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE, BOB)
    yield wire
    await wire.close()


async def started(wire: Wire, terms: str) -> None:
    await wire.type(ALICE, f"!challenge <@{BOB.id}> {terms}")
    await wire.type(BOB, "!accept")


async def test_a_reminder_is_posted_with_a_ping(
    wire: Wire, service: TableService, clock: FakeClock
) -> None:
    bot = wire.bot
    await started(wire, "3")
    assert await bot.post_due() == 0
    clock.advance(service.settings.reminder_hours * 3600 + 1)
    [message] = await wire.run(bot.post_due())
    assert message.channel_id == CHANNEL_ID
    table = await service.table(HERE)
    assert table is not None and table.match.turn is not None
    waiting = table.row.player_ids[table.match.turn]
    assert message.content.startswith(f"<@{waiting}> Reminder: ")
    assert message.request["allowed_mentions"]["users"] == [int(waiting)]  # the ping is allowed
    assert await wire.run(bot.post_due()) == []  # once per turn


async def test_a_flag_is_posted_and_other_servers_are_left(
    wire: Wire, service: TableService, clock: FakeClock
) -> None:
    bot = wire.bot
    await started(wire, "1 clock 30s")
    elsewhere = Place("123456789", "987654321")  # a server this process does not serve
    await service.matches.challenge(elsewhere, User("1", "a"), User("2", "b"), "1 clock 30s")
    await service.matches.accept(elsewhere, User("2", "b"))
    clock.advance(service.settings.clock_delay_seconds + 30 + 1)
    sent = await wire.run(bot.post_due())
    assert len(sent) == 1
    assert "ran out of time on the clock" in sent[0].content
    assert await service.table(HERE) is None
    assert await service.table(elsewhere) is not None  # its own process flags it


async def test_the_task_runs_after_setup_and_stops_on_close(wire: Wire) -> None:
    bot = wire.bot
    task = bot._deadlines
    assert task is not None and not task.done()
    await bot.stop_deadlines()  # what close() does first
    assert task.done() and bot._deadlines is None


async def test_a_channel_out_of_the_cache_is_fetched_to_post_there(
    wire: Wire, service: TableService, clock: FakeClock
) -> None:
    """A thread archived after a week of quiet is not in discord.py's cache: the reminder
    still goes out, through the API."""
    await started(wire, "3")
    wire.forget_channel(CHANNEL_ID)
    assert wire.bot.get_channel(CHANNEL_ID) is None
    clock.advance(service.settings.reminder_hours * 3600 + 1)
    [message] = await wire.run(wire.bot.post_due())
    assert [call.ids for call in wire.calls_of(GET_CHANNEL)] == [{"channel_id": CHANNEL_ID}]
    assert message.channel_id == CHANNEL_ID
    assert "Reminder: " in message.content
