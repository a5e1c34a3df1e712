"""How the store's statements reach each database: one :class:`Runner` contract, whose answer is
an :class:`Outcome` (the rows, already fetched, and how many rows changed).

SQLite runs on one aiosqlite connection, whose thread runs the standard library's driver: each
statement, compiled once to SQL and its values (:func:`bind`, below), is one trip to that
thread (``execute_fetchall`` for rows, ``execute`` or ``executemany`` for a write), so the event
loop never waits on the disk or on another process's lock. SQLAlchemy's asyncio adapter over
aiosqlite made four trips per statement (cursor, execute, fetch, close), which cost 3-4 times as
long per command (docs/operating.md, "One database, many hosts"). PostgreSQL runs the same
compiled statements on asyncpg's driver (:mod:`bot.store.postgres`): a round trip a statement,
the writes no one awaits together in one (:mod:`bot.store.batches`).

Last, what every repository runs its statements on (:class:`Reader`, :class:`Writer`) and
their base classes (:class:`Repository`, :class:`Writes`).
"""

from __future__ import annotations

import asyncio
import functools
import operator
import sqlite3
import weakref
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

import aiosqlite
from sqlalchemy import (
    Boolean,
    Connection,
    Executable,
    Float,
    Integer,
    Row,
    String,
    Table,
    create_engine,
)
from sqlalchemy import exc as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.engine.result import result_tuple
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.sqltypes import NullType
from sqlalchemy.util import LRUCache

from bot.store.sqlite_file import migrate_file, set_wal

# The store's SQLAlchemy statements as the sqlite3 driver takes them: SQL with ``?`` parameters
# and their values in order, and the rows that come back as SQLAlchemy rows (by index, by name and
# through ``_mapping``), so that a statement costs one trip to the SQLite thread
# (:class:`~bot.store.connections.SqliteThread`).
#
# Each statement is compiled once per shape, by SQLAlchemy's own cache key (the statements of the
# per-command paths, built once, and those built at each call alike); its values are then bound
# and its rows processed as SQLAlchemy's execution does it. That takes a few of SQLAlchemy's
# internals (``_compile_w_cache``, the compiled statement's processors and result columns), the
# same calls its ``Connection.execute`` makes: pyproject pins SQLAlchemy to 2.1.
Record = Row[*tuple[Any, ...]]  # a row of any width
Processor = Callable[[Any], Any]
CACHED = 500  # statement shapes kept compiled (SQLAlchemy's engine keeps 500 too)


def _sqlite_dialect() -> Dialect:
    """SQLAlchemy's dialect for Python's sqlite3, set up as for a connection of its own."""
    engine = create_engine("sqlite://")
    with engine.connect():
        pass  # a first connection initialises the dialect (the library's SQLite version)
    engine.dispose()
    return engine.dialect


DIALECT = _sqlite_dialect()


@dataclass(frozen=True, slots=True)
class Plan:
    """What running one compiled statement takes, worked out once."""

    compiled: SQLCompiler
    returns_rows: bool
    writes: bool  # an INSERT, UPDATE or DELETE
    row_id: bool  # a one-row INSERT into a table keyed by its row id: the new id is its key
    make_row: Callable[[Iterable[Any]], Record]
    processors: tuple[Processor | None, ...] | None  # per column; None: the values as they come

    def rows(self, raw: Iterable[Sequence[Any]]) -> list[Record]:
        make, processors = self.make_row, self.processors
        if processors is None:
            return [make(row) for row in raw]
        return [
            make([v if p is None else p(v) for p, v in zip(processors, row, strict=True)])
            for row in raw
        ]


# What a write whose outcome no one awaits may still check (:meth:`Writer.write`): the rows it
# changed (raise to undo the transaction), and the error to raise instead of the driver's.
Changes = Callable[[int], None]
Failure = Callable[[sa.StatementError], Exception]


@dataclass(frozen=True, slots=True)
class OneRow:
    """A write's check that it changed one row; else ``error`` is raised (a version check).
    PostgreSQL makes it in the statement that sends the write (:mod:`bot.store.batches`)."""

    error: Exception

    def __call__(self, changed: int) -> None:
        if changed != 1:
            raise self.error


def one_row(error: Exception) -> Changes:
    """A write's check that it changed one row; else ``error`` is raised (a version check)."""
    return OneRow(error)


