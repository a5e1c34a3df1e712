"""PostgreSQL's writes no one awaits, sent together (:class:`~bot.store.postgres.
PostgresTransaction`): one statement whose data-modifying CTEs are the writes, each with its own
parameters renumbered, and whose row is how many rows each write changed. asyncpg sends one
statement a round trip, so a match's save (its UPDATE, its actions, its timer, the dice) is one
trip instead of four. An INSERT's rows go as one array a column (``unnest``), so that the
statement's text, prepared once on each connection, is the same whatever the number of rows.

A write's check that it changed one row (:class:`~bot.store.connections.OneRow`, the match's
version check) is made in the statement itself: a wrong count fails the cast of a marked text, so
the whole statement fails, its other writes with it, and :func:`checked` names the check's
error. A transaction of such writes alone then needs no BEGIN and COMMIT: one statement is
atomic by itself.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.store.connections import Bound, OneRow

_PARAMETER = re.compile(r"\$(\d+)")
_MARK = "bot-check-"
_MARKED = re.compile(rf'"{_MARK}(\d+)"')


@dataclass(frozen=True, slots=True)
class Batch:
    sql: str
    values: list[Any]


def batchable(bound: Bound) -> bool:
    """A write a batch can carry: a built INSERT, UPDATE or DELETE that returns no rows."""
    plan = bound.plan
    return plan is not None and plan.writes and not plan.returns_rows


def grouped(writes: Sequence[Bound]) -> list[list[Bound]]:
    """``writes`` in order, in batches: each table written once in a batch (its CTEs see the
    rows as they were before it: a row written twice in one statement is written once, by
    either), and a write of many rows that could touch a row twice (an upsert, an UPDATE) a
    batch of its own, sent as it is."""
    groups: list[list[Bound]] = []
    tables: set[str] = set()
    for write in writes:
        table = _table(write)
        alone = write.many and not _plain_insert(write)
        if not groups or alone or table in tables or _alone(groups[-1]):
            groups.append([])
            tables = set()
        groups[-1].append(write)
        tables.add(table)
    return groups


def sent_as_is(group: Sequence[Bound]) -> bool:
    """A batch of one write sent as it is (no check to make in it, or rows it can't carry)."""
    return len(group) == 1 and (group[0].changes is None or _alone(group))


def _alone(group: Sequence[Bound]) -> bool:
    return len(group) == 1 and group[0].many and not _plain_insert(group[0])


def _plain_insert(write: Bound) -> bool:
    assert write.plan is not None
    return bool(write.plan.compiled.isinsert) and "ON CONFLICT" not in write.sql


def _table(write: Bound) -> str:
    assert write.plan is not None
    statement: Any = write.plan.compiled.statement  # an INSERT, UPDATE or DELETE: of a table
    return str(statement.table.name)


def batch(writes: Sequence[Bound]) -> Batch:
    """``writes`` as one statement; its row has a column per write, in order: the rows it
    changed (or, for a write checked by :class:`OneRow`, its index, the check passed).

    Its text depends on which statements the writes are, not on their rows: an INSERT of rows
    takes each column as an array (``unnest``), whatever their number, so that a save of one
    action and one of three are one prepared statement, planned once per connection (its
    generic plan then reused). The text is made once per such shape."""
    shapes = tuple(_shape(write) for write in writes)
    values: list[Any] = []
    for write, (_, ctes, _) in zip(writes, shapes, strict=True):
        rows = write.values if write.many else [write.values]
        if not ctes:
            values.extend(list(column) for column in zip(*rows, strict=True))
        else:
            for row in rows:
                values.extend(row)
    return Batch(_text(shapes), values)


# A write's part of a batch's text: its SQL; 0 where its rows go as arrays, else the number of
# its rows (each a CTE of its own); and whether its count is checked (:class:`OneRow`).
_Shape = tuple[str, int, bool]


def _shape(write: Bound) -> _Shape:
    checked = isinstance(write.changes, OneRow)
    if _plain_insert(write) and _as_arrays(write.sql) is not None:
        return (write.sql, 0, checked)
    return (write.sql, len(write.values) if write.many else 1, checked)


@functools.lru_cache(maxsize=256)
def _text(shapes: tuple[_Shape, ...]) -> str:
    ctes: list[str] = []
    columns: list[str] = []
    used = 0  # parameters so far
    for index, (sql, rows, checked) in enumerate(shapes):
        each = sql if rows else _as_arrays(sql)
        assert each is not None
        width = max((int(n) for n in _PARAMETER.findall(sql)), default=0)
        names = []
        for _ in range(rows or 1):
            names.append(f"w{len(ctes)}")
            ctes.append(f"{names[-1]} AS ({_renumbered(each, used)} RETURNING 1)")
            used += width
        count = " + ".join(f"(SELECT count(*) FROM {name})" for name in names)
        if checked:
            count = f"CAST(CASE WHEN {count} = 1 THEN '{index}' ELSE '{_MARK}{index}' END AS int)"
        columns.append(count)
    return f"WITH {', '.join(ctes)} SELECT {', '.join(columns)}"


def _renumbered(sql: str, offset: int) -> str:
    return _PARAMETER.sub(lambda found: f"${int(found[1]) + offset}", sql)


# A plain INSERT's VALUES of parameters alone, each cast to its type (asyncpg's SQL):
_VALUES = re.compile(r" VALUES \((\$\d+::[A-Z ]+(?:, \$\d+::[A-Z ]+)*)\)$")
_CAST = re.compile(r"\$(\d+)::([A-Z ]+)")


@functools.lru_cache(maxsize=256)
def _as_arrays(sql: str) -> str | None:
    """``sql``, an INSERT of one row of parameters, as an INSERT of rows whose every column is
    one array parameter; None for another INSERT."""
    found = _VALUES.search(sql)
    if found is None:
        return None
    arrays = ", ".join(f"${n}::{kind}[]" for n, kind in _CAST.findall(found[1]))
    return f"{sql[: found.start()]} SELECT * FROM unnest({arrays})"


def checked(error: Exception, writes: Sequence[Bound]) -> Exception | None:
    """The error of the write whose :class:`OneRow` check failed ``error``'s batch, if one
    did."""
    if isinstance(error, asyncpg.InvalidTextRepresentationError):
        found = _MARKED.search(str(error))
        if found is not None:
            changes = writes[int(found[1])].changes
            assert isinstance(changes, OneRow)
            return changes.error
    return None


def culprit(error: Exception, writes: Sequence[Bound]) -> Bound | None:
    """The write of the table the server names in ``error`` (a batch writes a table once)."""
    table = getattr(error, "table_name", None)
    return next((write for write in writes if _table(write) == table), None)
