"""Replies turned into Discord messages: places, users, a long text in messages within Discord's
limit, the board PNG, a file, the decision's buttons, and a ping for the player who must act,
and nobody else.

Every reply of every command and button goes out through :func:`send_replies` or
:func:`deliver`; where each goes, and what stays live, is :mod:`bot.cogs.replies`'s.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.cogs.buttons import decision_view
from bot.cogs.layout import BOARD_FILENAME, TableMessages, is_table_reply, send_table
from bot.cogs.pings import lead_of, mention_ids
from bot.i18n import posting as say
from bot.i18n.core import Language
from bot.service.models import PRIVATE_SERVER, Place, Reply, Sheet, User

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # characters of message content Discord accepts
DEFER_AFTER = 2.0  # seconds: a slash command must be answered within 3


def place_of(guild_id: int | None, channel_id: int) -> Place:
    """The table of a channel; a thread is a channel of its own, a DM is in no server."""
    server = str(guild_id) if guild_id is not None else PRIVATE_SERVER
    return Place(server_id=server, channel_id=str(channel_id))


def user_of(user: discord.abc.User, language: Language) -> User:
    """``user`` for the service; ``language``: the one their command is answered in (see
    :mod:`bot.cogs.language`)."""
    return User(id=str(user.id), name=user.display_name, language=language)


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, at a line end when there is one near."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    newline = cut.rfind("\n")
    if newline > limit // 2:
        cut = cut[:newline]
    return cut + "…"


def pieces(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, in order: each cut at a line end
    when there is one in its second half (a line longer than that is cut where it must be)."""
    found: list[str] = []
    rest = text
    while len(rest) > limit:
        newline = rest.rfind("\n", 0, limit + 1)
        cut = newline if newline > limit // 2 else limit
        found.append(rest[:cut])
        rest = rest[cut:].removeprefix("\n")
    found.append(rest)
    return found


def split(reply: Reply) -> tuple[list[str], Reply]:
    """A public reply too long for one message: the texts sent first, then the reply with the
    rest (its board, its buttons and its pings: the end of the story and the question asked)."""
    if reply.sheet is not None:
        return [], reply
    lead = lead_of(reply)
    room = MESSAGE_LIMIT - (len(lead) + 1 if lead else 0)
    if len(reply.text) <= room:
        return [], reply
    *first, last = pieces(reply.text, room)
    return first, dataclasses.replace(reply, text=last)


EMBED_COLOUR = discord.Colour(0x2E7D32)  # the board's green


def sheet_embed(sheet: Sheet) -> discord.Embed:
    """A :class:`Sheet` as an embed: a field per section (each within Discord's 1,024)."""
    embed = discord.Embed(title=sheet.title, description=sheet.description, colour=EMBED_COLOUR)
    for section in sheet.sections:
        embed.add_field(name=section.title, value=fit("\n".join(section.lines), 1024), inline=False)
    return embed


def message_kwargs(reply: Reply) -> dict[str, Any]:
    """The keyword arguments of ``send`` for one public reply."""
    pinged = mention_ids(reply)
    lead = lead_of(reply)
    text = "" if reply.sheet is not None else reply.text
    kwargs: dict[str, Any] = {
        "content": fit(f"{lead} {text}" if lead else text),
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user_id) for user_id in pinged],
        ),
    }
    if reply.sheet is not None:
        kwargs["embed"] = sheet_embed(reply.sheet)
    files = []
    if reply.image is not None:
        files.append(discord.File(io.BytesIO(reply.image), filename=BOARD_FILENAME))
    if reply.file is not None:
        files.append(discord.File(io.BytesIO(reply.file.data), filename=reply.file.filename))
    if files:
        kwargs["files"] = files
    if reply.decision is not None and reply.decision_key is not None:
        kwargs["view"] = decision_view(
            reply.decision,
            reply.decision_key,
            money_game=reply.money_game,
            language=reply.language,
        )
    return kwargs


async def deliver(
    send: Callable[..., Awaitable[Any]], reply: Reply, *, attach: bool = True, **extra: Any
) -> Any:
    """Send one public reply; returns the message, or None when it could not be sent (logged).

    A text longer than a message goes in several, in order (:func:`split`): the last carries the
    board, the buttons and the pings, and is the one returned.

    Without Attach Files (``attach`` false, or the upload refused with 403 or 413), the text goes
    alone: it says what happened, and a note says why the board is missing. A Discord 5xx is
    tried once more; a reply that still fails leaves its match unannounced, to be re-posted at
    the next start.
    """
    first, reply = split(reply)
    for text in first:
        try:
            await send(content=text, allowed_mentions=discord.AllowedMentions.none(), **extra)
        except discord.HTTPException as error:
            log.warning("Could not send a reply's start (%s %s)", error.status, error.text)
            return None
    note = None if attach else say.NO_ATTACH_BOARD(reply.language)
    retried = False
    while True:
        kwargs = message_kwargs(reply)
        if note is not None and "files" in kwargs:
            del kwargs["files"]
            kwargs["content"] = fit(f"{kwargs['content']}\n{note}")
        try:
            return await send(**kwargs, **extra)
        except discord.HTTPException as error:
            if note is None and "files" in kwargs and error.status in (403, 413):
                log.warning("Sending a reply without its files: %s %s", error.status, error.text)
                said = say.NO_ATTACH_BOARD if error.status == 403 else say.TOO_LARGE_BOARD
                note = said(reply.language)
                continue
            if error.status >= 500 and not retried:
                retried = True
                continue
            log.warning(
                "Could not send a reply (%s %s): %r", error.status, error.text, reply.text[:80]
            )
            return None


