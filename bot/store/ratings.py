"""The rating changes a rated match made (the ``rating_changes`` rows written as it ended).

Kept apart from :mod:`bot.store.database` (already long): a plain function over a
:class:`~bot.store.database.Store`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from bot.store import schema
from bot.store.database import Store


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    user_id: str
    before: float
    after: float


async def match_rating_changes(store: Store, match_id: int) -> list[RatingChangeRow]:
    """Each player's rating before and after match ``match_id`` (none for an unrated one)."""
    r = schema.rating_changes
    rows = await store.fetch_all(  # the winner (who gained) first
        select(r.c.user_id, r.c.rating_before, r.c.rating_after)
        .where(r.c.match_id == match_id)
        .order_by((r.c.rating_after - r.c.rating_before).desc(), r.c.user_id)
    )
    return [RatingChangeRow(row[0], float(row[1]), float(row[2])) for row in rows]
