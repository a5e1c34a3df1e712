"""Drills of each player's own mistakes in the store (schema 16, table ``drills``).

A drill is one decision of an analysed match that gnubg marked bad or very bad, for the player
who made it, with its spaced-repetition state (:mod:`bot.service.review.schedule`). Rows are
written where an analysis is stored (:meth:`AnalysisWrites.finish
<bot.store.analyses.AnalysisWrites.finish>`, same transaction) and, for matches analysed before
schema 16, by the first ``!drill`` of a player who has none. A decision is made a drill once:
storing an analysis again keeps the rows (and their schedule) as they are.

The drill shown to a player and awaiting their answer has ``shown_at`` set (one per player at
most: it is chosen and marked in one transaction holding the player's drills), so an answer
typed after a restart still finds it. Every read of one player's drills goes
through the index ``drills_due`` (server, user, due).

:class:`Drills` reads, :class:`DrillWrites` writes (``tx.drills``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, select, update

from bot.store import schema
from bot.store.connections import Repository, Writes, insert_of
from bot.store.schema import fixed

d = schema.drills


KEY = ("server_id", "user_id", "match_id", "decision")


@dataclass(frozen=True, slots=True)
class DrillRow:
    server_id: str
    user_id: str
    match_id: int
    decision: int
    game: int
    move: int
    kind: str
    gnubg_id: str
    dice: int | None
    played: str | None
    best: str | None
    proper: str | None
    loss: float
    skill: str
    plies: int
    streak: int
    interval_days: float
    ease: float
    due_at: float
    reps: int
    lapses: int
    last_right: int | None
    last_answer_at: float | None
    shown_at: float | None
    created_at: float
    puzzle: str | None = None  # a puzzle the player missed (match_id 0)


@dataclass(frozen=True, slots=True)
class DrillCounts:
    total: int
    due: int
    learned: int
    missed: int  # wrong at their last answer


def _mine(server_id: str, user_id: str) -> Any:
    return and_(d.c.server_id == server_id, d.c.user_id == user_id)


def _where(drill: DrillRow) -> Any:
    return and_(
        _mine(drill.server_id, drill.user_id),
        d.c.match_id == drill.match_id,
        d.c.decision == drill.decision,
    )


def _fields(drill: DrillRow) -> dict[str, Any]:
    return {name: getattr(drill, name) for name in DrillRow.__slots__}


class Drills(Repository):
    """Reads of a player's drills."""

    async def has(self, server_id: str, user_id: str) -> bool:
        """Whether the player has drills of their matches (a missed puzzle's are not)."""
        row = await self._db.fetch_one(
            select(d.c.match_id).where(_mine(server_id, user_id), d.c.puzzle.is_(None)).limit(1)
        )
        return row is not None

    async def awaiting(self, server_id: str, user_id: str) -> DrillRow | None:
        """The drill shown to the player that waits for their answer."""
        rows = await self._db.fetch_all(
            select(d)
            .where(_mine(server_id, user_id), d.c.shown_at.is_not(None))
            .order_by(d.c.shown_at.desc())
            .limit(1)
        )
        return DrillRow(**rows[0]._mapping) if rows else None

    async def most_overdue(self, server_id: str, user_id: str, now: float) -> DrillRow | None:
        rows = await self._db.fetch_all(
            select(d)
            .where(_mine(server_id, user_id), d.c.due_at <= now)
            .order_by(d.c.due_at, d.c.match_id, d.c.decision)
            .limit(1)
        )
        return DrillRow(**rows[0]._mapping) if rows else None

    async def next_due_at(self, server_id: str, user_id: str) -> float | None:
        row = await self._db.fetch_one(
            select(func.min(d.c.due_at)).where(_mine(server_id, user_id))
        )
        return None if row is None or row[0] is None else float(row[0])

    async def counts(self, server_id: str, user_id: str, now: float, learned: float) -> DrillCounts:
        one = fixed(1)
        row = await self._db.fetch_one(
            select(
                func.count(),
                func.sum(case((d.c.due_at <= now, one), else_=fixed(0))),
                func.sum(case((d.c.interval_days >= learned, one), else_=fixed(0))),
                func.sum(case((d.c.last_right == fixed(0), one), else_=fixed(0))),
            ).where(_mine(server_id, user_id))
        )
        if row is None:
            return DrillCounts(0, 0, 0, 0)
        return DrillCounts(*(int(value or 0) for value in row))

    async def analysed_matches(
        self, server_id: str, user_id: str, limit: int
    ) -> list[tuple[int, tuple[str, str], str]]:
        """The user's last ``limit`` matches on this server with a stored analysis: (match id,
        player ids, the analysis's JSON), newest first."""
        m, a = schema.matches, schema.analyses

        def seated(seat: Any) -> Any:  # each seat's matches newest first, by its index
            return (
                select(m.c.id, m.c.player0_id, m.c.player1_id, a.c.result)
                .join(a, a.c.match_id == m.c.id)
                .where(
                    m.c.server_id == server_id,
                    seat == user_id,
                    a.c.status == fixed("done"),
                    a.c.result.is_not(None),
                )
                .order_by(m.c.id.desc())
                .limit(limit)
            )

        rows = [
            row
            for seat in (m.c.player0_id, m.c.player1_id)
            for row in await self._db.fetch_all(seated(seat))
        ]
        newest = sorted(rows, key=lambda row: -int(row[0]))[:limit]
        return [(int(row[0]), (str(row[1]), str(row[2])), str(row[3])) for row in newest]


