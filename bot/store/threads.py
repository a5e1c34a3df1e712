"""The store's side of matches played in threads (schema 9): the channel a match's thread hangs
from, and the matches being played in the threads of a channel.

Plain functions over a :class:`~bot.store.database.Store` or
:class:`~bot.store.database.Transaction`, like :mod:`bot.store.opponent`.
"""

from __future__ import annotations

from sqlalchemy import select, update

from bot.store import schema
from bot.store.database import Store, Transaction
from bot.store.rows import MatchRow
from bot.store.schema import fixed

THREADED_SHOWN = 5  # matches named when pointing from a channel to its threads


async def set_match_parent(tx: Transaction, match_id: int, parent_channel_id: str) -> None:
    """The match just created in this transaction is played in a thread of ``parent_channel_id``."""
    m = schema.matches
    await tx.execute(
        update(m).where(m.c.id == match_id).values(parent_channel_id=parent_channel_id)
    )


async def threaded_matches(
    store: Store,
    server_id: str,
    parent_channel_id: str,
    limit: int = THREADED_SHOWN,
    *,
    after: int = 0,
) -> list[MatchRow]:
    """The matches being played in threads of the channel (newer than match ``after``),
    oldest first."""
    m = schema.matches
    rows = await store.fetch_all(
        select(m)
        .where(m.c.server_id == server_id, m.c.parent_channel_id == parent_channel_id)
        .where(m.c.status == fixed("playing"), m.c.id > after)
        .order_by(m.c.id)
        .limit(limit)
    )
    return [MatchRow(**row._mapping) for row in rows]


async def latest_threaded_match(
    store: Store, server_id: str, parent_channel_id: str
) -> MatchRow | None:
    """The newest match from the channel played in a thread, whatever its status."""
    m = schema.matches
    row = await store.fetch_one(
        select(m)
        .where(m.c.server_id == server_id, m.c.parent_channel_id == parent_channel_id)
        .order_by(m.c.id.desc())
        .limit(1)
    )
    return None if row is None else MatchRow(**row._mapping)
