"""Each server's language for the replies to its typed commands (``!settings language de``):
read from the store, kept a minute so that a typed command costs no read of its own (a choice
made on another host of the same database shows within that minute)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.i18n.core import ENGLISH, Language, language_of
from bot.store import Store

KEPT_SECONDS = 60.0


class Languages:
    def __init__(self, store: Store, *, now: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._now = now
        self._kept: dict[str, tuple[Language, float]] = {}

    async def of(self, server_id: str) -> Language:
        """The language ``server_id`` chose, English when it chose none."""
        kept = self._kept.get(server_id)
        if kept is not None and self._now() - kept[1] < KEPT_SECONDS:
            return kept[0]
        language = language_of(await self._store.servers.language(server_id)) or ENGLISH
        self._kept[server_id] = (language, self._now())
        return language

    async def choose(self, server_id: str, language: Language, now: float) -> None:
        """Store ``server_id``'s choice (``now``: the wall clock, for a new server's row)."""
        async with self._store.transaction() as tx:
            await tx.servers.set_language(server_id, None if language == ENGLISH else language, now)
        self._kept[server_id] = (language, self._now())
