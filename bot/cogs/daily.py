"""``!puzzle daily #channel 09:00`` in Discord: the channel named must be a text channel of this
server the bot may post in, checked before the service stores it (the console takes any name)."""

from __future__ import annotations

import discord

from bot.cogs.permissions import PERMISSION_NAMES
from bot.i18n import puzzles as say
from bot.i18n.core import Language
from bot.service.puzzles.daily import setting_channel

POSTING = ("view_channel", "send_messages")  # a post without Attach Files goes as text


def daily_channel(
    guild: discord.Guild | None, what: str | None, language: Language
) -> tuple[str | None, str | None]:
    """``what`` with the channel as a mention (a typed ``#name`` found by its name), and the
    refusal (in ``language``) when the channel is not one the bot may post the daily puzzle in
    (else None)."""
    named = None if what is None or guild is None else setting_channel(what)
    if what is None or guild is None or named is None:
        return what, None
    word, key = named
    channel = (
        guild.get_channel(int(key))
        if key.isdigit() and word.startswith("<#")
        else discord.utils.get(guild.text_channels, name=key)
    )
    if not isinstance(channel, discord.TextChannel):
        return what, say.DAILY_NOT_A_CHANNEL(language, word=word[:40])
    perms = channel.permissions_for(guild.me)
    missing = [PERMISSION_NAMES[name] for name in POSTING if not getattr(perms, name)]
    if missing:
        return what, say.DAILY_CANT_POST(
            language, channel=channel.mention, missing=" and ".join(missing)
        )
    return what.replace(word, channel.mention, 1), None
