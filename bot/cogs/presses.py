"""What a button press does: :func:`press` decides (no Discord in it), :class:`ButtonPresses`
answers the interaction.

Everything comes from the store through the service, never from the view: a press after a
restart, or on a message the game has left behind, is judged on the table as it is now.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.cogs.buttons import BUTTONS
from bot.cogs.replies import InteractionTarget, LiveButtons, place_of, send_replies, user_of
from bot.service.models import Place, Reply, User
from bot.service.table import TableService

log = logging.getLogger(__name__)

STALE = "This button is out of date: the game has moved on."


@dataclass(frozen=True, slots=True)
class Pressed:
    replies: list[Reply]
    remove_buttons: bool  # the question is answered or gone: the pressed message loses them


async def press(service: TableService, place: Place, user: User, button_id: str) -> Pressed:
    """Carry out a press of ``button_id`` by ``user`` at ``place``."""
    spec = BUTTONS.get(button_id)
    pending = await service.pending_decision(place)
    if spec is None or pending is None or pending[0] is not spec.decision:
        return Pressed([Reply(STALE, private=True)], remove_buttons=True)
    user_id, name = pending.user_id, pending.name
    if user.id != user_id:
        return Pressed([Reply(f"Not your decision: waiting for {name}.", private=True)], False)
    replies = await spec.action(service, place, user)
    return Pressed(replies, remove_buttons=any(not reply.private for reply in replies))


class ButtonPresses:
    """The press handler of the persistent view."""

    def __init__(self, service: TableService, live: LiveButtons) -> None:
        self.service = service
        self.live = live

    async def __call__(self, interaction: discord.Interaction[Any], button_id: str) -> None:
        if interaction.channel_id is None:
            return
        place = place_of(interaction.guild_id, interaction.channel_id)
        # Acknowledge at once (no visible change): the answer may need a board drawn.
        await interaction.response.defer()
        result = await press(self.service, place, user_of(interaction.user), button_id)
        if result.remove_buttons and interaction.message is not None:
            self.live.forget(place, interaction.message.id)
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                log.debug("Could not remove the buttons after a press", exc_info=True)
        sent = await send_replies(InteractionTarget(interaction), result.replies)
        await self.live.update(place, sent)