class Target(Protocol):
    """Where replies go: a command's context, or a button's interaction."""

    async def send(self, reply: Reply) -> discord.Message | None: ...


class CommandTarget:
    """Replies to a prefix or slash command (a hybrid command's context)."""

    def __init__(
        self,
        ctx: commands.Context[Any],
        *,
        deferred: bool = False,
        tables: TableMessages | None = None,
    ) -> None:
        """``tables``: the table messages a typed command's board edits (none: a message
        each)."""
        self.ctx = ctx
        self.deferred = deferred
        self.tables = tables
        self.sent = 0

    async def send(self, reply: Reply) -> discord.Message | None:
        ctx = self.ctx
        self.sent += 1
        if reply.private:
            if ctx.interaction is None:
                return await ctx.reply(
                    fit(reply.text),
                    mention_author=False,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            if self.deferred and self.sent == 1:
                # A public "thinking..." would turn the first followup public: remove it.
                try:
                    await ctx.interaction.delete_original_response()
                except discord.HTTPException:
                    log.debug("Could not delete the deferred response", exc_info=True)
            return await ctx.send(
                fit(reply.text), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        tables = self.tables
        # Without Attach Files the board can't be shown: the words go alone, the old way.
        attach = ctx.bot_permissions.attach_files
        if tables is not None and tables.enabled and attach and is_table_reply(reply):
            # A slash command is answered by a message of its own (Discord shows who used the
            # command): it becomes the table's. A typed one edits the table's message.
            if ctx.interaction is None:
                edited = await tables.edit(ctx.channel, reply, ctx.author.id)
                if edited is not None:
                    return edited
            sent, shown = await send_table(ctx.send, reply)
            if shown:
                return sent
        message: discord.Message | None = await deliver(ctx.send, reply)
        return message


class InteractionTarget:
    """Replies to a button press, as followups (the press was deferred)."""

    def __init__(
        self, interaction: discord.Interaction[Any], *, tables: TableMessages | None = None
    ) -> None:
        self.interaction = interaction
        self.tables = tables

    async def send(self, reply: Reply) -> discord.Message | None:
        followup = self.interaction.followup
        if reply.private:
            return await followup.send(
                fit(reply.text),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
                wait=True,
            )
        if self.tables is not None and self.tables.enabled and is_table_reply(reply):
            sent, shown = await send_table(followup.send, reply, wait=True)
            if shown:
                return sent
        message: discord.Message | None = await deliver(followup.send, reply, wait=True)
        return message


class ChannelTarget:
    """Public replies posted straight to a channel (a re-post after a restart)."""

    def __init__(
        self,
        channel: discord.abc.Messageable,
        *,
        attach: bool = True,
        tables: TableMessages | None = None,
    ) -> None:
        self.channel = channel
        self.attach = attach
        self.tables = tables

    async def send(self, reply: Reply) -> discord.Message | None:
        if reply.private:
            return None  # meant for one user, and there is nobody to tell here
        tables = self.tables
        if self.attach and tables is not None and tables.enabled and is_table_reply(reply):
            sent, shown = await send_table(self.channel.send, reply)
            if shown:
                return sent
        message: discord.Message | None = await deliver(
            self.channel.send, reply, attach=self.attach
        )
        return message


Sent = list[tuple[Reply, discord.Message | None]]


async def send_replies(target: Target, replies: Sequence[Reply]) -> Sent:
    """Send each reply as one message; returns what was sent, for :class:`LiveButtons`."""
    sent: Sent = []
    for reply in replies:
        sent.append((reply, await target.send(reply)))
    return sent


def messageable(
    client: discord.Client, place: Place, tables: TableMessages | None = None
) -> ChannelTarget | None:
    """Where to post at ``place``: its channel or thread (one just opened may not be in the
    cache yet: then by its id alone); None for a place that is not Discord's."""
    if not place.channel_id.isdigit():
        return None
    channel = client.get_channel(int(place.channel_id))
    if isinstance(channel, discord.TextChannel | discord.Thread):
        attach = channel.permissions_for(channel.guild.me).attach_files
        return ChannelTarget(channel, attach=attach, tables=tables)
    guild_id = int(place.server_id) if place.server_id.isdigit() else None
    partial = client.get_partial_messageable(int(place.channel_id), guild_id=guild_id)
    return ChannelTarget(partial, tables=tables)


async def within_deadline(
    ctx: commands.Context[Any], work: Awaitable[list[Reply]]
) -> tuple[list[Reply], bool]:
    """Run ``work``; a slash command still running after :data:`DEFER_AFTER` is deferred
    (Discord drops interactions not answered within 3 s). Returns (replies, deferred)."""
    if ctx.interaction is None:
        return await work, False
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if done:
        return task.result(), False
    await ctx.defer()
    return await task, True


async def remove_buttons(message: discord.Message) -> None:
    """Edit ``message`` to drop its buttons; a failure only leaves stale (harmless) buttons."""
    try:
        await message.edit(view=None)
        return
    except discord.NotFound:
        return  # deleted
    except discord.HTTPException:
        if not isinstance(message, discord.WebhookMessage | discord.InteractionMessage):
            log.debug("Could not edit message %s", message.id, exc_info=True)
            return
    # An interaction's message outlives its 15-minute token: edit it as the bot instead.
    partial = getattr(message.channel, "get_partial_message", None)
    if partial is None:
        return
    try:
        await partial(message.id).edit(view=None)
    except discord.HTTPException:
        log.debug("Could not remove the buttons of message %s", message.id, exc_info=True)
