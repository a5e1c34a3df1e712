"""A whole match through prefix commands, as Discord delivers them (dpytest).

dpytest keeps no text of a message with a file, so board messages are checked by their PNG
attachment and the game by the store.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import discord.ext.test as dpytest
import pytest
from discord.ext import commands

from bot.discord_bot import BackgammonBot, bot_intents
from bot.service.commands.limits import Limiter
from bot.service.models import Decision, Place
from bot.service.records.names import markdown_safe
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.fakes import PNG


@pytest.fixture
async def bot(
    service: TableService, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[BackgammonBot]:
    monkeypatch.chdir(tmp_path)  # dpytest writes each sent file into the working directory
    intents = bot_intents()
    intents.members = True  # dpytest's fake guild keeps its members only in a member cache
    # Each command a second after the last: people's pace, however fast the test runs.
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)
    bot = BackgammonBot(service, settings, intents=intents, limiter=limiter)
    await bot._async_setup_hook()
    dpytest.configure(bot, members=["alice", "bob", "carol"])
    await bot.setup_hook()
    yield bot
    await dpytest.empty_queue()


def table_place() -> Place:
    channel = dpytest.get_config().channels[0]
    return Place(str(channel.guild.id), str(channel.id))


async def next_png(*, text: bool = False) -> discord.Message:
    message = dpytest.get_message()
    assert [a.filename for a in message.attachments] == ["board.png"]
    assert (await message.attachments[0].read()).startswith(PNG)
    assert dpytest.sent_queue.empty(), "one message per action"
    return message


def next_text() -> str:
    message = dpytest.get_message()
    assert dpytest.sent_queue.empty(), "one message per action"
    assert message.content is not None
    assert len(message.content) <= 2000
    return message.content


async def test_a_whole_match_with_prefix_commands(
    bot: BackgammonBot, service: TableService
) -> None:
    alice, bob, carol = dpytest.get_config().members
    place = table_place()

    await dpytest.message(f"!challenge <@{bob.id}> 1", member=alice)
    text = next_text()
    assert text.startswith(f"<@{bob.id}> ")  # only the challenged player is pinged
    assert "challenges" in text
    pending = await service.pending_decision(place)
    assert pending is not None
    assert pending[:3] == (Decision.CHALLENGE, str(bob.id), markdown_safe(bob.nick))

    await dpytest.message("!accept", member=bob)
    await next_png()

    await dpytest.message("!roll", member=carol)  # a spectator: a short plain reply
    assert "you can watch" in next_text()

    members = {str(member.id): member for member in (alice, bob)}
    steps = 0
    while (table := await service.table(place)) is not None:
        match = table.match
        assert match.turn is not None
        member = members[table.row.player_ids[match.turn]]
        if match.phase == "move":
            await dpytest.message(f"!move {match.legal_plays()[0].notation}", member=member)
        else:
            assert match.phase == "roll"
            await dpytest.message("!roll", member=member)
        await next_png()
        steps += 1
        assert steps < 200

    finished = await service.latest_table(place)
    assert finished is not None
    assert finished.row.status == "finished"
    assert finished.match.winner is not None
    rematch = await service.pending_decision(place)  # only the rematch is asked now
    assert rematch is not None and rematch.decision is Decision.REMATCH

    await dpytest.message("!leaderboard", member=carol)
    board = next_text()
    assert "Leaderboard" in board
    assert markdown_safe(alice.display_name) in board and markdown_safe(bob.display_name) in board

    await dpytest.message("!export", member=carol)
    export = dpytest.get_message()
    assert export.attachments[0].filename.endswith(".mat")
    assert b"Game 1" in await export.attachments[0].read()


async def test_a_mention_is_a_prefix_too(bot: BackgammonBot) -> None:
    await dpytest.message(f"<@{bot.user.id}> help move", member=0)  # type: ignore[union-attr]
    assert "move <play>" in next_text()


async def test_a_missing_argument_gets_the_usage(bot: BackgammonBot) -> None:
    with pytest.raises(commands.MissingRequiredArgument):  # dpytest re-raises command errors
        await dpytest.message("!move", member=0)
    assert next_text() == "Missing `play`. Usage: `!move <play>`"


async def test_an_unknown_member_gets_a_hint(bot: BackgammonBot) -> None:
    with pytest.raises(commands.MemberNotFound):
        await dpytest.message("!challenge nobody", member=0)
    assert "can't find the member 'nobody'" in next_text()


async def test_an_unexpected_error_gets_an_id_and_a_traceback(
    bot: BackgammonBot,
    service: TableService,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service, "pips", broken)
    with caplog.at_level(logging.ERROR), pytest.raises(commands.CommandInvokeError):
        await dpytest.message("!pips", member=0)
    text = next_text()
    assert text.startswith("Sorry, something went wrong (error ")
    error_id = text.removeprefix("Sorry, something went wrong (error ").removesuffix(").")
    record = next(r for r in caplog.records if error_id in r.getMessage())
    assert record.exc_info is not None and "disk on fire" in str(record.exc_info[1])


async def test_unknown_commands_are_left_alone(bot: BackgammonBot) -> None:
    with pytest.raises(commands.CommandNotFound):
        await dpytest.message("!dance", member=0)
    assert dpytest.sent_queue.empty()


async def test_sync_is_for_the_owner_only(
    bot: BackgammonBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, _ = dpytest.get_config().members
    bot.owner_id = alice.id
    calls: list[object] = []

    async def sync(*, guild: object = None) -> list[str]:
        calls.append(guild)
        return ["a", "b", "c"]

    monkeypatch.setattr(bot.tree, "sync", sync)
    with pytest.raises(commands.NotOwner):
        await dpytest.message("!sync", member=bob)
    assert next_text() == "Only the bot's owner can do that."
    assert calls == []

    await dpytest.message("!sync", member=alice)
    assert next_text() == "Synced 3 slash commands globally."
    await dpytest.message("!sync guild", member=alice)
    assert next_text() == "Synced 3 slash commands to this server."
    guild = dpytest.get_config().guilds[0]
    assert calls[0] is None and getattr(calls[1], "id", None) == guild.id
    assert {c.name for c in bot.tree.get_commands(guild=guild)} >= {"move", "roll"}


async def test_challenge_takes_the_rest_of_the_line(
    bot: BackgammonBot, service: TableService
) -> None:
    alice, bob, _ = dpytest.get_config().members
    await dpytest.message(f"!challenge <@{bob.id}> money jacoby beavers", member=alice)
    assert "a money game (Jacoby, beavers)" in next_text()
    challenge = await service.open_challenge(table_place())
    assert challenge is not None and challenge.match_length == 0
