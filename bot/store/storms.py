"""Puzzle storms in the store (schema 21, table ``puzzle_storms``): ``!puzzle storm``,
:mod:`bot.service.puzzles.storm`.

A storm is one player's timed run of puzzles. While it runs (``finished_at`` None: one per
player, by the partial unique index ``puzzle_storms_running``) it holds the puzzle awaiting the
answer and the keys of those it showed; each answer is written with a check that the row is still
the one the answer saw, so two answers to one puzzle (two hosts) count once. Storms whose time is
up are found by ``puzzle_storms_ending``; a server's leaderboard (each player's best run) by
``puzzle_storms_best``.

:class:`Storms` reads, :class:`StormWrites` writes (``tx.storms``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import func, select, update

from bot.store import schema
from bot.store.connections import Repository, Writes, insert_of

ps = schema.puzzle_storms


@dataclass(frozen=True, slots=True)
class StormRow:
    id: int
    server_id: str
    channel_id: str
    user_id: str
    name: str
    started_at: float
    ends_at: float
    puzzle: str | None
    seen: str
    score: int
    wrong: int
    finished_at: float | None

    @property
    def shown(self) -> list[str]:
        """The keys of the puzzles it showed, in order."""
        return self.seen.split()


@dataclass(frozen=True, slots=True)
class StormBest:
    user_id: str
    name: str
    score: int
    runs: int


class Storms(Repository):
    """Reads of storms."""

    async def running(self, user_id: str) -> StormRow | None:
        """The player's storm that has not finished (its time may be up)."""
        row = await self._db.fetch_one(
            select(ps).where(ps.c.user_id == user_id, ps.c.finished_at.is_(None))
        )
        return None if row is None else StormRow(**row._mapping)

    async def over(self, now: float, limit: int) -> list[StormRow]:
        """Up to ``limit`` running storms whose time is up at ``now``, the earliest first."""
        rows = await self._db.fetch_all(
            select(ps)
            .where(ps.c.finished_at.is_(None), ps.c.ends_at <= now)
            .order_by(ps.c.ends_at, ps.c.id)
            .limit(limit)
        )
        return [StormRow(**row._mapping) for row in rows]

    async def best(self, server_id: str, user_id: str) -> int | None:
        """The player's best finished storm on this server."""
        row = await self._db.fetch_one(
            select(func.max(ps.c.score)).where(
                ps.c.server_id == server_id,
                ps.c.user_id == user_id,
                ps.c.finished_at.is_not(None),
            )
        )
        return None if row is None or row[0] is None else int(row[0])

    async def top(self, server_id: str, limit: int) -> list[StormBest]:
        """The server's players by their best finished storm, best first (ties: the player who
        got there first)."""
        best = func.max(ps.c.score).label("best")
        rows = await self._db.fetch_all(
            select(ps.c.user_id, func.max(ps.c.name), best, func.count(), func.min(ps.c.id))
            .where(ps.c.server_id == server_id, ps.c.finished_at.is_not(None))
            .group_by(ps.c.user_id)
            .order_by(best.desc(), func.min(ps.c.id))
            .limit(limit)
        )
        return [StormBest(str(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]


class StormWrites(Writes, Storms):
    """Writes of storms."""

    async def start(
        self,
        server_id: str,
        channel_id: str,
        user_id: str,
        name: str,
        now: float,
        ends_at: float,
        puzzle: str,
    ) -> StormRow | None:
        """A new storm showing ``puzzle``; None when the player has one running (the unique
        index says so: two starts at once on two hosts make one storm)."""
        storm = StormRow(
            0, server_id, channel_id, user_id, name, now, ends_at, puzzle, puzzle, 0, 0, None
        )
        values = {name: getattr(storm, name) for name in StormRow.__slots__ if name != "id"}
        added = await self._tx.execute(
            insert_of(self._tx.dialect)(ps).values(**values).on_conflict_do_nothing()
        )
        return await self.running(user_id) if added else None

    async def answered(
        self, storm: StormRow, right: bool, penalty: float, following: str | None
    ) -> StormRow | None:
        """The answer to ``storm``'s puzzle: the score or the wrong answers counted, the end
        brought forward by ``penalty`` seconds, ``following`` shown next (None: none). None when
        the row is no longer the one the answer saw (answered meanwhile, or finished)."""
        after = replace(
            storm,
            score=storm.score + int(right),
            wrong=storm.wrong + int(not right),
            ends_at=storm.ends_at - penalty,
            puzzle=following,
            seen=storm.seen if following is None else f"{storm.seen} {following}",
        )
        values = {
            name: getattr(after, name) for name in ("score", "wrong", "ends_at", "puzzle", "seen")
        }
        changed = await self._tx.execute(
            update(ps)
            .where(
                ps.c.id == storm.id,
                ps.c.finished_at.is_(None),
                ps.c.puzzle == storm.puzzle,
                ps.c.seen == storm.seen,
            )
            .values(**values)
        )
        if not changed:
            return None
        return after

    async def finish(self, storm_id: int, now: float) -> StormRow | None:
        """End the storm (its time is up); the row as it ended, or None when it had ended
        already."""
        changed = await self._tx.execute(
            update(ps)
            .where(ps.c.id == storm_id, ps.c.finished_at.is_(None))
            .values(finished_at=now, puzzle=None)
        )
        if not changed:
            return None
        row = await self._tx.fetch_one(select(ps).where(ps.c.id == storm_id))
        assert row is not None
        return StormRow(**row._mapping)
