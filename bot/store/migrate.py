"""Bringing a database to the schema of :mod:`bot.store.schema`, safely when several processes
open it at once.

A new database, of either kind, is created from the tables in :mod:`bot.store.schema`. A SQLite
file from before takes the numbered SQL migrations in ``migrations/`` it has not had yet (its
``PRAGMA user_version`` counts them), each in its own ``BEGIN IMMEDIATE`` transaction that reads
the version again first, so a migration another process applied meanwhile is skipped. On
PostgreSQL the version is the ``schema_version`` row of ``meta``; a database made at schema N
takes the numbered migrations after N (those written for both databases), under a
transaction-scoped advisory lock that other processes opening the database wait for.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import partial
from importlib import resources

from sqlalchemy import Connection, Table, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import schema

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{3})_[\w-]+\.sql$")
# Any fixed number: the key of the advisory lock the processes migrating one database share.
_MIGRATION_LOCK = 0x6B61636B67616D  # "backgam"


def legacy_migrations() -> list[tuple[int, str]]:
    """(number, SQL) of every numbered SQLite migration, in order."""
    found = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match[1]), entry.read_text(encoding="utf-8")))
    return sorted(found)


def migration_statements(sql: str) -> list[str]:
    """Split a migration into statements (they contain no semicolons inside strings)."""
    body = "\n".join(line for line in sql.splitlines() if not line.strip().startswith("--"))
    return [statement.strip() for statement in body.split(";") if statement.strip()]


_NEW_TABLES = re.compile(r"^--\s*new tables from the schema:\s*(.+)$", re.MULTILINE)


def new_tables(sql: str) -> list[Table]:
    """The tables a migration makes from :mod:`bot.store.schema` itself (its line
    ``-- new tables from the schema: a, b``): written once, right for both databases (an
    autoincrementing key is spelled differently in each)."""
    found = _NEW_TABLES.search(sql)
    if found is None:
        return []
    return [schema.metadata.tables[name.strip()] for name in found[1].split(",")]


# A table a migration makes from the schema has today's columns, those a later migration adds
# included: that migration's ADD COLUMN is then skipped (its indexes say IF NOT EXISTS).
_ADD_COLUMN = re.compile(r"^ALTER TABLE (\w+) ADD COLUMN (\w+)", re.IGNORECASE)


def added_column(statement: str) -> tuple[str, str] | None:
    """(table, column) of an ``ALTER TABLE t ADD COLUMN c`` statement, else None."""
    found = _ADD_COLUMN.match(statement)
    return (found[1], found[2]) if found else None


def _user_version(connection: Connection) -> int:
    row = connection.exec_driver_sql("PRAGMA user_version").first()
    return int(row[0]) if row else 0


def migrate_sqlite(connection: Connection) -> None:
    """Create or upgrade the SQLite file behind ``connection`` (in autocommit mode; on the
    connection's own thread)."""
    _transaction(connection, _create_sqlite_if_new)
    applied = _user_version(connection)  # each one still looks again inside its transaction
    for number, sql in legacy_migrations():
        if number > applied:
            _transaction(connection, _apply(number, sql))


def _transaction(connection: Connection, step: Callable[[Connection], None]) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")
    try:
        step(connection)
    except BaseException:
        connection.exec_driver_sql("ROLLBACK")
        raise
    connection.exec_driver_sql("COMMIT")


def _create_sqlite_if_new(connection: Connection) -> None:
    if _user_version(connection) > 0:
        return
    tables = connection.exec_driver_sql("SELECT COUNT(*) FROM sqlite_master").scalar()
    if tables:
        return  # a file from before the first migration was numbered: migration 001 says
    log.info("creating the database's tables (schema %d)", schema.SCHEMA_VERSION)
    schema.metadata.create_all(connection)
    connection.exec_driver_sql(f"PRAGMA user_version = {schema.SCHEMA_VERSION}")


def _apply(number: int, sql: str) -> Callable[[Connection], None]:
    def apply(connection: Connection) -> None:
        # Read the version inside the write transaction: another process may have applied this
        # migration since we looked.
        if number <= _user_version(connection):
            return
        log.info("applying database migration %03d", number)
        schema.metadata.create_all(connection, tables=new_tables(sql))
        for statement in migration_statements(sql):
            adds = added_column(statement)
            if adds is not None:
                columns = connection.exec_driver_sql(f"PRAGMA table_info({adds[0]})").all()
                if any(column[1] == adds[1] for column in columns):
                    continue
            connection.exec_driver_sql(statement)
        connection.exec_driver_sql(f"PRAGMA user_version = {number}")

    return apply


async def migrate_postgres(connection: AsyncConnection) -> None:
    """Create the tables of a new PostgreSQL database, or bring an older one up to date, inside
    the caller's transaction."""
    await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    exists = (await connection.execute(text("SELECT to_regclass('meta') IS NOT NULL"))).scalar()
    if not exists:
        log.info("creating the database's tables (schema %d)", schema.SCHEMA_VERSION)
        await connection.run_sync(schema.metadata.create_all)
        await connection.execute(
            schema.meta.insert().values(name=schema.VERSION_NAME, value=str(schema.SCHEMA_VERSION))
        )
        return
    meta = schema.meta
    found = (
        await connection.execute(select(meta.c.value).where(meta.c.name == schema.VERSION_NAME))
    ).scalar()
    version = int(found or 0)
    for number, sql in legacy_migrations():
        if number < schema.FIRST_SHARED_MIGRATION or number <= version:
            continue
        log.info("applying database migration %03d", number)
        await connection.run_sync(partial(schema.metadata.create_all, tables=new_tables(sql)))
        for statement in migration_statements(sql):
            if added_column(statement) is not None:
                statement = _ADD_COLUMN.sub(
                    r"ALTER TABLE \1 ADD COLUMN IF NOT EXISTS \2", statement
                )
            await connection.exec_driver_sql(statement)
        await connection.execute(
            update(meta).where(meta.c.name == schema.VERSION_NAME).values(value=str(number))
        )
