"""The one place errors end: user mistakes get a short hint, the unexpected an error id.

Prefix and hybrid commands land in ``on_command_error``; slash-only failures (checks, argument
transforms) in the app-command tree's ``on_error``; buttons in their own handler. Hints to
slash and button users are ephemeral; anything unexpected is logged with its traceback and an
id the user can quote.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.language import spoken
from bot.i18n import errors as say
from bot.i18n.core import ENGLISH, Language, language_of
from bot.i18n.words import sentence
from bot.service.commands.limits import Gate, Verdict
from bot.service.commands.registry import COMMANDS
from bot.service.models import PRIVATE_SERVER, STORE_TROUBLE, Place, Reply, store_trouble
from bot.service.table import TableService, unknown_command
from bot.settings import Settings

log = logging.getLogger(__name__)


def unwrap(error: BaseException) -> BaseException:
    """The error under discord.py's wrappers (hybrid, invoke and transformer errors)."""
    while True:
        if isinstance(
            error,
            commands.HybridCommandError
            | commands.CommandInvokeError
            | app_commands.CommandInvokeError,
        ):
            error = error.original
        elif isinstance(error, app_commands.TransformerError) and isinstance(
            error.__cause__, commands.CommandError
        ):
            error = error.__cause__
        else:
            return error


def usage(command: str | None, prefix: str, language: Language) -> str:
    entry = COMMANDS.find(command or "")
    return say.USAGE(language, prefix=prefix, usage=entry.usage) if entry else ""


def mistake_text(
    error: BaseException, command: str | None, prefix: str, language: Language
) -> str | None:
    """What to tell a user who typed something wrong (in ``language``), or None when it's not
    their mistake."""
    hint = usage(command, prefix, language)
    if isinstance(error, commands.MissingRequiredArgument):
        return say.MISSING_ARGUMENT(language, name=error.param.name, hint=hint)
    if isinstance(error, commands.MemberNotFound):
        return say.MEMBER_NOT_FOUND(language, argument=repr(error.argument), hint=hint)
    if isinstance(error, commands.BadLiteralArgument):
        choices = ", ".join(f"`{choice}`" for choice in error.literals)
        return say.NOT_ONE_OF(language, argument=repr(error.argument), choices=choices, hint=hint)
    if isinstance(error, commands.UserInputError):
        return f"{sentence(str(error), language)}{hint}"
    if isinstance(error, commands.NoPrivateMessage | app_commands.NoPrivateMessage):
        return say.SERVER_ONLY(language)
    if isinstance(error, commands.NotOwner):
        return say.OWNER_ONLY(language)
    if isinstance(error, commands.CheckFailure | app_commands.CheckFailure):
        return say.NOT_HERE(language)
    if isinstance(error, app_commands.TransformerError):
        return say.CANT_USE(language, value=repr(error.value), hint=hint)
    if isinstance(error, commands.DisabledCommand | commands.CommandOnCooldown):
        return sentence(str(error), language)
    if isinstance(error, STORE_TROUBLE):
        return store_trouble(error, language).text
    return None


def outdated_text(prefix: str, language: Language) -> str:
    return say.OUTDATED(language, prefix=prefix)


def report_unexpected(error: BaseException, where: str, language: Language) -> str:
    """Log ``error`` with its traceback and an id; the apology to show the user, in
    ``language``."""
    error_id = uuid.uuid4().hex[:8]
    log.error("Error %s in %s", error_id, where, exc_info=error)
    return say.SORRY(language, error_id=error_id)


async def tell_interaction(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral message to whoever used a slash command or pressed a button."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not tell %s: %s", interaction.user, text, exc_info=True)


