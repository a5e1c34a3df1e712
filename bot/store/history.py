"""A long past written in bulk, for benchmarks and tests of a server with a history: matches that
ended (their action logs, rating changes and analyses) and old challenges, many rows per
statement. The players' counters are added to by the methods the bot itself ends matches and
stores analyses with (:meth:`~bot.store.players.PlayerWrites.count_endings`,
:meth:`~bot.store.analyses.AnalysisWrites.count_analysed`), so a server built here reads as one
that lived it.

:class:`History` writes in a transaction like the repositories (``History(tx)``), across all of
them: it is no aggregate of its own, and the bot never runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store import schema
from bot.store.analyses import AnalysisWrites, PlayerFigures, figure_rows
from bot.store.connections import Writes
from bot.store.players import ENDED, Ending, PlayerWrites


@dataclass(frozen=True, slots=True)
class PastRating:
    """One player's rating before and after a past match, and their experience before it."""

    user_id: str
    before: float
    after: float
    experience_before: int


@dataclass(frozen=True, slots=True)
class PastAnalysis:
    """A past match's analysis, done: its result (JSON) and the players' figures."""

    plies: int
    result: str
    players: tuple[PlayerFigures, ...]


@dataclass(frozen=True, slots=True)
class PastMatch:
    """A match that ended: ``status`` finished (won by seat ``winner``) or aborted; ``state``,
    ``snapshot`` and ``actions`` as the bot stores them; ``ratings``: the rating changes of a
    rated result (none otherwise)."""

    server_id: str
    channel_id: str
    player_ids: tuple[str, str]
    match_length: int
    state: str
    snapshot: str
    actions: Sequence[str]
    status: str
    winner: int | None
    ending: str
    created_at: float
    ended_at: float
    engine_level: str | None = None
    rated: bool = True
    ratings: tuple[PastRating, ...] = ()
    analysis: PastAnalysis | None = None


@dataclass(frozen=True, slots=True)
class PastChallenge:
    """A challenge answered, withdrawn or expired long ago."""

    server_id: str
    channel_id: str
    challenger_id: str
    challenged_id: str
    match_length: int
    created_at: float
    expires_at: float
    status: str  # 'accepted', 'declined', 'cancelled' or 'expired'


class History(Writes):
    """A long past, written in bulk in the transaction ``tx``."""

    async def add_matches(self, past: Sequence[PastMatch]) -> list[int]:
        """Write ``past`` (in the order they were played: each rated one's ratings follow from the
        players' ratings before it) and add them to their players' records; their ids, in order.
        The players must exist."""
        if not past:
            return []
        refused = [match.status for match in past if match.status not in ENDED]
        if refused:
            raise ValueError(f"a past match ended finished or aborted, not {refused[0]!r}")
        m = schema.matches
        rows = await self._tx.fetch_all(
            m.insert().returning(m.c.id, sort_by_parameter_order=True),
            [
                {
                    "server_id": match.server_id,
                    "channel_id": match.channel_id,
                    "player0_id": match.player_ids[0],
                    "player1_id": match.player_ids[1],
                    "match_length": match.match_length,
                    "state": match.state,
                    "snapshot": match.snapshot,
                    "status": match.status,
                    "winner": match.winner,
                    "ending": match.ending,
                    "created_at": match.created_at,
                    "last_action_at": match.ended_at,
                    "engine_level": match.engine_level,
                    "rated": int(match.rated),
                }
                for match in past
            ],
        )
        ids = [int(row[0]) for row in rows]
        logged = [
            {"match_id": match_id, "seq": seq, "action": action}
            for match_id, match in zip(ids, past, strict=True)
            for seq, action in enumerate(match.actions)
        ]
        await self._tx.insert_many(schema.match_actions, logged)
        await self._rate(ids, past)
        endings = [
            Ending(
                match.server_id, match.player_ids, match.status, match.winner, match.engine_level
            )
            for match in past
        ]
        await PlayerWrites(self._tx).count_endings(endings)
        await self._analyse(ids, past)
        return ids

    async def _rate(self, ids: list[int], past: Sequence[PastMatch]) -> None:
        """The rating changes of the rated ones, and each player's rating, experience and record
        after the last of them."""
        changes = []
        results: dict[tuple[str, str], list[float]] = {}  # (server, user): rating, experience, W, L
        for match_id, match in zip(ids, past, strict=True):
            for rating in match.ratings:
                changes.append(
                    {
                        "match_id": match_id,
                        "server_id": match.server_id,
                        "user_id": rating.user_id,
                        "rating_before": rating.before,
                        "rating_after": rating.after,
                        "experience_before": rating.experience_before,
                    }
                )
                seat = match.player_ids.index(rating.user_id)
                result = results.setdefault((match.server_id, rating.user_id), [0.0, 0, 0, 0])
                result[0] = rating.after
                result[1] = rating.experience_before + match.match_length
                result[2 if match.winner == seat else 3] += 1
        if not changes:
            return
        await self._tx.insert_many(schema.rating_changes, changes)
        servers = sorted({server for server, _ in results})
        for server in servers:
            await PlayerWrites(self._tx).update_results(
                server,
                [
                    (user, rating, int(experience), int(wins), int(losses))
                    for (at, user), (rating, experience, wins, losses) in sorted(results.items())
                    if at == server
                ],
            )

    async def _analyse(self, ids: list[int], past: Sequence[PastMatch]) -> None:
        jobs = []
        figures = []
        for match_id, match in zip(ids, past, strict=True):
            if match.analysis is None:
                continue
            jobs.append(
                {
                    "match_id": match_id,
                    "plies": match.analysis.plies,
                    "status": "done",
                    "result": match.analysis.result,
                    "requested_at": match.ended_at,
                    "started_at": match.ended_at,
                    "finished_at": match.ended_at,
                }
            )
            figures.extend(figure_rows(match_id, match.server_id, match.analysis.players))
        await self._tx.insert_many(schema.analyses, jobs)
        await self._tx.insert_many(schema.analysis_players, figures)
        await AnalysisWrites(self._tx).count_analysed(figures)

    async def add_challenges(self, past: Sequence[PastChallenge]) -> None:
        """Write challenges answered (or expired) long ago; their players must exist."""
        await self._tx.insert_many(
            schema.challenges,
            [
                {
                    "server_id": challenge.server_id,
                    "channel_id": challenge.channel_id,
                    "challenger_id": challenge.challenger_id,
                    "challenged_id": challenge.challenged_id,
                    "match_length": challenge.match_length,
                    "created_at": challenge.created_at,
                    "expires_at": challenge.expires_at,
                    "status": challenge.status,
                }
                for challenge in past
            ],
        )
