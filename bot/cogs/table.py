"""Every table command as a hybrid command: ``!move 13/7 8/7`` and ``/move play:13/7 8/7``.

Each one turns the context into a place and a user, calls the service and sends its replies;
the game itself lives in :mod:`bot.service`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.replies import (
    CommandTarget,
    LiveButtons,
    place_of,
    send_replies,
    user_of,
    within_deadline,
)
from bot.service.help import BY_NAME
from bot.service.models import Place, Reply, User
from bot.service.table import TableService

Ctx = commands.Context[Any]
LEVELS = ("single", "gammon", "backgammon")
# Optional, but converted as a Member, not as Optional[Member]: discord.py would take a name it
# can't find for no name at all (``!stats nobody`` showing your own record).
SOMEONE_OR_YOU: Any = commands.parameter(default=None, converter=discord.Member)
Call = Callable[[Place, User], Awaitable[list[Reply]]]


def about(name: str) -> str:
    """A command's one-line description (Discord allows 100 characters)."""
    summary = BY_NAME[name].summary[:100]
    return summary if summary.startswith("gnubg") else summary[:1].upper() + summary[1:]


def table_command(
    name: str,
) -> Callable[[Callable[..., Coroutine[Any, Any, None]]], commands.HybridCommand[Any, ..., None]]:
    """A hybrid command named after its entry in :mod:`bot.service.help`."""
    return commands.hybrid_command(name=name, description=about(name))


def ctx_place(ctx: Ctx) -> Place:
    return place_of(ctx.guild.id if ctx.guild is not None else None, ctx.channel.id)


class TableCog(commands.Cog, name="Backgammon"):
    def __init__(self, service: TableService, live: LiveButtons) -> None:
        self.service = service
        self.live = live

    async def run(self, ctx: Ctx, call: Call) -> None:
        place = ctx_place(ctx)
        replies, deferred = await within_deadline(ctx, call(place, user_of(ctx.author)))
        sent = await send_replies(CommandTarget(ctx, deferred=deferred), replies)
        await self.live.update(place, sent)

    # -- challenges ---------------------------------------------------------------------------

    @table_command("challenge")
    @commands.guild_only()
    @app_commands.describe(
        opponent="Who you challenge",
        length="Points to play (1-25), or 'money' (add jacoby, beavers or auto for those rules)",
    )
    async def challenge(
        self, ctx: Ctx, opponent: discord.Member, *, length: str | None = None
    ) -> None:
        if opponent.bot:
            refusal = Reply("Bots don't play here: challenge a person.", private=True)
            await send_replies(CommandTarget(ctx), [refusal])
            return
        await self.run(
            ctx, lambda place, user: self.service.challenge(place, user, user_of(opponent), length)
        )

    @table_command("accept")
    async def accept(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.accept)

    @table_command("decline")
    async def decline(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.decline)

    @table_command("cancel")
    async def cancel(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.cancel)

    # -- play ---------------------------------------------------------------------------------

    @table_command("roll")
    async def roll(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.roll)

    @table_command("move")
    @app_commands.describe(play="Your play, e.g. 13/7 8/7, bar/22, 6/off or 8/2(2)")
    async def move(self, ctx: Ctx, *, play: str) -> None:
        await self.run(ctx, lambda place, user: self.service.move(place, user, play))

    @table_command("double")
    async def double(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.double)

    @table_command("take")
    async def take(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.take)

    @table_command("drop")
    async def drop(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.drop)

    @table_command("beaver")
    async def beaver(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.beaver)

    @table_command("resign")
    @app_commands.describe(level="How much you give up (default: single)")
    @app_commands.choices(level=[app_commands.Choice(name=word, value=word) for word in LEVELS])
    async def resign(self, ctx: Ctx, *, level: str | None = None) -> None:
        # All the words, as typed: the service refuses any it can't read (a converter would
        # drop them and offer a single game).
        await self.run(ctx, lambda place, user: self.service.resign(place, user, level))

    @table_command("reject")
    async def reject(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.reject)

    # -- looking ------------------------------------------------------------------------------

    @table_command("board")
    async def board(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.board)

    @table_command("pips")
    async def pips(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.pips)

    @table_command("score")
    async def score(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.score)

    @table_command("export")
    async def export(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.export)

    # -- ending early -------------------------------------------------------------------------

    @table_command("abort")
    async def abort(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.abort)

    @table_command("claim")
    async def claim(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.claim)

    @table_command("void")
    @commands.guild_only()
    @app_commands.default_permissions(manage_messages=True)  # shown to moderators only
    async def void(self, ctx: Ctx) -> None:
        moderator = ctx.permissions.manage_messages  # in this channel (a slash command's too)
        await self.run(ctx, lambda place, user: self.service.void(place, user, moderator=moderator))

    # -- the server ---------------------------------------------------------------------------

    @table_command("leaderboard")
    async def leaderboard(self, ctx: Ctx) -> None:
        await self.run(ctx, self.service.leaderboard)

    @table_command("stats")
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        self,
        ctx: Ctx,
        member: discord.Member | None = SOMEONE_OR_YOU,
    ) -> None:
        target = user_of(member) if member is not None else None
        await self.run(ctx, lambda place, user: self.service.stats(place, user, target))

    @table_command("help")
    @app_commands.describe(command="One command to explain")
    async def help_(self, ctx: Ctx, *, command: str | None = None) -> None:
        await self.run(ctx, lambda place, user: self.service.help(place, user, command))

    @help_.autocomplete("command")
    async def _help_topics(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return help_topics(current)


def help_topics(current: str) -> list[app_commands.Choice[str]]:
    """The commands whose name starts with what the user typed so far (at most 25)."""
    word = current.strip().lower()
    return [
        app_commands.Choice(name=name, value=name) for name in BY_NAME if name.startswith(word)
    ][:25]