class DrillWrites(Writes, Drills):
    """Writes of drills: a player's are held, in order, by the transaction that shows one."""

    async def add(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert ``rows`` (full rows of ``drills``); a decision already drilled is left alone."""
        if rows:
            ordered = sorted(rows, key=lambda row: tuple(row[k] for k in KEY))
            await self._tx.execute(
                insert_of(self._tx.dialect)(d).on_conflict_do_nothing(index_elements=list(KEY)),
                ordered,
            )

    async def add_missed(self, row: Mapping[str, Any]) -> None:
        """Insert a missed puzzle's drill (a full row of ``drills``); missed again, it is due
        again at once, its schedule otherwise kept."""
        await self._tx.execute(
            insert_of(self._tx.dialect)(d)
            .values(**row)
            .on_conflict_do_update(index_elements=list(KEY), set_={"due_at": row["due_at"]})
        )

    async def _hold(self, server_id: str, user_id: str) -> None:
        """Lock the player's drills until the transaction ends: two processes showing them a
        drill take turns, and the second sees the first's (SQLite's BEGIN IMMEDIATE serialises
        anyway)."""
        await self._tx.fetch_all(
            select(d.c.decision).where(_mine(server_id, user_id)).with_for_update()
        )

    async def _shown(self, drill: DrillRow, now: float) -> DrillRow:
        await self._tx.execute(
            update(d)
            .where(_mine(drill.server_id, drill.user_id), d.c.shown_at.is_not(None))
            .values(shown_at=None)
        )
        await self._tx.execute(update(d).where(_where(drill)).values(shown_at=now))
        return DrillRow(**{**_fields(drill), "shown_at": now})

    async def mark_shown(self, drill: DrillRow, now: float) -> DrillRow:
        """Make ``drill`` the one awaiting the player's answer (any other stops waiting)."""
        await self._hold(drill.server_id, drill.user_id)
        return await self._shown(drill, now)

    async def show_next(self, server_id: str, user_id: str, now: float) -> DrillRow | None:
        """The drill awaiting the player's answer; else their most overdue one, made the one
        awaiting it; None when none is due. One transaction that holds the player's drills, so
        that two ``!drill`` at once (two hosts) never leave two drills waiting."""
        await self._hold(server_id, user_id)
        waiting = await self.awaiting(server_id, user_id)
        if waiting is not None:
            return waiting
        due = await self.most_overdue(server_id, user_id, now)
        return None if due is None else await self._shown(due, now)

    async def record_answer(self, drill: DrillRow, values: Mapping[str, Any]) -> bool:
        """Write the answer's outcome (``values``: the new schedule columns) to the awaiting
        ``drill``, which stops waiting; False if it no longer waited (answered meanwhile)."""
        assert drill.shown_at is not None
        changed = await self._tx.execute(
            update(d)
            .where(_where(drill), d.c.shown_at == drill.shown_at)
            .values(**values, shown_at=None)
        )
        return changed > 0
