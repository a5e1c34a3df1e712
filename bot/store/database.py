"""The store: the database opened, its transactions, and its repositories (one per aggregate, see
:mod:`bot.store`): ``store.matches`` reads, ``tx.matches`` reads and writes in a transaction. Its
rows and errors are in :mod:`bot.store.rows`.

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
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import Table, event
from sqlalchemy import exc as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store import schema
from bot.store.address import DatabaseAddress
from bot.store.analyses import Analyses, AnalysisWrites
from bot.store.challenges import Challenges, ChallengeWrites
from bot.store.connections import (
    BUSY_SECONDS,
    Changes,
    Failure,
    Outcome,
    Record,
    Runner,
    SqliteThread,
    SqliteTransaction,
    Statement,
)
from bot.store.dailies import Dailies, DailyWrites
from bot.store.dice import Dice, DiceWrites
from bot.store.drills import Drills, DrillWrites
from bot.store.matches import Matches, MatchWrites
from bot.store.meta import Meta, MetaWrites
from bot.store.migrate import migrate_postgres, migrate_sqlite
from bot.store.players import Players, PlayerWrites
from bot.store.postgres import Connections, PostgresRunner, PostgresTransaction
from bot.store.puzzles import Puzzles, PuzzleWrites
from bot.store.rows import (
    DatabaseDown,
    OutdatedSchema,
    StoreError,
    describe_error,
    raise_translated,
)
from bot.store.servers import Servers, ServerWrites
from bot.store.storms import Storms, StormWrites
from bot.store.tournaments import Tournaments, TournamentWrites

log = logging.getLogger(__name__)

CONNECT_SECONDS = 10.0  # how long to wait for a PostgreSQL server to answer
# PostgreSQL connections per process at most, each opened when first needed and then kept: a
# pool that closed those above its size at each return opened one every dozen commands flat out
# (a new server process, its statements prepared anew: half the server's CPU, docs/speed.md).
POOL_SIZE = 10
IDLE_PING_SECONDS = 30.0  # a pooled connection idle this long is checked before it is used


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
        self._connections = Connections(engine, POOL_SIZE, IDLE_PING_SECONDS) if engine else None
        # The repositories' reads, outside any transaction (``tx.matches`` and so on write).
        self.matches = Matches(self)
        self.challenges = Challenges(self)
        self.players = Players(self)
        self.tournaments = Tournaments(self)
        self.analyses = Analyses(self)
        self.drills = Drills(self)
        self.puzzles = Puzzles(self)
        self.dailies = Dailies(self)
        self.storms = Storms(self)
        self.dice = Dice(self)
        self.meta = Meta(self)
        self.servers = Servers(self)

    @property
    def is_sqlite(self) -> bool:
        return self._db is not None

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``: which of
        :func:`~bot.store.connections.for_each_database`'s to run."""
        return "sqlite" if self.is_sqlite else "postgresql"

    @classmethod
    async def open(
        cls,
        where: str | Path | DatabaseAddress,
        *,
        upgrade: bool = True,
        busy_seconds: float = BUSY_SECONDS,
    ) -> Store:
        """Open (creating and migrating as needed) the database at ``where``: a SQLite path or
        a PostgreSQL URL. ``upgrade=False`` opens it as it is, changing nothing, and raises
        :class:`OutdatedSchema` where it is older than this bot's schema (copy-db's source).
        ``busy_seconds``: how long a SQLite statement waits for another program's write lock
        before :class:`~bot.store.rows.DatabaseBusy` (``DATABASE_BUSY_SECONDS``).

        Several processes may open one database at once: each migration runs in its own write
        transaction and is skipped by whoever finds it already applied. On any failure the
        connection is closed before the error propagates, so a process that can't open its
        database exits instead of hanging.
        """
        address = where if isinstance(where, DatabaseAddress) else DatabaseAddress.parse(where)
        if address.path is not None:
            return await cls._open_sqlite(address, address.path, upgrade, busy_seconds)
        return await cls._open_postgres(address, upgrade)

    @classmethod
    async def _open_sqlite(
        cls, address: DatabaseAddress, path: Path, upgrade: bool, busy_seconds: float
    ) -> Store:
        try:
            db = await SqliteThread.open(path, busy_seconds)
        except (sa.DBAPIError, sqlite3.Error) as error:
            raise StoreError(f"can't open the database {path}: {describe_error(error)}") from None
        store = cls(address, file=db)
        try:
            if upgrade:
                async with store._lock:
                    await db.migrate(migrate_sqlite)
            await store._refuse_other_versions(upgrade)
        except BaseException as error:
            await store.close()
            if isinstance(error, (sa.DBAPIError, sqlite3.Error)):
                raise StoreError(
                    f"can't use the database {path}: {describe_error(error)}"
                ) from None
            raise
        return store

    @classmethod
    async def _open_postgres(cls, address: DatabaseAddress, upgrade: bool) -> Store:
        assert address.url is not None
        engine = create_async_engine(
            address.url,
            pool_size=POOL_SIZE,
            max_overflow=0,
            connect_args={"timeout": CONNECT_SECONDS},
        )
        _check_idle_connections(engine)
        store = cls(address, engine=engine)
        try:
            if upgrade:
                async with engine.begin() as connection:
                    await migrate_postgres(connection)
            await store._refuse_other_versions(upgrade)
        except BaseException as error:
            await engine.dispose()
            if isinstance(error, (sa.DBAPIError, OSError)):
                raise StoreError(
                    f"can't use the database {address.shown}: {_server_cause(error, address)}"
                ) from None
            raise
        return store

    async def _refuse_other_versions(self, upgrade: bool) -> None:
        """A newer schema is refused; an older one too where the database was not upgraded."""
        found = await self.schema_version()
        if found < schema.SCHEMA_VERSION and not upgrade:
            raise OutdatedSchema(self.address.shown, found, schema.SCHEMA_VERSION)
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
                assert self._connections is not None
                await self._connections.close()
                await self._engine.dispose()

    def _refuse_closed(self) -> None:
        if self._closed:
            raise StoreError(f"the database {self.address.shown} is closed")

    async def schema_version(self) -> int:
        if self.is_sqlite:
            row = await self.fetch_one("PRAGMA user_version")
            return int(row[0]) if row else 0
        value = await self.meta.get(schema.VERSION_NAME)
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
        assert self._engine is not None and self._connections is not None
        try:
            async with self._connections.connection() as driver:
                runner = PostgresRunner(driver, self._engine.dialect, self._traced_sql)
                return await runner.run(statement, params)
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
        on both databases, but on PostgreSQL one of writes no one awaits alone is a statement
        of its own: its writes are shown, without BEGIN and COMMIT."""
        self._trace = callback

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One atomic unit of writes: all of it is committed, or none of it. A database held
        by another program raises :class:`DatabaseBusy`, a full disk :class:`DiskFull`, a
        PostgreSQL server that does not answer :class:`DatabaseDown`."""
        self._refuse_closed()
        if self._db is None:
            return self._postgres_transaction()
        return _SqliteScope(self, self._db)

    @asynccontextmanager
    async def _postgres_transaction(self) -> AsyncIterator[Transaction]:
        assert self._engine is not None and self._connections is not None
        try:
            async with self._connections.connection() as driver:
                tx = PostgresTransaction(driver, self._engine.dialect, self._traced_sql)
                writes = Transaction(tx, self)
                try:
                    yield writes
                    await tx.commit()
                except Exception:
                    with suppress(Exception):  # else the connection leaves the pool
                        await tx.rollback()
                    raise
                finally:
                    writes.close()
        except Exception as error:
            _raise_if_down(error)
            raise


