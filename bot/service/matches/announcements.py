"""What the channels have been shown of their matches: who sits at a table, which match states
were never shown (left so by an earlier run), a match's status as it stands, and the mark that
a state was shown. The adapters ask these; nothing here plays."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager

from bot.i18n.core import Language
from bot.service.commands.limits import RECENT_SECONDS
from bot.service.matches.presentation import BoardImages, status_reply
from bot.service.matches.reading import MatchReader
from bot.service.models import Place, Reply
from bot.settings import Settings
from bot.store import Store


class Announcements:
    """The matches' announcements in their channels. ``started_at``: when the service began
    (a match changed since was changed by its own commands, whose replies announce it)."""

    def __init__(
        self,
        store: Store,
        repository: MatchReader,
        images: BoardImages,
        settings: Settings,
        clock: Callable[[], float],
        locked: Callable[[Place], AbstractAsyncContextManager[None]],
    ) -> None:
        self._store = store
        self._repository = repository
        self._images = images
        self._settings = settings
        self._clock = clock
        self._locked = locked
        self.started_at = clock()

    async def seated(self, place: Place) -> frozenset[str]:
        """Ids of the players of the channel's match and of its open challenge, and of its match
        that ended in the last :data:`RECENT_SECONDS` (one read)."""
        now = self._clock()
        return await self._store.matches.seated(
            place.server_id, place.channel_id, now, now - RECENT_SECONDS
        )

    async def unannounced(self) -> list[tuple[Place, int, int]]:
        """(place, match id, version) of each match whose newest state was never shown, left so
        by an earlier run: one changed since this service began has a command's reply on its
        way (players may play while the bot is still connecting), which announces it."""
        return [
            (Place(row.server_id, row.channel_id), row.id, row.version)
            for row in await self._store.matches.unannounced()
            if row.last_action_at < self.started_at
        ]

    async def current_status(self, place: Place, *, language: Language) -> list[Reply]:
        """The status message of the channel's match as it stands (none without a match)."""
        async with self._locked(place):
            table = await self._repository.table(place, repair=False)
            if table is None:
                return []
            prefix = self._settings.command_prefix
            return [
                await status_reply(
                    table, [], prefix, self._images, now=self._clock(), language=language
                )
            ]

    async def mark_announced(
        self, shown: Mapping[int, int], messages: Mapping[int, str] | None = None
    ) -> None:
        """Each match's version in ``shown`` (match id -> version) was shown in its channel: one
        transaction for all the matches a command's replies showed (a round's new matches);
        ``messages``: the table message that showed it (see :meth:`table_message`)."""
        if shown:
            async with self._store.transaction() as tx:
                await tx.matches.mark_all_announced(shown, self._clock(), messages)

    async def table_message(self, match_id: int) -> tuple[str | None, int] | None:
        """The id of the match's table message, edited at each move (a restart keeps it), and
        the newest version of the match shown (None: nothing shown yet)."""
        return await self._store.matches.table_message(match_id)
