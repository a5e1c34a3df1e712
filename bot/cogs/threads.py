"""Discord's side of a thread per match: :class:`DiscordThreads` opens a public thread for a match
about to start (see :mod:`bot.service.matches.threads`), from the challenge's message when it is
known.

Only a text channel gets threads: in a forum, a thread, a voice channel's chat or a direct
message the match is played in place. Without the permissions to open and write in threads,
the bot says so once per channel (per run) and plays in the channel.
"""

from __future__ import annotations

import logging
from typing import Final, Protocol, cast

import discord

from bot.bounded import Bounded
from bot.i18n import posting as say
from bot.i18n import rules
from bot.i18n.core import Language, chained, worded
from bot.service.keys import Key
from bot.service.languages import Languages
from bot.service.matches.threads import Opened
from bot.service.models import Place

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Final = 10080  # a week, Discord's longest: correspondence play goes quiet
THREADABLE = (discord.ChannelType.text, discord.ChannelType.news)
THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread)
NEEDED = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}
TOLD_KEPT = 10_000  # channels told of a missing permission (least recently told go)
# The channels told so, by this process: once per process and channel, whichever client or
# opener asks (a new login's setup makes a new opener).
_TOLD: Bounded[Place, bool] = Bounded(TOLD_KEPT)


class Questions(Protocol):
    """Where a question was asked: :class:`bot.cogs.replies.LiveButtons`, which imports this."""

    def message(self, place: Place, key: Key | None) -> discord.Message | None: ...


def no_thread_text(missing: list[str], language: Language) -> str:
    """Why matches are played in the channel: the permissions ``missing`` (Discord's names)."""
    permissions = worded(chained(rules.AND, missing), language)
    return say.NO_THREAD(language, len(missing), permissions=permissions)


class DiscordThreads:
    """The :class:`bot.service.matches.threads.ThreadOpener` of a Discord client, for one
    command. ``origin``: the message it came with (a typed command's, or the pressed button's):
    a match's thread hangs from it when the challenge's own message is not known (e.g. after a
    restart)."""

    def __init__(
        self,
        client: discord.Client,
        live: Questions,
        languages: Languages,
        *,
        origin: discord.Message | None = None,
    ) -> None:
        """``languages``: the servers' (a thread's notices speak its server's language)."""
        self._client = client
        self._live = live
        self._languages = languages
        self._origin = origin

    async def open(self, place: Place, name: str, key: Key | None) -> Opened:
        if not place.channel_id.isdigit():
            return Opened(None)
        found = self._client.get_channel(int(place.channel_id))
        if found is None or getattr(found, "type", None) not in THREADABLE:
            return Opened(None)  # a forum, a thread, a DM: played in place
        channel = cast(discord.TextChannel, found)
        perms = channel.permissions_for(channel.guild.me)
        missing = [label for name_, label in NEEDED.items() if not getattr(perms, name_)]
        if missing:
            return Opened(None, await self._once(place, missing))
        origin = self._live.message(place, key)
        if origin is None:  # not known (a restart): the message the command came with
            origin = self._origin
            if origin is not None and getattr(origin.channel, "id", None) != channel.id:
                origin = None
        try:
            thread = await self._create(channel, name, origin)
        except discord.Forbidden:
            return Opened(None, await self._once(place, list(NEEDED.values())))
        except discord.HTTPException as error:
            log.warning("Could not open a thread in %s (%s %s)", place, error.status, error.text)
            return Opened(None)
        return Opened(Place(place.server_id, str(thread.id)))

    async def _create(
        self, channel: discord.TextChannel, name: str, origin: discord.Message | None
    ) -> discord.Thread:
        if origin is not None:
            try:
                return await channel.create_thread(
                    name=name, message=origin, auto_archive_duration=ARCHIVE_MINUTES
                )
            except discord.HTTPException as error:
                if isinstance(error, discord.Forbidden):
                    raise
                # e.g. the message already has a thread, or was deleted: one without a message
                log.info("No thread from message %s (%s): a thread alone", origin.id, error.text)
        return await channel.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_MINUTES,
        )

    async def _once(self, place: Place, missing: list[str]) -> str | None:
        """Why there is no thread (the permissions ``missing``) the first time for ``place``,
        then None."""
        if place in _TOLD:
            return None
        _TOLD.put(place, True)
        return no_thread_text(missing, await self._languages.of(place.server_id))

    async def discard(self, thread: Place) -> None:
        """Delete a thread opened for a match that never started there (with Manage Threads);
        without that permission, say so in it and archive it."""
        try:
            found = self._client.get_channel(int(thread.channel_id))
            if found is None:
                found = await self._client.fetch_channel(int(thread.channel_id))
            if getattr(found, "type", None) not in THREADS:
                return  # never a channel: only what this opener opened
            opened = cast(discord.Thread, found)
            try:
                await opened.delete()
            except discord.Forbidden:
                language = await self._languages.of(thread.server_id)
                await opened.send(say.UNUSED_THREAD(language))
                await opened.edit(archived=True)
        except discord.HTTPException as error:
            log.warning(
                "Could not remove unused thread %s (%s %s)", thread, error.status, error.text
            )
