"""Copying every row of one database into another, empty one (a SQLite file into PostgreSQL, as
a growing bot moves to many hosts; or any other way round), in one transaction of the
destination, and counting what each side holds afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy import Column, ColumnElement, Table, and_, func, or_, select, text

from bot.store import schema
from bot.store.connections import Record
from bot.store.database import Store
from bot.store.rows import StoreError

BATCH = 2_000  # rows read and written at a time
_SHOWN = ("players", "matches", "meta")  # what a refusal names of a database that is not empty
Progress = Callable[[str, int], None]  # (table, rows copied so far)


async def counts(store: Store) -> dict[str, int]:
    """How many rows each table holds (the schema version each database keeps of its own
    left out)."""
    out = {}
    for table in schema.metadata.sorted_tables:
        row = await store.fetch_one(select(func.count()).select_from(table).where(*_copied(table)))
        out[table.name] = int(row[0]) if row else 0
    return out


def _copied(table: Table) -> list[ColumnElement[bool]]:
    """Which rows of ``table`` a copy carries over: all, but the schema version each database
    keeps of its own."""
    if table is schema.meta:
        return [table.c.name != schema.VERSION_NAME]
    return []


async def copy_rows(source: Store, destination: Store, progress: Progress | None = None) -> None:
    """Copy every row of ``source`` into ``destination``, which must hold no match, player or
    setting yet (:class:`StoreError` otherwise). All of it is written in one transaction: a
    copy that fails leaves the destination as empty as it was."""
    held = {name: n for name, n in (await counts(destination)).items() if n}
    if held:
        said = ", ".join(f"{n} {name}" for name, n in held.items() if name in _SHOWN) or "rows"
        raise StoreError(
            f"the database {destination.address.shown} is not empty (it holds {said}): copy "
            "into a new, empty database"
        )
    async with destination.transaction() as tx:
        for table in schema.metadata.sorted_tables:  # a row's references before the row
            copied = 0
            async for batch in _batches(source, table):
                await tx.execute(table.insert(), [dict(row._mapping) for row in batch])
                copied += len(batch)
                if progress is not None:
                    progress(table.name, copied)
        if not destination.is_sqlite:
            for id_column in generated_ids():
                # The next id after the copied ones (their ids were written as they were).
                owner, name = id_column.table.name, id_column.name
                await tx.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{owner}', '{name}'), "
                        f"COALESCE(MAX({name}), 1), MAX({name}) IS NOT NULL) FROM {owner}"
                    )
                )


def generated_ids() -> list[Column[Any]]:
    """The columns whose values the database generates (a sequence on PostgreSQL), read off the
    schema so that a table added later is moved on too."""
    return [
        table.autoincrement_column
        for table in schema.metadata.sorted_tables
        if table.autoincrement_column is not None
    ]


async def clear_rows(store: Store) -> None:
    """Delete every row a copy wrote (a row's dependants before the row), in one transaction:
    what a failed copy leaves of a destination that was empty before it."""
    async with store.transaction() as tx:
        for table in reversed(schema.metadata.sorted_tables):
            await tx.execute(table.delete().where(*_copied(table)))


async def _batches(store: Store, table: Table) -> AsyncIterator[list[Record]]:
    """The rows of ``table`` in key order, :data:`BATCH` at a time (by key, not by offset: each
    batch is one index read however far the copy has come)."""
    key = list(table.primary_key.columns)
    last: Record | None = None
    while True:
        query = select(table).where(*_copied(table)).order_by(*key).limit(BATCH)
        if last is not None:
            after = tuple(last._mapping[column.name] for column in key)
            query = query.where(_after(key, after))
        batch = await store.fetch_all(query)
        if not batch:
            return
        yield batch
        last = batch[-1]


def _after(key: list[Column[Any]], values: tuple[Any, ...]) -> ColumnElement[bool]:
    """Rows whose key comes after ``values`` (the key's columns compared in order)."""
    terms = [
        and_(*(key[j] == values[j] for j in range(i)), column > values[i])
        for i, column in enumerate(key)
    ]
    return or_(*terms)
