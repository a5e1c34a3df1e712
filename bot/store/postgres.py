"""How the store's statements reach PostgreSQL: each compiled once per shape for asyncpg
(:func:`~bot.store.connections.bind`, as on SQLite) and run on the pooled connection's asyncpg
driver itself, whose statement cache keeps it prepared on the server: one round trip a
statement, none of SQLAlchemy's execution around it (its cursor, events, result objects and
greenlet switches cost the bot's process about a millisecond a command, docs/speed.md).

SQLAlchemy still pools the connections (and pings one that sat idle), runs the migrations, and
names the errors: a driver's error is raised as SQLAlchemy would raise it
(``IntegrityError``…, with ``connection_invalidated`` when the connection died), which is what
the store catches on either database. A transaction is ``BEGIN`` with its first statement and
``COMMIT``, its writes no one awaits sent together (:class:`PostgresTransaction`); one that runs
no statement sends nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, cast

import asyncpg
from sqlalchemy import Table
from sqlalchemy import exc as sa
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import greenlet_spawn

from bot.store.batches import batch, batchable, checked, culprit, grouped, sent_as_is
from bot.store.connections import (
    Bound,
    Changes,
    Failure,
    OneRow,
    Outcome,
    Plan,
    Statement,
    bind,
    described,
    failed,
)

Trace = Callable[[str], None]
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError)
"""The driver's errors, raised as SQLAlchemy's. ``InternalClientError``: the connection's
protocol out of step, as when the server shut down under it (the statement after its farewell
error, before the end of its socket was read): the connection is dropped."""
PING_SECONDS = 10.0  # how long an idle connection's ping may take before it is dropped


class Connections:
    """``engine``'s pool of connections (``size`` of them at most, the pool's size: each kept
    once opened) as asyncpg's drivers, with no SQLAlchemy connection around them.

    A connection a command is done with waits here for the next, the latest first, and is
    taken back without the pool's checkout and return (each a greenlet switch and the pool's
    events: a tenth of the bot's CPU a command on PostgreSQL); one that sat idle
    ``idle_seconds`` is pinged first, as the pool's checkout pings one. Commands wait for a
    connection in turn: the pool's queue let one that returned a connection take it back at once
    ahead of those waiting, who then waited past its timeout flat out."""

    def __init__(self, engine: AsyncEngine, size: int, idle_seconds: float) -> None:
        self._engine = engine.sync_engine
        self._turns = asyncio.Semaphore(size)
        self._idle: list[tuple[Any, float]] = []  # (the pool's connection, since), latest last
        self._idle_seconds = idle_seconds
        self._closed = False

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool. One that died leaves the pool with every connection as old
        (the server went away); one left inside a transaction or amid a statement (a cancelled
        task), or out of step with its server, leaves it alone."""
        async with self._turns:
            fairy = await self._checkout()
            driver = fairy.driver_connection
            assert driver is not None
            try:
                yield driver
            except BaseException as error:
                if driver.is_closed():
                    await self._hand_back()  # the others are as old
                    await greenlet_spawn(self._engine.pool._invalidate, fairy, error)
                elif (
                    not isinstance(error, Exception)
                    or driver.is_in_transaction()
                    or _out_of_step(error)
                ):
                    await greenlet_spawn(fairy.invalidate, error)
                else:
                    await self._done(fairy)
                raise
            await self._done(fairy)

    async def _done(self, fairy: Any) -> None:
        if self._closed:  # the store closed meanwhile: back to the pool, which closes it
            await greenlet_spawn(fairy.close)
        else:
            self._idle.append((fairy, time.monotonic()))

    async def _checkout(self) -> Any:
        while self._idle:
            fairy, since = self._idle.pop()
            if time.monotonic() - since < self._idle_seconds:
                return fairy
            try:
                await fairy.driver_connection.execute(";", timeout=PING_SECONDS)
                return fairy
            except BaseException as error:
                await greenlet_spawn(fairy.invalidate, error)
                if not isinstance(error, Exception):
                    raise
        return await greenlet_spawn(self._engine.raw_connection)

    async def close(self) -> None:
        """Hand the idle connections back to the pool (before it is disposed of), and those in
        use when they are done."""
        self._closed = True
        await self._hand_back()

    async def _hand_back(self) -> None:
        idle, self._idle = self._idle, []
        for fairy, _ in idle:
            await greenlet_spawn(fairy.close)


