"""Messages that show a background job (an analysis, a queued bot turn), edited in place.

A reply with a ``job`` is sent as any other; then :class:`LiveProgress` follows the job through
:meth:`TableService.follow` and edits that message: at most one edit per :data:`EDIT_EVERY`
seconds while it runs (Discord limits edits, and nobody reads faster), and the outcome at once,
with its file (the chart) attached. What a job yields after its outcome (a queued bot turn's
replies: its board, buttons and ping) is posted as new messages, through ``post``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cogs.buttons import decision_view
from bot.cogs.sending import Sent, fit
from bot.i18n import posting as say
from bot.service.models import Reply
from bot.service.table import TableService

log = logging.getLogger(__name__)

Post = Callable[[discord.Message, list[Reply]], Awaitable[None]]  # new messages after a job's
After = Callable[[list[Reply]], Awaitable[None]]  # the same, sent where the job was asked for

EDIT_EVERY = 2.0  # seconds between two edits of a progress message


class LiveProgress:
    """The tasks that keep progress messages up to date (one per message)."""

    def __init__(
        self,
        service: TableService,
        *,
        every: float = EDIT_EVERY,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        post: Post | None = None,
    ) -> None:
        """``post``: sends what a job yields after its outcome, beside the job's message."""
        self.service = service
        self._post = post
        self._every = every
        self._sleep = sleep
        self._clock = clock
        self._tasks: set[asyncio.Task[None]] = set()

    def follow(self, sent: Sent, *, post: After | None = None) -> None:
        """Start following the job of each sent reply that shows one; ``post``: where what a
        job yields after its outcome goes (default: beside its message, through ``post`` of
        the constructor)."""
        for reply, message in sent:
            if reply.job is None or message is None or reply.private:
                continue
            task = asyncio.create_task(self.keep_up(message, reply, post))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def wait(self) -> None:
        """Until every message followed now shows its outcome (for tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def keep_up(
        self, message: discord.Message, sent: Reply, post: After | None = None
    ) -> None:
        """Edit ``message`` (which shows ``sent``) as its job goes, until its outcome; what
        the job yields after it goes through ``post``, else beside ``message``."""
        job = sent.job
        assert job is not None
        latest: Reply | None = None
        after: list[Reply] = []  # what the job yields after its outcome
        ended = False
        arrived = asyncio.Event()

        async def read() -> None:
            nonlocal latest, ended
            try:
                async for update in self.service.follow(job):
                    if latest is not None and latest.job is None:
                        after.append(update)
                        continue
                    latest = update
                    arrived.set()
            finally:
                ended = True
                arrived.set()

        reader = asyncio.create_task(read())
        shown = sent.text
        last_edit = self._clock()  # the message was just sent
        try:
            while True:
                await arrived.wait()
                arrived.clear()
                update = latest
                if update is not None and update.job is None:
                    await edit(message, update)
                    await reader
                    if after and post is not None:
                        await post(after)
                    elif after and self._post is not None:
                        await self._post(message, after)
                    return
                if update is None or update.text == shown:
                    if ended:
                        return
                    continue
                wait = self._every - (self._clock() - last_edit)
                if wait > 0:
                    await self._sleep(wait)
                    if latest is not update:  # something newer came meanwhile: show that
                        arrived.set()
                        continue
                await edit(message, update)
                shown, last_edit = update.text, self._clock()
        except Exception:
            log.exception("Could not keep the progress of %s up to date", sent.job)
        finally:
            reader.cancel()


def _files(reply: Reply) -> list[discord.File]:
    files = []
    if reply.image is not None:
        files.append(discord.File(io.BytesIO(reply.image), filename="board.png"))
    if reply.file is not None:
        files.append(discord.File(io.BytesIO(reply.file.data), filename=reply.file.filename))
    return files


async def edit(message: discord.Message, reply: Reply) -> None:
    """Show ``reply`` in ``message`` (its files attached). Without Attach Files (403) or with
    a file too large (413), the text goes alone with a note; an interaction's message past its
    token's 15 minutes is edited as the bot instead."""
    files = _files(reply)
    note = ""
    for _ in range(3):
        kwargs: dict[str, Any] = {"content": fit(f"{reply.text}\n{note}" if note else reply.text)}
        if files and not note:
            kwargs["attachments"] = files
        if reply.decision is not None and reply.decision_key is not None:  # the Review button
            kwargs["view"] = decision_view(
                reply.decision,
                reply.decision_key,
                money_game=reply.money_game,
                language=reply.language,
            )
        try:
            await _edit(message, kwargs)
            return
        except discord.HTTPException as error:
            if files and not note and error.status in (403, 413):
                said = say.NO_ATTACH_CHART if error.status == 403 else say.TOO_LARGE_CHART
                note = said(reply.language)
                for file in files:
                    file.reset()
                continue
            log.warning("Could not edit message %s: %s %s", message.id, error.status, error.text)
            return


async def _edit(message: discord.Message, kwargs: dict[str, Any]) -> None:
    try:
        await message.edit(**kwargs)
    except discord.HTTPException:
        # An interaction's message outlives its 15-minute token: edit it as the bot instead.
        partial = getattr(message.channel, "get_partial_message", None)
        interaction = isinstance(message, discord.WebhookMessage | discord.InteractionMessage)
        if not interaction or partial is None:
            raise
        await partial(message.id).edit(**kwargs)
