"""Where the replies of a command go, and which buttons stay live.

A command's replies go through its own target, except those meant for another place (a match's
new thread, a thread's result for its channel); :class:`LiveButtons` remembers the newest
question of each channel. How one reply becomes a message is :mod:`bot.cogs.sending`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.bounded import Bounded
from bot.cogs.layout import TableMessages, folded, is_layout, is_table_reply, without_buttons
from bot.cogs.progress import LiveProgress
from bot.cogs.sending import (
    ChannelTarget,
    Sent,
    Target,
    messageable,
    place_of,
    remove_buttons,
    send_replies,
)
from bot.cogs.threads import DiscordThreads
from bot.service.keys import Key
from bot.service.models import Decision, Place, Reply
from bot.service.table import TableService

log = logging.getLogger(__name__)

LIVE_KEPT = 10_000  # channels whose newest buttons are remembered (least recently used go)


async def send_routed(
    target: Target,
    place: Place,
    replies: Sequence[Reply],
    live: LiveButtons,
    elsewhere: Callable[[Place], Target | None],
    shown: Sent | None = None,
) -> None:
    """Send ``replies`` of a command at ``place``: through ``target``, except those meant for
    another place (a match's new thread, a thread's result for its channel), posted there;
    then :meth:`LiveButtons.update` for each place. ``shown``: what the command showed at
    ``place`` already (a press's table message, edited in its response)."""
    if live.tables.enabled:
        replies = folded(replies)
    sent: dict[Place, Sent] = {place: list(shown or [])}
    targets: dict[Place, Target | None] = {place: target}
    for reply in replies:
        at = reply.place if reply.place is not None else place
        if at not in targets:
            targets[at] = elsewhere(at)
        to = targets[at]
        message = await to.send(reply) if to is not None else None
        sent.setdefault(at, []).append((reply, message))
    for at, posted in sent.items():
        await live.update(at, posted, answering=targets[at])


async def open_rounds(
    client: discord.Client, service: TableService, replies: Sequence[Reply], live: LiveButtons
) -> None:
    """The matches of each tournament round ``replies`` paired (their ``RoundPaired``), opened
    in threads of the tournament's channel and announced there."""
    more = await service.open_rounds(
        list(replies), DiscordThreads(client, live, service.server.languages)
    )
    by_place: dict[Place, list[Reply]] = {}
    for reply in more:
        if reply.place is not None:
            by_place.setdefault(reply.place, []).append(reply)
    for at, said in by_place.items():
        target = messageable(client, at, live.tables)
        if target is not None:
            await live.update(at, await send_replies(target, said))


@dataclass(slots=True)
class _Live:
    message: discord.Message
    key: Key | None  # the question its buttons answer (see :class:`Pending`)
    reply: Reply  # what it shows (a table message loses its buttons by being shown again)


# Questions that are not the table's: a tournament's sign-up, a review's page, an analysis'
# Review button, a drill, a puzzle (the channel's game keeps its own buttons while they are
# asked).
UNTRACKED = (
    None,
    Decision.SIGNUP,
    Decision.REVIEW,
    Decision.REVIEW_ERRORS,
    Decision.ANALYSED,
    Decision.DRILL_DOUBLE,
    Decision.DRILL_TAKE,
    Decision.PUZZLE_DOUBLE,
    Decision.PUZZLE_TAKE,
    Decision.DAILY_PLAY,
    Decision.DAILY_DOUBLE,
    Decision.DAILY_TAKE,
    Decision.STORM_DOUBLE,
    Decision.STORM_TAKE,
)


class LiveButtons:
    """The newest message with buttons in each channel.

    When a newer question is asked, or the question is answered some other way (typed, not
    pressed), the old message loses its buttons: one edit instead of stale buttons piling up.
    Only a nicety: after a restart it is empty, and a stale press is still refused. It keeps the
    ``kept`` most recently active channels.

    It also records which state of a match was shown: a sent reply that ``announces`` one marks
    it in the store, so a state whose message failed is re-posted at the next start; and hands
    a sent reply that shows a background job to :attr:`progress`, which edits it as it goes.
    """

    def __init__(
        self,
        service: TableService,
        *,
        kept: int = LIVE_KEPT,
        client: discord.Client | None = None,
        layout: bool = False,
    ) -> None:
        """``client``: the bot, to reach the channels a job's last replies name (none without
        it: they go beside the job's message); ``layout``: one message per table
        (:mod:`bot.cogs.layout`)."""
        self.service = service
        self.tables = TableMessages(service, enabled=layout)
        self._client = client
        self._live: Bounded[Place, _Live] = Bounded(kept)
        # messages that show a job's progress, and what a queued bot turn ends with
        self.progress = LiveProgress(service, post=self._post_after)

    @property
    def size(self) -> int:
        """How many channels' buttons are remembered."""
        return len(self._live)

    def message_id(self, place: Place) -> int | None:
        live = self._live.peek(place)
        return live.message.id if live else None

    def message(self, place: Place, key: Key | None) -> discord.Message | None:
        """The message at ``place`` whose buttons answer the question ``key``, if known."""
        live = self._live.peek(place)
        return live.message if live is not None and key is not None and live.key == key else None

    def shown(self, place: Place, message_id: int) -> Reply | None:
        """What the live message ``message_id`` at ``place`` shows, if it is that."""
        live = self._live.peek(place)
        return live.reply if live is not None and live.message.id == message_id else None

    def forget(self, place: Place, message_id: int) -> None:
        live = self._live.peek(place)
        if live is not None and live.message.id == message_id:
            self._live.pop(place)

    def _remember(self, place: Place, live: _Live) -> None:
        self._live.put(place, live)

    def _elsewhere(self, at: Place) -> Target | None:
        return None if self._client is None else messageable(self._client, at, self.tables)

    async def _post_after(self, message: discord.Message, replies: list[Reply]) -> None:
        """What a job yields after its outcome (a queued bot turn's replies), as new messages
        beside the job's ``message`` (or where a reply says), buttons and pings as any."""
        guild = message.guild
        place = place_of(guild.id if guild is not None else None, message.channel.id)
        target = ChannelTarget(message.channel, tables=self.tables)
        await send_routed(target, place, replies, self, self._elsewhere)

    async def update(self, place: Place, sent: Sent, *, answering: Target | None = None) -> None:
        """Remember ``sent``'s newest question at ``place`` (its older one loses its buttons),
        mark what it showed, follow its jobs. ``answering``: where ``sent`` went; in a DM or
        group DM, where the bot may be no member, what a job yields after it (a queued bot
        turn) answers there too, not in the channel."""
        post = None
        if answering is not None and place.private:
            target = answering

            async def post(replies: list[Reply]) -> None:
                await send_routed(target, place, replies, self, self._elsewhere)

        self.progress.follow(sent, post=post)
        await self._mark_announced(sent)
        newest = None
        for reply, message in sent:
            # A tournament's sign-up is no question of the table: anyone answers it, for as long
            # as it is open, so its message keeps its buttons whatever is said after it.
            if reply.decision not in UNTRACKED and not reply.private and message:
                newest = _Live(message, reply.decision_key, reply)
        old = self._live.peek(place)
        if newest is not None:
            self._remember(place, newest)
            if old is not None and old.message.id != newest.message.id:
                await self._close(old)
            return
        if old is None:
            return
        if any(message is not None and message.id == old.message.id for _, message in sent):
            self._live.pop(place)  # a table message shown again: its buttons went then
            return
        pending = await self.service.pending_decision(place)
        if pending is None or pending.key != old.key:
            self._live.pop(place)
            await self._close(old)

    @staticmethod
    async def _close(live: _Live) -> None:
        """Take the buttons off ``live``'s message: a table message is shown again without
        them (removing its components would take its board and words too)."""
        if not (is_layout(live.message) and is_table_reply(live.reply)):
            await remove_buttons(live.message)
            return
        try:
            await without_buttons(live.message, live.reply)
        except discord.HTTPException:  # deleted, or out of reach: a press on them is stale
            log.debug("Could not take the buttons off table message %s", live.message.id)

    async def _mark_announced(self, sent: Sent) -> None:
        shown: dict[int, int] = {}
        tables: dict[int, str] = {}
        for reply, message in sent:
            if reply.announces is not None and message is not None and not reply.private:
                match_id, version = reply.announces
                shown[match_id] = max(version, shown.get(match_id, 0))
                table = is_layout(message) and is_table_reply(reply)
                if table:
                    tables[match_id] = str(message.id)
                self.tables.shown(match_id, version, message.id if table else None)
        await self.service.mark_all_announced(shown, tables)
