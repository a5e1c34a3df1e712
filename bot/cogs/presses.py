"""What a button press does: :meth:`TableService.press` decides (no Discord in it),
:class:`ButtonPresses` answers the interaction.

A press is answered through the interaction alone: the pressed message is updated in the
response (its buttons go, type 7), or a refusal is the response (ephemeral); the new board
follows as a followup. Interaction calls are exempt from Discord's global rate limit, so a press
costs none of it. Only an answer slower than :data:`DEFER_AFTER` is deferred first (type 6).

A press carries the key of the question its message asked; the table, read once from the store
under the channel's lock, says which question is open now. Only a press on that very question
is carried out, so an old message never answers a newer question, even one of the same kind.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.cogs.admission import admit_interaction
from bot.cogs.language import spoken
from bot.cogs.layout import folded, is_layout, table_kwargs, table_view
from bot.cogs.replies import LiveButtons, open_rounds, send_routed
from bot.cogs.sending import (
    DEFER_AFTER,
    InteractionTarget,
    fit,
    message_kwargs,
    messageable,
    place_of,
    user_of,
)
from bot.cogs.threads import DiscordThreads
from bot.i18n.core import Language
from bot.service.commands.limits import Gate
from bot.service.commands.registry import COMMANDS
from bot.service.keys import Key
from bot.service.models import Decision, Place, Reply
from bot.service.table import TableService

log = logging.getLogger(__name__)


def _signs_up(action: str) -> bool:
    """A tournament's Join or Leave, a review's page, the daily puzzle's buttons: its answer is
    for the presser alone or turns the pressed message (no new channel message), and such
    presses come many at once from people not seated at the channel's table, whom the channel's
    shared window for watchers would turn away after the third."""
    found = COMMANDS.pressed(action)
    return found is not None and any(
        b.decision
        in (
            Decision.SIGNUP,
            Decision.REVIEW,
            Decision.REVIEW_ERRORS,
            Decision.DAILY_PLAY,
            Decision.DAILY_DOUBLE,
            Decision.DAILY_TAKE,
        )
        for b in found[0].buttons
    )


async def _turn_page(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Show ``reply`` in place of the pressed message (a review's next page); a private one (a
    watcher's copy) as an ephemeral message of its own, with the same buttons, unless the
    pressed message is that copy already: then it turns in place too."""
    kwargs = message_kwargs(reply)
    pressed = interaction.message
    if reply.private and not (pressed is not None and pressed.flags.ephemeral):
        kwargs["ephemeral"] = True
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
        return
    files = kwargs.pop("files", [])
    kwargs.pop("allowed_mentions", None)
    if interaction.response.is_done():
        await interaction.edit_original_response(attachments=files, **kwargs)
    else:
        await interaction.response.edit_message(attachments=files, **kwargs)


async def _show_table(interaction: discord.Interaction[Any], reply: Reply) -> bool:
    """Show ``reply`` in the pressed table message: the press's one REST call (or, deferred,
    the edit of its message through the interaction's token). False when Discord refused it
    (the board's upload): the press is then answered the old way."""
    kwargs = table_kwargs(reply)
    files = kwargs.pop("files")
    kwargs.pop("allowed_mentions")
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(attachments=files, **kwargs)
        else:
            await interaction.response.edit_message(attachments=files, **kwargs)
    except discord.HTTPException as error:
        log.warning("A press could not show the table (%s %s)", error.status, error.text)
        return False
    return True


class ButtonPresses:
    """Answers every press of a decision button (see :func:`bot.cogs.buttons.register_buttons`)."""

    def __init__(self, service: TableService, live: LiveButtons, gate: Gate | None = None) -> None:
        self.service = service
        self.live = live
        self.gate = gate

    async def __call__(
        self, interaction: discord.Interaction[Any], action: str, key: Key | None
    ) -> None:
        if interaction.channel_id is None:
            return
        place = place_of(interaction.guild_id, interaction.channel_id)
        language = await spoken(self.service.server.languages, place, interaction.locale)
        await self._answer(interaction, place, action, key, language)

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        place: Place,
        action: str,
        key: Key | None,
        language: Language,
    ) -> None:
        """The press, answered in the language :meth:`__call__` chose."""
        if (
            self.gate is not None
            and not _signs_up(action)
            and not await admit_interaction(self.gate, interaction, self.service.server.languages)
        ):
            return  # told how long to wait
        # An accepted challenge's thread starts from the pressed message.
        threads = DiscordThreads(
            interaction.client,
            self.live,
            self.service.server.languages,
            origin=interaction.message,
        )
        task = asyncio.ensure_future(
            self.service.press(
                place, user_of(interaction.user, language), action, key, threads=threads
            )
        )
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done:  # slow (a board to draw, the engine's turn): acknowledge, answer later
            await interaction.response.defer()
        result = await task
        pressed = interaction.message
        tables = self.live.tables
        replies = folded(result.replies) if tables.enabled else result.replies
        if (
            replies
            and is_layout(pressed)
            and tables.editable(replies[0], interaction.user.id)
            and await _show_table(interaction, replies[0])
        ):
            # The table's next state in place of the pressed one (see bot.cogs.layout).
            await send_routed(
                InteractionTarget(interaction, tables=tables),
                place,
                replies[1:],
                self.live,
                lambda at: messageable(interaction.client, at, tables),
                shown=[(replies[0], pressed)],
            )
            await open_rounds(interaction.client, self.service, replies, self.live)
            return
        if replies and (
            replies[0].edits
            or (
                replies[0].private
                and replies[0].decision in (Decision.REVIEW, Decision.REVIEW_ERRORS)
            )
        ):
            # A review's page, or the sign-up message with its entrants now: in place of the
            # pressed message (or a watcher's copy); what follows it (the presser's answer) after.
            await _turn_page(interaction, replies[0])
            await send_routed(
                InteractionTarget(interaction),
                place,
                replies[1:],
                self.live,
                lambda at: messageable(interaction.client, at),
            )
            return
        if result.closed and interaction.message is not None:
            shown = self.live.shown(place, interaction.message.id)
            self.live.forget(place, interaction.message.id)
            await self._remove_buttons(interaction, shown)
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
            InteractionTarget(interaction, tables=tables),
            place,
            replies,
            self.live,
            lambda at: messageable(interaction.client, at, tables),
        )
        await open_rounds(interaction.client, self.service, replies, self.live)

    @staticmethod
    async def _remove_buttons(interaction: discord.Interaction[Any], shown: Reply | None) -> None:
        """The pressed message loses its buttons: in the response when it is still due, else
        by editing the response's message (both through the interaction's token). A table
        message (``shown`` what it shows) is shown again without them; one not known (sent
        before a restart) keeps them: a press on them is refused as stale."""
        view: discord.ui.LayoutView | None = None
        if is_layout(interaction.message):
            if shown is None:
                if not interaction.response.is_done():
                    await interaction.response.defer()
                return
            view = table_view(shown, buttons=False)
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(view=view)
            else:
                await interaction.response.edit_message(view=view)
        except discord.HTTPException:
            log.debug("Could not remove the buttons after a press", exc_info=True)
            if not interaction.response.is_done():
                await interaction.response.defer()