class PostgresRunner:
    """Statements on one pooled connection, each on its own (a read outside any transaction)."""

    def __init__(self, driver: asyncpg.Connection, dialect: Dialect, trace: Trace) -> None:
        self._driver = driver
        self._dialect = dialect
        self._trace = trace

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        sets = params if isinstance(params, Mapping) or isinstance(statement, str) else list(params)
        bound = bind(statement, sets, self._dialect)
        self._trace(bound.sql)
        try:
            if bound.many and bound.plan is not None and bound.plan.returns_rows:
                # Many rows RETURNING: one row's statement (SQLAlchemy's many-row form is a
                # template its own execution fills in), all rows pipelined in one trip.
                each = [bind(statement, one, self._dialect) for one in cast(list[Any], sets)]
                records = await self._driver.fetchmany(each[0].sql, [one.values for one in each])
                rows = cast(Plan, each[0].plan).rows(records)
                return Outcome(rows, len(rows), None)
            return await self._run(bound)
        except DRIVER_ERRORS as error:
            raise self._wrapped(error, bound) from error

    async def write(
        self,
        statement: Statement,
        params: Iterable[Any] = (),
        *,
        changes: Changes | None = None,
        failure: Failure | None = None,
    ) -> None:
        try:
            outcome = await self.run(statement, params)
        except sa.StatementError as error:
            if failure is None:
                raise
            raise failed(error, failure) from error
        if changes is not None:
            changes(outcome.rowcount)

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        """``rows`` into ``table`` by COPY."""
        columns = list(rows[0])
        await self._driver.copy_records_to_table(
            table.name,
            columns=columns,
            records=[tuple(row[name] for name in columns) for row in rows],
        )

    async def _run(self, bound: Bound) -> Outcome:
        driver, plan, values = self._driver, bound.plan, bound.values
        if plan is None or plan.compiled.isplaintext:
            # SQL as text (copies, tests, diagnosis): rows named by their columns, and the rows
            # it changed, from a statement prepared for the purpose (a trip more).
            prepared = await driver.prepare(bound.sql)
            records = await prepared.fetch(*values)
            make = described([attribute.name for attribute in prepared.get_attributes()])
            return Outcome([make(one) for one in records], _changed(prepared.get_statusmsg()), None)
        if bound.many:
            await driver.executemany(bound.sql, values)
            return Outcome([], -1, None)  # asyncpg counts no rows of an executemany
        if plan.returns_rows:
            rows = plan.rows(await driver.fetch(bound.sql, *values))
            new_id = rows[0][0] if plan.row_id and rows else None  # INSERT … RETURNING its id
            return Outcome(rows, len(rows) if plan.writes else -1, new_id)
        return Outcome([], _changed(await driver.execute(bound.sql, *values)), None)

    def _wrapped(self, error: Exception, bound: Bound) -> sa.StatementError:
        dbapi: Any = self._dialect.loaded_dbapi
        try:
            AsyncAdapt_asyncpg_connection._handle_exception_no_connection(dbapi, error)
        except Exception as translated:  # always: it raises the DB-API error of ``error``
            return sa.DBAPIError.instance(
                bound.sql,
                bound.values,
                translated,
                dbapi.Error,
                dialect=self._dialect,
                connection_invalidated=self._driver.is_closed(),
                ismulti=bound.many,
            )
        raise AssertionError("unreachable")


