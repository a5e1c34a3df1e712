"""The error handler: hints for user mistakes, an id and a traceback for the rest; through
:mod:`tests.cogs.wire` where a command is used."""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.cogs.errors import ErrorsCog, mistake_text, unwrap
from bot.service.table import TableService
from bot.settings import Settings
from tests.cogs.wire import Person, Sent, Wire, start

ALICE = Person(300000000000000001, "alice")

APOLOGY = "Sorry, something went wrong (error "


@pytest.fixture
async def wire(service: TableService, settings: Settings) -> AsyncIterator[Wire]:
    wire = await start(service, settings, ALICE)
    yield wire
    await wire.close()


def only(sent: list[Sent]) -> Sent:
    assert len(sent) == 1, [message.content for message in sent]
    return sent[0]


def missing(name: str) -> commands.MissingRequiredArgument:
    param = commands.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return commands.MissingRequiredArgument(param)


def test_user_mistakes_get_a_hint_and_the_usage() -> None:
    assert (
        mistake_text(missing("play"), "move", "!", "en") == "Missing `play`. Usage: `!move <play>`"
    )
    assert mistake_text(missing("opponent"), "challenge", "/", "en") == (
        "Missing `opponent`. Usage: `/challenge @user [points|money]`"
    )
    text = mistake_text(commands.MemberNotFound("zed"), "stats", "!", "en")
    assert text is not None and "'zed'" in text and "`!stats [@user]`" in text
    literal = commands.BadLiteralArgument(
        commands.Parameter("level", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ("single", "gammon"),
        [],
        "huge",
    )
    assert mistake_text(literal, "resign", "!", "en") == (
        "'huge' is not one of `single`, `gammon`. Usage: `!resign [single|gammon|backgammon]`"
    )
    assert mistake_text(commands.NoPrivateMessage(), "challenge", "!", "en") == (
        "That works only in a server channel, not in direct messages."
    )
    assert (
        mistake_text(commands.NotOwner(), "sync", "!", "en") == "Only the bot's owner can do that."
    )
    assert mistake_text(app_commands.CheckFailure(), "roll", "/", "en") == (
        "You can't use that command here."
    )
    assert mistake_text(RuntimeError("boom"), "roll", "!", "en") is None


def test_unwrap_finds_the_original_error() -> None:
    original = RuntimeError("boom")
    command = SimpleNamespace(name="roll")
    wrapped = commands.HybridCommandError(
        app_commands.CommandInvokeError(command, original)  # type: ignore[arg-type]
    )
    assert unwrap(wrapped) is original
    assert unwrap(commands.CommandInvokeError(original)) is original


async def test_an_unexpected_slash_error_is_logged_with_an_id(
    wire: Wire, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object) -> None:
        raise KeyError("x")

    monkeypatch.setattr(wire.bot.service.matches, "pips", broken)
    with caplog.at_level(logging.ERROR):
        sent = only(await wire.slash(ALICE, "pips"))
    assert sent.ephemeral is True and sent.content.startswith(APOLOGY)
    error_id = sent.content[len(APOLOGY) : -2]
    [record] = [r for r in caplog.records if error_id in r.getMessage()]
    assert record.exc_info is not None and isinstance(record.exc_info[1], KeyError)


async def test_a_prefix_mistake_is_a_short_reply(wire: Wire) -> None:
    reply = only(await wire.type(ALICE, "!move"))
    assert "message_reference" in reply.request  # a reply to the command, not a new message
    assert reply.content == "Missing `play`. Usage: `!move <play>`"


@pytest.mark.parametrize(
    ("word", "answer"),
    [
        ("mvoe", "Unknown command '!mvoe'. Did you mean `!move`? `!help` lists them all."),
        ("foo", None),  # probably another bot's
        ("", None),
    ],
)
async def test_unknown_commands_get_a_hint_only_when_close_to_ours(
    wire: Wire, word: str, answer: str | None
) -> None:
    sent = await wire.type(ALICE, f"!{word}")
    assert [reply.content for reply in sent] == ([answer] if answer else [])
    for reply in sent:
        assert "message_reference" in reply.request  # a reply...
        assert reply.request["allowed_mentions"]["replied_user"] is False  # ...pinging nobody


async def test_the_tree_errors_go_to_the_cog(wire: Wire) -> None:
    bot = wire.bot
    cog = bot.get_cog("Errors")
    assert isinstance(cog, ErrorsCog)
    assert bot.tree.on_error == cog.on_app_command_error

    # A slash command of the tree alone (no hybrid): its errors reach only the tree's on_error.
    @app_commands.command(name="odd", description="fails")
    async def odd(interaction: discord.Interaction) -> None:
        if interaction.guild is None:
            raise app_commands.NoPrivateMessage()
        await interaction.response.defer()
        raise app_commands.AppCommandError("odd")

    bot.tree.add_command(odd)
    told = only(await wire.slash_in(None, ALICE, "odd"))
    assert told.via == "response" and told.ephemeral is True
    assert told.content == "That works only in a server channel, not in direct messages."

    later = only(await wire.slash(ALICE, "odd"))  # deferred, then the error
    assert wire.responses[-1] == {"type": 5}
    assert later.via == "followup" and later.ephemeral is True
    assert later.content.startswith(APOLOGY)

    await bot.remove_cog("Errors")
    assert bot.tree.on_error != cog.on_app_command_error
