"""The stored analyses of matches (migrations 007 and 013): the queue of jobs every process of
the bot takes from, their results, and each player's PR (counters of ``players``, schema 14,
added to as each analysis is stored).

A process takes the oldest job nobody runs with :meth:`AnalysisWrites.claim` (``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, so two hosts never take one job; SQLite's ``BEGIN IMMEDIATE`` serialises
the claim). It holds a job under a lease it renews while it works: a job whose process died is
taken again once its lease lapses, and a process that stops puts its job back at once.

:class:`Analyses` reads, :class:`AnalysisWrites` writes (``tx.analyses``); a player's drills,
made from their analysed mistakes, are in :mod:`bot.store.drills`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Float,
    Integer,
    and_,
    bindparam,
    delete,
    func,
    or_,
    select,
    tuple_,
    update,
)

from bot.store import schema
from bot.store.connections import Repository, Writes, insert_of
from bot.store.drills import DrillWrites
from bot.store.rows import PlayerRow
from bot.store.schema import fixed

jobs = schema.analyses
figures = schema.analysis_players
p = schema.players

UNFINISHED = ("queued", "running")
_unfinished = jobs.c.status.in_([fixed(status) for status in UNFINISHED])


def _held_by(worker: str) -> ColumnElement[bool]:
    """The job ``worker`` runs now (not one another process took over when its lease lapsed).
    Where no job id narrows it, put ``_unfinished`` beside it: SQLite then reads the index of
    unfinished jobs."""
    return and_(jobs.c.worker == worker, jobs.c.status == fixed("running"))


# Waiting, or running under a lease that lapsed (its process died): any process may take it.
_claimable = and_(
    _unfinished,
    or_(jobs.c.status == fixed("queued"), jobs.c.lease_until < bindparam("now")),
)


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    match_id: int
    plies: int
    status: str  # 'queued', 'running', 'done' or 'failed'
    result: str | None  # JSON, when done
    error: str | None  # a line for the players, when failed
    requested_at: float
    started_at: float | None
    finished_at: float | None
    asked_by: str | None = None  # None: started when the match ended
    worker: str | None = None  # the process running it
    lease_until: float | None = None
    games_done: int = 0
    games_total: int = 0

    @property
    def unfinished(self) -> bool:
        return self.status in UNFINISHED


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's figures in one analysed match."""

    seat: int
    user_id: str
    pr: float
    error_rate: float
    decisions: int


@dataclass(frozen=True, slots=True)
class PrSummary:
    """A player's PR over their analysed matches: ``pr`` weighs each match by its decisions
    (the PR of all those decisions together, as players' rolling PR is)."""

    matches: int
    decisions: int
    pr: float

    @classmethod
    def of(cls, player: PlayerRow) -> PrSummary | None:
        """From the player's counters; None before an analysed decision of theirs."""
        if not player.analysed_matches or not player.analysed_decisions:
            return None
        return cls(
            player.analysed_matches,
            player.analysed_decisions,
            player.analysed_pr_sum / player.analysed_decisions,
        )


_ANALYSED = (
    update(p)
    .where(p.c.server_id == bindparam("at_server"), p.c.user_id == bindparam("of_user"))
    .values(
        analysed_matches=p.c.analysed_matches + bindparam("more_matches", type_=Integer),
        analysed_decisions=p.c.analysed_decisions + bindparam("more_decisions", type_=Integer),
        analysed_pr_sum=p.c.analysed_pr_sum + bindparam("more_pr", type_=Float),
    )
)


def figure_rows(
    match_id: int, server_id: str, players: Sequence[PlayerFigures]
) -> list[dict[str, Any]]:
    """The ``analysis_players`` rows of match ``match_id``'s analysis."""
    return [
        {
            "match_id": match_id,
            "seat": player.seat,
            "server_id": server_id,
            "user_id": player.user_id,
            "pr": player.pr,
            "error_rate": player.error_rate,
            "decisions": player.decisions,
        }
        for player in players
    ]


