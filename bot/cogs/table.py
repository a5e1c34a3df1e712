"""Every table command as a hybrid command: ``!move 13/7 8/7`` and ``/move play:13/7 8/7``.

The commands are made from :data:`bot.service.commands.registry.COMMANDS`, one per entry: its
arguments become the prefix command's parameters and the slash command's options (with their
descriptions and choices). Each one turns the context into a place and a user, calls the
entry's :class:`TableService` method and sends its replies; the game itself lives in
:mod:`bot.service`.
"""

from __future__ import annotations

import builtins
import inspect
import keyword
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.ext.commands.parameters import Signature

from bot.cogs.replies import (
    CommandTarget,
    LiveButtons,
    messageable,
    open_rounds,
    place_of,
    send_replies,
    send_routed,
    user_of,
    within_deadline,
)
from bot.cogs.threads import DiscordThreads
from bot.service.commands.help import BY_NAME
from bot.service.commands.registry import COMMANDS, Argument, CommandTable, Kind
from bot.service.commands.registry import Command as Entry
from bot.service.gnubg.opponent import ENGINE_WORD
from bot.service.models import ENGINE_USER, Place, Reply, User
from bot.service.table import TableService
from bot.service.tournaments.terms import verb_choices

Ctx = commands.Context[Any]
Callback = Callable[..., Coroutine[Any, Any, None]]
Hybrid = commands.HybridCommand[Any, ..., None]
Call = Callable[[Place, User], Awaitable[list[Reply]]]


class MemberOrMe(commands.Converter[discord.Member], app_commands.Transformer):
    """A member, where a typed prefix command may also name this bot by the word ``bot``
    (`!challenge bot 5`: GNU Backgammon's seat). Slash commands see a plain user option."""

    async def convert(self, ctx: commands.Context[Any], argument: str) -> discord.Member:
        word = argument.strip().removeprefix("@").lower()
        if word == ENGINE_WORD and isinstance(ctx.me, discord.Member):
            return ctx.me
        return await commands.MemberConverter().convert(ctx, argument)

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.user

    async def transform(self, interaction: discord.Interaction[Any], value: Any) -> Any:
        return value


# Optional, but converted as a Member, not as Optional[Member]: discord.py would take a name it
# can't find for no name at all (``!stats nobody`` showing your own record).
SOMEONE_OR_YOU: Any = commands.parameter(default=None, converter=MemberOrMe)
_COG_ATTRIBUTES = frozenset(
    {"service", "live", "run", "carry_out", "play_choices", "drill_choices"}
)
REQUIRED = object()  # the default of a parameter that has none


def about(entry: Entry) -> str:
    """A command's one-line description (Discord allows 100 characters)."""
    summary = entry.summary[:100]
    return summary if summary.startswith("gnubg") else summary[:1].upper() + summary[1:]


def attribute_name(entry: Entry) -> str:
    """The cog's attribute holding the command: its name, or ``help_`` where the name is
    Python's or the cog's own."""
    name = entry.name
    taken = keyword.iskeyword(name) or hasattr(builtins, name) or hasattr(commands.Cog, name)
    return f"{name}_" if taken or name in _COG_ATTRIBUTES else name


def _parameter(argument: Argument) -> tuple[Any, Any]:
    """(annotation, default) of the callback's parameter for ``argument``; the default is
    ``REQUIRED`` for a required one."""
    if argument.kind is Kind.USER:
        if argument.required:
            return MemberOrMe, REQUIRED
        return MemberOrMe | None, SOMEONE_OR_YOU
    # The rest of the line, as typed: the service judges it (a converter or a Literal would
    # drop the words it can't read, e.g. a resignation level, and go on without them).
    return (str, REQUIRED) if argument.required else (str | None, None)


class _Parameters:
    """What a command's callback stands for, as discord.py reads it: the callback is generic
    (``self, ctx, *args, **kwargs``) and names this as its ``__wrapped__``, whose
    ``__signature__`` :func:`inspect.signature` returns (it follows ``__wrapped__``)."""

    def __init__(self, signature: Signature) -> None:
        self.__signature__ = signature


def _callback(entry: Entry) -> Callback:
    """The callback of ``entry``'s command: ``(self, ctx, <a parameter per argument>)`` as
    discord.py sees it (names, annotations, defaults; a rest-of-line argument keyword-only),
    calling ``carry_out`` with the values in the entry's order."""
    clashes = {"self", "ctx"} & {argument.name for argument in entry.arguments}
    if clashes:
        raise ValueError(f"{entry.name}: these argument names are taken: {sorted(clashes)}")
    # discord.py's own Parameter and Signature: it reads them back as they are.
    positional = commands.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [commands.Parameter("self", positional), commands.Parameter("ctx", positional)]
    kind: inspect._ParameterKind = positional
    for argument in entry.arguments:
        if argument.rest_of_line:
            kind = commands.Parameter.KEYWORD_ONLY
        annotation, default = _parameter(argument)
        empty = commands.Parameter.empty
        parameters.append(
            commands.Parameter(
                argument.name,
                kind,
                annotation=annotation,
                default=empty if default is REQUIRED else default,
            )
        )
    names = [argument.name for argument in entry.arguments]

    async def callback(self: TableCog, ctx: Ctx, *args: Any, **kwargs: Any) -> None:
        given = dict(zip(names, args, strict=False)) | kwargs
        await self.carry_out(ctx, entry, [given.get(name) for name in names])

    name = attribute_name(entry)
    callback.__wrapped__ = _Parameters(  # type: ignore[attr-defined]
        Signature(parameters, return_annotation=None)
    )
    callback.__name__ = name
    callback.__qualname__ = f"TableCog.{name}"  # a method: discord.py then skips ``self``
    return callback


