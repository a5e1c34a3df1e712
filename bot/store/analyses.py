"""The stored analyses of matches (migration 007): jobs, their results, and each player's PR.

An :class:`AnalysisRecords` wraps a :class:`~bot.store.database.Store` and goes through its
connection and lock, so its writes are transactions like every other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.database import Store

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
        row = await self._store.fetch_one("SELECT * FROM analyses WHERE match_id = ?", (match_id,))
        return AnalysisRow(**dict(row)) if row else None

    async def unfinished(self) -> list[AnalysisRow]:
        """Jobs a stopped bot left queued or running, oldest ask first."""
        rows = await self._store.fetch_all(
            "SELECT * FROM analyses WHERE status IN ('queued', 'running') "
            "ORDER BY requested_at, match_id"
        )
        return [AnalysisRow(**dict(row)) for row in rows]

    async def queue(self, match_id: int, plies: int, now: float) -> None:
        """Ask for ``match_id``'s analysis: a new job, or a failed or interrupted one again.
        A done analysis is left as it is."""
        async with self._store.transaction() as tx:
            await tx.execute(
                "INSERT INTO analyses (match_id, plies, status, requested_at) "
                "VALUES (?, ?, 'queued', ?) "
                "ON CONFLICT (match_id) DO UPDATE SET plies = excluded.plies, status = 'queued', "
                "result = NULL, error = NULL, requested_at = excluded.requested_at, "
                "started_at = NULL, finished_at = NULL WHERE status != 'done'",
                (match_id, plies, now),
            )

    async def started(self, match_id: int, now: float) -> None:
        async with self._store.transaction() as tx:
            await tx.execute(
                "UPDATE analyses SET status = 'running', started_at = ? "
                "WHERE match_id = ? AND status != 'done'",
                (now, match_id),
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
                "UPDATE analyses SET status = 'done', result = ?, error = NULL, finished_at = ? "
                "WHERE match_id = ?",
                (result, now, match_id),
            )
            await tx.execute("DELETE FROM analysis_players WHERE match_id = ?", (match_id,))
            for player in players:
                await tx.execute(
                    "INSERT INTO analysis_players (match_id, seat, server_id, user_id, pr, "
                    "error_rate, decisions) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        match_id,
                        player.seat,
                        server_id,
                        player.user_id,
                        player.pr,
                        player.error_rate,
                        player.decisions,
                    ),
                )

    async def fail(self, match_id: int, error: str, now: float) -> None:
        async with self._store.transaction() as tx:
            await tx.execute(
                "UPDATE analyses SET status = 'failed', error = ?, finished_at = ? "
                "WHERE match_id = ? AND status != 'done'",
                (error, now, match_id),
            )

    async def players(self, match_id: int) -> list[PlayerFigures]:
        rows = await self._store.fetch_all(
            "SELECT seat, user_id, pr, error_rate, decisions FROM analysis_players "
            "WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [PlayerFigures(**dict(row)) for row in rows]

    async def pr_summary(self, server_id: str, user_id: str) -> PrSummary | None:
        """``user_id``'s PR over their analysed matches on this server, or None (none yet)."""
        row = await self._store.fetch_one(
            "SELECT COUNT(DISTINCT match_id), SUM(decisions), "
            "SUM(pr * decisions) / NULLIF(SUM(decisions), 0) "
            "FROM analysis_players WHERE server_id = ? AND user_id = ?",
            (server_id, user_id),
        )
        if row is None or not row[0] or row[2] is None:
            return None
        return PrSummary(matches=int(row[0]), decisions=int(row[1]), pr=float(row[2]))

    async def latest_finished_match(self, server_id: str, channel_id: str) -> int | None:
        """The id of the channel's last finished match, or None."""
        row = await self._store.fetch_one(
            "SELECT id FROM matches WHERE server_id = ? AND channel_id = ? "
            "AND status = 'finished' ORDER BY id DESC LIMIT 1",
            (server_id, channel_id),
        )
        return int(row[0]) if row else None