class Analyses(Repository):
    """Reads of analyses: the queue of jobs, their results, the players' figures."""

    async def get(self, match_id: int) -> AnalysisRow | None:
        row = await self._db.fetch_one(select(jobs).where(jobs.c.match_id == match_id))
        return AnalysisRow(**row._mapping) if row else None

    async def done_at(self, match_id: int) -> float | None:
        """When ``match_id``'s analysis was stored (None: not done): tells a copy kept in memory
        from a newer one, without reading the result."""
        row = await self._db.fetch_one(
            select(jobs.c.finished_at).where(
                jobs.c.match_id == match_id, jobs.c.status == fixed("done")
            )
        )
        return None if row is None or row[0] is None else float(row[0])

    async def waiting(self) -> int:
        """How many jobs are waiting or running, on any host."""
        row = await self._db.fetch_one(select(func.count()).select_from(jobs).where(_unfinished))
        return int(row[0]) if row else 0

    async def ahead_of(self, job: AnalysisRow) -> int:
        """How many unfinished jobs were asked for before ``job`` (running ones included)."""
        row = await self._db.fetch_one(
            select(func.count())
            .select_from(jobs)
            .where(
                _unfinished,
                tuple_(jobs.c.requested_at, jobs.c.match_id)
                < tuple_(bindparam("at", job.requested_at), bindparam("id", job.match_id)),
            )
        )
        return int(row[0]) if row else 0

    async def asked_by(self, user_id: str) -> int:
        """How many unfinished jobs ``user_id`` asked for."""
        row = await self._db.fetch_one(
            select(func.count()).select_from(jobs).where(_unfinished, jobs.c.asked_by == user_id)
        )
        return int(row[0]) if row else 0

    async def any_claimable(self, now: float) -> bool:
        row = await self._db.fetch_one(
            select(jobs.c.match_id).where(_claimable).limit(1), {"now": now}
        )
        return row is not None

    async def players(self, match_id: int) -> list[PlayerFigures]:
        rows = await self._db.fetch_all(
            select(
                figures.c.seat,
                figures.c.user_id,
                figures.c.pr,
                figures.c.error_rate,
                figures.c.decisions,
            )
            .where(figures.c.match_id == match_id)
            .order_by(figures.c.seat)
        )
        return [PlayerFigures(**row._mapping) for row in rows]


