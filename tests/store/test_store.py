from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import StaleMatchError, Store
from bot.store.migrate import legacy_migrations as migrations


async def test_migrations_wal_and_foreign_keys(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        assert await store.schema_version() == migrations()[-1][0]
        row = await store.fetch_one("PRAGMA journal_mode")
        assert row is not None and row[0] == "wal"
        row = await store.fetch_one("PRAGMA foreign_keys")
        assert row is not None and row[0] == 1
        with pytest.raises(Exception, match="FOREIGN KEY"):
            async with store.transaction() as tx:
                await tx.challenges.create("s", "c", "nobody", "nobody2", 5, 0.0, 600.0)
    finally:
        await store.close()
    # Opening again applies nothing new and keeps the data.
    again = await Store.open(tmp_path / "db.sqlite3")
    assert await again.schema_version() == migrations()[-1][0]
    await again.close()


async def test_one_open_challenge_and_one_match_per_channel(database: Path | str) -> None:
    store = await Store.open(database)
    async with store.transaction() as tx:
        await tx.players.ensure("s", "a", "alice", 0.0)
        await tx.players.ensure("s", "b", "bob", 0.0)
        await tx.challenges.create("s", "c", "a", "b", 5, 0.0, 600.0)
    with pytest.raises(Exception, match=r"(?i)unique"):
        async with store.transaction() as tx:
            await tx.challenges.create("s", "c", "b", "a", 3, 0.0, 600.0)
    challenge = await store.challenges.open("s", "c")
    assert challenge is not None and challenge.match_length == 5
    async with store.transaction() as tx:
        await tx.challenges.close(challenge.id, "accepted")
        match_id = (await tx.matches.create("s", "c", ("a", "b"), 5, "{}", 1.0)).id
    assert await store.challenges.open("s", "c") is None
    with pytest.raises(Exception, match=r"(?i)unique"):
        async with store.transaction() as tx:
            await tx.matches.create("s", "c", ("b", "a"), 5, "{}", 1.0)
    row = await store.matches.playing("s", "c")
    assert row is not None and row.id == match_id and row.version == 1
    await store.close()


async def test_stale_version_fails_cleanly_and_rolls_back(database: Path | str) -> None:
    first = await Store.open(database)
    second = await Store.open(database)
    async with first.transaction() as tx:
        await tx.players.ensure("s", "a", "alice", 0.0)
        await tx.players.ensure("s", "b", "bob", 0.0)
        match_id = (await tx.matches.create("s", "c", ("a", "b"), 3, '{"n": 0}', 0.0)).id
    async with first.transaction() as tx:
        assert await tx.matches.save(match_id, 1, state='{"n": 1}', status="playing", now=1.0) == 2
    with pytest.raises(StaleMatchError):
        async with second.transaction() as tx:
            await tx.players.ensure("s", "c", "carol", 2.0)
            await tx.matches.save(match_id, 1, state='{"n": "lost"}', status="playing", now=2.0)
    row = await second.matches.get(match_id)
    assert row is not None and row.state == '{"n": 1}' and row.version == 2
    assert await second.players.get("s", "c") is None  # the whole transaction was rolled back
    await first.close()
    await second.close()


async def test_leaderboard_and_rank(database: Path | str) -> None:
    store = await Store.open(database)
    async with store.transaction() as tx:
        for user, rating in (("a", 1510.0), ("b", 1490.0), ("c", 1530.0), ("d", 1500.0)):
            await tx.players.ensure("s", user, user.upper(), 0.0)
            if user != "d":
                await tx.players.update_result("s", user, rating=rating, experience=5, won=True)
    board = await store.players.leaderboard("s")
    assert [p.user_id for p in board] == ["c", "a", "b"]
    assert await store.players.rank("s", "a") == (2, 3)
    assert await store.players.rank("s", "d") is None
    await store.close()


async def test_upgrade_keeps_existing_rows(tmp_path: Path) -> None:
    import sqlite3

    from bot.store.migrate import migration_statements

    path = tmp_path / "old.sqlite3"
    first_number, first_sql = migrations()[0]
    with sqlite3.connect(path) as old:  # a database made by the first release
        for statement in migration_statements(first_sql):
            old.execute(statement)
        old.execute(f"PRAGMA user_version = {first_number}")
        old.execute("INSERT INTO servers VALUES ('s', 0)")
        old.execute("INSERT INTO players (server_id, user_id, name) VALUES ('s', 'a', 'A')")
        old.execute("INSERT INTO players (server_id, user_id, name) VALUES ('s', 'b', 'B')")
        old.execute(
            "INSERT INTO challenges (server_id, channel_id, challenger_id, challenged_id,"
            " match_length, created_at, expires_at, status)"
            " VALUES ('s', 'c', 'a', 'b', 0, 0, 9e9, 'open')"
        )
    old.close()
    store = await Store.open(path)
    assert await store.schema_version() == migrations()[-1][0] > first_number
    challenge = await store.challenges.open("s", "c")
    assert challenge is not None and challenge.options == "{}"
    await store.close()
