"""The store's side of GNU Backgammon as an opponent (schema 6): a match's terms (the engine's
level, tutor, hints, rated), the matches where the engine may owe a move, and each player's
record against the engine by level.

Kept apart from :mod:`bot.store.database` (already long); these are plain functions over a
:class:`~bot.store.database.Store` or :class:`~bot.store.database.Transaction`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, or_, select, update

from bot.store import schema
from bot.store.database import Store, Transaction
from bot.store.rows import MatchRow
from bot.store.schema import fixed


@dataclass(frozen=True, slots=True)
class LevelRecord:
    """One player's finished matches against the engine at one level."""

    level: str
    wins: int
    losses: int


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
    """Every match being played against the engine (any of them may wait on its turn)."""
    m = schema.matches
    rows = await store.fetch_all(
        select(m)
        .where(m.c.status == fixed("playing"), m.c.engine_level.is_not(None))
        .order_by(m.c.id)
    )
    return [MatchRow(**row._mapping) for row in rows]


async def record_against_engine(store: Store, server_id: str, user_id: str) -> list[LevelRecord]:
    """``user_id``'s finished matches against the engine on this server, by level (weakest
    level name first is the caller's business: these come in name order)."""
    m = schema.matches
    seat = case((m.c.player0_id == user_id, 0), else_=1)
    rows = await store.fetch_all(
        select(
            m.c.engine_level,
            func.sum(case((m.c.winner == seat, 1), else_=0)),
            func.sum(case((m.c.winner == 1 - seat, 1), else_=0)),
        )
        .where(
            m.c.server_id == server_id,
            m.c.status == fixed("finished"),
            m.c.engine_level.is_not(None),
            m.c.winner.is_not(None),
            or_(m.c.player0_id == user_id, m.c.player1_id == user_id),
        )
        .group_by(m.c.engine_level)
        .order_by(m.c.engine_level)
    )
    return [LevelRecord(str(row[0]), int(row[1]), int(row[2])) for row in rows]
