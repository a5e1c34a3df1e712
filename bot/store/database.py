"""The store: one set of queries (built from :mod:`bot.store.schema`) for SQLite and PostgreSQL,
one transaction per command. Its rows and errors are in :mod:`bot.store.rows`.

SQLite (the default, a file): one aiosqlite connection, on its thread
(:class:`~bot.store.connections.SqliteThread`), guarded by one lock, so a transaction of one
channel's command never interleaves with another's statements; WAL, and ``BEGIN IMMEDIATE`` so
a writer waits for another process's writer instead of failing halfway.

PostgreSQL (many hosts): a pool of connections, each transaction on its own; what reads then
writes is safe under processes racing on one row (a version check in the UPDATE itself, counters
added in place, players read ``FOR UPDATE`` before their rating changes).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    Integer,
    Table,
    Text,
    and_,
    bindparam,
    case,
    event,
    func,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy import exc as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store import schema
from bot.store.address import DatabaseAddress
from bot.store.connections import (
    Outcome,
    PostgresRunner,
    Record,
    Runner,
    SqliteThread,
    SqliteTransaction,
    Statement,
)
from bot.store.migrate import migrate_postgres, migrate_sqlite
from bot.store.rows import (
    ChallengeRow,
    DatabaseDown,
    MatchRow,
    PlayerRow,
    StaleMatchError,
    StoreError,
    raise_translated,
)
from bot.store.schema import fixed

log = logging.getLogger(__name__)

CONNECT_SECONDS = 10.0  # how long to wait for a PostgreSQL server to answer
POOL_SIZE = 5  # PostgreSQL connections per process (plus as many again at a peak)
IDLE_PING_SECONDS = 30.0  # a pooled connection idle this long is checked before it is used

m = schema.matches
c = schema.challenges
p = schema.players
a = schema.match_announcements
actions = schema.match_actions

# The statements of every command, built once with named parameters: building a statement and its
# cache key costs more than running it on SQLite, so the per-command paths don't do it each time.
_PLAYING_MATCH = select(m).where(
    m.c.server_id == bindparam("server_id"),
    m.c.channel_id == bindparam("channel_id"),
    m.c.status == fixed("playing"),
)
_LATEST_MATCH = (
    select(m)
    .where(m.c.server_id == bindparam("server_id"), m.c.channel_id == bindparam("channel_id"))
    .order_by(m.c.id.desc())
    .limit(1)
)
_MATCH = select(m).where(m.c.id == bindparam("match_id"))
_ACTIONS = (
    select(actions.c.seq, actions.c.action)
    .where(actions.c.match_id == bindparam("match_id"))
    .order_by(actions.c.seq)
)
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
_SAVE_MATCH = (
    update(m)
    .where(m.c.id == bindparam("match_id"), m.c.version == bindparam("seen_version"))
    .values(
        state=func.coalesce(bindparam("new_state", type_=Text), m.c.state),
        snapshot=func.coalesce(bindparam("new_snapshot", type_=Text), m.c.snapshot),
        status=bindparam("new_status", type_=Text),
        winner=bindparam("new_winner", type_=Integer),
        ending=bindparam("new_ending", type_=Text),
        abort_offered_by=bindparam("new_abort_offered_by", type_=Integer),
        version=m.c.version + 1,
        last_action_at=case(
            (bindparam("touch", type_=Boolean), bindparam("now", type_=Float)),
            else_=m.c.last_action_at,
        ),
    )
)
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
_ANNOUNCEMENT = select(a.c.version, a.c.shown_at).where(a.c.match_id == bindparam("match_id"))


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


_INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}  # with ON CONFLICT


def for_each_database(build: Callable[[Any], Any]) -> dict[str, Any]:
    """``build(insert)`` with each database's INSERT, by :attr:`Store.dialect`: an upsert (its
    ON CONFLICT is each database's own) built once."""
    return {dialect: build(insert) for dialect, insert in _INSERTS.items()}


def _announced(insert: Any) -> Any:
    shown = insert(a).values(
        match_id=bindparam("match_id"), version=bindparam("version"), shown_at=bindparam("now")
    )
    return shown.on_conflict_do_update(
        index_elements=["match_id"],
        set_={"version": shown.excluded.version, "shown_at": shown.excluded.shown_at},
        where=shown.excluded.version > a.c.version,
    )


