"""A whole match through prefix commands, as Discord delivers them (:mod:`tests.cogs.wire`):
each command's reply, its board PNG and its text, and the game in the store."""

from __future__ import annotations

import itertools
import logging
from collections.abc import AsyncIterator

import discord
import pytest

from bot.service.commands.limits import Limiter
from bot.service.models import Decision, Place, markdown_safe
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import BOT_ID, CHANNEL_ID, GUILD_ID, PNG, Person, Sent, Wire, start

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    # Each command a second after the last: people's pace, however fast the test runs.
    limiter = Limiter(clock=itertools.count(step=1.0).__next__)
    wire = await start(service, settings, ALICE, BOB, CAROL, limiter=limiter)
    yield wire
    await wire.close()


def png(sent: list[Sent]) -> Sent:
    assert len(sent) == 1, "one message per action"
    [message] = sent
    assert message.attachments == ["board.png"]
    assert message.blobs["board.png"].startswith(PNG)
    return message


def text(sent: list[Sent]) -> str:
    assert len(sent) == 1, "one message per action"
    content = sent[0].content
    assert content
    assert len(content) <= 2000
    return content


async def test_a_whole_match_with_prefix_commands(wire: Wire, service: TableService) -> None:
    said = text(await wire.type(ALICE, f"!challenge <@{BOB.id}> 1"))
    assert said.startswith(f"<@{BOB.id}> ")  # only the challenged player is pinged
    assert "challenges" in said
    pending = await service.pending_decision(PLACE)
    assert pending is not None
    assert pending[:3] == (Decision.CHALLENGE, str(BOB.id), markdown_safe(BOB.name))

    png(await wire.type(BOB, "!accept"))

    # a spectator: a short plain reply
    assert "you can watch" in text(await wire.type(CAROL, "!roll"))

    members = {str(member.id): member for member in (ALICE, BOB)}
    steps = 0
    while (table := await service.table(PLACE)) is not None:
        match = table.match
        assert match.turn is not None
        member = members[table.row.player_ids[match.turn]]
        if match.phase == "move":
            sent = await wire.type(member, f"!move {match.legal_plays()[0].notation}")
        else:
            assert match.phase == "roll"
            sent = await wire.type(member, "!roll")
        png(sent)
        steps += 1
        assert steps < 200

    finished = await service.latest_table(PLACE)
    assert finished is not None
    assert finished.row.status == "finished"
    assert finished.match.winner is not None
    rematch = await service.pending_decision(PLACE)  # only the rematch is asked now
    assert rematch is not None and rematch.decision is Decision.REMATCH

    board = text(await wire.type(CAROL, "!leaderboard"))
    assert "Leaderboard" in board
    assert markdown_safe(ALICE.name) in board and markdown_safe(BOB.name) in board

    [export] = await wire.type(CAROL, "!export")
    [name] = export.attachments
    assert name.endswith(".mat")
    assert b"Game 1" in export.blobs[name]


async def test_a_mention_is_a_prefix_too(wire: Wire) -> None:
    assert "move <play>" in text(await wire.type(ALICE, f"<@{BOT_ID}> help move"))


async def test_a_missing_argument_gets_the_usage(wire: Wire) -> None:
    assert text(await wire.type(ALICE, "!move")) == "Missing `play`. Usage: `!move <play>`"


async def test_an_unknown_member_gets_a_hint(wire: Wire) -> None:
    assert "can't find the member 'nobody'" in text(await wire.type(ALICE, "!challenge nobody"))


async def test_an_unexpected_error_gets_an_id_and_a_traceback(
    wire: Wire,
    service: TableService,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service.matches, "pips", broken)
    with caplog.at_level(logging.ERROR):
        said = text(await wire.type(ALICE, "!pips"))
    assert said.startswith("Sorry, something went wrong (error ")
    error_id = said.removeprefix("Sorry, something went wrong (error ").removesuffix(").")
    record = next(r for r in caplog.records if error_id in r.getMessage())
    assert record.exc_info is not None and "disk on fire" in str(record.exc_info[1])


async def test_unknown_commands_are_left_alone(wire: Wire) -> None:
    assert await wire.type(ALICE, "!dance") == []


async def test_sync_is_for_the_owner_only(wire: Wire, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = wire.bot
    bot.owner_id = ALICE.id
    calls: list[object] = []

    async def sync(*, guild: object = None) -> list[str]:
        calls.append(guild)
        return ["a", "b", "c"]

    monkeypatch.setattr(bot.tree, "sync", sync)
    assert text(await wire.type(BOB, "!sync")) == "Only the bot's owner can do that."
    assert calls == []

    assert text(await wire.type(ALICE, "!sync")) == "Synced 3 slash commands globally."
    assert text(await wire.type(ALICE, "!sync guild")) == "Synced 3 slash commands to this server."
    assert calls[0] is None and getattr(calls[1], "id", None) == GUILD_ID
    guild = discord.Object(GUILD_ID)
    assert {c.name for c in bot.tree.get_commands(guild=guild)} >= {"move", "roll"}


async def test_challenge_takes_the_rest_of_the_line(wire: Wire, service: TableService) -> None:
    said = text(await wire.type(ALICE, f"!challenge <@{BOB.id}> money jacoby beavers"))
    assert "a money game (Jacoby, beavers)" in said
    challenge = await service.open_challenge(PLACE)
    assert challenge is not None and challenge.match_length == 0
