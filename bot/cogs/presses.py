"""What a button press does: :func:`press` decides (no Discord in it), :class:`ButtonPresses`
answers the interaction.

A press is answered through the interaction alone: the pressed message is updated in the
response (its buttons go, type 7), or a refusal is the response (ephemeral); the new board
follows as a followup. Interaction calls are exempt from Discord's global rate limit, so a press
costs none of it. Only an answer slower than :data:`DEFER_AFTER` is deferred first (type 6).

A press carries the key of the question its message asked; the table, read from the store
through the service, says which question is open now. Only a press on that very question is
carried out, so an old message never answers a newer question, even one of the same kind.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.cogs.buttons import BUTTONS
from bot.cogs.replies import (
    DEFER_AFTER,
    InteractionTarget,
    LiveButtons,
    admit_interaction,
    fit,
    messageable,
    place_of,
    send_routed,
    user_of,
)
from bot.cogs.threads import ORIGIN
from bot.service.commands.limits import Gate
from bot.service.models import Decision, Place, Reply, User
from bot.service.table import OUT_OF_DATE, TableService

log = logging.getLogger(__name__)

STALE = OUT_OF_DATE
STALE_CHALLENGE = "This button is out of date: that challenge is no longer open."


def stale_text(key: str) -> str:
    return STALE_CHALLENGE if key.startswith("c") else STALE


@dataclass(frozen=True, slots=True)
class Pressed:
    replies: list[Reply]
    remove_buttons: bool  # the question is answered or gone: the pressed message loses them


async def press(service: TableService, place: Place, user: User, action: str, key: str) -> Pressed:
    """Carry out a press by ``user`` at ``place`` of the button ``action`` of question ``key``."""
    pending = await service.pending_decision(place)
    spec = BUTTONS.get((pending.decision, action)) if pending is not None else None
    if pending is not None and key == pending.rematch_key:  # the rematch offered since: accept
        spec, key = BUTTONS.get((Decision.REMATCH, action)), pending.key
    if pending is None or pending.key != key or spec is None:
        return Pressed([Reply(stale_text(key), private=True)], remove_buttons=True)
    if not pending.answerable_by(user.id):
        refusal = Reply(f"Not your decision: waiting for {pending.name}.", private=True)
        return Pressed([refusal], remove_buttons=False)
    # The key is checked again under the channel's lock: a command that lands in between
    # can't make this press answer a newer question.
    command = spec.answer(service)
    replies = await service.answer(place, user, key, command)
    return Pressed(replies, remove_buttons=any(not reply.private for reply in replies))


class ButtonPresses:
    """Answers every press of a decision button (see :func:`bot.cogs.buttons.register_buttons`)."""

    def __init__(self, service: TableService, live: LiveButtons, gate: Gate | None = None) -> None:
        self.service = service
        self.live = live
        self.gate = gate

    async def __call__(self, interaction: discord.Interaction[Any], action: str, key: str) -> None:
        if interaction.channel_id is None:
            return
        place = place_of(interaction.guild_id, interaction.channel_id)
        if self.gate is not None and not await admit_interaction(self.gate, interaction):
            return  # told how long to wait
        token = ORIGIN.set(interaction.message)  # an accepted challenge's thread starts there
        try:
            task = asyncio.ensure_future(
                press(self.service, place, user_of(interaction.user), action, key)
            )
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:  # slow (a board to draw, the engine's turn): acknowledge, answer later
                await interaction.response.defer()
            result = await task
        finally:
            ORIGIN.reset(token)
        replies = result.replies
        if result.remove_buttons and interaction.message is not None:
            self.live.forget(place, interaction.message.id)
            await self._remove_buttons(interaction)
        elif not interaction.response.is_done():
            if replies and replies[0].private:  # a refusal: the response itself, for them only
                await interaction.response.send_message(
                    fit(replies[0].text),
                    ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                replies = replies[1:]
            else:
                await interaction.response.defer()
        await send_routed(
            InteractionTarget(interaction),
            place,
            replies,
            self.live,
            lambda at: messageable(interaction.client, at),
        )

    @staticmethod
    async def _remove_buttons(interaction: discord.Interaction[Any]) -> None:
        """The pressed message loses its buttons: in the response when it is still due, else
        by editing the response's message (both through the interaction's token)."""
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(view=None)
            else:
                await interaction.response.edit_message(view=None)
        except discord.HTTPException:
            log.debug("Could not remove the buttons after a press", exc_info=True)
            if not interaction.response.is_done():
                await interaction.response.defer()
