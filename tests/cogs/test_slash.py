"""The hybrid commands called as slash commands (and as prefix commands) with small mocks."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.cogs import replies
from bot.cogs.buttons import button_ids
from bot.cogs.replies import LiveButtons, place_of
from bot.cogs.table import TableCog, help_topics
from bot.service.commands.help import BY_NAME
from bot.service.models import Place, Reply, User
from bot.service.table import TableService
from tests.cogs.fakes import ALICE, BOB, CAROL, PLACE, PNG, FakeCtx, FakeMember, file_bytes

THREAD_ID = 777


@pytest.fixture
def cog(service: TableService) -> TableCog:
    return TableCog(service, LiveButtons(service))


def only(ctx: FakeCtx) -> dict[str, Any]:
    assert len(ctx.sent) == 1, ctx.sent
    return ctx.sent[0]


async def start(cog: TableCog) -> FakeMember:
    """alice challenges bob to 3 points, bob accepts; returns who is to move."""
    await TableCog.challenge.callback(cog, FakeCtx(ALICE), BOB, length="3")  # type: ignore[arg-type]
    await TableCog.accept.callback(cog, FakeCtx(BOB))  # type: ignore[arg-type]
    table = await cog.service.table(PLACE)
    assert table is not None and table.match.turn is not None
    return ALICE if table.row.player_ids[table.match.turn] == str(ALICE.id) else BOB


async def test_slash_challenge_pings_only_the_challenged(cog: TableCog) -> None:
    ctx = FakeCtx(ALICE)
    await TableCog.challenge.callback(cog, ctx, BOB, length="3")  # type: ignore[arg-type]
    sent = only(ctx)
    assert sent["content"].startswith(f"<@{BOB.id}> alice challenges bob to a 3-point match")
    mentions = sent["allowed_mentions"]
    assert [user.id for user in mentions.users] == [BOB.id]
    assert mentions.everyone is False and mentions.roles is False
    pending = await cog.service.pending_decision(PLACE)
    assert pending is not None
    assert button_ids(sent["view"]) == [f"bg:accept:{pending.key}", f"bg:decline:{pending.key}"]
    assert "files" not in sent


async def test_slash_challenge_of_a_bot_is_refused(cog: TableCog) -> None:
    ctx = FakeCtx(ALICE)
    robot = FakeMember(555, "robot", bot=True)
    await TableCog.challenge.callback(cog, ctx, robot, length=None)  # type: ignore[arg-type]
    assert only(ctx)["ephemeral"] is True
    assert await cog.service.pending_decision(PLACE) is None


async def test_slash_accept_and_move_send_the_board(cog: TableCog) -> None:
    mover = await start(cog)
    table = await cog.service.table(PLACE)
    assert table is not None
    ctx = FakeCtx(mover)
    play = table.match.legal_plays()[0].notation
    await TableCog.move.callback(cog, ctx, play=play)  # type: ignore[arg-type]
    sent = only(ctx)
    assert [file.filename for file in sent["files"]] == ["board.png"]
    assert file_bytes(sent["files"][0]).startswith(PNG)
    assert not sent.get("ephemeral")


async def test_slash_refusal_is_ephemeral(cog: TableCog) -> None:
    await start(cog)
    ctx = FakeCtx(CAROL)
    await TableCog.roll.callback(cog, ctx)  # type: ignore[arg-type]
    sent = only(ctx)
    assert sent["ephemeral"] is True
    assert "you can watch" in sent["content"]


async def test_prefix_refusal_is_a_plain_short_reply(cog: TableCog) -> None:
    await start(cog)
    ctx = FakeCtx(CAROL, slash=False)
    await TableCog.roll.callback(cog, ctx)  # type: ignore[arg-type]
    assert ctx.sent == []
    assert len(ctx.replied) == 1
    reply = ctx.replied[0]
    assert "you can watch" in reply["content"] and reply["mention_author"] is False
    assert "ephemeral" not in reply


async def test_slash_resign_stats_and_help_pass_their_options(cog: TableCog) -> None:
    mover = await start(cog)
    await TableCog.resign.callback(cog, FakeCtx(mover), level="gammon")  # type: ignore[arg-type]
    pending = await cog.service.pending_decision(PLACE)
    assert pending is not None and pending[0].value == "resignation"

    ctx = FakeCtx(CAROL)
    await TableCog.stats.callback(cog, ctx, BOB)  # type: ignore[arg-type]
    assert only(ctx)["content"].startswith("bob: rating")

    ctx = FakeCtx(CAROL)
    await TableCog.help_.callback(cog, ctx, command="move")  # type: ignore[arg-type]
    assert "move <play>" in only(ctx)["content"]


async def test_a_thread_is_a_table_of_its_own(cog: TableCog) -> None:
    await start(cog)
    ctx = FakeCtx(CAROL, channel_id=THREAD_ID)
    await TableCog.challenge.callback(cog, ctx, ALICE, length="1")  # type: ignore[arg-type]
    assert not only(ctx).get("ephemeral")
    thread = Place(PLACE.server_id, str(THREAD_ID))
    assert (await cog.service.pending_decision(thread)) is not None
    assert (await cog.service.table(PLACE)) is not None


async def test_direct_messages_are_a_place_outside_servers(cog: TableCog) -> None:
    assert place_of(None, 42) == Place("dm", "42")
    ctx = FakeCtx(ALICE, guild_id=None, channel_id=42)
    await TableCog.help_.callback(cog, ctx)  # type: ignore[arg-type]
    assert only(ctx)["embed"].title == "Backgammon commands"


async def test_a_slow_command_is_deferred_within_three_seconds(
    cog: TableCog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.01)

    async def slow(place: Place, user: User) -> list[Reply]:
        await asyncio.sleep(0.05)
        return [Reply("Slow but done.")]

    monkeypatch.setattr(cog.service, "pips", slow)
    ctx = FakeCtx(ALICE)
    await TableCog.pips.callback(cog, ctx)  # type: ignore[arg-type]
    assert ctx.deferred
    assert only(ctx)["content"] == "Slow but done."


async def test_a_slow_refusal_stays_private(cog: TableCog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.01)

    async def slow(place: Place, user: User) -> list[Reply]:
        await asyncio.sleep(0.05)
        return [Reply("No.", private=True)]

    monkeypatch.setattr(cog.service, "pips", slow)
    ctx = FakeCtx(ALICE)
    await TableCog.pips.callback(cog, ctx)  # type: ignore[arg-type]
    assert ctx.interaction is not None and ctx.interaction.deleted_original
    assert only(ctx)["ephemeral"] is True


async def test_a_fast_command_is_not_deferred(cog: TableCog) -> None:
    ctx = FakeCtx(ALICE)
    await TableCog.leaderboard.callback(cog, ctx)  # type: ignore[arg-type]
    assert not ctx.deferred
    assert "No rated matches" in only(ctx)["content"]


def test_help_autocomplete() -> None:
    assert [choice.value for choice in help_topics("Re")] == ["rematch", "resign", "reject"]
    assert len(help_topics("")) == min(25, len(BY_NAME))  # Discord shows at most 25
    for name in BY_NAME:  # each command is offered once its name is typed far enough
        assert name in [choice.value for choice in help_topics(name)]


def test_every_table_command_is_a_hybrid_command_with_a_description(cog: TableCog) -> None:
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
    assert hybrid["challenge"].app_command.guild_only  # type: ignore[attr-defined]
