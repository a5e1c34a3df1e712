"""Players in the store, with their ratings and records: each player's row on a server (its
rating, experience and rated record, and the counters of the matches they finished and aborted,
schema 14), the rating changes each rated match made, their results against GNU Backgammon by
level (``engine_records``), and the server's row they hang from.

The counters are added to by :meth:`PlayerWrites.count_endings` in the transaction that ends
the match, so they never disagree with the matches; migration 014 filled them from the history
before it. With the matches they play now (an index of the playing ones), that is what
``!stats`` shows: a row or an index away, however long the server's history.

:class:`Players` reads, :class:`PlayerWrites` writes (``tx.players``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, Integer, and_, bindparam, func, or_, select, union_all, update

from bot.store import schema
from bot.store.analyses import PrSummary
from bot.store.connections import Repository, Writes, for_each_database
from bot.store.rows import MatchRow, PlayerRow, StoreError
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


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    user_id: str
    before: float
    after: float


p = schema.players
m = schema.matches
r = schema.engine_records

_PLAYER = select(p).where(
    p.c.server_id == bindparam("server_id"), p.c.user_id == bindparam("user_id")
)
_SERVER = select(schema.servers.c.id).where(schema.servers.c.id == bindparam("server_id"))
_BOTH_PLAYERS = (
    select(p)
    .where(
        p.c.server_id == bindparam("server_id"),
        p.c.user_id.in_(bindparam("ids", expanding=True)),
    )
    .order_by(p.c.user_id)
    .with_for_update()
)
# Names of parameters in SET differ from the columns': SQLAlchemy keeps those for itself.
_RESULT = (
    update(p)
    .where(p.c.server_id == bindparam("at_server"), p.c.user_id == bindparam("of_user"))
    .values(
        rating=bindparam("new_rating", type_=Float),
        experience=bindparam("new_experience", type_=Integer),
        wins=p.c.wins + bindparam("won", type_=Integer),
        losses=p.c.losses + bindparam("lost", type_=Integer),
    )
)
_ENDED = (
    update(p)
    .where(p.c.server_id == bindparam("at_server"), p.c.user_id == bindparam("of_user"))
    .values(
        finished=p.c.finished + bindparam("more_finished", type_=Integer),
        aborted=p.c.aborted + bindparam("more_aborted", type_=Integer),
    )
)


def _ranked(players: Any) -> Any:
    """On the leaderboard (the condition of the index ``players_ranked``, word for word, so
    that both databases read that index)."""
    return players.c.wins + players.c.losses > fixed(0)


_LEADERBOARD = (
    select(p)
    .where(p.c.server_id == bindparam("server_id"), _ranked(p))
    .order_by(p.c.rating.desc(), p.c.wins.desc(), p.c.name)
    .limit(bindparam("most"))
)


def _rank() -> Any:
    me, other = p.alias("me"), p.alias("other")

    def counted(*where: Any) -> Any:
        ranked = select(func.count()).select_from(other)
        return ranked.where(other.c.server_id == me.c.server_id, _ranked(other), *where)

    # Ahead in the leaderboard's order (rating and wins, higher first, then name), counted as
    # two ranges of the index: the higher ratings, then the same rating's better records.
    ahead = (
        counted(other.c.rating > me.c.rating).scalar_subquery()
        + counted(
            other.c.rating == me.c.rating,
            or_(
                other.c.wins > me.c.wins,
                and_(other.c.wins == me.c.wins, other.c.name < me.c.name),
            ),
        ).scalar_subquery()
    )
    return select(ahead + 1, counted().scalar_subquery()).where(
        me.c.server_id == bindparam("server_id"),
        me.c.user_id == bindparam("user_id"),
        _ranked(me),
    )


_RANK = _rank()


def _server_added(insert: Any) -> Any:
    added = insert(schema.servers).values(id=bindparam("server_id"), created_at=bindparam("now"))
    return added.on_conflict_do_nothing(index_elements=["id"])


def _player_added(insert: Any) -> Any:
    added = insert(p).values(
        server_id=bindparam("server_id"), user_id=bindparam("user_id"), name=bindparam("name")
    )
    return added.on_conflict_do_update(
        index_elements=["server_id", "user_id"], set_={"name": added.excluded.name}
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


_SERVER_ADDED = for_each_database(_server_added)
_PLAYER_ADDED = for_each_database(_player_added)
_ENGINE_RESULTS = for_each_database(_engine_results)


def _playing_as(seat: Any) -> Any:
    return select(m.c.id).where(
        seat == bindparam("user_id"),
        m.c.status == fixed("playing"),
        m.c.server_id == bindparam("server_id"),
    )


# Built once (``!stats`` runs them): building a statement costs more than running it on SQLite.
_PLAYING = union_all(_playing_as(m.c.player0_id), _playing_as(m.c.player1_id)).subquery()
_COUNTS = select(
    p.c.finished, p.c.aborted, select(func.count()).select_from(_PLAYING).scalar_subquery()
).where(p.c.server_id == bindparam("server_id"), p.c.user_id == bindparam("user_id"))
_AGAINST_ENGINE = (
    select(r.c.level, r.c.wins, r.c.losses)
    .where(r.c.server_id == bindparam("server_id"), r.c.user_id == bindparam("user_id"))
    .order_by(r.c.level)
)


class Players(Repository):
    """Reads of players, their ratings and records."""

    async def get(self, server_id: str, user_id: str) -> PlayerRow | None:
        row = await self._db.fetch_one(_PLAYER, {"server_id": server_id, "user_id": user_id})
        return PlayerRow(**row._mapping) if row else None

    async def pr_summary(self, server_id: str, user_id: str) -> PrSummary | None:
        """``user_id``'s PR over their analysed matches on this server, or None (none yet)."""
        player = await self.get(server_id, user_id)
        return None if player is None else PrSummary.of(player)

    async def ratings(self, server_id: str, user_ids: Sequence[str]) -> dict[str, float]:
        """The server ratings of ``user_ids`` (those who have one), in one read."""
        rows = await self._db.fetch_all(
            select(p.c.user_id, p.c.rating).where(
                p.c.server_id == server_id, p.c.user_id.in_(list(user_ids))
            )
        )
        return {str(row[0]): float(row[1]) for row in rows}

    async def leaderboard(self, server_id: str, limit: int = 10) -> list[PlayerRow]:
        """The server's top ``limit`` players: the first entries of its index of the ranked."""
        rows = await self._db.fetch_all(_LEADERBOARD, {"server_id": server_id, "most": limit})
        return [PlayerRow(**row._mapping) for row in rows]

    async def rank(self, server_id: str, user_id: str) -> tuple[int, int] | None:
        """(rank, ranked players) of a player who has finished a rated match, else None:
        counted in the index of the ranked players, in the leaderboard's order."""
        row = await self._db.fetch_one(_RANK, {"server_id": server_id, "user_id": user_id})
        return (int(row[0]), int(row[1])) if row else None

    async def rating_changes(self, match_id: int) -> list[RatingChangeRow]:
        """Each player's rating before and after match ``match_id`` (none for an unrated one)."""
        rc = schema.rating_changes
        rows = await self._db.fetch_all(  # the winner (who gained) first
            select(rc.c.user_id, rc.c.rating_before, rc.c.rating_after)
            .where(rc.c.match_id == match_id)
            .order_by((rc.c.rating_after - rc.c.rating_before).desc(), rc.c.user_id)
        )
        return [RatingChangeRow(row[0], float(row[1]), float(row[2])) for row in rows]

    async def match_counts(self, server_id: str, user_id: str) -> MatchCounts:
        """``user_id``'s matches on this server: their counters and their matches being played
        (an index of the playing ones), in one read."""
        row = await self._db.fetch_one(_COUNTS, {"server_id": server_id, "user_id": user_id})
        if row is None:
            return MatchCounts(0, 0, 0)
        return MatchCounts(int(row[0]), int(row[1]), int(row[2]))

    async def against_engine(self, server_id: str, user_id: str) -> list[LevelRecord]:
        """``user_id``'s finished matches against the engine on this server, by level (in name
        order: ordering them by strength is the caller's business)."""
        rows = await self._db.fetch_all(
            _AGAINST_ENGINE, {"server_id": server_id, "user_id": user_id}
        )
        return [LevelRecord(str(row[0]), int(row[1]), int(row[2])) for row in rows]