class ErrorsCog(commands.Cog, name="Errors"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._old_tree_error = bot.tree.on_error

    async def cog_load(self) -> None:
        self.bot.tree.error(self.on_app_command_error)

    async def cog_unload(self) -> None:
        self.bot.tree.error(self._old_tree_error)

    @property
    def prefix(self) -> str:
        """The bot's own prefix (``ctx.clean_prefix`` may be a mention)."""
        settings = getattr(self.bot, "settings", None)
        return settings.command_prefix if isinstance(settings, Settings) else "!"

    async def _within_rate(self, ctx: commands.Context[Any]) -> bool:
        """Whether the bot's :class:`Gate` lets ``ctx.author`` have one more answer here (a
        flood of typos gets a few hints, then silence, like any command)."""
        gate = getattr(self.bot, "gate", None)
        if not isinstance(gate, Gate):
            return True
        server = str(ctx.guild.id) if ctx.guild is not None else PRIVATE_SERVER
        place = Place(server, str(ctx.channel.id))
        check = await gate.check(place, str(ctx.author.id))
        return check.verdict is Verdict.ALLOW

    async def _unknown(self, ctx: commands.Context[Any], language: Language) -> list[Reply]:
        """The hint for ``ctx``'s unknown command, from the service when the bot has one (it
        knows the channel's game)."""
        word = ctx.invoked_with or ""
        service = getattr(self.bot, "service", None)
        if not isinstance(service, TableService):
            return unknown_command(ctx.clean_prefix, word, COMMANDS, language=language)
        server = str(ctx.guild.id) if ctx.guild is not None else PRIVATE_SERVER
        place = Place(server, str(ctx.channel.id))
        return await service.unknown_command(place, word, ctx.clean_prefix, language=language)

    async def _language(self, place: Place, locale: discord.Locale | None) -> Language:
        """The language of the command that failed (see :mod:`bot.cogs.language`)."""
        service = getattr(self.bot, "service", None)
        if not isinstance(service, TableService):
            return language_of(locale.value if locale else None) or ENGLISH
        return await spoken(service.server.languages, place, locale)

    @commands.Cog.listener()
    async def on_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        server = str(ctx.guild.id) if ctx.guild is not None else "dm"  # as replies.place_of
        locale = ctx.interaction.locale if ctx.interaction is not None else None
        place = Place(server, str(ctx.channel.id))
        await self._command_error(ctx, error, await self._language(place, locale))

    async def _command_error(
        self, ctx: commands.Context[Any], error: Exception, language: Language
    ) -> None:
        if isinstance(error, commands.CommandNotFound):
            # A near miss of one of ours gets a hint (as in the console); anything else is
            # silence: it is probably meant for another bot that shares the prefix.
            for hint in await self._unknown(ctx, language):
                if await self._within_rate(ctx):
                    await _reply(ctx, hint.text)
            return
        cause = unwrap(error)
        name = ctx.command.qualified_name if ctx.command else None
        prefix = "/" if ctx.interaction is not None else ctx.clean_prefix
        text = mistake_text(cause, name, prefix, language)
        if text is None:
            where = f"command {name} ({ctx.message.content!r})"
            text = report_unexpected(cause, where, language)
        await _reply(ctx, text)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        server = str(interaction.guild_id) if interaction.guild_id is not None else "dm"
        place = Place(server, str(interaction.channel_id))
        language = await self._language(place, interaction.locale)
        await self._app_command_error(interaction, error, language)

    async def _app_command_error(
        self,
        interaction: discord.Interaction[Any],
        error: app_commands.AppCommandError,
        language: Language,
    ) -> None:
        cause = unwrap(error)
        if isinstance(cause, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            # Discord still shows a slash command as it was before the commands changed.
            log.warning(
                "Slash command /%s is out of date (%s): type `%ssync` to publish the new ones",
                cause.name
                if isinstance(cause, app_commands.CommandNotFound)
                else cause.command.name,
                type(cause).__name__,
                self.prefix,
            )
            await tell_interaction(interaction, outdated_text(self.prefix, language))
            return
        command = interaction.command
        name = command.qualified_name if command else None
        text = mistake_text(cause, name, "/", language)
        if text is None:
            text = report_unexpected(cause, f"slash command {name}", language)
        await tell_interaction(interaction, text)


async def _reply(ctx: commands.Context[Any], text: str) -> None:
    """A short answer for the user alone: ephemeral to a slash command, else a reply that pings
    nobody."""
    try:
        if ctx.interaction is not None:
            await ctx.send(text, ephemeral=True)
        else:
            await ctx.reply(
                text, mention_author=False, allowed_mentions=discord.AllowedMentions.none()
            )
    except discord.HTTPException:
        log.warning("Could not answer %s: %s", ctx.author, text, exc_info=True)
