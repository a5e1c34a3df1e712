"""Puzzles in the store (schema 19): players' and puzzles' Glicko-2 ratings, a server's own
puzzles and every puzzle shown with its answer (``!puzzle``, :mod:`bot.service.puzzles`).

A player has a puzzle rating per server and one across servers (``server_id`` ''); a puzzle has
one rating, across servers, by its key, written once someone has answered it (before that, its
first rating from its gap). A puzzle shown to a player is a row of ``puzzle_answers`` awaiting
their answer (``answered_at`` None); the answer is written to that row, once. Every read of a
player's answers goes through ``puzzle_answers_by_player`` (server, user, id), the leaderboard
through ``puzzle_players_top`` (server, rating), a server's puzzles through
``server_puzzles_by_rating``.

:class:`Puzzles` reads, :class:`PuzzleWrites` writes (``tx.puzzles``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, select, update

from bot.rules.glicko import Rating
from bot.store import schema
from bot.store.connections import Repository, Writes, insert_of

pp, pr, sp, pa = (
    schema.puzzle_players,
    schema.puzzle_ratings,
    schema.server_puzzles,
    schema.puzzle_answers,
)

EVERY_SERVER = ""  # the server_id of the ratings across servers


@dataclass(frozen=True, slots=True)
class Rated:
    """A stored rating: when it was last changed and by how many answers."""

    rating: Rating
    rated_at: float
    answers: int


@dataclass(frozen=True, slots=True)
class AnswerRow:
    id: int
    server_id: str
    user_id: str
    puzzle: str
    shown_at: float
    rated: int
    answered_at: float | None
    answer: str | None
    right: int | None
    loss: float | None
    daily_id: int | None = None  # the daily post it answers (schema 20)


def _rated(row: Any) -> Rated:
    return Rated(Rating(row.rating, row.deviation, row.volatility), row.rated_at, row.answers)


def _mine(server_id: str, user_id: str) -> Any:
    """The player's puzzles shown by ``!puzzle`` (their answers to daily puzzles are not)."""
    return and_(pa.c.server_id == server_id, pa.c.user_id == user_id, pa.c.daily_id.is_(None))


class Puzzles(Repository):
    """Reads of puzzle ratings, a server's puzzles and players' answers."""

    async def player(self, server_id: str, user_id: str) -> Rated | None:
        row = await self._db.fetch_one(
            select(pp).where(pp.c.server_id == server_id, pp.c.user_id == user_id)
        )
        return None if row is None else _rated(row)

    async def top(
        self, server_id: str, max_deviation: float, limit: int
    ) -> list[tuple[str, str, Rated]]:
        """The server's best rated players whose RD is at most ``max_deviation``, best first
        (a walk down its ratings: the deviations above are passed over, the rows never all
        read)."""
        rows = await self._db.fetch_all(
            select(pp)
            .where(pp.c.server_id == server_id, pp.c.deviation <= max_deviation)
            .order_by(pp.c.rating.desc())
            .limit(limit)
        )
        return [(str(row.user_id), str(row.name), _rated(row)) for row in rows]

    async def puzzle_ratings(self, keys: Sequence[str]) -> dict[str, Rated]:
        """The stored ratings of the puzzles ``keys`` (those answered at least once)."""
        if not keys:
            return {}
        rows = await self._db.fetch_all(select(pr).where(pr.c.puzzle.in_(sorted(set(keys)))))
        return {str(row.puzzle): _rated(row) for row in rows}

    async def server_candidates(
        self, server_id: str, low: float, high: float, limit: int
    ) -> list[tuple[str, str]]:
        """Up to ``limit`` of the server's own puzzles first rated between ``low`` and ``high``:
        (key, data as JSON)."""
        rows = await self._db.fetch_all(
            select(sp.c.puzzle, sp.c.data)
            .where(sp.c.server_id == server_id, sp.c.first_rating.between(low, high))
            .order_by(sp.c.first_rating)
            .limit(limit)
        )
        return [(str(row[0]), str(row[1])) for row in rows]

    async def server_puzzle(self, server_id: str, key: str) -> str | None:
        """The data (JSON) of the server's own puzzle ``key``."""
        row = await self._db.fetch_one(
            select(sp.c.data).where(sp.c.server_id == server_id, sp.c.puzzle == key)
        )
        return None if row is None else str(row[0])

    async def answers(self, server_id: str, user_id: str, limit: int) -> list[AnswerRow]:
        """The player's last ``limit`` puzzles shown on this server, newest first."""
        rows = await self._db.fetch_all(
            select(pa).where(_mine(server_id, user_id)).order_by(pa.c.id.desc()).limit(limit)
        )
        return [AnswerRow(**row._mapping) for row in rows]


class PuzzleWrites(Writes, Puzzles):
    """Writes of puzzles' and players' ratings and of answers."""

    async def show(
        self, server_id: str, user_id: str, puzzle: str, now: float, *, rated: bool = True
    ) -> AnswerRow:
        """``puzzle`` shown to the player, awaiting their answer (``rated``: False for a replay
        of a miss); any puzzle they were shown before and never answered stops waiting."""
        await self._tx.execute(
            update(pa)
            .where(_mine(server_id, user_id), pa.c.answered_at.is_(None))
            .values(answered_at=now)
        )
        values = {
            "server_id": server_id,
            "user_id": user_id,
            "puzzle": puzzle,
            "shown_at": now,
            "rated": int(rated),
        }
        new_id = await self._tx.insert_row(pa.insert().values(**values))
        return AnswerRow(
            new_id, server_id, user_id, puzzle, now, int(rated), None, None, None, None
        )

    async def record_answer(
        self, shown: AnswerRow, answer: str, right: bool, loss: float, now: float
    ) -> bool:
        """The answer to the awaited ``shown``; False if it no longer waited (answered
        meanwhile)."""
        changed = await self._tx.execute(
            update(pa)
            .where(pa.c.id == shown.id, pa.c.answered_at.is_(None))
            .values(answered_at=now, answer=answer, right=int(right), loss=loss)
        )
        return changed > 0

    async def rate_player(self, server_id: str, user_id: str, name: str, rated: Rated) -> None:
        values = {**_values(rated), "name": name}
        insert = insert_of(self._tx.dialect)(pp).values(
            server_id=server_id, user_id=user_id, **values
        )
        await self._tx.execute(
            insert.on_conflict_do_update(index_elements=["server_id", "user_id"], set_=values)
        )

    async def rate_puzzle(self, key: str, rated: Rated, solved: bool) -> None:
        values = _values(rated)
        insert = insert_of(self._tx.dialect)(pr).values(puzzle=key, solved=int(solved), **values)
        await self._tx.execute(
            insert.on_conflict_do_update(
                index_elements=["puzzle"], set_={**values, "solved": pr.c.solved + int(solved)}
            )
        )

    async def add_server_puzzles(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert ``rows`` of ``server_puzzles``; a puzzle the server has already is kept."""
        if rows:
            ordered = sorted(rows, key=lambda row: (row["server_id"], row["puzzle"]))
            await self._tx.execute(
                insert_of(self._tx.dialect)(sp).on_conflict_do_nothing(
                    index_elements=["server_id", "puzzle"]
                ),
                ordered,
            )


def _values(rated: Rated) -> dict[str, Any]:
    return {
        "rating": rated.rating.rating,
        "deviation": rated.rating.deviation,
        "volatility": rated.rating.volatility,
        "rated_at": rated.rated_at,
        "answers": rated.answers,
    }
