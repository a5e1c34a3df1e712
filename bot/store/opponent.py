"""The store's side of GNU Backgammon as an opponent (schema 6): a match's terms (the engine's
level, tutor, hints, rated), the matches where the engine may owe a move, and each player's
record against the engine by level.

Kept apart from :mod:`bot.store.database` (already long); these are plain functions over a
:class:`~bot.store.database.Store` or :class:`~bot.store.database.Transaction`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.database import Store, Transaction
from bot.store.rows import MatchRow


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
    await tx.execute(
        "UPDATE matches SET engine_level = ?, tutor = ?, hints = ?, rated = ? WHERE id = ?",
        (engine_level, int(tutor), int(hints), int(rated), match_id),
    )


async def set_challenge_hints(tx: Transaction, challenge_id: int, hints: bool) -> None:
    await tx.execute("UPDATE challenges SET hints = ? WHERE id = ?", (int(hints), challenge_id))


async def engine_matches(store: Store) -> list[MatchRow]:
    """Every match being played against the engine (any of them may wait on its turn)."""
    rows = await store.fetch_all(
        "SELECT * FROM matches WHERE status = 'playing' AND engine_level IS NOT NULL ORDER BY id"
    )
    return [MatchRow(**dict(row)) for row in rows]


async def record_against_engine(store: Store, server_id: str, user_id: str) -> list[LevelRecord]:
    """``user_id``'s finished matches against the engine on this server, by level (weakest
    level name first is the caller's business: these come in name order)."""
    rows = await store.fetch_all(
        "SELECT engine_level, "
        "  SUM(CASE WHEN winner = (CASE WHEN player0_id = ? THEN 0 ELSE 1 END) THEN 1 ELSE 0 END),"
        "  SUM(CASE WHEN winner = (CASE WHEN player0_id = ? THEN 1 ELSE 0 END) THEN 1 ELSE 0 END) "
        "FROM matches WHERE server_id = ? AND status = 'finished' AND engine_level IS NOT NULL "
        "AND winner IS NOT NULL AND (player0_id = ? OR player1_id = ?) "
        "GROUP BY engine_level ORDER BY engine_level",
        (user_id, user_id, server_id, user_id, user_id),
    )
    return [LevelRecord(str(row[0]), int(row[1]), int(row[2])) for row in rows]
