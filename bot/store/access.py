"""What every repository runs its statements on: a :class:`Reader` (the store, for reads outside
any transaction, or a transaction) and a :class:`Writer` (a transaction: its reads see its own
writes). :class:`~bot.store.database.Store` and :class:`~bot.store.database.Transaction` are them;
a repository never opens a transaction of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite

from bot.store.connections import Record, Statement

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
