"""Named settings of the database itself (table ``meta``): the schema version on PostgreSQL, the
check of the dice key. :class:`Meta` reads, :class:`MetaWrites` writes (``tx.meta``)."""

from __future__ import annotations

from sqlalchemy import select

from bot.store import schema
from bot.store.connections import Repository, Writes, insert_of


class Meta(Repository):
    async def get(self, name: str) -> str | None:
        meta = schema.meta
        row = await self._db.fetch_one(select(meta.c.value).where(meta.c.name == name))
        return str(row[0]) if row else None


class MetaWrites(Writes, Meta):
    async def set_first(self, name: str, value: str) -> None:
        """Set ``name`` unless another process set it first (then its value stays)."""
        await self._tx.execute(
            insert_of(self._tx.dialect)(schema.meta)
            .values(name=name, value=value)
            .on_conflict_do_nothing(index_elements=["name"])
        )
