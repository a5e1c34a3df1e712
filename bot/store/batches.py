"""PostgreSQL's writes no one awaits, sent together (:class:`~bot.store.postgres.
PostgresTransaction`): one statement whose data-modifying CTEs are the writes, one a row, each
with its own parameters renumbered, and whose row is how many rows each write changed. asyncpg
sends one statement a round trip, so a match's save (its UPDATE, its actions, its timer, the
dice) is one trip instead of four.

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
    changed (or, for a write checked by :class:`OneRow`, its index, the check passed)."""
    ctes: list[str] = []
    values: list[Any] = []
    columns: list[str] = []
    for index, write in enumerate(writes):
        rows = write.values if write.many else [write.values]
        names = []
        for row in rows:
            sql = _PARAMETER.sub(functools.partial(_shifted, len(values)), write.sql)
            names.append(f"w{len(ctes)}")
            ctes.append(f"{names[-1]} AS ({sql} RETURNING 1)")
            values.extend(row)
        count = " + ".join(f"(SELECT count(*) FROM {name})" for name in names)
        if isinstance(write.changes, OneRow):
            count = f"CAST(CASE WHEN {count} = 1 THEN '{index}' ELSE '{_MARK}{index}' END AS int)"
        columns.append(count)
    return Batch(f"WITH {', '.join(ctes)} SELECT {', '.join(columns)}", values)


def _shifted(offset: int, found: re.Match[str]) -> str:
    return f"${int(found[1]) + offset}"


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
