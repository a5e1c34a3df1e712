"""Each player's record, kept in counters as matches end (schema 14): the matches they finished
and aborted (columns of ``players``), and their results against GNU Backgammon by level
(``engine_records``). With the matches they play now (an index of the playing ones), that is what
``!stats`` shows: a row or an index away, however long the server's history.

The counters are added to by :func:`count_endings`, in the transaction that ends the match, so
they never disagree with the matches; migration 014 filled them from the history before it.
Plain functions over a :class:`~bot.store.database.Store` or
:class:`~bot.store.database.Transaction`, like :mod:`bot.store.opponent`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, bindparam, func, select, union_all, update

from bot.store import schema
from bot.store.database import Store, Transaction, for_each_database
from bot.store.rows import MatchRow
from bot.store.schema import fixed

ENDED = ("finished", "aborted")  # the statuses a match ends with


@dataclass(frozen=True, slots=True)
class Ending:
    """A match that ended, as its players' counters take it: ``status`` is ``finished`` (won by
    seat ``winner``) or ``aborted``; ``engine_level``: GNU Backgammon's, when it held a seat."""

    server_id: str
    player_ids: tuple[str, str]
    status: str
    winner: int | None
    engine_level: str | None

    @classmethod
    def of(cls, row: MatchRow, status: str, winner: int | None) -> Ending:
        """The ending of ``row``'s match with ``status`` and ``winner``."""
        return cls(row.server_id, row.player_ids, status, winner, row.engine_level)


@dataclass(frozen=True, slots=True)
class MatchCounts:
    """A player's matches on one server: finished (rated or not), aborted, being played."""

    finished: int
    aborted: int
    playing: int


@dataclass(frozen=True, slots=True)
class LevelRecord:
    """One player's finished matches against the engine at one level."""

    level: str
    wins: int
    losses: int


p = schema.players
m = schema.matches
r = schema.engine_records

_ENDED = (
    update(p)
    .where(p.c.server_id == bindparam("at_server"), p.c.user_id == bindparam("of_user"))
    .values(
        finished=p.c.finished + bindparam("more_finished", type_=Integer),
        aborted=p.c.aborted + bindparam("more_aborted", type_=Integer),
    )
)


def _engine_results(insert: Any) -> Any:
    added = insert(r).values(
        server_id=bindparam("server_id"),
        user_id=bindparam("user_id"),
        level=bindparam("level"),
        wins=bindparam("wins"),
        losses=bindparam("losses"),
    )
    return added.on_conflict_do_update(
        index_elements=["server_id", "user_id", "level"],
        set_={"wins": r.c.wins + added.excluded.wins, "losses": r.c.losses + added.excluded.losses},
    )


_ENGINE_RESULTS = for_each_database(_engine_results)


def _playing_as(seat: Any) -> Any:
    return select(m.c.id).where(
        seat == bindparam("user_id"),
        m.c.status == fixed("playing"),
        m.c.server_id == bindparam("server_id"),
    )


# Built once (``!stats`` runs them): see bot/store/database.py.
_PLAYING = union_all(_playing_as(m.c.player0_id), _playing_as(m.c.player1_id)).subquery()
_COUNTS = select(
    p.c.finished, p.c.aborted, select(func.count()).select_from(_PLAYING).scalar_subquery()
).where(p.c.server_id == bindparam("server_id"), p.c.user_id == bindparam("user_id"))
_AGAINST_ENGINE = (
    select(r.c.level, r.c.wins, r.c.losses)
    .where(r.c.server_id == bindparam("server_id"), r.c.user_id == bindparam("user_id"))
    .order_by(r.c.level)
)


async def count_endings(tx: Transaction, endings: Sequence[Ending]) -> None:
    """Add ``endings`` to their players' counters, inside the transaction that ends those
    matches: one statement for the players and one for the results against the engine,
    however many. Rows are written in key order, so that two processes ending matches of the
    same players wait for each other instead of deadlocking."""
    ended: dict[tuple[str, str], list[int]] = {}  # (server, user): [finished, aborted]
    against: dict[tuple[str, str, str], list[int]] = {}  # (server, user, level): [wins, losses]
    for ending in endings:
        if ending.status not in ENDED:
            raise ValueError(f"a match ends finished or aborted, not {ending.status!r}")
        for seat, user_id in enumerate(ending.player_ids):
            ended.setdefault((ending.server_id, user_id), [0, 0])[ENDED.index(ending.status)] += 1
            if ending.engine_level is None or ending.winner is None or ending.status != "finished":
                continue
            key = (ending.server_id, user_id, ending.engine_level)
            against.setdefault(key, [0, 0])[0 if ending.winner == seat else 1] += 1
    if ended:
        await tx.execute(
            _ENDED,
            [
                {"at_server": server, "of_user": user, "more_finished": f, "more_aborted": a}
                for (server, user), (f, a) in sorted(ended.items())
            ],
        )
    if against:
        await tx.execute(
            _ENGINE_RESULTS[tx.dialect],
            [
                {"server_id": server, "user_id": user, "level": level, "wins": w, "losses": lost}
                for (server, user, level), (w, lost) in sorted(against.items())
            ],
        )


async def match_counts(store: Store, server_id: str, user_id: str) -> MatchCounts:
    """``user_id``'s matches on this server: their counters and their matches being played
    (an index of the playing ones), in one read."""
    row = await store.fetch_one(_COUNTS, {"server_id": server_id, "user_id": user_id})
    if row is None:
        return MatchCounts(0, 0, 0)
    return MatchCounts(int(row[0]), int(row[1]), int(row[2]))


async def record_against_engine(store: Store, server_id: str, user_id: str) -> list[LevelRecord]:
    """``user_id``'s finished matches against the engine on this server, by level (in name
    order: ordering them by strength is the caller's business)."""
    rows = await store.fetch_all(_AGAINST_ENGINE, {"server_id": server_id, "user_id": user_id})
    return [LevelRecord(str(row[0]), int(row[1]), int(row[2])) for row in rows]
