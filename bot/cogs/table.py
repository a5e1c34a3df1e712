"""Every table command as a hybrid command: ``!move 13/7 8/7`` and ``/move play:13/7 8/7``.

One method per entry of :data:`bot.service.commands.registry.COMMANDS`, in its order, taking the
entry's arguments; :func:`bot.cogs.hybrid.table_command` makes it the entry's command (names,
descriptions, choices and checks from the registry). Each one turns the context into a place
and a user, calls the entry's :class:`TableService` handler and sends its replies; the game
itself lives in :mod:`bot.service`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.daily import daily_channel
from bot.cogs.hybrid import SOMEONE_OR_YOU, Ctx, Someone, entry_of, table_command
from bot.cogs.language import spoken
from bot.cogs.replies import LiveButtons, open_rounds, send_routed
from bot.cogs.sending import (
    CommandTarget,
    messageable,
    place_of,
    send_replies,
    user_of,
    within_deadline,
)
from bot.cogs.threads import DiscordThreads
from bot.i18n.core import ENGLISH, Language
from bot.service.commands.registry import BY_NAME
from bot.service.commands.schema import Kind
from bot.service.models import ENGINE_USER, Place, Reply, User
from bot.service.table import TableService
from bot.service.tournaments.terms import verb_choices

Call = Callable[[Place, User], Awaitable[list[Reply]]]
Choices = list[app_commands.Choice[str]]


def help_topics(current: str) -> Choices:
    """The commands whose name starts with what the user typed so far (at most 25)."""
    word = current.strip().lower()
    return [
        app_commands.Choice(name=name, value=name) for name in BY_NAME if name.startswith(word)
    ][:25]


def organises(ctx: Ctx, role: str | None) -> bool:
    """Whether the command's author runs tournaments here: Manage Server, or the server's
    tournament role (``TOURNAMENT_ROLE``)."""
    if ctx.permissions.manage_guild:
        return True
    roles = getattr(ctx.author, "roles", ())
    return role is not None and any(r.name.lower() == role.lower() for r in roles)


def ctx_place(ctx: Ctx) -> Place:
    return place_of(ctx.guild.id if ctx.guild is not None else None, ctx.channel.id)


def interaction_place(interaction: discord.Interaction[Any]) -> Place | None:
    if interaction.channel_id is None:
        return None
    return place_of(interaction.guild_id, interaction.channel_id)


class TableCog(commands.Cog, name="Backgammon"):
    def __init__(self, service: TableService, live: LiveButtons) -> None:
        self.service = service
        self.live = live

    @table_command("challenge")
    async def challenge(self, ctx: Ctx, opponent: Someone, *, length: str | None = None) -> None:
        await self.carry_out(ctx, opponent, length)

    @table_command("accept")
    async def accept(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("decline")
    async def decline(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("cancel")
    async def cancel(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("rematch")
    async def rematch(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("roll")
    async def roll(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("move")
    async def move(self, ctx: Ctx, *, play: str) -> None:
        await self.carry_out(ctx, play)

    @move.autocomplete("play")
    async def legal_plays(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """The legal plays of the user's roll that fit what they typed (nothing for anyone
        else). A choice is sent as shown, and the move command reads it."""
        place = interaction_place(interaction)
        if place is None:
            return []
        user = user_of(
            interaction.user, await spoken(self.service.server.languages, place, interaction.locale)
        )
        plays = await self.service.matches.move_choices(place, user, current)
        return [app_commands.Choice(name=play, value=play) for play in plays]

    @table_command("double")
    async def double(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("take")
    async def take(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("drop")
    async def drop(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("beaver")
    async def beaver(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("resign")
    async def resign(self, ctx: Ctx, *, level: str | None = None) -> None:
        await self.carry_out(ctx, level)

    @table_command("reject")
    async def reject(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("hint")
    async def hint(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("board")
    async def board(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("pips")
    async def pips(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("score")
    async def score(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("abort")
    async def abort(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("claim")
    async def claim(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("export")
    async def export(self, ctx: Ctx, *, match: str | None = None) -> None:
        await self.carry_out(ctx, match)

    @table_command("void")
    async def void(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("analysis")
    async def analysis(self, ctx: Ctx, *, match: str | None = None) -> None:
        await self.carry_out(ctx, match)

    @table_command("show")
    async def show(self, ctx: Ctx, *, position: str) -> None:
        await self.carry_out(ctx, position)

    @table_command("eval")
    async def eval_(self, ctx: Ctx, *, position: str) -> None:
        await self.carry_out(ctx, position)

    @table_command("tournament")
    async def tournament(self, ctx: Ctx, *, what: str | None = None) -> None:
        await self.carry_out(ctx, what)

    @tournament.autocomplete("what")
    async def tournament_verbs(
        self, interaction: discord.Interaction[Any], current: str
    ) -> Choices:
        """A tournament's verbs, and the terms of the one typed."""
        return [
            app_commands.Choice(name=shown[:100], value=sent[:100])
            for shown, sent in verb_choices(current)
            if sent
        ]

    @table_command("join")
    async def join(self, ctx: Ctx, *, tournament: str | None = None) -> None:
        await self.carry_out(ctx, tournament)

    @table_command("leave")
    async def leave(self, ctx: Ctx, *, tournament: str | None = None) -> None:
        await self.carry_out(ctx, tournament)

    @table_command("review")
    async def review(self, ctx: Ctx, *, what: str | None = None) -> None:
        await self.carry_out(ctx, what)

    @table_command("drill")
    async def drill(self, ctx: Ctx, *, what: str | None = None) -> None:
        await self.carry_out(ctx, what)

    @drill.autocomplete("what")
    async def drill_answers(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """The answers of the user's awaiting drill that fit what they typed (its legal plays,
        or its cube words), else ``stats``. Sent as shown, read by the drill command as if
        typed."""
        place = interaction_place(interaction)
        if place is None:
            return []
        user = user_of(
            interaction.user, await spoken(self.service.server.languages, place, interaction.locale)
        )
        answers = await self.service.review_commands.drill_choices(place, user, current)
        return [app_commands.Choice(name=answer, value=answer) for answer in answers]

    @table_command("puzzle")
    async def puzzle(self, ctx: Ctx, *, what: str | None = None) -> None:
        if ctx.permissions.manage_guild:  # others are refused the setting by the service
            locale = ctx.interaction.locale if ctx.interaction is not None else None
            language = await spoken(self.service.server.languages, ctx_place(ctx), locale)
            what, refusal = daily_channel(ctx.guild, what, language)
            if refusal is not None:
                await send_replies(CommandTarget(ctx), [Reply(refusal, private=True)])
                return
        await self.carry_out(ctx, what)

    @puzzle.autocomplete("what")
    async def puzzle_answers(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        """The answers of the user's awaited puzzle that fit what they typed (its legal plays,
        never ranked, or its cube words), else its words. Read as if typed."""
        place = interaction_place(interaction)
        if place is None:
            return []
        user = user_of(
            interaction.user, await spoken(self.service.server.languages, place, interaction.locale)
        )
        answers = await self.service.puzzles.puzzle_choices(place, user, current)
        return [app_commands.Choice(name=answer, value=answer) for answer in answers]

    @table_command("leaderboard")
    async def leaderboard(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("dice")
    async def dice(self, ctx: Ctx) -> None:
        await self.carry_out(ctx)

    @table_command("stats")
    async def stats(self, ctx: Ctx, member: discord.Member | None = SOMEONE_OR_YOU) -> None:
        await self.carry_out(ctx, member)

    @table_command("settings")
    async def settings(self, ctx: Ctx, *, what: str | None = None) -> None:
        await self.carry_out(ctx, what)

    @table_command("help")
    async def help_(self, ctx: Ctx, *, command: str | None = None) -> None:
        await self.carry_out(ctx, command)

    @help_.autocomplete("command")
    async def command_names(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        return help_topics(current)

    async def run(self, ctx: Ctx, call: Call, language: Language) -> None:
        """``call`` the service for ``ctx``'s author, whose command is answered in
        ``language``, and send what it replies."""
        place = ctx_place(ctx)
        user = user_of(ctx.author, language)
        replies, deferred = await within_deadline(ctx, call(place, user))
        target = CommandTarget(ctx, deferred=deferred, tables=self.live.tables)
        tables = self.live.tables
        await send_routed(
            target, place, replies, self.live, lambda at: messageable(ctx.bot, at, tables)
        )
        await open_rounds(ctx.bot, self.service, replies, self.live)

    async def carry_out(self, ctx: Ctx, *values: Any) -> None:
        """Run the service's handler of the command's entry with the arguments discord.py
        read, in the entry's order, in the language of the command (see
        :mod:`bot.cogs.language`)."""
        locale = ctx.interaction.locale if ctx.interaction is not None else None
        await self._carry_out(
            ctx, await spoken(self.service.server.languages, ctx_place(ctx), locale), *values
        )

    async def _carry_out(self, ctx: Ctx, language: Language, *values: Any) -> None:
        entry = entry_of(ctx)
        arguments: list[Any] = []
        for argument, value in zip(entry.arguments, values, strict=True):
            if argument.kind is Kind.USER and value is not None:
                if value.id == ctx.me.id:  # this bot: GNU Backgammon's seat (`!challenge @me`)
                    arguments.append(ENGINE_USER)
                    continue
                if value.bot and argument.bots_refused is not None:
                    refusal = Reply(argument.bots_refused(language), private=True)
                    await send_replies(CommandTarget(ctx), [refusal])
                    return
                value = user_of(value, ENGLISH)  # not the author: answered in no language
            arguments.append(value)
        handler = self.service.handler(entry)
        options: dict[str, Any] = {}
        if entry.moderator:
            options["moderator"] = ctx.permissions.manage_messages  # in this channel (slash too)
        if entry.organiser:
            options["organiser"] = organises(ctx, self.service.settings.tournament_role)
        if entry.manager:
            options["manager"] = ctx.permissions.manage_guild
        if entry.opens_thread:  # a typed command's message: the match's thread may hang from it
            origin = ctx.message if ctx.interaction is None else None
            options["threads"] = DiscordThreads(
                ctx.bot, self.live, self.service.server.languages, origin=origin
            )
        await self.run(
            ctx, lambda place, user: handler(place, user, *arguments, **options), language
        )
