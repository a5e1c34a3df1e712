"""Migration 020 on a database at schema 19, on SQLite and PostgreSQL: the daily puzzle's tables,
the servers' time zone and the answers' daily post come in; what was there stays. Migration 024:
a post's sent mark and lease."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from bot.store import Store
from bot.store.dailies import LEASE, DailySetting
from bot.store.schema import SCHEMA_VERSION


async def back_to_schema_19(store: Store) -> None:
    async with store.transaction() as tx:
        for statement in (
            "DROP INDEX daily_posts_unsent",  # schema 24's
            "ALTER TABLE daily_posts DROP COLUMN sent_at",
            "ALTER TABLE daily_posts DROP COLUMN lease_until",
            "ALTER TABLE servers DROP COLUMN language",  # schema 22's
            "DROP TABLE puzzle_storms",  # schema 21's, so that the upgrade makes them again
            "ALTER TABLE drills DROP COLUMN puzzle",
            "DROP TABLE daily_posts",
            "DROP TABLE puzzle_dailies",
            "DROP INDEX puzzle_answers_daily",
            "ALTER TABLE puzzle_answers DROP COLUMN daily_id",
            "ALTER TABLE servers DROP COLUMN time_zone",
            "PRAGMA user_version = 19"
            if store.is_sqlite
            else "UPDATE meta SET value = '19' WHERE name = 'schema_version'",
        ):
            await tx.execute(text(statement))


async def test_migration_20_adds_the_daily_puzzle(database: Path | str) -> None:
    store = await Store.open(database)
    async with store.transaction() as tx:
        await tx.players.ensure("s", "a", "alice", 0.0)
        shown = await tx.puzzles.show("s", "a", "k1", 10.0)
    await back_to_schema_19(store)
    await store.close()
    store = await Store.open(database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == 24
        assert await store.dailies.time_zone("s") is None
        [kept] = await store.puzzles.answers("s", "a", 5)
        assert kept == shown and kept.daily_id is None
        async with store.transaction() as tx:
            await tx.dailies.set_time_zone("s", "Europe/Paris", 20.0)
            await tx.dailies.set(DailySetting("s", "c", 540, 100.0, "a", 20.0))
            post = await tx.dailies.claim(
                DailySetting("s", "c", 540, 100.0, "a", 20.0), 200.0, "2026-11-27", "k2", 100.0
            )
            assert post is not None and post.day == "2026-11-27"
            assert await tx.dailies.answer(post, "a", "13/7 8/7", True, 0.0, 101.0)
            assert not await tx.dailies.answer(post, "a", "13/7 8/7", True, 0.0, 102.0)
        assert await store.dailies.time_zone("s") == "Europe/Paris"
        assert await store.dailies.answer_of(post.id, "a") == ("13/7 8/7", 1)
        last = await store.dailies.last_post("s")
        assert last is not None and (last.answers, last.found) == (1, 1)
        assert await store.dailies.used("s", ["k1", "k2"]) == {"k2"}
    finally:
        await store.close()


async def test_migration_24_marks_the_posts_before_it_sent(database: Path | str) -> None:
    """A post made before schema 24 was sent (or is lost for good): never claimed again."""
    store = await Store.open(database)
    async with store.transaction() as tx:
        setting = DailySetting("s", "c", 540, 100.0, "a", 20.0)
        await tx.dailies.set(setting)
        assert await tx.dailies.claim(setting, 200.0, "2026-11-27", "k1", 100.0)
        for statement in (
            "DROP INDEX daily_posts_unsent",
            "ALTER TABLE daily_posts DROP COLUMN sent_at",
            "ALTER TABLE daily_posts DROP COLUMN lease_until",
            "PRAGMA user_version = 23"
            if store.is_sqlite
            else "UPDATE meta SET value = '23' WHERE name = 'schema_version'",
        ):
            await tx.execute(text(statement))
    await store.close()
    store = await Store.open(database)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == 24
        assert await store.dailies.unsent(1e10) == []
        post = await store.dailies.last_post("s")
        assert post is not None and post.sent_at == post.posted_at == 100.0
        async with store.transaction() as tx:
            setting = DailySetting("s", "c", 540, 200.0, "a", 20.0)
            assert await tx.dailies.claim(setting, 300.0, "2026-11-28", "k2", 200.0)
        [unsent] = await store.dailies.unsent(200.0 + LEASE)
        assert unsent.day == "2026-11-28" and unsent.sent_at is None
    finally:
        await store.close()
