"""Migration 21 on a database at schema 20 (SQLite and PostgreSQL): its drills gain the column of
a missed puzzle (the drills kept as they were) and the puzzle storms' table is made."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select, text

from bot.store import Store, schema
from bot.store.schema import SCHEMA_VERSION

DRILL = {
    "server_id": "s",
    "user_id": "u",
    "match_id": 1,
    "decision": 3,
    "game": 1,
    "move": 2,
    "kind": "checker",
    "gnubg_id": "4HPwATDgc/ABMA:cIkgAAAAAAAA",
    "dice": 31,
    "loss": 0.2,
    "skill": "very bad",
    "plies": 2,
    "due_at": 0.0,
    "created_at": 0.0,
}


async def back_to_schema_20(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.execute(schema.drills.insert(), [DRILL])
        for statement in (
            "ALTER TABLE servers DROP COLUMN language",  # schema 22's
            "DROP TABLE puzzle_storms",
            "ALTER TABLE drills DROP COLUMN puzzle",
            "PRAGMA user_version = 20"
            if store.is_sqlite
            else "UPDATE meta SET value = '20' WHERE name = 'schema_version'",
        ):
            await tx.execute(text(statement))


async def test_migration_21_adds_storms_and_missed_puzzles_drills(database: Path | str) -> None:
    store = await Store.open(database)
    await back_to_schema_20(store)
    await store.close()
    store = await Store.open(database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == 24
        assert await store.drills.has("s", "u")  # kept, a match's drill
        async with store.transaction() as tx:
            storm = await tx.storms.start("s", "c", "u", "amy", 1.0, 181.0, "0123456789ab")
        assert storm is not None and await store.storms.running("u") == storm
        async with store.transaction() as tx:  # one running per player: a second is refused
            assert await tx.storms.start("t", "c", "u", "amy", 2.0, 182.0, "ba9876543210") is None
        async with store.transaction() as tx:
            assert await tx.storms.finish(storm.id, 181.0) is not None
            again = await tx.storms.start("t", "c", "u", "amy", 2.0, 182.0, "ba9876543210")
        assert again is not None and again.id > storm.id
        rows = await store.fetch_all(select(schema.drills.c.puzzle))
        assert [row[0] for row in rows] == [None]
    finally:
        await store.close()
