"""The error handler: hints for user mistakes, an id and a traceback for the rest."""

from __future__ import annotations

import inspect
import logging
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.cogs.errors import ErrorsCog, mistake_text, unwrap
from bot.discord_bot import BackgammonBot
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.fakes import ALICE, FakeCtx, FakeInteraction

APOLOGY = "Sorry, something went wrong (error "


def missing(name: str) -> commands.MissingRequiredArgument:
    param = commands.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return commands.MissingRequiredArgument(param)


def test_user_mistakes_get_a_hint_and_the_usage() -> None:
    assert mistake_text(missing("play"), "move", "!") == "Missing `play`. Usage: `!move <play>`"
    assert mistake_text(missing("opponent"), "challenge", "/") == (
        "Missing `opponent`. Usage: `/challenge @user [points|money]`"
    )
    text = mistake_text(commands.MemberNotFound("zed"), "stats", "!")
    assert text is not None and "'zed'" in text and "`!stats [@user]`" in text
    literal = commands.BadLiteralArgument(
        commands.Parameter("level", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ("single", "gammon"),
        [],
        "huge",
    )
    assert mistake_text(literal, "resign", "!") == (
        "'huge' is not one of `single`, `gammon`. Usage: `!resign [single|gammon|backgammon]`"
    )
    assert mistake_text(commands.NoPrivateMessage(), "challenge", "!") == (
        "That works only in a server channel, not in direct messages."
    )
    assert mistake_text(commands.NotOwner(), "sync", "!") == "Only the bot's owner can do that."
    assert mistake_text(app_commands.CheckFailure(), "roll", "/") == (
        "You can't use that command here."
    )
    assert mistake_text(RuntimeError("boom"), "roll", "!") is None


def test_unwrap_finds_the_original_error() -> None:
    original = RuntimeError("boom")
    command = SimpleNamespace(name="roll")
    wrapped = commands.HybridCommandError(
        app_commands.CommandInvokeError(command, original)  # type: ignore[arg-type]
    )
    assert unwrap(wrapped) is original
    assert unwrap(commands.CommandInvokeError(original)) is original


async def test_an_unexpected_slash_error_is_logged_with_an_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cog = ErrorsCog(commands.Bot(command_prefix="!", intents=discord.Intents.default()))
    ctx = FakeCtx(ALICE)
    with caplog.at_level(logging.ERROR):
        await cog.on_command_error(ctx, commands.CommandInvokeError(KeyError("x")))  # type: ignore[arg-type]
    [sent] = ctx.sent
    assert sent["ephemeral"] is True and sent["content"].startswith(APOLOGY)
    error_id = sent["content"][len(APOLOGY) : -2]
    [record] = [r for r in caplog.records if error_id in r.getMessage()]
    assert record.exc_info is not None and isinstance(record.exc_info[1], KeyError)


async def test_a_prefix_mistake_is_a_short_reply() -> None:
    cog = ErrorsCog(commands.Bot(command_prefix="!", intents=discord.Intents.default()))
    ctx = FakeCtx(ALICE, slash=False)
    ctx.command = SimpleNamespace(qualified_name="move")
    await cog.on_command_error(ctx, missing("play"))  # type: ignore[arg-type]
    assert ctx.sent == []
    assert [r["content"] for r in ctx.replied] == ["Missing `play`. Usage: `!move <play>`"]


@pytest.mark.parametrize(
    ("word", "answer"),
    [
        ("mvoe", "Unknown command '!mvoe'. Did you mean `!move`? `!help` lists them all."),
        ("foo", None),  # probably another bot's
        ("", None),
    ],
)
async def test_unknown_commands_get_a_hint_only_when_close_to_ours(
    word: str, answer: str | None
) -> None:
    cog = ErrorsCog(commands.Bot(command_prefix="!", intents=discord.Intents.default()))
    ctx = FakeCtx(ALICE, slash=False)
    ctx.invoked_with = word
    await cog.on_command_error(ctx, commands.CommandNotFound())  # type: ignore[arg-type]
    assert ctx.sent == []
    assert [r["content"] for r in ctx.replied] == ([answer] if answer else [])
    for reply in ctx.replied:
        assert reply["mention_author"] is False


async def test_the_tree_errors_go_to_the_cog(service: TableService, settings: Settings) -> None:
    bot = BackgammonBot(service, settings)
    await bot.setup_hook()
    cog = bot.get_cog("Errors")
    assert isinstance(cog, ErrorsCog)
    assert bot.tree.on_error == cog.on_app_command_error

    interaction = FakeInteraction(ALICE)
    await bot.tree.on_error(interaction, app_commands.NoPrivateMessage())  # type: ignore[arg-type]
    assert interaction.response.sent == [
        {
            "content": "That works only in a server channel, not in direct messages.",
            "ephemeral": True,
        }
    ]

    later = FakeInteraction(ALICE)
    await later.response.defer()
    await bot.tree.on_error(later, app_commands.AppCommandError("odd"))  # type: ignore[arg-type]
    [sent] = later.followup.sent
    assert sent["ephemeral"] is True and sent["content"].startswith(APOLOGY)

    await bot.remove_cog("Errors")
    assert bot.tree.on_error != cog.on_app_command_error
