"""The store's side of matches played in threads (schema 9): the channel a match's thread hangs
from, and the matches being played in the threads of a channel.

Plain functions over a :class:`~bot.store.database.Store` or
:class:`~bot.store.database.Transaction`, like :mod:`bot.store.opponent`.
"""

from __future__ import annotations

from bot.store.database import Store, Transaction
from bot.store.rows import MatchRow

THREADED_SHOWN = 5  # matches named when pointing from a channel to its threads


async def set_match_parent(tx: Transaction, match_id: int, parent_channel_id: str) -> None:
    """The match just created in this transaction is played in a thread of ``parent_channel_id``."""
    await tx.execute(
        "UPDATE matches SET parent_channel_id = ? WHERE id = ?", (parent_channel_id, match_id)
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
    rows = await store.fetch_all(
        "SELECT * FROM matches WHERE server_id = ? AND parent_channel_id = ? "
        "AND status = 'playing' AND id > ? ORDER BY id LIMIT ?",
        (server_id, parent_channel_id, after, limit),
    )
    return [MatchRow(**dict(row)) for row in rows]


async def latest_threaded_match(
    store: Store, server_id: str, parent_channel_id: str
) -> MatchRow | None:
    """The newest match from the channel played in a thread, whatever its status."""
    row = await store.fetch_one(
        "SELECT * FROM matches WHERE server_id = ? AND parent_channel_id = ? "
        "ORDER BY id DESC LIMIT 1",
        (server_id, parent_channel_id),
    )
    return None if row is None else MatchRow(**dict(row))
