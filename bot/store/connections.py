"""How the store's statements reach each database: one :class:`Runner` contract, whose answer is
an :class:`Outcome` (the rows, already fetched, and how many rows changed).

SQLite runs on one aiosqlite connection, whose thread runs the standard library's driver: each
statement, compiled once to SQL and its values (:mod:`bot.store.plans`), is one trip to that
thread (``execute_fetchall`` for rows, ``execute`` or ``executemany`` for a write), so the event
loop never waits on the disk or on another process's lock. SQLAlchemy's asyncio adapter over
aiosqlite made four trips per statement (cursor, execute, fetch, close), which cost 3-4 times as
long per command (docs/operating.md, "One database, many hosts"). PostgreSQL runs on asyncpg
through SQLAlchemy's asyncio engine: a network round trip per statement either way.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import aiosqlite
from sqlalchemy import Connection, Executable, Insert, Table, create_engine
from sqlalchemy import exc as sa
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.pool import NullPool

from bot.store.plans import DIALECT, Bound, bind, described
from bot.store.plans import Record as Record  # what a read gives, on either database

BUSY_SECONDS = 10.0  # how long a statement waits for another process's write lock
Statement = str | Executable  # a built query, or driver SQL (tests, diagnosis)


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


def _outcome(result: Any, *, single_insert: bool) -> Outcome:
    rows = list(result.all()) if result.returns_rows else []
    new_id = None
    if single_insert:
        key = result.inserted_primary_key
        first = key[0] if key is not None and len(key) == 1 else None
        new_id = first if isinstance(first, int) else None  # a row id, not a text key
    return Outcome(rows, int(result.rowcount or 0), new_id)


class SqliteThread:
    """One SQLite connection, aiosqlite's: a thread of its own that runs what it is sent, one
    statement a trip."""

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self._connection = connection
        self.trace: Callable[[str], None] | None = None  # handed each statement's SQL

    @classmethod
    async def open(cls, path: Path) -> SqliteThread:
        """Connect to the file at ``path`` (WAL, foreign keys on, a busy timeout); the
        connection is closed again if that fails."""
        # Autocommit (no isolation level): transactions are begun by hand, BEGIN IMMEDIATE.
        connection = aiosqlite.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        # A daemon, as the executor's threads were: a store left open does not keep the process
        # from exiting (aiosqlite's thread would wait for work forever).
        connection._thread.daemon = True
        await connection
        try:
            await _set_wal(connection)
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            await connection.close()
            raise
        return cls(path, connection)

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        bound = bind(statement, params)
        if self.trace is not None:
            self.trace(bound.sql)
        connection, plan = self._connection, bound.plan
        try:
            if plan is not None and plan.returns_rows:
                rows = []
                # The driver's executemany returns no rows: many rows RETURNING, one by one.
                for values in bound.values if bound.many else [bound.values]:
                    rows += plan.rows(await connection.execute_fetchall(bound.sql, values))
                return Outcome(rows, len(rows) if plan.writes else -1, None)
            if bound.many:
                cursor = await connection.executemany(bound.sql, bound.values)
            else:
                cursor = await connection.execute(bound.sql, bound.values)
            rows = []
            if plan is None and cursor.description is not None:  # driver SQL that reads
                make = described([column[0] for column in cursor.description])
                rows = [make(row) for row in await cursor.fetchall()]
        except sqlite3.Error as error:
            raise _wrapped(error, bound) from error
        new_id = cursor.lastrowid if plan is not None and plan.row_id else None
        return Outcome(rows, cursor.rowcount, new_id)

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        """``rows`` into ``table`` by the driver's executemany."""
        columns = list(rows[0])
        insert = (
            f"INSERT INTO {table.name} ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' for _ in columns)})"
        )
        values = [tuple(row[name] for name in columns) for row in rows]
        if self.trace is not None:
            self.trace(insert)
        try:
            await self._connection.executemany(insert, values)
        except sqlite3.Error as error:
            raise _wrapped(error, Bound(None, insert, values, many=True)) from error

    async def migrate(self, step: Callable[[Connection], None]) -> None:
        """``step`` on a synchronous SQLAlchemy connection to the same file, on a thread of its
        own (a migration creates tables from the schema, which takes such a connection), in
        autocommit mode: it begins its own transactions."""
        await asyncio.to_thread(_migrate, self.path, step)

    async def close(self) -> None:
        await self._connection.close()


def _wrapped(error: sqlite3.Error, bound: Bound) -> sa.StatementError:
    """``error`` as SQLAlchemy raises it (:class:`sqlalchemy.exc.OperationalError`,
    ``IntegrityError``, …), which is what the store catches on either database."""
    return sa.DBAPIError.instance(
        bound.sql, bound.values, error, sqlite3.Error, dialect=DIALECT, ismulti=bound.many
    )


def _migrate(path: Path, step: Callable[[Connection], None]) -> None:
    engine = create_engine(
        f"sqlite:///{path}",
        isolation_level="AUTOCOMMIT",
        poolclass=NullPool,
        connect_args={"timeout": BUSY_SECONDS},
    )
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA foreign_keys = ON")
            step(connection)
    finally:
        engine.dispose()


async def _set_wal(connection: aiosqlite.Connection) -> None:
    """Switch to WAL. SQLite answers "database is locked" at once, without waiting for the busy
    timeout, while another connection is switching a fresh file too: retry for a while."""
    deadline = time.monotonic() + BUSY_SECONDS
    pause = 0.01
    while True:
        try:
            await connection.execute_fetchall("PRAGMA journal_mode = WAL")  # (it answers a row)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.2)


class SqliteTransaction:
    """A write transaction on the SQLite thread, begun (``BEGIN IMMEDIATE``) before its first
    statement; one that runs none never begins."""

    def __init__(self, db: SqliteThread) -> None:
        self._db = db
        self.began = False

    async def _begin(self) -> None:
        if not self.began:
            self.began = True  # even if BEGIN fails: the rollback then finds nothing to undo
            await self._db.run("BEGIN IMMEDIATE")

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        await self._begin()
        return await self._db.run(statement, params)

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        await self._begin()
        await self._db.insert_many(table, rows)


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
