"""Migration 017 on a database at schema 16, on SQLite and PostgreSQL: the tournaments get the
pause's start (a paused one takes it from its log's last pause, not from a log line that only
begins with "paused"), the pairings a notice, the running tournaments an index."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from bot.store import Store
from bot.store.schema import SCHEMA_VERSION


async def back_to_schema_16(store: Store) -> None:
    async with store.transaction() as tx:
        for statement in (
            "ALTER TABLE servers DROP COLUMN language",  # schema 20's: added again by 020
            "DROP INDEX tournaments_running",
            "ALTER TABLE tournaments DROP COLUMN paused_at",
            "ALTER TABLE tournament_matches DROP COLUMN notice",
            "PRAGMA user_version = 16"
            if store.is_sqlite
            else "UPDATE meta SET value = '16' WHERE name = 'schema_version'",
        ):
            await tx.execute(text(statement))


async def test_migration_17_keeps_a_paused_tournaments_pause(database: Path | str) -> None:
    store = await Store.open(database)
    async with store.transaction() as tx:
        ids: list[int] = []
        for name, status in (("Spring", "paused"), ("Autumn", "running")):
            tournament_id = await tx.tournaments.create(
                {
                    "server_id": "s",
                    "channel_id": "c",
                    "name": name,
                    "format": "knockout",
                    "match_length": 1,
                    "deadline_days": 2.0,
                    "size_limit": 8,
                    "status": status,
                    "organiser_id": "o",
                    "created_at": 100.0,
                },
            )
            assert tournament_id is not None
            ids.append(tournament_id)
        await tx.tournaments.add_log(ids[0], 200.0, "o", "paused by pausedbob")
        await tx.tournaments.add_log(ids[0], 300.0, "o", "resumed by pausedbob")
        await tx.tournaments.add_log(ids[0], 400.0, "o", "paused by pausedbob")
        await tx.tournaments.add_log(ids[0], 900.0, "o", "pausedbob set 1.2: no-show")
    await back_to_schema_16(store)
    await store.close()
    store = await Store.open(database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == 24
        paused, running = [await store.tournaments.get(n) for n in ids]
        assert paused is not None and paused.paused_at == 400.0
        assert running is not None and running.paused_at is None
        assert await store.tournaments.unsettled() == [running]  # by the new index: no round 1 yet
    finally:
        await store.close()
