"""A registry entry as a hybrid command, over the cog method that takes its arguments.

:func:`table_command` decorates a method of :class:`bot.cogs.table.TableCog` written with the
entry's arguments as its parameters (``async def move(self, ctx, *, play: str)``); the registry
(:data:`bot.service.commands.registry.COMMANDS`) gives the rest: the description, the aliases,
each option's description and choices, where the command may be used (a server only, or
also a user install's DMs and group DMs) and who sees it. The
method's parameters are checked against the entry's arguments as discord.py reads them, so the
two can't drift apart.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Optional, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import Command as Entry
from bot.service.commands.schema import CommandTable, Kind, RegistryError
from bot.service.gnubg.opponent import ENGINE_WORD

Ctx = commands.Context[Any]
Method = Callable[..., Coroutine[Any, Any, None]]
Hybrid = commands.HybridCommand[Any, ..., None]

_ENTRY = "entry"  # the key of the command's ``extras`` holding its registry entry
_TAKEN = frozenset({"self", "ctx"})  # the method's own parameters


class MemberOrMe(commands.Converter[discord.Member], app_commands.Transformer):
    """A member, where a typed prefix command may also name this bot by the word ``bot``
    (`!challenge bot 5`: GNU Backgammon's seat). Slash commands see a plain user option."""

    async def convert(self, ctx: commands.Context[Any], argument: str) -> discord.Member:
        word = argument.strip().removeprefix("@").lower()
        if word == ENGINE_WORD:  # in the bot's DM a user, not a member: only its id is read
            return cast(discord.Member, ctx.me)
        return await commands.MemberConverter().convert(ctx, argument)

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.user

    async def transform(self, interaction: discord.Interaction[Any], value: Any) -> Any:
        return value


# A required USER argument: discord.py converts it with MemberOrMe, mypy sees a Member.
Someone = Annotated[discord.Member, MemberOrMe]
# An optional one: converted as a Member, not as Optional[Member]: discord.py would take a name it
# can't find for no name at all (``!stats nobody`` showing your own record).
SOMEONE_OR_YOU: Any = commands.parameter(default=None, converter=MemberOrMe)
# Any other argument is the rest of the line, as typed: the service judges it (a converter or a
# Literal would drop the words it can't read, e.g. a resignation level, and go on without them).
_AS_TYPED = (str, Optional[str])  # noqa: UP045 (the converter discord.py reads from ``str | None``)


def about(entry: Entry) -> str:
    """A command's one-line description (Discord allows 100 characters)."""
    summary = entry.summary[:100]
    return summary if summary.startswith("gnubg") else summary[:1].upper() + summary[1:]


def table_command(name: str, table: CommandTable = COMMANDS) -> Callable[[Method], Hybrid]:
    """The hybrid command of ``table``'s entry ``name``, over the method it decorates."""
    entry = table.by_name[name]
    clashes = _TAKEN & {argument.name for argument in entry.arguments}
    if clashes:
        raise RegistryError(f"{entry.name}: these argument names are taken: {sorted(clashes)}")

    def decorate(method: Method) -> Hybrid:
        names = list(inspect.signature(method).parameters)[len(_TAKEN) :]
        if names != [argument.name for argument in entry.arguments]:
            raise RegistryError(f"{entry.name}: the method takes {names}, not its arguments")
        function = method
        if entry.arguments:
            descriptions = {argument.name: argument.description for argument in entry.arguments}
            function = app_commands.describe(**descriptions)(function)
        for argument in entry.arguments:
            if argument.choices:
                offered = [app_commands.Choice(name=word, value=word) for word in argument.choices]
                function = app_commands.choices(**{argument.name: offered})(function)
        if entry.guild_only:
            function = commands.guild_only()(function)
        anywhere = not entry.guild_only  # also installed to accounts, and in DMs and group DMs
        function = app_commands.allowed_installs(guilds=True, users=anywhere)(function)
        function = app_commands.allowed_contexts(
            guilds=True, dms=anywhere, private_channels=anywhere
        )(function)
        if entry.moderator:  # the command is shown to those who may use it
            function = app_commands.default_permissions(manage_messages=True)(function)
        command: Hybrid = commands.hybrid_command(
            name=entry.name,
            description=about(entry),
            aliases=list(entry.aliases),
            extras={_ENTRY: entry},
        )(function)
        _check(entry, command)
        return command

    return decorate


def entry_of(ctx: Ctx) -> Entry:
    """The registry entry of the command ``ctx`` runs."""
    entry = ctx.command.extras.get(_ENTRY) if ctx.command is not None else None
    assert isinstance(entry, Entry), ctx.command  # every command of the cog is a table_command
    return entry


def _check(entry: Entry, command: Hybrid) -> None:
    """Refuse a method whose parameters, as discord.py reads them, are not declared as
    ``entry``'s arguments: required alike, a member where the entry wants a user, the rest of the
    line (keyword-only) as typed for any other."""
    for argument, parameter in zip(entry.arguments, command.clean_params.values(), strict=True):
        keyword = parameter.kind is parameter.KEYWORD_ONLY
        converters = (MemberOrMe,) if argument.kind is Kind.USER else _AS_TYPED
        if parameter.required != argument.required or keyword != argument.rest_of_line:
            raise RegistryError(f"{entry.name}: {argument.name!r} is not declared as the entry's")
        if parameter.converter not in converters:
            raise RegistryError(f"{entry.name}: {argument.name!r} is not read as the entry's")
