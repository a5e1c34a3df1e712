"""From Discord to the service and back: places, users, and replies turned into messages.

Every reply of every command and button goes out through :func:`send_replies`: the text (cut to
Discord's limit), the board PNG, a file, the decision's buttons, and a ping for the player who
must act, and nobody else.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.cogs.buttons import decision_view
from bot.service.models import Decision, Place, Reply, User
from bot.service.table import TableService

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # characters of message content Discord accepts
DEFER_AFTER = 2.0  # seconds: a slash command must be answered within 3
BOARD_FILENAME = "board.png"


def place_of(guild_id: int | None, channel_id: int) -> Place:
    """The table of a channel; a thread is a channel of its own, a DM is in no server."""
    server = str(guild_id) if guild_id is not None else "dm"
    return Place(server_id=server, channel_id=str(channel_id))


def user_of(user: discord.abc.User) -> User:
    return User(id=str(user.id), name=user.display_name)


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, at a line end when there is one near."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    newline = cut.rfind("\n")
    if newline > limit // 2:
        cut = cut[:newline]
    return cut + "…"


def mention_ids(reply: Reply) -> list[int]:
    return [int(user_id) for user_id in reply.mention if user_id.isdigit()]


def message_kwargs(reply: Reply) -> dict[str, Any]:
    """The keyword arguments of ``send`` for one public reply."""
    pinged = mention_ids(reply)
    lead = " ".join(f"<@{user_id}>" for user_id in pinged)
    kwargs: dict[str, Any] = {
        "content": fit(f"{lead} {reply.text}" if lead else reply.text),
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user_id) for user_id in pinged],
        ),
    }
    files = []
    if reply.image is not None:
        files.append(discord.File(io.BytesIO(reply.image), filename=BOARD_FILENAME))
    if reply.file is not None:
        files.append(discord.File(io.BytesIO(reply.file.data), filename=reply.file.filename))
    if files:
        kwargs["files"] = files
    if reply.decision is not None and reply.decision_key is not None:
        kwargs["view"] = decision_view(
            reply.decision, reply.decision_key, money_game=reply.money_game
        )
    return kwargs


class Target(Protocol):
    """Where replies go: a command's context, or a button's interaction."""

    async def send(self, reply: Reply) -> discord.Message | None: ...


class CommandTarget:
    """Replies to a prefix or slash command (a hybrid command's context)."""

    def __init__(self, ctx: commands.Context[Any], *, deferred: bool = False) -> None:
        self.ctx = ctx
        self.deferred = deferred
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
        return await ctx.send(**message_kwargs(reply))


class InteractionTarget:
    """Replies to a button press, as followups (the press was deferred)."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction

    async def send(self, reply: Reply) -> discord.Message | None:
        followup = self.interaction.followup
        if reply.private:
            return await followup.send(
                fit(reply.text),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
                wait=True,
            )
        return await followup.send(**message_kwargs(reply), wait=True)


Sent = list[tuple[Reply, discord.Message | None]]


async def send_replies(target: Target, replies: Sequence[Reply]) -> Sent:
    """Send each reply as one message; returns what was sent, for :class:`LiveButtons`."""
    sent: Sent = []
    for reply in replies:
        sent.append((reply, await target.send(reply)))
    return sent


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


@dataclass(slots=True)
class _Live:
    message: discord.Message
    decision: Decision
    user_id: str | None


class LiveButtons:
    """The newest message with buttons in each channel.

    When a newer question is asked, or the question is answered some other way (typed, not
    pressed), the old message loses its buttons: one edit instead of stale buttons piling up.
    Only a nicety: after a restart it is empty, and a stale press is still refused.
    """

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._live: dict[Place, _Live] = {}

    def message_id(self, place: Place) -> int | None:
        live = self._live.get(place)
        return live.message.id if live else None

    def forget(self, place: Place, message_id: int) -> None:
        live = self._live.get(place)
        if live is not None and live.message.id == message_id:
            del self._live[place]

    async def update(self, place: Place, sent: Sent) -> None:
        newest = None
        for reply, message in sent:
            if reply.decision is not None and not reply.private and message is not None:
                newest = _Live(message, reply.decision, reply.decision_for)
        old = self._live.get(place)
        if newest is not None:
            self._live[place] = newest
            if old is not None and old.message.id != newest.message.id:
                await remove_buttons(old.message)
            return
        if old is None:
            return
        pending = await self.service.pending_decision(place)
        if pending is None or (pending[0], pending[1]) != (old.decision, old.user_id):
            self._live.pop(place, None)
            await remove_buttons(old.message)


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