class AnalysisWrites(Writes, Analyses):
    """Writes of analyses: each in a transaction of its own, but :meth:`count_analysed` (in
    the transaction that writes the figures)."""

    async def count_analysed(
        self,
        added: Iterable[Mapping[str, Any]],
        removed: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        """Add the ``analysis_players`` rows ``added`` to their players' counters, and take the
        ``removed`` ones (an analysis stored again) off: in the transaction that writes the rows,
        one statement however many, in key order (two processes wait for each other instead of
        deadlocking)."""
        # (server, user): [matches, decisions, PR sum]
        totals: dict[tuple[str, str], list[float]] = {}
        for sign, rows in ((1, added), (-1, removed)):
            for row in rows:
                total = totals.setdefault((row["server_id"], row["user_id"]), [0, 0, 0.0])
                total[0] += sign
                total[1] += sign * row["decisions"]
                total[2] += sign * row["pr"] * row["decisions"]
        if totals:
            await self._tx.execute(
                _ANALYSED,
                [
                    {
                        "at_server": server,
                        "of_user": user,
                        "more_matches": int(matches),
                        "more_decisions": int(decisions),
                        "more_pr": pr_sum,
                    }
                    for (server, user), (matches, decisions, pr_sum) in sorted(totals.items())
                ],
            )

    async def queue(
        self, match_id: int, plies: int, now: float, asked_by: str | None = None
    ) -> None:
        """Ask for ``match_id``'s analysis: a new job, or a failed one again. A job waiting,
        running or done is left as it is."""
        asked = insert_of(self._tx.dialect)(jobs).values(
            match_id=match_id,
            plies=plies,
            status="queued",
            requested_at=now,
            asked_by=asked_by,
        )
        await self._tx.execute(
            asked.on_conflict_do_update(
                index_elements=["match_id"],
                set_={
                    "plies": asked.excluded.plies,
                    "status": "queued",
                    "result": None,
                    "error": None,
                    "requested_at": asked.excluded.requested_at,
                    "started_at": None,
                    "finished_at": None,
                    "asked_by": asked.excluded.asked_by,
                    "worker": None,
                    "lease_until": None,
                    "games_done": 0,
                    "games_total": 0,
                },
                where=jobs.c.status == fixed("failed"),
            )
        )

    async def claim(self, worker: str, now: float, lease: float) -> AnalysisRow | None:
        """Take the oldest job nobody runs (or whose runner's lease lapsed) for ``worker``,
        leased until ``now + lease``; None when there is none."""
        [*found] = await self._tx.fetch_all(
            select(jobs.c.match_id)
            .where(_claimable)
            .order_by(jobs.c.requested_at, jobs.c.match_id)
            .limit(1)
            .with_for_update(skip_locked=True),
            {"now": now},
        )
        if not found:
            return None
        [row] = await self._tx.fetch_all(
            update(jobs)
            .where(jobs.c.match_id == found[0][0])
            .values(
                status="running",
                worker=worker,
                started_at=now,
                lease_until=now + lease,
                games_done=0,
                games_total=0,
            )
            .returning(*jobs.c)
        )
        return AnalysisRow(**row._mapping)

    async def progress(
        self, match_id: int, worker: str, done: int, total: int, now: float, lease: float
    ) -> bool:
        """Record how far ``worker`` got, renewing its lease; False if the job is no longer
        its own (its lease lapsed and another process took it)."""
        changed = await self._tx.execute(
            update(jobs)
            .where(jobs.c.match_id == match_id, _held_by(worker))
            .values(games_done=done, games_total=total, lease_until=now + lease)
        )
        return changed > 0

    async def renew(self, worker: str, now: float, lease: float) -> None:
        """Renew the lease of the jobs ``worker`` runs."""
        await self._tx.execute(
            update(jobs).where(_unfinished, _held_by(worker)).values(lease_until=now + lease)
        )

    async def release(self, match_id: int, worker: str) -> None:
        """Put ``worker``'s job back in the queue, where it was (its process is stopping)."""
        await self._tx.execute(
            update(jobs)
            .where(jobs.c.match_id == match_id, _held_by(worker))
            .values(
                status="queued",
                worker=None,
                lease_until=None,
                started_at=None,
                games_done=0,
                games_total=0,
            )
        )

    async def finish(
        self,
        match_id: int,
        server_id: str,
        result: str,
        players: Sequence[PlayerFigures],
        now: float,
        drills: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        """Store the result and the players' figures, added to their counters, and the
        players' new drills (rows of ``drills``, see :mod:`bot.store.drills`; those already
        made are kept as they are), in one transaction."""
        await self._tx.execute(
            update(jobs)
            .where(jobs.c.match_id == match_id)
            .values(
                status="done",
                result=result,
                error=None,
                finished_at=now,
                worker=None,
                lease_until=None,
            )
        )
        # The job's row is locked from the update above: a second finish of this match (a
        # runner whose lease lapsed) waits, then replaces these rows and their counts.
        replaced = await self._tx.fetch_all(
            delete(figures).where(figures.c.match_id == match_id).returning(figures)
        )
        rows = figure_rows(match_id, server_id, players)
        if rows:
            await self._tx.execute(figures.insert(), rows)
        await self.count_analysed(rows, [dict(row._mapping) for row in replaced])
        await DrillWrites(self._tx).add(drills)

    async def fail(self, match_id: int, error: str, now: float) -> None:
        await self._tx.execute(
            update(jobs)
            .where(jobs.c.match_id == match_id, jobs.c.status != fixed("done"))
            .values(status="failed", error=error, finished_at=now, worker=None, lease_until=None)
        )
