"""The store's side of GNU Backgammon as an opponent (schema 6): a match's terms (the engine's
level, tutor, hints, rated) and the matches where the engine may owe a move (each player's
record against it by level is in :mod:`bot.store.records`).

Kept apart from :mod:`bot.store.database` (already long); these are plain functions over a
:class:`~bot.store.database.Store` or :class:`~bot.store.database.Transaction`.
"""

from __future__ import annotations

from sqlalchemy import select, update

from bot.store import schema
from bot.store.database import Store, Transaction
from bot.store.rows import MatchRow
from bot.store.schema import fixed


async def set_match_terms(
    tx: Transaction,
    match_id: int,
    *,
    engine_level: str | None,
    tutor: bool,
    hints: bool,
    rated: bool,
) -> None:
    """Write the terms of a match just created in this transaction."""
    m = schema.matches
    await tx.execute(
        update(m)
        .where(m.c.id == match_id)
        .values(engine_level=engine_level, tutor=int(tutor), hints=int(hints), rated=int(rated))
    )


async def set_challenge_hints(tx: Transaction, challenge_id: int, hints: bool) -> None:
    c = schema.challenges
    await tx.execute(update(c).where(c.c.id == challenge_id).values(hints=int(hints)))


async def engine_matches(store: Store) -> list[MatchRow]:
    """Every match being played against the engine (any of them may wait on its turn): by the
    index of the matches being played, not through the finished ones."""
    m = schema.matches
    rows = await store.fetch_all(
        select(m)
        .where(m.c.status == fixed("playing"), m.c.engine_level.is_not(None))
        .order_by(m.c.id)
    )
    return [MatchRow(**row._mapping) for row in rows]