@dataclass(slots=True)
class Bound:
    """A statement ready for the driver; not frozen (made in 0.25 us, not 1.1; 15 a play)."""

    plan: Plan | None  # None: driver SQL, whose rows are read off the cursor
    sql: str
    values: tuple[Any, ...] | list[tuple[Any, ...]]  # a list: one tuple per row (executemany)
    many: bool
    changes: Changes | None = None
    failure: Failure | None = None


_compiled: LRUCache[Any, Any] = LRUCache(CACHED)
_plans: weakref.WeakKeyDictionary[SQLCompiler, Plan] = weakref.WeakKeyDictionary()


Slots = tuple[tuple[str | None, Processor | None, Any], ...]  # (name, processor, own value)
_Getter = Callable[[Mapping[str, Any]], tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class Shape:
    """How one statement object is bound for one set of parameter names: the parameters' values
    got in one call (``given``), those of a type with a processor processed (by their place among
    them), then the statement's own values (processed already) put in (by their place among all)."""

    plan: Plan
    sql: str
    given: _Getter
    processed: tuple[tuple[int, Processor], ...]
    own: tuple[tuple[int, Any], ...]

    def values(self, one: Mapping[str, Any]) -> tuple[Any, ...]:
        values = self.given(one)
        if not self.processed and not self.own:
            return values
        out = list(values)
        for index, process in self.processed:
            out[index] = process(out[index])
        for index, value in self.own:
            out.insert(index, value)
        return tuple(out)


def shape_of(plan: Plan, sql: str, slots: Slots) -> Shape:
    """The shape of a statement whose values are ``slots``, in the driver's order (a name None:
    the statement's own value)."""
    named = [(name, process) for name, process, _ in slots if name is not None]
    names = [name for name, _ in named]
    processed = tuple(
        (index, process) for index, (_, process) in enumerate(named) if process is not None
    )
    own = tuple((index, value) for index, (name, _, value) in enumerate(slots) if name is None)
    given: _Getter = (
        cast(_Getter, operator.itemgetter(*names))
        if len(names) > 1  # (``itemgetter`` of one name gives the value alone)
        else lambda one: tuple(one[name] for name in names)
    )
    return Shape(plan, sql, given, processed, own)


# Statement objects bound before, by ``id``: a statement built once (the per-command paths'
# module-level ones) is bound from its shape without SQLAlchemy's cache key and parameters
# (about 15 us a statement). An entry leaves when its statement is collected.
_shapes: dict[int, tuple[weakref.ref[Any], dict[tuple[Any, ...], Shape]]] = {}


def bind(statement: str | Executable, params: Iterable[Any], dialect: Dialect = DIALECT) -> Bound:
    """``statement`` with ``params`` (a mapping, a list of mappings: one row each, or for driver
    SQL its values in order), as SQL and values for ``dialect``'s driver (SQLite's, or asyncpg's
    for :mod:`bot.store.postgres`)."""
    if isinstance(statement, str):
        return Bound(None, statement, tuple(params), many=False)
    sets: list[Mapping[str, Any]] = (
        [params]
        if type(params) is dict or isinstance(params, Mapping)
        else cast(list[Mapping[str, Any]], list(params))
    )
    many = len(sets) > 1
    key = (dialect, many, *sets[0]) if sets else (dialect, many)
    known = _shapes.get(id(statement))
    shape = None if known is None else known[1].get(key)
    if shape is not None:
        try:
            if many:
                return Bound(shape.plan, shape.sql, [shape.values(one) for one in sets], many)
            return Bound(shape.plan, shape.sql, shape.values(sets[0] if sets else {}), many)
        except KeyError:
            pass  # a row without a parameter of the first: SQLAlchemy's binding says so
    bound, slots = _bind(statement, sets, many, dialect)
    if slots is not None and bound.plan is not None:
        if known is None:
            gone = functools.partial(_forget, _shapes, id(statement))
            known = _shapes[id(statement)] = (weakref.ref(statement, gone), {})
        known[1][key] = shape_of(bound.plan, bound.sql, slots)
    return bound


def _forget(shapes: dict[int, Any], key: int, _: object) -> None:
    shapes.pop(key, None)  # (``shapes`` passed: at exit the module's globals may be gone)


def _bind(
    statement: Executable, sets: list[Mapping[str, Any]], many: bool, dialect: Dialect
) -> tuple[Bound, Slots | None]:
    """SQLAlchemy's binding of ``statement`` (compiled once per shape by its cache key), and
    its slots for :class:`_Shape` (None where the statement can't be bound by them)."""
    element = cast(ClauseElement, statement)
    compiled, extracted, collected, _ = element._compile_w_cache(
        dialect,
        compiled_cache=_compiled,
        column_keys=sorted(sets[0]) if sets else [],
        for_executemany=many,
    )
    compiled = cast(SQLCompiler, compiled)
    plan = _plans.get(compiled)
    if plan is None:
        plan = _plans[compiled] = _plan(compiled)
    values: list[MutableMapping[str, Any]] = [
        compiled.construct_params(
            one,
            escape_names=False,
            _group_number=group if many else None,
            extracted_parameters=extracted,
            _collected_params=collected,
        )
        for group, one in enumerate(sets or [{}])
    ]
    processors = cast(Mapping[str, Processor], compiled._bind_processors)  # none are lists
    sql: str = compiled.string
    order: Sequence[str] = compiled.positiontup or []
    expanding = bool(compiled.literal_execute_params or compiled.post_compile_params)
    if expanding:  # IN (a list)
        assert not many, "an expanding IN with many rows"
        expanded = compiled._process_parameters_for_postcompile(values[0])
        sql, order = expanded.statement, expanded.positiontup or []
        processors = {**processors, **expanded.processors}
        values = [dict(expanded.parameters)]
    rows = [
        tuple(processors[name](one[name]) if name in processors else one[name] for name in order)
        for one in values
    ]
    bound = Bound(plan, sql, rows if many else rows[0], many)
    if expanding or any(callable(one.callable) for one in compiled.binds.values()):
        return bound, None
    given = sets[0] if sets else {}
    slots = tuple(
        (name, processors.get(name), None) if name in given else (None, None, own)
        for name, own in zip(order, rows[0], strict=True)
    )
    return bound, slots


def _plan(compiled: SQLCompiler) -> Plan:
    if compiled.insert_prefetch or compiled.update_prefetch:
        raise NotImplementedError("a column default computed in Python (use a server default)")
    writes = bool(compiled.isinsert or compiled.isupdate or compiled.isdelete)
    returns_rows = not compiled.isplaintext and (not writes or bool(compiled.effective_returning))
    columns = compiled._result_columns
    if compiled.dialect is DIALECT:
        processors = tuple(c.type._cached_result_processor(DIALECT, None) for c in columns)
    else:  # asyncpg's rows hold Python's values already (PostgreSQL's processors want type ids)
        processors = ()
        for column in columns:
            if not isinstance(column.type, _NATIVE):
                raise NotImplementedError(f"a result column of type {column.type} on asyncpg")
    return Plan(
        compiled,
        returns_rows,
        writes,
        compiled.isinsert and not compiled.for_executemany and _keyed_by_row_id(compiled),
        result_tuple([column.keyname for column in columns]),
        processors if any(processors) else None,
    )


# What asyncpg returns as the store reads it: integers, floats, text, booleans.
_NATIVE = (Integer, Float, String, Boolean, NullType)


def _keyed_by_row_id(compiled: SQLCompiler) -> bool:
    table = getattr(compiled.statement, "table", None)
    key = list(table.primary_key.columns) if table is not None else []
    return len(key) == 1 and isinstance(key[0].type, Integer)


def described(names: Sequence[str]) -> Callable[[Iterable[Any]], Record]:
    """Rows of driver SQL, named by its cursor's description."""
    return result_tuple(list(names))


BUSY_SECONDS = 10.0  # how long a statement waits for another process's write lock, by default
Statement = str | Executable  # a built query, or driver SQL (tests, diagnosis)


@dataclass(slots=True)  # (not frozen: made for every statement, in 0.25 us not 1.1)
class Outcome:
    """What a statement gave: its rows (fetched), the rows it changed, an inserted row's id."""

    rows: list[Record]
    rowcount: int
    new_id: int | None

    def first(self) -> Record | None:
        return self.rows[0] if self.rows else None


class Runner(Protocol):
    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome: ...

    async def write(
        self,
        statement: Statement,
        params: Iterable[Any] = (),
        *,
        changes: Changes | None = None,
        failure: Failure | None = None,
    ) -> None:
        """Run a write whose outcome no one reads, by the next statement that answers at the
        latest (see :class:`SqliteTransaction`); ``changes`` is handed the rows it changed
        and may raise, ``failure`` makes the error raised when the driver refuses it."""
        ...

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None: ...


class SqliteThread:
    """One SQLite connection, aiosqlite's: a thread of its own that runs what it is sent, one
    statement a trip, or a transaction's statements that wait for the next (see
    :class:`SqliteTransaction`)."""

    def __init__(
        self, path: Path, connection: aiosqlite.Connection, busy_seconds: float = BUSY_SECONDS
    ) -> None:
        self.path = path
        self.busy_seconds = busy_seconds
        self._connection = connection
        self.trace: Callable[[str], None] | None = None  # handed each statement's SQL

    @classmethod
    async def open(cls, path: Path, busy_seconds: float = BUSY_SECONDS) -> SqliteThread:
        """Connect to the file at ``path`` (WAL, foreign keys on, a statement waits up to
        ``busy_seconds`` for another process's write lock); the connection is closed again if
        that fails."""
        # Autocommit (no isolation level): transactions are begun by hand, BEGIN IMMEDIATE.
        connection = aiosqlite.connect(path, timeout=busy_seconds, isolation_level=None)
        # A daemon, as the executor's threads were: a store left open does not keep the process
        # from exiting (aiosqlite's thread would wait for work forever).
        connection._thread.daemon = True
        await connection
        try:
            await set_wal(connection, busy_seconds)
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            await connection.close()
            raise
        return cls(path, connection, busy_seconds)

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        return await self.run_bound([self.bound(statement, params)])

    def bound(self, statement: Statement, params: Iterable[Any] = ()) -> Bound:
        """``statement`` bound for the driver (and handed to the trace)."""
        bound = bind(statement, params)
        if self.trace is not None:
            self.trace(bound.sql)
        return bound

    async def run_bound(self, statements: Sequence[Bound]) -> Outcome:
        """``statements`` in order in one trip to the thread; the last one's outcome. The first
        that fails raises, and those after it are not run."""
        # aiosqlite's own queue to its thread (a private method): its public calls are one
        # statement a trip, and each trip costs the event loop a wake-up (30-90 us of CPU).
        connection: Any = self._connection
        return cast(Outcome, await connection._execute(_run_all, connection._conn, statements))

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
        await asyncio.to_thread(migrate_file, self.path, step, self.busy_seconds)

    async def close(self) -> None:
        await self._connection.close()


def _run_all(connection: sqlite3.Connection, statements: Sequence[Bound]) -> Outcome:
    """On the SQLite thread: each of ``statements``; the last one's outcome."""
    outcome = Outcome([], -1, None)
    cursor = connection.cursor()  # one a trip (``connection.execute`` makes one a statement)
    for bound in statements:
        try:
            outcome = _run_one(cursor, bound)
        except sqlite3.Error as error:
            raise failed(_wrapped(error, bound), bound.failure) from error
        if bound.changes is not None:
            bound.changes(outcome.rowcount)
    return outcome


def failed(error: sa.StatementError, failure: Failure | None) -> Exception:
    """What to raise for the driver's ``error`` of a write with ``failure`` (or without)."""
    if failure is None:
        return error
    replaced = failure(error)
    if replaced is not error:
        replaced.__cause__ = error
    return replaced


def _run_one(cursor: sqlite3.Cursor, bound: Bound) -> Outcome:
    plan = bound.plan
    if plan is not None and plan.returns_rows:
        rows = []
        # The driver's executemany returns no rows: many rows RETURNING, one by one.
        for values in bound.values if bound.many else [bound.values]:
            rows += plan.rows(cursor.execute(bound.sql, values).fetchall())
        return Outcome(rows, len(rows) if plan.writes else -1, None)
    if bound.many:
        cursor.executemany(bound.sql, bound.values)
    else:
        cursor.execute(bound.sql, bound.values)
    rows = []
    if plan is None and cursor.description is not None:  # driver SQL that reads
        make = described([column[0] for column in cursor.description])
        rows = [make(row) for row in cursor.fetchall()]
    new_id = cursor.lastrowid if plan is not None and plan.row_id else None
    return Outcome(rows, cursor.rowcount, new_id)


def _wrapped(error: sqlite3.Error, bound: Bound) -> sa.StatementError:
    """``error`` as SQLAlchemy raises it (:class:`sqlalchemy.exc.OperationalError`,
    ``IntegrityError``, …), which is what the store catches on either database."""
    return sa.DBAPIError.instance(
        bound.sql, bound.values, error, sqlite3.Error, dialect=DIALECT, ismulti=bound.many
    )


class SqliteTransaction:
    """A write transaction on the SQLite thread, begun (``BEGIN IMMEDIATE``) with its first
    statement; one that runs none never begins.

    BEGIN and the writes whose outcome no one reads (:meth:`write`) wait for the transaction's
    next trip to the thread, a statement that answers or the COMMIT: a save of a match is two
    trips instead of six. A waiting write that fails raises there, still inside the transaction,
    which is then rolled back."""

    def __init__(self, db: SqliteThread) -> None:
        self._db = db
        self._waiting: list[Bound] = []
        self.began = False

    def _begin(self) -> None:
        if not self.began:
            self.began = True  # even if BEGIN fails: the rollback then finds nothing to undo
            self._waiting.append(self._db.bound("BEGIN IMMEDIATE"))

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        self._begin()
        return await self._send(self._db.bound(statement, params))

    async def write(
        self,
        statement: Statement,
        params: Iterable[Any] = (),
        *,
        changes: Changes | None = None,
        failure: Failure | None = None,
    ) -> None:
        self._begin()
        bound = self._db.bound(statement, params)
        bound.changes, bound.failure = changes, failure
        self._waiting.append(bound)

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        self._begin()
        await self._send()
        await self._db.insert_many(table, rows)

    async def commit(self) -> None:
        """COMMIT, with the writes still waiting (if the transaction began)."""
        if self.began:
            await self._send(self._db.bound("COMMIT"))

    async def _send(self, *last: Bound) -> Outcome:
        statements, self._waiting = [*self._waiting, *last], []
        return await self._db.run_bound(statements) if statements else Outcome([], -1, None)


# What every repository runs its statements on: a :class:`Reader` (the store, for reads outside
# any transaction, or a transaction) and a :class:`Writer` (a transaction: its reads see its own
# writes). :class:`~bot.store.database.Store` and :class:`~bot.store.database.Transaction` are them;
# a repository never opens a transaction of its own.
_INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}  # with ON CONFLICT


