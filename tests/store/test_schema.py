"""The tables of bot/store/schema/ (what new databases are created from) agree with what the
numbered migrations make of a SQLite file: columns, their affinity, defaults and keys, foreign
keys and indexes, partial conditions included."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine

from bot.store import Store
from bot.store.migrate import added_column, legacy_migrations, migration_statements, new_tables
from bot.store.schema import SCHEMA_VERSION, metadata


def migrated_by_hand(path: Path) -> None:
    for number, sql in legacy_migrations():
        tables = new_tables(sql)
        if tables:  # made from the schema, as the migration says
            engine = create_engine(f"sqlite:///{path}")
            with engine.begin() as connection:
                metadata.create_all(connection, tables=tables)
            engine.dispose()
        with sqlite3.connect(path) as db:
            for statement in migration_statements(sql):
                adds = added_column(statement)  # a table made from today's schema has it
                if adds and any(
                    c[1] == adds[1] for c in db.execute(f"PRAGMA table_info({adds[0]})")
                ):
                    continue
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
        db.close()


def affinity(declared: str) -> str:
    """SQLite's column affinity of a declared type (its documented rules, in order)."""
    kind = declared.upper()
    if "INT" in kind:
        return "INTEGER"
    if any(word in kind for word in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if any(word in kind for word in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def described(path: Path) -> dict[str, Any]:
    db = sqlite3.connect(path)
    try:
        tables = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        out: dict[str, Any] = {"version": db.execute("PRAGMA user_version").fetchone()[0]}
        for table in sorted(tables):
            # A key column counts as NOT NULL: new databases say so where SQLite's old keys
            # allowed a NULL by a quirk of its history.
            columns = sorted(
                (name, affinity(kind), bool(notnull or pk), default, pk)
                for _, name, kind, notnull, default, pk in db.execute(f"PRAGMA table_info({table})")
            )
            foreign = sorted(
                (row[2], row[3], row[4]) for row in db.execute(f"PRAGMA foreign_key_list({table})")
            )
            indexes = {}
            for _, name, unique, origin, partial in db.execute(f"PRAGMA index_list({table})"):
                if origin != "c":
                    continue  # a primary key's or a UNIQUE constraint's own index
                sql = db.execute(
                    "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)
                ).fetchone()[0]
                where = re.sub(r"\s+", " ", sql.split(" WHERE ", 1)[1]) if partial else None
                keys = [row[2] for row in db.execute(f"PRAGMA index_info({name})")]
                indexes[name] = (bool(unique), keys, where)
            without_rowid = (
                "WITHOUT ROWID"
                in db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,))
                .fetchone()[0]
                .upper()
            )
            out[table] = {
                "columns": columns,
                "foreign": foreign,
                "indexes": indexes,
                "without_rowid": without_rowid,
            }
        return out
    finally:
        db.close()


async def test_a_new_database_matches_the_migrated_one(tmp_path: Path) -> None:
    migrated_by_hand(tmp_path / "migrated.sqlite3")
    store = await Store.open(tmp_path / "new.sqlite3")
    await store.close()
    new, migrated = described(tmp_path / "new.sqlite3"), described(tmp_path / "migrated.sqlite3")
    assert new["version"] == migrated["version"] == SCHEMA_VERSION
    assert sorted(new) == sorted(migrated) == sorted([*metadata.tables, "version"])
    for table in metadata.tables:
        assert new[table] == migrated[table], table


def test_the_schema_version_is_the_last_migration() -> None:
    assert legacy_migrations()[-1][0] == SCHEMA_VERSION
