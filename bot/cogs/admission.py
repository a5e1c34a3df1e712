"""Before a command or a press runs: its rate limit, and the permissions the bot needs for it."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.errors import tell_interaction
from bot.cogs.language import spoken
from bot.cogs.permissions import missing_permissions, missing_text, privileged
from bot.cogs.sending import place_of
from bot.service.commands.limits import Gate, Verdict
from bot.service.languages import Languages

log = logging.getLogger(__name__)


async def admit_command(gate: Gate, ctx: commands.Context[Any], languages: Languages) -> bool:
    """Whether a prefix command may run. Call before ``invoke``: nothing has happened yet.

    Past its rate a command is refused once (a reply) and then dropped silently; the owner and
    the channel's moderators never are. In a channel where the bot lacks a permission the
    command needs, it is refused naming the permission: in the channel when the bot can still
    write there, else in a direct message (at most once per :attr:`Limits.notice` per user and
    channel; then silently).
    """
    command = ctx.command
    assert command is not None
    name = command.qualified_name
    place = place_of(ctx.guild.id if ctx.guild is not None else None, ctx.channel.id)
    chosen = privileged(ctx.bot, ctx.author.id, ctx.permissions)
    check = await gate.check(place, str(ctx.author.id), privileged=chosen)
    if check.verdict is Verdict.DROP:
        return False
    missing: list[str] = []
    if ctx.guild is not None:
        thread = isinstance(ctx.channel, discord.Thread)
        missing = missing_permissions(ctx.bot_permissions, name, thread=thread)
    if missing:
        if not gate.limiter.notice(place, str(ctx.author.id)):
            return False
        slash = isinstance(command, commands.HybridCommand)
        text = missing_text(missing, name, ctx.clean_prefix, slash=slash)
        can_write = not {"View Channel", "Send Messages", "Send Messages in Threads"} & set(missing)
        try:
            if can_write:
                await ctx.send(text, allowed_mentions=discord.AllowedMentions.none())
            else:
                await ctx.author.send(text)
        except discord.HTTPException:
            log.warning("Could not tell %s: %s", ctx.author, text, exc_info=True)
        return False
    if check.verdict is Verdict.REFUSE:
        await ctx.reply(
            check.text(await spoken(languages, place, None)),
            mention_author=False,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return False
    return True


async def admit_interaction(
    gate: Gate, interaction: discord.Interaction[Any], languages: Languages
) -> bool:
    """Whether a slash command or a button press may run. Past its rate it is answered all the
    same, for the user alone, with how long to wait: Discord shows "This interaction failed" for
    one left unanswered, and the answer costs no channel message. No permission check: replies
    through an interaction need none of the channel's."""
    if interaction.channel_id is None:
        return True
    place = place_of(interaction.guild_id, interaction.channel_id)
    chosen = privileged(interaction.client, interaction.user.id, interaction.permissions)
    check = await gate.check(place, str(interaction.user.id), privileged=chosen)
    if check.verdict is Verdict.ALLOW:
        return True
    await tell_interaction(
        interaction, check.text(await spoken(languages, place, interaction.locale))
    )
    return False