class PostgresTransaction(PostgresRunner):
    """A transaction on one pooled connection, begun with its first statement.

    The writes no one awaits (:meth:`write`) wait for the transaction's next statement, and go
    before it as one statement (:mod:`bot.store.batches`): a match's save is BEGIN, one
    statement and COMMIT, or, when the transaction is those writes alone, that statement
    without BEGIN and COMMIT (one round trip instead of six)."""

    began = False

    def __init__(self, driver: asyncpg.Connection, dialect: Dialect, trace: Trace) -> None:
        super().__init__(driver, dialect, trace)
        self._waiting: list[Bound] = []

    async def run(self, statement: Statement, params: Iterable[Any] = ()) -> Outcome:
        await self._send_waiting()
        await self._begin()
        return await super().run(statement, params)

    async def write(
        self,
        statement: Statement,
        params: Iterable[Any] = (),
        *,
        changes: Changes | None = None,
        failure: Failure | None = None,
    ) -> None:
        sets = params if isinstance(params, Mapping) or isinstance(statement, str) else list(params)
        bound = bind(statement, sets, self._dialect)
        if not batchable(bound):
            await super().write(statement, sets, changes=changes, failure=failure)
            return
        self._trace(bound.sql)
        waiting = Bound(bound.plan, bound.sql, bound.values, bound.many, changes, failure)
        self._waiting.append(waiting)

    async def insert_many(self, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
        await self._send_waiting()
        await self._begin()
        await super().insert_many(table, rows)

    async def commit(self) -> None:
        """COMMIT, with the writes still waiting; those alone, when each check is made in their
        statement, are that statement in no transaction of its own."""
        alone = not self.began and all(
            write.changes is None or isinstance(write.changes, OneRow) for write in self._waiting
        )
        await self._send_waiting(alone=alone)
        if self.began:
            await self._simple("COMMIT")

    async def rollback(self) -> None:
        """Undo what began; a connection that can't is dropped by :func:`pooled`."""
        self._waiting = []
        if self.began and not self._driver.is_closed():
            await self._simple("ROLLBACK")

    async def _begin(self) -> None:
        if not self.began:
            self.began = True
            await self._simple("BEGIN")

    async def _send_waiting(self, *, alone: bool = False) -> None:
        writes, self._waiting = self._waiting, []
        groups = grouped(writes)
        # alone: one statement, whose check (if any) is made in it, not after it by Python's
        one = len(groups) == 1 and not (sent_as_is(groups[0]) and groups[0][0].changes)
        if groups and not (alone and one):
            await self._begin()
        for group in groups:
            if sent_as_is(group):
                await self._send_as_is(group[0])
            else:
                await self._send_batch(group)

    async def _send_as_is(self, write: Bound) -> None:
        try:
            outcome = await self._run(write)
        except DRIVER_ERRORS as error:
            raise failed(self._wrapped(error, write), write.failure) from error
        if write.changes is not None:
            write.changes(outcome.rowcount)

    async def _send_batch(self, writes: Sequence[Bound]) -> None:
        sent = batch(writes)
        try:
            counts = await self._driver.fetchrow(sent.sql, *sent.values)
        except DRIVER_ERRORS as error:
            stale = checked(error, writes)
            if stale is not None:
                raise stale from error
            wrapped = self._wrapped(error, Bound(None, sent.sql, tuple(sent.values), many=False))
            refused = culprit(error, writes)
            raise failed(wrapped, None if refused is None else refused.failure) from error
        for write, count in zip(writes, counts, strict=True):
            if write.changes is not None and not isinstance(write.changes, OneRow):
                write.changes(count)

    async def _simple(self, sql: str) -> None:
        self._trace(sql)
        try:
            await self._driver.execute(sql)
        except DRIVER_ERRORS as error:
            raise self._wrapped(error, Bound(None, sql, (), many=False)) from error


def _out_of_step(error: BaseException) -> bool:
    """Whether ``error`` or an error it was raised from is the driver's protocol out of step
    with its server (a repository's own error wraps the store's, which wraps the driver's)."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, asyncpg.InternalClientError):
            return True
        cause = cause.__cause__
    return False


def _changed(status: str) -> int:
    """The rows a command's status names (``UPDATE 2``, ``INSERT 0 1``); -1 for none."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1