class PlayerWrites(Writes, Players):
    """Writes of players, in the transaction of the command."""

    async def hold_server(self, server_id: str, now: float) -> None:
        """The server's row, made if new and held until the transaction ends: what a check
        across the server's rows then reads (an open tournament's name) can't change under it
        (on PostgreSQL, ``FOR UPDATE``; SQLite's transactions hold the whole file already)."""
        await self._tx.execute(
            _SERVER_ADDED[self._tx.dialect], {"server_id": server_id, "now": now}
        )
        await self._tx.fetch_all(_SERVER.with_for_update(), {"server_id": server_id})

    async def ensure(self, server_id: str, user_id: str, name: str, now: float) -> None:
        await self.ensure_all(server_id, [(user_id, name)], now)

    async def ensure_all(
        self, server_id: str, players: Sequence[tuple[str, str]], now: float
    ) -> None:
        """The server and each ``(user id, name)``'s player exist, under that name now: one
        statement for the server and one for all the players, written in id order whatever
        the order given, so that two processes writing the same two players wait for each
        other instead of deadlocking."""
        await self._tx.execute(
            _SERVER_ADDED[self._tx.dialect], {"server_id": server_id, "now": now}
        )
        named = dict(players)  # one row per player (a key written twice in one statement fails)
        await self._tx.execute(
            _PLAYER_ADDED[self._tx.dialect],
            [
                {"server_id": server_id, "user_id": user_id, "name": name}
                for user_id, name in sorted(named.items())
            ],
        )

    async def held(self, server_id: str, user_id: str) -> PlayerRow | None:
        """The player as this transaction sees it (the rating to update), held until the
        transaction ends (another process's result for the same player waits for it)."""
        row = await self._tx.fetch_one(
            _PLAYER.with_for_update(), {"server_id": server_id, "user_id": user_id}
        )
        return PlayerRow(**row._mapping) if row else None

    async def both(self, server_id: str, ids: tuple[str, str]) -> tuple[PlayerRow, PlayerRow]:
        """The two players of a match as this transaction sees them, held until it ends;
        taken in one order whoever asks (by id), so that two processes rating two matches of
        the same players wait for each other instead of deadlocking."""
        rows = await self._tx.fetch_all(_BOTH_PLAYERS, {"server_id": server_id, "ids": list(ids)})
        found = {row.user_id: PlayerRow(**row._mapping) for row in rows}
        missing = [user_id for user_id in ids if user_id not in found]
        if missing:
            raise StoreError(f"no player {missing[0]} on server {server_id}")
        return found[ids[0]], found[ids[1]]

    async def record_ratings(
        self, match_id: int, server_id: str, changes: Sequence[tuple[PlayerRow, float]]
    ) -> None:
        """Each ``(player before, new rating)`` of match ``match_id``: its rating change, in
        one statement."""
        await self._tx.execute(
            schema.rating_changes.insert(),
            [
                {
                    "match_id": match_id,
                    "server_id": server_id,
                    "user_id": before.user_id,
                    "rating_before": before.rating,
                    "rating_after": rating,
                    "experience_before": before.experience,
                }
                for before, rating in changes
            ],
        )

    async def update_result(
        self, server_id: str, user_id: str, *, rating: float, experience: int, won: bool
    ) -> None:
        await self.update_results(
            server_id, [(user_id, rating, experience, int(won), int(not won))]
        )

    async def update_results(
        self, server_id: str, results: Sequence[tuple[str, float, int, int, int]]
    ) -> None:
        """Each ``(user id, rating, experience, wins, losses)``: the player's new rating and
        experience, and rated wins and losses to add to their record (one statement)."""
        await self._tx.execute(
            _RESULT,
            [
                {
                    "at_server": server_id,
                    "of_user": user_id,
                    "new_rating": rating,
                    "new_experience": experience,
                    "won": wins,
                    "lost": losses,
                }
                for user_id, rating, experience, wins, losses in results
            ],
        )

    async def count_endings(self, endings: Sequence[Ending]) -> None:
        """Add ``endings`` to their players' counters, inside the transaction that ends those
        matches: one statement for the players and one for the results against the engine,
        however many. Rows are written in key order, so that two processes ending matches of
        the same players wait for each other instead of deadlocking."""
        ended: dict[tuple[str, str], list[int]] = {}  # (server, user): [finished, aborted]
        against: dict[tuple[str, str, str], list[int]] = {}  # (server, user, level): [W, L]
        for ending in endings:
            if ending.status not in ENDED:
                raise ValueError(f"a match ends finished or aborted, not {ending.status!r}")
            for seat, user_id in enumerate(ending.player_ids):
                ended.setdefault((ending.server_id, user_id), [0, 0])[
                    ENDED.index(ending.status)
                ] += 1
                if (
                    ending.engine_level is None
                    or ending.winner is None
                    or ending.status != "finished"
                ):
                    continue
                key = (ending.server_id, user_id, ending.engine_level)
                against.setdefault(key, [0, 0])[0 if ending.winner == seat else 1] += 1
        if ended:
            await self._tx.execute(
                _ENDED,
                [
                    {"at_server": server, "of_user": user, "more_finished": f, "more_aborted": a}
                    for (server, user), (f, a) in sorted(ended.items())
                ],
            )
        if against:
            await self._tx.execute(
                _ENGINE_RESULTS[self._tx.dialect],
                [
                    {
                        "server_id": server,
                        "user_id": user,
                        "level": level,
                        "wins": w,
                        "losses": lost,
                    }
                    for (server, user, level), (w, lost) in sorted(against.items())
                ],
            )