_ANNOUNCED = for_each_database(_announced)


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


_SERVER_ADDED = for_each_database(_server_added)
_PLAYER_ADDED = for_each_database(_player_added)


class Store:
    """The bot's database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(
        self,
        address: DatabaseAddress,
        *,
        file: SqliteThread | None = None,
        engine: AsyncEngine | None = None,
    ) -> None:
        self.address = address
        self._db = file  # SQLite: the one connection, on its thread
        self._engine = engine  # PostgreSQL: a pool of connections
        self._lock = asyncio.Lock()
        self._trace: Callable[[str], None] | None = None
        self._closed = False
        if file is not None:
            file.trace = self._traced_sql
        else:
            assert engine is not None
            event.listen(engine.sync_engine, "before_cursor_execute", self._traced)
        # A read on PostgreSQL runs outside any transaction: no BEGIN and ROLLBACK around it, two
        # round trips fewer (the same pool of connections).
        self._reader = engine.execution_options(isolation_level="AUTOCOMMIT") if engine else None

    @property
    def is_sqlite(self) -> bool:
        return self._db is not None

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``: which of :func:`for_each_database`'s to run."""
        return "sqlite" if self.is_sqlite else "postgresql"

    @property
    def insert(self) -> Any:
        """The INSERT with ON CONFLICT of this database."""
        return _INSERTS[self.dialect]

    @classmethod
    async def open(cls, where: str | Path | DatabaseAddress) -> Store:
        """Open (creating and migrating as needed) the database at ``where``: a SQLite path or
        a PostgreSQL URL.

        Several processes may open one database at once: each migration runs in its own write
        transaction and is skipped by whoever finds it already applied. On any failure the
        connection is closed before the error propagates, so a process that can't open its
        database exits instead of hanging.
        """
        address = where if isinstance(where, DatabaseAddress) else DatabaseAddress.parse(where)
        if address.path is not None:
            return await cls._open_sqlite(address, address.path)
        return await cls._open_postgres(address)

    @classmethod
    async def _open_sqlite(cls, address: DatabaseAddress, path: Path) -> Store:
        try:
            db = await SqliteThread.open(path)
        except (sa.DBAPIError, sqlite3.Error) as error:
            raise StoreError(f"can't open the database {path}: {describe_error(error)}") from None
        store = cls(address, file=db)
        try:
            async with store._lock:
                await db.migrate(migrate_sqlite)
            await store._refuse_newer()
        except BaseException as error:
            await store.close()
            if isinstance(error, (sa.DBAPIError, sqlite3.Error)):
                raise StoreError(
                    f"can't use the database {path}: {describe_error(error)}"
                ) from None
            raise
        return store

    @classmethod
    async def _open_postgres(cls, address: DatabaseAddress) -> Store:
        assert address.url is not None
        engine = create_async_engine(
            address.url,
            pool_size=POOL_SIZE,
            max_overflow=POOL_SIZE,
            connect_args={"timeout": CONNECT_SECONDS},
        )
        _check_idle_connections(engine)
        store = cls(address, engine=engine)
        try:
            async with engine.begin() as connection:
                await migrate_postgres(connection)
            await store._refuse_newer()
        except BaseException as error:
            await engine.dispose()
            if isinstance(error, (sa.DBAPIError, OSError)):
                raise StoreError(
                    f"can't use the database {address.shown}: {_server_cause(error, address)}"
                ) from None
            raise
        return store

    async def _refuse_newer(self) -> None:
        found = await self.schema_version()
        if found > schema.SCHEMA_VERSION:
            raise StoreError(
                f"the database {self.address.shown} is at schema version {found}, newer than "
                f"this bot's {schema.SCHEMA_VERSION}: run the newer bot, or restore a backup"
            )

    async def close(self) -> None:
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._db is not None:
                await self._db.close()
            if self._engine is not None:
                await self._engine.dispose()

    def _refuse_closed(self) -> None:
        if self._closed:
            raise StoreError(f"the database {self.address.shown} is closed")

    async def schema_version(self) -> int:
        if self.is_sqlite:
            row = await self.fetch_one("PRAGMA user_version")
            return int(row[0]) if row else 0
        value = await self.meta(schema.VERSION_NAME)
        return int(value) if value else 0

    # -- primitives ---------------------------------------------------------------------------

    def _traced(self, _conn: object, _cursor: object, statement: str, *_: object) -> None:
        self._traced_sql(statement)

    def _traced_sql(self, statement: str) -> None:
        if self._trace is not None:
            self._trace(statement)

    async def _read(self, statement: Statement, params: Iterable[Any]) -> Outcome:
        self._refuse_closed()
        if self._db is not None:
            async with self._lock:
                try:
                    return await self._db.run(statement, params)
                except sa.OperationalError as error:
                    raise_translated(error)
        assert self._reader is not None
        try:
            async with self._reader.connect() as connection:
                return await PostgresRunner(connection).run(statement, params)
        except Exception as error:
            _raise_if_down(error)
            raise

    async def fetch_one(self, statement: Statement, params: Iterable[Any] = ()) -> Record | None:
        return (await self._read(statement, params)).first()

    async def fetch_all(self, statement: Statement, params: Iterable[Any] = ()) -> list[Record]:
        return (await self._read(statement, params)).rows

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Hand every SQL statement run from now on to ``callback`` (None: stop); for tests
        and diagnosis (how many reads a command costs). A transaction shows as BEGIN … COMMIT
        on both databases."""
        self._trace = callback

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One atomic unit of writes: all of it is committed, or none of it. A database held
        by another program raises :class:`DatabaseBusy`, a full disk :class:`DiskFull`, a
        PostgreSQL server that does not answer :class:`DatabaseDown`."""
        self._refuse_closed()
        if self._db is None:
            assert self._engine is not None
            if self._trace is not None:
                self._trace("BEGIN")
            try:
                async with self._engine.begin() as connection:
                    yield Transaction(PostgresRunner(connection), self)
            except Exception as error:
                _raise_if_down(error)
                raise
            if self._trace is not None:
                self._trace("COMMIT")
            return
        async with self._lock:
            db = self._db
            runner = SqliteTransaction(db)
            try:
                yield Transaction(runner, self)
                if runner.began:
                    await db.run("COMMIT")
            except BaseException as error:
                if runner.began:
                    await _rollback(db)
                if isinstance(error, sa.OperationalError):
                    raise_translated(error)
                raise

    # -- reads --------------------------------------------------------------------------------

    async def player(self, server_id: str, user_id: str) -> PlayerRow | None:
        row = await self.fetch_one(_PLAYER, {"server_id": server_id, "user_id": user_id})
        return PlayerRow(**row._mapping) if row else None

    async def open_challenge(self, server_id: str, channel_id: str) -> ChallengeRow | None:
        row = await self.fetch_one(
            select(c).where(c.c.server_id == server_id, c.c.channel_id == channel_id, _open())
        )
        return ChallengeRow(**row._mapping) if row else None

    async def challenge_times(
        self, server_id: str, user_id: str, since: float, most: int
    ) -> list[float]:
        """When ``user_id`` made their (at most ``most``) newest challenges on the server after
        ``since`` that were not accepted (open, declined, cancelled or expired), newest first."""
        rows = await self.fetch_all(
            select(c.c.created_at)
            .where(
                c.c.server_id == server_id,
                c.c.challenger_id == user_id,
                c.c.created_at > since,
                c.c.status != fixed("accepted"),
            )
            .order_by(c.c.created_at.desc())
            .limit(most)
        )
        return [float(row[0]) for row in rows]

    async def playing_matches(self, user_id: str) -> list[MatchRow]:
        """The matches ``user_id`` is playing now, on any server, oldest first."""
        playing = m.c.status == fixed("playing")
        both = union_all(
            select(m).where(m.c.player0_id == user_id, playing),
            select(m).where(m.c.player1_id == user_id, playing),
        ).subquery()
        rows = await self.fetch_all(select(both).order_by(both.c.id))
        return [MatchRow(**row._mapping) for row in rows]

    async def meta(self, name: str) -> str | None:
        meta = schema.meta
        row = await self.fetch_one(select(meta.c.value).where(meta.c.name == name))
        return str(row[0]) if row else None

    async def set_meta(self, name: str, value: str) -> None:
        """Set ``name`` unless another process set it first (then its value stays)."""
        async with self.transaction() as tx:
            await tx.execute(
                self.insert(schema.meta)
                .values(name=name, value=value)
                .on_conflict_do_nothing(index_elements=["name"])
            )

    async def latest_challenge(self, server_id: str, channel_id: str) -> ChallengeRow | None:
        row = await self.fetch_one(
            select(c)
            .where(c.c.server_id == server_id, c.c.channel_id == channel_id)
            .order_by(c.c.id.desc())
            .limit(1)
        )
        return ChallengeRow(**row._mapping) if row else None

    async def playing_match(self, server_id: str, channel_id: str) -> MatchRow | None:
        row = await self.fetch_one(
            _PLAYING_MATCH, {"server_id": server_id, "channel_id": channel_id}
        )
        return MatchRow(**row._mapping) if row else None

    async def latest_match(self, server_id: str, channel_id: str) -> MatchRow | None:
        row = await self.fetch_one(
            _LATEST_MATCH, {"server_id": server_id, "channel_id": channel_id}
        )
        return MatchRow(**row._mapping) if row else None

    async def match(self, match_id: int) -> MatchRow | None:
        row = await self.fetch_one(_MATCH, {"match_id": match_id})
        return MatchRow(**row._mapping) if row else None

    async def matches_after(self, after: int, limit: int) -> list[MatchRow]:
        """Up to ``limit`` matches with ids above ``after``, in id order (to walk them all)."""
        rows = await self.fetch_all(select(m).where(m.c.id > after).order_by(m.c.id).limit(limit))
        return [MatchRow(**row._mapping) for row in rows]

    async def match_actions(self, match_id: int) -> list[tuple[int, str]]:
        """The match's action log: (seq, action JSON) in order."""
        rows = await self.fetch_all(_ACTIONS, {"match_id": match_id})
        return [(int(row[0]), str(row[1])) for row in rows]

    async def leaderboard(self, server_id: str, limit: int = 10) -> list[PlayerRow]:
        """The server's top ``limit`` players: the first entries of its index of the ranked."""
        rows = await self.fetch_all(_LEADERBOARD, {"server_id": server_id, "most": limit})
        return [PlayerRow(**row._mapping) for row in rows]

    async def rank(self, server_id: str, user_id: str) -> tuple[int, int] | None:
        """(rank, ranked players) of a player who has finished a rated match, else None:
        counted in the index of the ranked players, in the leaderboard's order."""
        row = await self.fetch_one(_RANK, {"server_id": server_id, "user_id": user_id})
        return (int(row[0]), int(row[1])) if row else None

    # -- who plays where, and what was announced ----------------------------------------------

    async def seated(
        self, server_id: str, channel_id: str, now: float, ended_since: float
    ) -> frozenset[str]:
        """The players of the channel's match and of its open (unexpired) challenge, and of its
        newest match (or its newest played in a thread) if that ended after ``ended_since``:
        they ask for stats, exports and rematches right after. Index reads only."""
        here = m.c.server_id == server_id

        def newest(where: Any) -> Any:
            last = select(m.c.id).where(here, where).order_by(m.c.id.desc()).limit(1).subquery()
            return select(last.c.id)

        recent = union_all(
            newest(m.c.channel_id == channel_id), newest(m.c.parent_channel_id == channel_id)
        )
        rows = await self.fetch_all(
            union_all(
                select(m.c.player0_id, m.c.player1_id).where(
                    here, m.c.channel_id == channel_id, m.c.status == fixed("playing")
                ),
                select(c.c.challenger_id, c.c.challenged_id).where(
                    c.c.server_id == server_id,
                    c.c.channel_id == channel_id,
                    _open(),
                    c.c.expires_at > now,
                ),
                select(m.c.player0_id, m.c.player1_id).where(
                    m.c.id.in_(recent), m.c.last_action_at > ended_since
                ),
            )
        )
        return frozenset(str(user_id) for row in rows for user_id in row)

    async def announcement(self, match_id: int) -> tuple[int, float] | None:
        """(version, when) of the match's newest state shown in its channel, if recorded."""
        row = await self.fetch_one(_ANNOUNCEMENT, {"match_id": match_id})
        return (int(row[0]), float(row[1])) if row else None

    async def unannounced(self) -> list[MatchRow]:
        """Matches being played whose newest state was never shown in their channel (by the
        index of the matches being played)."""
        rows = await self.fetch_all(
            select(m)
            .select_from(m.outerjoin(a, a.c.match_id == m.c.id))
            .where(m.c.status == fixed("playing"), m.c.version > func.coalesce(a.c.version, 0))
            .order_by(m.c.id)
        )
        return [MatchRow(**row._mapping) for row in rows]


