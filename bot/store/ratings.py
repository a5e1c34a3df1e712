"""The rating changes a rated match made (the ``rating_changes`` rows written as it ended).

Kept apart from :mod:`bot.store.database` (already long): a plain function over a
:class:`~bot.store.database.Store`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.database import Store


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    user_id: str
    before: float
    after: float


async def match_rating_changes(store: Store, match_id: int) -> list[RatingChangeRow]:
    """Each player's rating before and after match ``match_id`` (none for an unrated one)."""
    rows = await store.fetch_all(
        "SELECT user_id, rating_before, rating_after FROM rating_changes WHERE match_id = ? "
        "ORDER BY rowid",
        (match_id,),
    )
    return [RatingChangeRow(row[0], float(row[1]), float(row[2])) for row in rows]
