"""Each server's dice counters in the store (schema 8): how many dice showed each face, how many
rolls, how many doubles.

:class:`Dice` reads, :class:`DiceWrites` adds, in the transaction that saves the rolls
(``tx.dice``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select

from bot.store import schema
from bot.store.connections import Repository, Writes, for_each_database


@dataclass(frozen=True, slots=True)
class DiceCounts:
    """A server's dice: ``faces[n - 1]`` dice showed ``n``; ``rolls`` of two dice, ``doubles``
    of them pairs."""

    faces: tuple[int, int, int, int, int, int]
    rolls: int
    doubles: int

    @property
    def dice(self) -> int:
        return sum(self.faces)


NO_DICE = DiceCounts((0, 0, 0, 0, 0, 0), 0, 0)
_FACES = ("face1", "face2", "face3", "face4", "face5", "face6", "rolls", "doubles")


def _dice_added(insert: Any) -> Any:
    counts = schema.dice_counts
    added = insert(counts).values(
        server_id=bindparam("server_id"), **{name: bindparam(name) for name in _FACES}
    )
    return added.on_conflict_do_update(
        index_elements=["server_id"],
        set_={name: counts.c[name] + added.excluded[name] for name in _FACES},
    )


_DICE_ADDED = for_each_database(_dice_added)  # built once: it runs at every roll


class Dice(Repository):
    async def counts(self, server_id: str) -> DiceCounts:
        counts = schema.dice_counts
        row = await self._db.fetch_one(
            select(*(counts.c[name] for name in _FACES)).where(counts.c.server_id == server_id)
        )
        if row is None:
            return NO_DICE
        values = [int(value) for value in row]
        faces = (values[0], values[1], values[2], values[3], values[4], values[5])
        return DiceCounts(faces, values[6], values[7])


class DiceWrites(Writes, Dice):
    async def add(self, server_id: str, faces: Sequence[int], rolls: int, doubles: int) -> None:
        """Add dice to the server's counters (one statement, whatever the count)."""
        if not any(faces) and not rolls:
            return
        added = dict(zip(_FACES, (*faces, rolls, doubles), strict=True))
        await self._tx.write(_DICE_ADDED[self._tx.dialect], {"server_id": server_id, **added})