class _SqliteScope:
    """:meth:`Store.transaction` on SQLite, under the store's lock: a class, not an
    ``asynccontextmanager`` (whose generator costs about 7 us more a transaction)."""

    __slots__ = ("_db", "_runner", "_store", "_writes")

    def __init__(self, store: Store, db: SqliteThread) -> None:
        self._store = store
        self._db = db

    async def __aenter__(self) -> Transaction:
        await self._store._lock.acquire()
        self._runner = SqliteTransaction(self._db)
        self._writes = Transaction(self._runner, self._store)
        return self._writes

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        try:
            if error is None:
                try:
                    await self._runner.commit()
                except BaseException as failed:
                    await self._undone(failed)
                    raise
                return
            await self._undone(error)  # then the error goes on
        finally:
            self._writes.close()
            self._store._lock.release()

    async def _undone(self, error: BaseException) -> None:
        if self._runner.began:
            await _rollback(self._db)
        if isinstance(error, sa.OperationalError):
            raise_translated(error)


class Transaction:
    """Writes inside :meth:`Store.transaction`: the repositories' writes (``tx.matches``...),
    each made at its first use."""

    def __init__(self, runner: Runner, store: Store) -> None:
        self._db = runner
        self._store = store
        self._dialect = store.dialect  # (read at every upsert)

    @property
    def dialect(self) -> str:
        return self._dialect

    def close(self) -> None:
        """Let go of the repositories made (at the transaction's end): each holds the
        transaction, a cycle the garbage collector would otherwise have to find at every save."""
        kept = vars(self)
        for name in [name for name in kept if not name.startswith("_")]:
            del kept[name]

    @cached_property
    def matches(self) -> MatchWrites:
        return MatchWrites(self)

    @cached_property
    def challenges(self) -> ChallengeWrites:
        return ChallengeWrites(self)

    @cached_property
    def players(self) -> PlayerWrites:
        return PlayerWrites(self)

    @cached_property
    def tournaments(self) -> TournamentWrites:
        return TournamentWrites(self)

    @cached_property
    def analyses(self) -> AnalysisWrites:
        return AnalysisWrites(self)

    @cached_property
    def drills(self) -> DrillWrites:
        return DrillWrites(self)

    @cached_property
    def puzzles(self) -> PuzzleWrites:
        return PuzzleWrites(self)

    @cached_property
    def dailies(self) -> DailyWrites:
        return DailyWrites(self)

    @cached_property
    def storms(self) -> StormWrites:
        return StormWrites(self)

    @cached_property
    def dice(self) -> DiceWrites:
        return DiceWrites(self)

    @cached_property
    def meta(self) -> MetaWrites:
        return MetaWrites(self)

    @cached_property
    def servers(self) -> ServerWrites:
        return ServerWrites(self)

    async def execute(self, statement: Statement, params: Iterable[Any] = ()) -> int:
        """Run a write; how many rows it changed."""
        return (await self._db.run(statement, params)).rowcount

    def write(
        self,
        statement: Statement,
        params: Iterable[Any] = (),
        *,
        changes: Changes | None = None,
        failure: Failure | None = None,
    ) -> Coroutine[Any, Any, None]:
        """Run a write whose outcome no one awaits (SQLite: with the next trip; see
        :meth:`Writer.write <bot.store.connections.Writer.write>`): the runner's own, to await
        (no coroutine of this one around it, at every write)."""
        return self._db.write(statement, params, changes=changes, failure=failure)

    async def insert_row(self, statement: Statement) -> int:
        """Run one INSERT of one row; the new row's id."""
        new_id = (await self._db.run(statement)).new_id
        assert new_id is not None, "an INSERT of one row into a table with a row id"
        return new_id

    async def fetch_all(self, statement: Statement, params: Iterable[Any] = ()) -> list[Record]:
        """Rows as this transaction sees them."""
        return (await self._db.run(statement, params)).rows

    async def fetch_one(self, statement: Statement, params: Iterable[Any] = ()) -> Record | None:
        return (await self._db.run(statement, params)).first()

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        """``rows`` (each naming the same columns) into ``table`` at the driver's own speed:
        PostgreSQL's COPY, SQLite's executemany, with none of SQLAlchemy's work per row. For
        writing a long history in bulk (:mod:`bot.store.history`); no statement is traced."""
        if rows:
            await self._db.insert_many(table, rows)


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
