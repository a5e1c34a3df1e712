"""The Discord bot's background task posts what fell due: a reminder pings the player to act in
the match's channel, a flag ends a clocked match there; other processes' servers are left."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord.ext.test as dpytest
import pytest

from bot.discord_bot import BackgammonBot, bot_intents
from bot.service.models import Place, User
from bot.service.table import TableService
from bot.settings import Settings
from tests.service.driver import FakeClock


@pytest.fixture
async def bot(
    service: TableService, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[BackgammonBot]:
    monkeypatch.chdir(tmp_path)
    intents = bot_intents()
    intents.members = True
    bot = BackgammonBot(service, settings, intents=intents)
    await bot._async_setup_hook()
    dpytest.configure(bot, members=["alice", "bob"])
    await bot.setup_hook()
    yield bot
    await dpytest.empty_queue()
    await bot.stop_deadlines()


def here() -> Place:
    channel = dpytest.get_config().channels[0]
    return Place(str(channel.guild.id), str(channel.id))


async def test_a_reminder_is_posted_with_a_ping(
    bot: BackgammonBot, service: TableService, clock: FakeClock
) -> None:
    alice, bob = dpytest.get_config().members
    await dpytest.message(f"!challenge <@{bob.id}> 3", member=alice)
    await dpytest.message("!accept", member=bob)
    await dpytest.empty_queue()
    assert await bot.post_due() == 0
    clock.advance(service.settings.reminder_hours * 3600 + 1)
    assert await bot.post_due() == 1
    message = dpytest.get_message()
    table = await service.table(here())
    assert table is not None and table.match.turn is not None
    waiting = table.row.player_ids[table.match.turn]
    assert message.content.startswith(f"<@{waiting}> Reminder: ")
    assert await bot.post_due() == 0  # once per turn


async def test_a_flag_is_posted_and_other_servers_are_left(
    bot: BackgammonBot, service: TableService, clock: FakeClock
) -> None:
    alice, bob = dpytest.get_config().members
    await dpytest.message(f"!challenge <@{bob.id}> 1 clock 30s", member=alice)
    await dpytest.message("!accept", member=bob)
    await dpytest.empty_queue()
    elsewhere = Place("123456789", "987654321")  # a server this process does not serve
    await service.challenge(elsewhere, User("1", "a"), User("2", "b"), "1 clock 30s")
    await service.accept(elsewhere, User("2", "b"))
    clock.advance(service.settings.clock_delay_seconds + 30 + 1)
    assert await bot.post_due() == 1
    assert "ran out of time on the clock" in dpytest.get_message().content
    assert await service.table(here()) is None
    assert await service.table(elsewhere) is not None  # its own process flags it


async def test_the_task_runs_after_setup_and_stops_on_close(bot: BackgammonBot) -> None:
    task = bot._deadlines
    assert task is not None and not task.done()
    await bot.stop_deadlines()  # what close() does first
    assert task.done() and bot._deadlines is None


async def test_a_channel_out_of_the_cache_is_fetched_to_post_there(
    bot: BackgammonBot, service: TableService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A thread archived after a week of quiet is not in discord.py's cache: the reminder
    still goes out, through the API."""
    alice, bob = dpytest.get_config().members
    await dpytest.message(f"!challenge <@{bob.id}> 3", member=alice)
    await dpytest.message("!accept", member=bob)
    await dpytest.empty_queue()
    channel = dpytest.get_config().channels[0]
    fetched: list[int] = []

    async def fetch_channel(channel_id: int) -> object:
        fetched.append(channel_id)
        return channel

    monkeypatch.setattr(bot, "_channel_of", lambda place: None)
    monkeypatch.setattr(bot, "fetch_channel", fetch_channel)
    clock.advance(service.settings.reminder_hours * 3600 + 1)
    assert await bot.post_due() == 1
    assert fetched == [channel.id]
    assert "Reminder: " in dpytest.get_message().content