def for_each_database(build: Callable[[Any], Any]) -> dict[str, Any]:
    """``build(insert)`` with each database's INSERT, by :attr:`Reader.dialect`: an upsert (its
    ON CONFLICT is each database's own) built once."""
    return {dialect: build(insert) for dialect, insert in _INSERTS.items()}


def insert_of(dialect: str) -> Any:
    """The INSERT with ON CONFLICT of ``dialect``."""
    return _INSERTS[dialect]


class Reader(Protocol):
    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``: which of :func:`for_each_database`'s to run."""
        ...

    async def fetch_one(
        self, statement: Statement, params: Iterable[Any] = ()
    ) -> Record | None: ...

    async def fetch_all(self, statement: Statement, params: Iterable[Any] = ()) -> list[Record]: ...


class Writer(Reader, Protocol):
    async def execute(self, statement: Statement, params: Iterable[Any] = ()) -> int:
        """Run a write; how many rows it changed."""
        ...

    async def write(
        self,
        statement: Statement,
        params: Iterable[Any] = (),
        *,
        changes: Changes | None = None,
        failure: Failure | None = None,
    ) -> None:
        """Run a write whose outcome no one awaits: on SQLite it goes to the database with the
        transaction's next statement that answers, or its COMMIT (one trip for all).
        ``changes`` is handed the rows it changed there (it raises to undo the transaction: a
        version check), ``failure`` turns the driver's refusal into the error to raise."""
        ...

    async def insert_row(self, statement: Statement) -> int:
        """Run one INSERT of one row; the new row's id."""
        ...

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None: ...


class Repository:
    """A repository's reads, over ``db`` (the store or a transaction)."""

    def __init__(self, db: Reader) -> None:
        self._db = db


class Writes(Repository):
    """A repository's writes (and its reads) inside the transaction ``tx``: the base of each
    ``...Writes`` class, listed before the reads it extends (``class MatchWrites(Writes,
    Matches)``)."""

    def __init__(self, tx: Writer) -> None:
        super().__init__(tx)
        self._tx = tx
