"""How the store's statements reach each database: one :class:`Runner` contract, whose answer is
an :class:`Outcome` (the rows, already fetched, and how many rows changed).

SQLite runs on one connection of the standard library's driver, on a thread of its own: each
statement (built, executed and fetched) is one trip to that thread, so the event loop never waits
on the disk or on another process's lock. SQLAlchemy's asyncio adapter over aiosqlite made several
trips per statement (cursor, execute, fetch, close), which cost 3-4 times as long per command
(docs/operating.md, "One database, many hosts"). PostgreSQL runs on asyncpg through SQLAlchemy's
asyncio engine: a network round trip per statement either way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, Engine, Executable, Insert, Row, Table, create_engine
from sqlalchemy import exc as sa
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.pool import StaticPool

BUSY_SECONDS = 10.0  # how long a statement waits for another process's write lock
Statement = str | Executable  # a built query, or driver SQL (tests, diagnosis)
Record = Row[*tuple[Any, ...]]  # a row of any width
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a statement gave: its rows (fetched), the rows it changed, an inserted row's id."""

    rows: list[Record]
    rowcount: int
    new_id: int | None

    def first(self) -> Record | None:
        return self.rows[0] if self.rows else None


class Runner(Protocol):
    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome: ...

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None: ...


def execute(connection: Connection, statement: Statement, params: Iterable[Any]) -> Outcome:
    """Run ``statement`` on a synchronous connection and fetch what it gives."""
    if isinstance(statement, str):
        result: Any = connection.exec_driver_sql(statement, tuple(params))
        return _outcome(result, single_insert=False)
    if isinstance(params, Mapping):
        result = connection.execute(statement, dict(params))
        return _outcome(result, single_insert=isinstance(statement, Insert))
    many = list(params)  # rows for an executemany, or nothing
    result = connection.execute(statement, many or None)
    return _outcome(result, single_insert=isinstance(statement, Insert) and not many)


def execute_first(connection: Connection, statement: Statement, params: Iterable[Any]) -> Outcome:
    """Begin a write transaction, then run its first statement: one trip to the thread."""
    connection.exec_driver_sql("BEGIN IMMEDIATE")
    return execute(connection, statement, params)


def insert_rows(
    connection: Connection, table: Table, rows: Sequence[Mapping[str, Any]], begin: bool
) -> None:
    """``rows`` into ``table`` by the driver's executemany (``begin``: as the first statement
    of a write transaction)."""
    if begin:
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    columns = list(rows[0])
    insert = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})"
    )
    connection.exec_driver_sql(insert, [tuple(row[name] for name in columns) for row in rows])


def _outcome(result: Any, *, single_insert: bool) -> Outcome:
    rows = list(result.all()) if result.returns_rows else []
    new_id = None
    if single_insert:
        key = result.inserted_primary_key
        first = key[0] if key is not None and len(key) == 1 else None
        new_id = first if isinstance(first, int) else None  # a row id, not a text key
    return Outcome(rows, int(result.rowcount or 0), new_id)


class SqliteThread:
    """One SQLite connection and the one thread that uses it."""

    def __init__(self, engine: Engine, connection: Connection, thread: ThreadPoolExecutor) -> None:
        self.engine = engine
        self._connection = connection
        self._thread = thread

    @classmethod
    async def open(cls, path: Path) -> SqliteThread:
        """Connect to the file at ``path`` (WAL, foreign keys on, a busy timeout); the thread
        is stopped again if that fails."""
        thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite")
        engine = create_engine(
            f"sqlite:///{path}",
            isolation_level="AUTOCOMMIT",  # transactions are begun by hand: BEGIN IMMEDIATE
            poolclass=StaticPool,
            connect_args={"check_same_thread": False, "timeout": BUSY_SECONDS},
        )
        try:
            connection = await asyncio.get_running_loop().run_in_executor(thread, _connect, engine)
        except BaseException:
            await asyncio.get_running_loop().run_in_executor(thread, engine.dispose)
            thread.shutdown(wait=True)
            raise
        return cls(engine, connection, thread)

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(connection, *args)`` on the connection's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, function, self._connection, *args)

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        return await self.call(execute, statement, params)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._thread, _close, self._connection, self.engine)
        finally:
            self._thread.shutdown(wait=True)


def _connect(engine: Engine) -> Connection:
    connection = engine.connect()
    try:
        _set_wal(connection)  # (the busy timeout is the driver's ``timeout``, set at connect)
        connection.exec_driver_sql("PRAGMA foreign_keys = ON")
        connection.exec_driver_sql("PRAGMA synchronous = NORMAL")
    except BaseException:
        connection.close()
        raise
    return connection


def _close(connection: Connection, engine: Engine) -> None:
    connection.close()
    engine.dispose()


def _set_wal(connection: Connection) -> None:
    """Switch to WAL. SQLite answers "database is locked" at once, without waiting for the busy
    timeout, while another connection is switching a fresh file too: retry for a while."""
    deadline = time.monotonic() + BUSY_SECONDS
    pause = 0.01
    while True:
        try:
            connection.exec_driver_sql("PRAGMA journal_mode = WAL")
            return
        except sa.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        time.sleep(pause)  # on the connection's own thread, not the event loop's
        pause = min(pause * 2, 0.2)


class SqliteTransaction:
    """A write transaction on the SQLite thread, begun (``BEGIN IMMEDIATE``) with its first
    statement; one that runs none never begins."""

    def __init__(self, db: SqliteThread) -> None:
        self._db = db
        self.began = False

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        if self.began:
            return await self._db.run(statement, params)
        self.began = True  # even if BEGIN fails: the rollback then finds nothing to undo
        return await self._db.call(execute_first, statement, params)

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        begin, self.began = not self.began, True
        await self._db.call(insert_rows, table, rows, begin)


class PostgresRunner:
    """One pooled PostgreSQL connection, for a read or a transaction."""

    def __init__(self, connection: AsyncConnection) -> None:
        self._connection = connection

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        return await self._connection.run_sync(execute, statement, params)

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        """``rows`` into ``table`` by COPY, on this connection (in its transaction)."""
        columns = list(rows[0])
        asyncpg = (await self._connection.get_raw_connection()).driver_connection
        assert asyncpg is not None
        await asyncpg.copy_records_to_table(
            table.name,
            columns=columns,
            records=[tuple(row[name] for name in columns) for row in rows],
        )
