"""Opening SQLite's file (:meth:`bot.store.connections.SqliteThread.open`): WAL switched on, and a
migration's step on a synchronous connection of its own."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import aiosqlite
from sqlalchemy import Connection, create_engine
from sqlalchemy.pool import NullPool


def migrate_file(path: Path, step: Callable[[Connection], None], busy_seconds: float) -> None:
    engine = create_engine(
        f"sqlite:///{path}",
        isolation_level="AUTOCOMMIT",
        poolclass=NullPool,
        connect_args={"timeout": busy_seconds},
    )
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA foreign_keys = ON")
            step(connection)
    finally:
        engine.dispose()


async def set_wal(connection: aiosqlite.Connection, busy_seconds: float) -> None:
    """Switch to WAL. SQLite answers "database is locked" at once, without waiting for the busy
    timeout, while another connection is switching a fresh file too: retry for a while."""
    deadline = time.monotonic() + busy_seconds
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