class Transaction:
    """Writes inside :meth:`Store.transaction`."""

    def __init__(self, runner: Runner, store: Store) -> None:
        self._db = runner
        self._store = store

    @property
    def insert(self) -> Any:
        """The INSERT with ON CONFLICT of this database."""
        return self._store.insert

    @property
    def dialect(self) -> str:
        return self._store.dialect

    async def execute(self, statement: Statement, params: Iterable[Any] = ()) -> int:
        """Run a write; how many rows it changed."""
        return (await self._db.run(statement, params)).rowcount

    async def insert_row(self, statement: Statement) -> int:
        """Run one INSERT of one row; the new row's id."""
        new_id = (await self._db.run(statement)).new_id
        assert new_id is not None, "an INSERT of one row into a table with a row id"
        return new_id

    async def fetch_all(self, statement: Statement, params: Iterable[Any] = ()) -> list[Record]:
        """Rows as this transaction sees them."""
        return (await self._db.run(statement, params)).rows

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        """``rows`` (each naming the same columns) into ``table`` at the driver's own speed:
        PostgreSQL's COPY, SQLite's executemany, with none of SQLAlchemy's work per row. For
        writing a long history in bulk (:mod:`bot.store.history`); no statement is traced."""
        if rows:
            await self._db.insert_many(table, rows)

    async def hold_server(self, server_id: str, now: float) -> None:
        """The server's row, made if new and held until the transaction ends: what a check
        across the server's rows then reads (an open tournament's name) can't change under it
        (on PostgreSQL, ``FOR UPDATE``; SQLite's transactions hold the whole file already)."""
        await self._db.run(_SERVER_ADDED[self.dialect], {"server_id": server_id, "now": now})
        await self._db.run(_SERVER.with_for_update(), {"server_id": server_id})

    async def ensure_player(self, server_id: str, user_id: str, name: str, now: float) -> None:
        await self.ensure_players(server_id, [(user_id, name)], now)

    async def ensure_players(
        self, server_id: str, players: Sequence[tuple[str, str]], now: float
    ) -> None:
        """The server and each ``(user id, name)``'s player exist, under that name now: one
        statement for the server and one for all the players, written in id order whatever
        the order given, so that two processes writing the same two players wait for each
        other instead of deadlocking."""
        await self._db.run(_SERVER_ADDED[self.dialect], {"server_id": server_id, "now": now})
        named = dict(players)  # one row per player (a key written twice in one statement fails)
        await self._db.run(
            _PLAYER_ADDED[self.dialect],
            [
                {"server_id": server_id, "user_id": user_id, "name": name}
                for user_id, name in sorted(named.items())
            ],
        )

    async def create_challenge(
        self,
        server_id: str,
        channel_id: str,
        challenger_id: str,
        challenged_id: str,
        match_length: int,
        now: float,
        expires_at: float,
        options: str = "{}",
    ) -> int:
        result = await self._db.run(
            schema.challenges.insert().values(
                server_id=server_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                challenged_id=challenged_id,
                match_length=match_length,
                created_at=now,
                expires_at=expires_at,
                status="open",
                options=options,
            )
        )
        assert result.new_id is not None
        return result.new_id

    async def close_challenge(self, challenge_id: int, status: str) -> None:
        changed = await self.execute(
            update(c).where(c.c.id == challenge_id, _open()).values(status=status)
        )
        if changed != 1:
            raise StaleMatchError("the challenge was answered meanwhile")

    async def expire_challenge(self, challenge_id: int) -> None:
        """Close a challenge past its time (a no-op if another command got there first)."""
        await self.execute(
            update(c).where(c.c.id == challenge_id, _open()).values(status="expired")
        )

    async def create_match(
        self,
        server_id: str,
        channel_id: str,
        player_ids: tuple[str, str],
        match_length: int,
        state: str,
        now: float,
        *,
        snapshot: str | None = None,
    ) -> int:
        """A new match at version 1; its actions go in with :meth:`append_actions`."""
        result = await self._db.run(
            m.insert().values(
                server_id=server_id,
                channel_id=channel_id,
                player0_id=player_ids[0],
                player1_id=player_ids[1],
                match_length=match_length,
                state=state,
                snapshot=snapshot,
                version=1,
                status="playing",
                created_at=now,
                last_action_at=now,
            )
        )
        assert result.new_id is not None
        return result.new_id

    async def save_match(
        self,
        match_id: int,
        version: int,
        *,
        status: str,
        now: float,
        state: str | None = None,
        snapshot: str | None = None,
        winner: int | None = None,
        ending: str | None = None,
        abort_offered_by: int | None = None,
        touch: bool = True,
    ) -> int:
        """Write a match if it is still at ``version``; returns the new version. ``state`` and
        ``snapshot`` are written when given, else kept; new actions go in with
        :meth:`append_actions`, in the same transaction.

        Raises :class:`StaleMatchError` when another writer got there first.
        """
        # The version check is in the UPDATE itself: of two writers racing on one match (two
        # processes), the second finds no row at ``version`` once the first has committed.
        changed = await self.execute(
            _SAVE_MATCH,
            {
                "match_id": match_id,
                "seen_version": version,
                "new_state": state,
                "new_snapshot": snapshot,
                "new_status": status,
                "new_winner": winner,
                "new_ending": ending,
                "new_abort_offered_by": abort_offered_by,
                "touch": touch,
                "now": now,
            },
        )
        if changed != 1:
            raise StaleMatchError(f"match {match_id} is no longer at version {version}", match_id)
        return version + 1

    async def append_actions(self, match_id: int, first_seq: int, actions: Sequence[str]) -> None:
        """Add ``actions`` (JSON texts) to the match's log as ``first_seq``, ``first_seq + 1``...

        Raises :class:`StoreError` when the log already has one of those numbers (it then
        disagrees with whoever thought it held ``first_seq`` actions).
        """
        rows = [
            {"match_id": match_id, "seq": first_seq + offset, "action": action}
            for offset, action in enumerate(actions)
        ]
        if not rows:
            return
        try:
            await self._db.run(schema.match_actions.insert(), rows)
        except sa.IntegrityError as error:
            raise StoreError(
                f"match {match_id}: can't log actions {first_seq}-{first_seq + len(rows) - 1}: "
                f"{describe_error(error)}"
            ) from error

    async def match_actions(self, match_id: int) -> list[tuple[int, str]]:
        """The match's action log as this transaction sees it: (seq, action JSON) in order."""
        rows = (await self._db.run(_ACTIONS, {"match_id": match_id})).rows
        return [(int(row[0]), str(row[1])) for row in rows]

    async def store_snapshot(self, match_id: int, version: int, snapshot: str) -> bool:
        """Write a snapshot rebuilt from the log without making a new version (nothing about
        the match changed, so nothing is announced again); False when the match is no longer
        at ``version`` (the newer writer wrote its own snapshot)."""
        changed = await self.execute(
            update(m).where(m.c.id == match_id, m.c.version == version).values(snapshot=snapshot)
        )
        return changed == 1

    async def record_rating(
        self, match_id: int, server_id: str, user_id: str, before: PlayerRow, rating: float
    ) -> None:
        await self._db.run(
            schema.rating_changes.insert().values(
                match_id=match_id,
                server_id=server_id,
                user_id=user_id,
                rating_before=before.rating,
                rating_after=rating,
                experience_before=before.experience,
            )
        )

    async def update_player_result(
        self, server_id: str, user_id: str, *, rating: float, experience: int, won: bool
    ) -> None:
        await self.update_player_results(
            server_id, [(user_id, rating, experience, int(won), int(not won))]
        )

    async def update_player_results(
        self, server_id: str, results: Sequence[tuple[str, float, int, int, int]]
    ) -> None:
        """Each ``(user id, rating, experience, wins, losses)``: the player's new rating and
        experience, and rated wins and losses to add to their record (one statement)."""
        await self._db.run(
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

    async def player(self, server_id: str, user_id: str) -> PlayerRow | None:
        """The player as this transaction sees it (the rating to update), held until the
        transaction ends (another process's result for the same player waits for it)."""
        row = (
            await self._db.run(
                _PLAYER.with_for_update(), {"server_id": server_id, "user_id": user_id}
            )
        ).first()
        return PlayerRow(**row._mapping) if row else None

    async def both_players(
        self, server_id: str, ids: tuple[str, str]
    ) -> tuple[PlayerRow, PlayerRow]:
        """The two players of a match as this transaction sees them, held until it ends;
        taken in one order whoever asks (by id), so that two processes rating two matches of
        the same players wait for each other instead of deadlocking."""
        rows = (await self._db.run(_BOTH_PLAYERS, {"server_id": server_id, "ids": list(ids)})).rows
        found = {row.user_id: PlayerRow(**row._mapping) for row in rows}
        missing = [user_id for user_id in ids if user_id not in found]
        if missing:
            raise StoreError(f"no player {missing[0]} on server {server_id}")
        return found[ids[0]], found[ids[1]]

    async def mark_announced(self, match_id: int, version: int, now: float = 0.0) -> None:
        """Version ``version`` of the match was shown in its channel at ``now`` (never goes
        back to an older version)."""
        await self._db.run(
            _ANNOUNCED[self.dialect], {"match_id": match_id, "version": version, "now": now}
        )


def _check_idle_connections(engine: AsyncEngine) -> None:
    """Before a connection that sat idle in the pool is used, ask the server whether it is
    still there: one a restarted server or a dropped link killed is replaced then, not failed on.
    A connection used moments ago isn't asked: SQLAlchemy's ``pool_pre_ping`` asks at every
    use, which with asyncpg is three round trips (BEGIN, a query, ROLLBACK) and cost a quarter
    of a command's time."""

    @event.listens_for(engine.sync_engine, "checkin")
    def checked_in(dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def checked_out(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            dbapi_connection.ping()
        except Exception as error:  # the pool opens a new connection instead
            raise sa.DisconnectionError(str(error)) from error


_IDLE_SINCE = "backgammon_idle_since"


def _open() -> Any:
    return c.c.status == fixed("open")


async def _rollback(db: SqliteThread) -> None:
    try:
        await db.run("ROLLBACK")
    except sa.OperationalError as error:
        if "no transaction" not in str(error):  # SQLite rolled it back itself (a full disk)
            log.warning("The transaction could not be rolled back", exc_info=True)


# asyncpg's SQLSTATEs of a server going away or not taking connections: the connection
# exception class, and the shutdowns and the start-up of "operator intervention".
_DOWN_STATES = ("08", "57P01", "57P02", "57P03")


def _raise_if_down(error: Exception) -> None:
    """Raise :class:`DatabaseDown` for ``error`` when it says that the PostgreSQL server does
    not answer: a connection refused or lost (SQLAlchemy invalidates the pool's connections
    then, so the next use connects anew), or the server refusing connections as it stops or
    starts."""
    if isinstance(error, sa.DBAPIError):
        down = error.connection_invalidated
    else:
        state = getattr(error, "sqlstate", None)
        down = isinstance(error, ConnectionError | TimeoutError) or (
            isinstance(state, str) and state.startswith(_DOWN_STATES)
        )
    if down:
        raise DatabaseDown(f"the database is not answering ({describe_error(error)})") from error


def _server_cause(error: BaseException, address: DatabaseAddress) -> str:
    """Why a PostgreSQL server could not be used, in words for whoever runs the bot."""
    original = getattr(error, "orig", None) or error
    if isinstance(original, (OSError, TimeoutError)) and address.url is not None:
        where = f"{address.url.host or 'localhost'}:{address.url.port or 5432}"
        return f"no PostgreSQL server answers at {where} (is it running? {original})"
    return describe_error(error)


def describe_error(error: BaseException) -> str:
    """The database's own words for ``error``, without SQLAlchemy's wrapping."""
    original = getattr(error, "orig", None)
    return str(original if original is not None else error).strip().splitlines()[0]
