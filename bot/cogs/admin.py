"""Owner-only upkeep: ``!sync`` publishes the slash commands (never done on every start)."""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord.ext import commands

log = logging.getLogger(__name__)


class AdminCog(commands.Cog, name="Admin"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.command(hidden=True)
    @commands.is_owner()
    async def sync(
        self, ctx: commands.Context[Any], scope: Literal["global", "guild", "clear"] = "global"
    ) -> None:
        """Sync slash commands: everywhere (``global``, up to an hour to show), to this server
        at once (``guild``), or remove this server's copies (``clear``)."""
        tree = self.bot.tree
        if scope == "global":
            synced = await tree.sync()
            text = f"Synced {len(synced)} slash commands globally."
        else:
            if ctx.guild is None:
                raise commands.NoPrivateMessage()
            guild = discord.Object(ctx.guild.id)
            if scope == "guild":
                tree.copy_global_to(guild=guild)
            else:
                tree.clear_commands(guild=guild)
            synced = await tree.sync(guild=guild)
            text = f"Synced {len(synced)} slash commands to this server."
        log.info("%s (by %s)", text, ctx.author)
        await ctx.send(text)
