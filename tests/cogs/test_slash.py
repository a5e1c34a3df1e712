"""The hybrid commands used as slash commands (and as prefix commands), through
:mod:`tests.cogs.wire`: what each answers, publicly or for the user alone, and when it defers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest

from bot.cogs import sending
from bot.cogs.sending import place_of
from bot.cogs.table import TableCog, help_topics
from bot.service.commands.registry import BY_NAME
from bot.service.models import Place, Reply, User
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import CHANNEL_ID, GUILD_ID, PNG, Person, Sent, Wire, start

ALICE = Person(300000000000000001, "alice")
BOB = Person(300000000000000002, "bob")
CAROL = Person(300000000000000003, "carol")
ROBOT = Person(300000000000000555, "robot", bot=True)
PLACE = Place(str(GUILD_ID), str(CHANNEL_ID))
THREAD_ID = 300000000000000777


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE, BOB, CAROL, ROBOT)
    yield wire
    await wire.close()


def only(sent: list[Sent]) -> Sent:
    assert len(sent) == 1, [message.content for message in sent]
    return sent[0]


async def start_match(wire: Wire) -> Person:
    """alice challenges bob to 3 points, bob accepts; returns who is to move."""
    await wire.slash(ALICE, "challenge", opponent=BOB, length="3")
    await wire.slash(BOB, "accept")
    table = await wire.bot.service.table(PLACE)
    assert table is not None and table.match.turn is not None
    return ALICE if table.row.player_ids[table.match.turn] == str(ALICE.id) else BOB


async def test_slash_challenge_pings_only_the_challenged(wire: Wire) -> None:
    sent = only(await wire.slash(ALICE, "challenge", opponent=BOB, length="3"))
    assert sent.via == "response" and not sent.ephemeral
    assert sent.content.startswith(f"<@{BOB.id}> alice challenges bob to a 3-point match")
    mentions = sent.request["allowed_mentions"]
    assert mentions["users"] == [BOB.id]
    assert mentions["parse"] == []  # neither @everyone nor roles
    pending = await wire.bot.service.pending_decision(PLACE)
    assert pending is not None
    assert sent.custom_ids == [f"bg:accept:{pending.key}", f"bg:decline:{pending.key}"]
    assert sent.attachments == []


async def test_slash_challenge_of_a_bot_is_refused(wire: Wire) -> None:
    assert only(await wire.slash(ALICE, "challenge", opponent=ROBOT)).ephemeral is True
    assert await wire.bot.service.pending_decision(PLACE) is None


async def test_slash_accept_and_move_send_the_board(wire: Wire) -> None:
    mover = await start_match(wire)
    table = await wire.bot.service.table(PLACE)
    assert table is not None
    play = table.match.legal_plays()[0].notation
    sent = only(await wire.slash(mover, "move", play=play))
    assert sent.attachments == ["board.png"]
    assert sent.blobs["board.png"].startswith(PNG)
    assert not sent.ephemeral


async def test_slash_refusal_is_ephemeral(wire: Wire) -> None:
    await start_match(wire)
    sent = only(await wire.slash(CAROL, "roll"))
    assert sent.ephemeral is True
    assert "you can watch" in sent.content


async def test_prefix_refusal_is_a_plain_short_reply(wire: Wire) -> None:
    await start_match(wire)
    reply = only(await wire.type(CAROL, "!roll"))
    assert reply.via == "channel" and "message_reference" in reply.request  # a reply
    assert "you can watch" in reply.content
    assert reply.request["allowed_mentions"]["replied_user"] is False  # no ping of carol
    assert not reply.ephemeral


async def test_slash_resign_stats_and_help_pass_their_options(wire: Wire) -> None:
    mover = await start_match(wire)
    await wire.slash(mover, "resign", level="gammon")
    pending = await wire.bot.service.pending_decision(PLACE)
    assert pending is not None and pending[0].value == "resignation"

    assert only(await wire.slash(CAROL, "stats", member=BOB)).content.startswith("bob: rating")
    assert "move <play>" in only(await wire.slash(CAROL, "help", command="move")).content


async def test_a_thread_is_a_table_of_its_own(wire: Wire) -> None:
    await start_match(wire)
    wire.add_channel(THREAD_ID, "a thread", kind=discord.ChannelType.public_thread)
    sent = only(await wire.slash_in(THREAD_ID, CAROL, "challenge", opponent=ALICE, length="1"))
    assert not sent.ephemeral and sent.channel_id == THREAD_ID
    thread = Place(PLACE.server_id, str(THREAD_ID))
    assert (await wire.bot.service.pending_decision(thread)) is not None
    assert (await wire.bot.service.table(PLACE)) is not None


async def test_direct_messages_are_a_place_outside_servers(wire: Wire) -> None:
    assert place_of(None, 42) == Place("dm", "42")
    sent = only(await wire.slash_in(None, ALICE, "help"))
    assert sent.channel_id != CHANNEL_ID
    [embed] = sent.data["embeds"]
    assert embed["title"] == "Backgammon commands"


async def test_a_slow_command_is_deferred_within_three_seconds(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sending, "DEFER_AFTER", 0.01)

    async def slow(place: Place, user: User) -> list[Reply]:
        await asyncio.sleep(0.05)
        return [Reply("Slow but done.")]

    monkeypatch.setattr(wire.bot.service.matches, "pips", slow)
    sent = only(await wire.slash(ALICE, "pips"))
    assert wire.responses == [{"type": 5}]  # deferred: "thinking..."
    assert sent.via == "followup" and sent.content == "Slow but done."


async def test_a_slow_refusal_stays_private(wire: Wire, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sending, "DEFER_AFTER", 0.01)

    async def slow(place: Place, user: User) -> list[Reply]:
        await asyncio.sleep(0.05)
        return [Reply("No.", private=True)]

    monkeypatch.setattr(wire.bot.service.matches, "pips", slow)
    sent = only(await wire.slash(ALICE, "pips"))
    assert wire.responses == [{"type": 5}, {"deleted": "@original"}]  # "thinking..." removed
    assert sent.ephemeral is True and sent.content == "No."


async def test_a_fast_command_is_not_deferred(wire: Wire) -> None:
    sent = only(await wire.slash(ALICE, "leaderboard"))
    assert [response["type"] for response in wire.responses] == [4]  # answered at once
    assert sent.via == "response" and "No rated matches" in sent.content


def test_help_autocomplete() -> None:
    assert [choice.value for choice in help_topics("Re")] == [
        "rematch",
        "resign",
        "reject",
        "review",
    ]
    assert len(help_topics("")) == min(25, len(BY_NAME))  # Discord shows at most 25
    for name in BY_NAME:  # each command is offered once its name is typed far enough
        assert name in [choice.value for choice in help_topics(name)]


async def test_help_autocomplete_through_discord(wire: Wire) -> None:
    choices = await wire.autocomplete(CAROL, "help", "command", "Re")
    assert [choice["value"] for choice in choices] == ["rematch", "resign", "reject", "review"]


def test_every_table_command_is_a_hybrid_command_with_a_description(wire: Wire) -> None:
    cog = wire.bot.get_cog("Backgammon")
    assert isinstance(cog, TableCog)
    hybrid = {command.name: command for command in cog.get_commands()}
    assert set(hybrid) == set(BY_NAME)
    for name, command in hybrid.items():
        app = getattr(command, "app_command", None)
        assert isinstance(app, discord.app_commands.Command), name
        assert 0 < len(app.description) <= 100
    move = hybrid["move"].app_command  # type: ignore[attr-defined]
    assert [(p.name, p.required) for p in move.parameters] == [("play", True)]
    resign = hybrid["resign"].app_command  # type: ignore[attr-defined]
    assert [c.value for c in resign.parameters[0].choices] == ["single", "gammon", "backgammon"]
    assert not hybrid["challenge"].app_command.guild_only  # type: ignore[attr-defined]
    assert hybrid["tournament"].app_command.guild_only  # type: ignore[attr-defined]