async def _command_names(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return help_topics(current)


def help_topics(current: str) -> list[app_commands.Choice[str]]:
    """The commands whose name starts with what the user typed so far (at most 25)."""
    word = current.strip().lower()
    return [
        app_commands.Choice(name=name, value=name) for name in BY_NAME if name.startswith(word)
    ][:25]


async def _tournament_verbs(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=shown[:100], value=sent[:100])
        for shown, sent in verb_choices(current)
        if sent
    ]


async def _legal_plays(
    cog: TableCog, interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await cog.play_choices(interaction, current)


_legal_plays.__qualname__ = "TableCog._legal_plays"  # discord.py then passes the cog


async def _drill_answers(
    cog: TableCog, interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await cog.drill_choices(interaction, current)


_drill_answers.__qualname__ = "TableCog._drill_answers"  # discord.py then passes the cog


def hybrid_command(entry: Entry) -> Hybrid:
    """The hybrid command of one registry entry."""
    function = _callback(entry)
    if entry.arguments:
        descriptions = {argument.name: argument.description for argument in entry.arguments}
        function = app_commands.describe(**descriptions)(function)
    for argument in entry.arguments:
        if argument.choices:
            offered = [app_commands.Choice(name=word, value=word) for word in argument.choices]
            function = app_commands.choices(**{argument.name: offered})(function)
    if entry.guild_only:
        function = commands.guild_only()(function)
    if entry.moderator:
        function = app_commands.default_permissions(manage_messages=True)(function)  # shown to them
    command: Hybrid = commands.hybrid_command(
        name=entry.name, description=about(entry), aliases=list(entry.aliases)
    )(function)
    for argument in entry.arguments:
        if argument.kind is Kind.COMMAND:
            command.autocomplete(argument.name)(_command_names)
        elif argument.kind is Kind.PLAY:
            command.autocomplete(argument.name)(_legal_plays)
        elif argument.kind is Kind.DRILL_ANSWER:
            command.autocomplete(argument.name)(_drill_answers)
        elif argument.kind is Kind.TOURNAMENT:
            command.autocomplete(argument.name)(_tournament_verbs)
    return command


def hybrid_commands(table: CommandTable = COMMANDS) -> dict[str, Hybrid]:
    """Every entry's hybrid command, under the cog attribute that holds it."""
    return {attribute_name(entry): hybrid_command(entry) for entry in table}


def organises(ctx: Ctx, role: str | None) -> bool:
    """Whether the command's author runs tournaments here: Manage Server, or the server's
    tournament role (``TOURNAMENT_ROLE``)."""
    if ctx.permissions.manage_guild:
        return True
    roles = getattr(ctx.author, "roles", ())
    return role is not None and any(r.name.lower() == role.lower() for r in roles)


def ctx_place(ctx: Ctx) -> Place:
    return place_of(ctx.guild.id if ctx.guild is not None else None, ctx.channel.id)


class TableCog(commands.Cog, name="Backgammon"):
    # discord.py collects a cog's commands from its class namespace, as it is being made.
    locals().update(hybrid_commands())

    def __init__(self, service: TableService, live: LiveButtons) -> None:
        self.service = service
        self.live = live

    async def play_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """``/move``'s choices: the legal plays of the user's roll that fit what they typed
        (nothing for anyone else). A choice is sent as shown, and the move command reads it."""
        if interaction.channel_id is None:
            return []
        place = place_of(interaction.guild_id, interaction.channel_id)
        plays = await self.service.move_choices(place, user_of(interaction.user), current)
        return [app_commands.Choice(name=play, value=play) for play in plays]

    async def drill_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """``/drill``'s choices: the answers of the user's awaiting drill that fit what they
        typed (its legal plays, or its cube words), else ``stats``. Sent as shown, read by the
        drill command as if typed."""
        if interaction.channel_id is None:
            return []
        place = place_of(interaction.guild_id, interaction.channel_id)
        answers = await self.service.drill_choices(place, user_of(interaction.user), current)
        return [app_commands.Choice(name=answer, value=answer) for answer in answers]

    async def run(self, ctx: Ctx, call: Call) -> None:
        place = ctx_place(ctx)
        replies, deferred = await within_deadline(ctx, call(place, user_of(ctx.author)))
        target = CommandTarget(ctx, deferred=deferred)
        await send_routed(target, place, replies, self.live, lambda at: messageable(ctx.bot, at))
        await open_rounds(ctx.bot, self.service, replies, self.live)

    async def carry_out(self, ctx: Ctx, entry: Entry, values: list[Any]) -> None:
        """Run ``entry``'s service method with the arguments discord.py read."""
        arguments: list[Any] = []
        for argument, value in zip(entry.arguments, values, strict=True):
            if argument.kind is Kind.USER and value is not None:
                if value.id == ctx.me.id:  # this bot: GNU Backgammon's seat (`!challenge @me`)
                    arguments.append(ENGINE_USER)
                    continue
                if value.bot and argument.bots_refused:
                    refusal = Reply(argument.bots_refused, private=True)
                    await send_replies(CommandTarget(ctx), [refusal])
                    return
                value = user_of(value)
            arguments.append(value)
        handler = entry.handler_of(self.service)
        options: dict[str, Any] = {}
        if entry.moderator:
            options["moderator"] = ctx.permissions.manage_messages  # in this channel (slash too)
        if entry.organiser:
            options["organiser"] = organises(ctx, self.service.settings.tournament_role)
        if entry.opens_thread:  # a typed command's message: the match's thread may hang from it
            origin = ctx.message if ctx.interaction is None else None
            options["threads"] = DiscordThreads(ctx.bot, self.live, origin=origin)
        await self.run(ctx, lambda place, user: handler(place, user, *arguments, **options))
