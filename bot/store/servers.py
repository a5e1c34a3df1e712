"""A server's own settings (table ``servers``): the language of its typed commands' replies.
:class:`Servers` reads, :class:`ServerWrites` writes (``tx.servers``)."""

from __future__ import annotations

from sqlalchemy import select

from bot.store import schema
from bot.store.connections import Repository, Writes, insert_of


class Servers(Repository):
    async def language(self, server_id: str) -> str | None:
        """The language the server chose (a code of :mod:`bot.i18n`), None for none."""
        servers = schema.servers
        row = await self._db.fetch_one(select(servers.c.language).where(servers.c.id == server_id))
        return None if row is None or row[0] is None else str(row[0])


class ServerWrites(Writes, Servers):
    async def set_language(self, server_id: str, language: str | None, now: float) -> None:
        """Choose the server's language (None: back to English), adding its row if it has
        none yet."""
        added = insert_of(self._tx.dialect)(schema.servers).values(
            id=server_id, created_at=now, language=language
        )
        await self._tx.execute(
            added.on_conflict_do_update(index_elements=["id"], set_={"language": language})
        )
