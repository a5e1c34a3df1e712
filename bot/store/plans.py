"""The store's SQLAlchemy statements as the sqlite3 driver takes them: SQL with ``?`` parameters
and their values in order, and the rows that come back as SQLAlchemy rows (by index, by name and
through ``_mapping``), so that a statement costs one trip to the SQLite thread
(:class:`~bot.store.connections.SqliteThread`).

Each statement is compiled once per shape, by SQLAlchemy's own cache key (the statements of the
per-command paths, built once, and those built at each call alike); its values are then bound
and its rows processed as SQLAlchemy's execution does it. That takes a few of SQLAlchemy's
internals (``_compile_w_cache``, the compiled statement's processors and result columns), the
same calls its ``Connection.execute`` makes: pyproject pins SQLAlchemy to 2.1.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Executable, Integer, Row, create_engine
from sqlalchemy.engine import Dialect
from sqlalchemy.engine.result import result_tuple
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.util import LRUCache

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


@dataclass(frozen=True, slots=True)
class Bound:
    """A statement ready for the driver."""

    plan: Plan | None  # None: driver SQL, whose rows are read off the cursor
    sql: str
    values: tuple[Any, ...] | list[tuple[Any, ...]]  # a list: one tuple per row (executemany)
    many: bool


_compiled: LRUCache[Any, Any] = LRUCache(CACHED)
_plans: weakref.WeakKeyDictionary[SQLCompiler, Plan] = weakref.WeakKeyDictionary()


def bind(statement: str | Executable, params: Iterable[Any]) -> Bound:
    """``statement`` with ``params`` (a mapping, a list of mappings: one row each, or for driver
    SQL its values in order), as SQL and values for the driver."""
    if isinstance(statement, str):
        return Bound(None, statement, tuple(params), many=False)
    sets: list[Mapping[str, Any]] = (
        [params] if isinstance(params, Mapping) else cast(list[Mapping[str, Any]], list(params))
    )
    many = len(sets) > 1
    element = cast(ClauseElement, statement)
    compiled, extracted, collected, _ = element._compile_w_cache(
        DIALECT,
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
    if compiled.literal_execute_params or compiled.post_compile_params:  # IN (a list)
        assert not many, "an expanding IN with many rows"
        expanded = compiled._process_parameters_for_postcompile(values[0])
        sql, order = expanded.statement, expanded.positiontup or []
        processors = {**processors, **expanded.processors}
        values = [dict(expanded.parameters)]
    rows = [
        tuple(processors[name](one[name]) if name in processors else one[name] for name in order)
        for one in values
    ]
    return Bound(plan, sql, rows if many else rows[0], many)


def _plan(compiled: SQLCompiler) -> Plan:
    if compiled.insert_prefetch or compiled.update_prefetch:
        raise NotImplementedError("a column default computed in Python (use a server default)")
    writes = bool(compiled.isinsert or compiled.isupdate or compiled.isdelete)
    returns_rows = not compiled.isplaintext and (not writes or bool(compiled.effective_returning))
    columns = compiled._result_columns
    processors = tuple(column.type._cached_result_processor(DIALECT, None) for column in columns)
    return Plan(
        compiled,
        returns_rows,
        writes,
        compiled.isinsert and not compiled.for_executemany and _keyed_by_row_id(compiled),
        result_tuple([column.keyname for column in columns]),
        processors if any(processors) else None,
    )


def _keyed_by_row_id(compiled: SQLCompiler) -> bool:
    table = getattr(compiled.statement, "table", None)
    key = list(table.primary_key.columns) if table is not None else []
    return len(key) == 1 and isinstance(key[0].type, Integer)


def described(names: Sequence[str]) -> Callable[[Iterable[Any]], Record]:
    """Rows of driver SQL, named by its cursor's description."""
    return result_tuple(list(names))
