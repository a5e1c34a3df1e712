"""The stored analyses of matches (migration 007): jobs, their results, and each player's PR.

An :class:`AnalysisRecords` wraps a :class:`~bot.store.database.Store` and goes through its
connection and lock, so its writes are transactions like every other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, distinct, func, select, update

from bot.store import schema
from bot.store.database import Store
from bot.store.schema import fixed

jobs = schema.analyses
figures = schema.analysis_players

UNFINISHED = ("queued", "running")


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


class AnalysisRecords:
    def __init__(self, store: Store) -> None:
        self._store = store

    async def get(self, match_id: int) -> AnalysisRow | None:
        row = await self._store.fetch_one(select(jobs).where(jobs.c.match_id == match_id))
        return AnalysisRow(**row._mapping) if row else None

    async def unfinished(self) -> list[AnalysisRow]:
        """Jobs a stopped bot left queued or running, oldest ask first."""
        rows = await self._store.fetch_all(
            select(jobs)
            .where(jobs.c.status.in_([fixed(status) for status in UNFINISHED]))
            .order_by(jobs.c.requested_at, jobs.c.match_id)
        )
        return [AnalysisRow(**row._mapping) for row in rows]

    async def queue(self, match_id: int, plies: int, now: float) -> None:
        """Ask for ``match_id``'s analysis: a new job, or a failed or interrupted one again.
        A done analysis is left as it is."""
        async with self._store.transaction() as tx:
            asked = tx.insert(jobs).values(
                match_id=match_id, plies=plies, status="queued", requested_at=now
            )
            await tx.execute(
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
                    },
                    where=jobs.c.status != fixed("done"),
                )
            )

    async def started(self, match_id: int, now: float) -> None:
        async with self._store.transaction() as tx:
            await tx.execute(
                update(jobs)
                .where(jobs.c.match_id == match_id, jobs.c.status != fixed("done"))
                .values(status="running", started_at=now)
            )

    async def finish(
        self,
        match_id: int,
        server_id: str,
        result: str,
        players: Sequence[PlayerFigures],
        now: float,
    ) -> None:
        """Store the result and the players' figures, in one transaction."""
        async with self._store.transaction() as tx:
            await tx.execute(
                update(jobs)
                .where(jobs.c.match_id == match_id)
                .values(status="done", result=result, error=None, finished_at=now)
            )
            await tx.execute(delete(figures).where(figures.c.match_id == match_id))
            for player in players:
                await tx.execute(
                    figures.insert().values(
                        match_id=match_id,
                        seat=player.seat,
                        server_id=server_id,
                        user_id=player.user_id,
                        pr=player.pr,
                        error_rate=player.error_rate,
                        decisions=player.decisions,
                    )
                )

    async def fail(self, match_id: int, error: str, now: float) -> None:
        async with self._store.transaction() as tx:
            await tx.execute(
                update(jobs)
                .where(jobs.c.match_id == match_id, jobs.c.status != fixed("done"))
                .values(status="failed", error=error, finished_at=now)
            )

    async def players(self, match_id: int) -> list[PlayerFigures]:
        rows = await self._store.fetch_all(
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

    async def pr_summary(self, server_id: str, user_id: str) -> PrSummary | None:
        """``user_id``'s PR over their analysed matches on this server, or None (none yet)."""
        decisions = func.sum(figures.c.decisions)
        row = await self._store.fetch_one(
            select(
                func.count(distinct(figures.c.match_id)),
                decisions,
                func.sum(figures.c.pr * figures.c.decisions) / func.nullif(decisions, 0),
            ).where(figures.c.server_id == server_id, figures.c.user_id == user_id)
        )
        if row is None or not row[0] or row[2] is None:
            return None
        return PrSummary(matches=int(row[0]), decisions=int(row[1]), pr=float(row[2]))

    async def latest_finished_match(self, server_id: str, channel_id: str) -> int | None:
        """The id of the channel's last finished match, or None."""
        m = schema.matches
        row = await self._store.fetch_one(
            select(m.c.id)
            .where(m.c.server_id == server_id, m.c.channel_id == channel_id)
            .where(m.c.status == fixed("finished"))
            .order_by(m.c.id.desc())
            .limit(1)
        )
        return int(row[0]) if row else None
