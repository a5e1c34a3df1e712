"""Migration 003: which state of each match was shown, and who is seated at a table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store import Store
from bot.store.migrate import legacy_migrations as migrations
from bot.store.migrate import migration_statements


async def seat(store: Store) -> int:
    async with store.transaction() as tx:
        await tx.players.ensure("s", "a", "alice", 0.0)
        await tx.players.ensure("s", "b", "bob", 0.0)
        return (await tx.matches.create("s", "c", ("a", "b"), 5, "{}", 1.0)).id


async def test_a_new_match_is_unannounced_until_marked(database: Path | str) -> None:
    store = await Store.open(database)
    try:
        match_id = await seat(store)
        assert [row.id for row in await store.matches.unannounced()] == [match_id]
        async with store.transaction() as tx:
            await tx.matches.mark_announced(match_id, 1)
        assert await store.matches.unannounced() == []
        async with store.transaction() as tx:
            await tx.matches.save(match_id, 1, state="{}", status="playing", now=2.0)
        [row] = await store.matches.unannounced()
        assert (row.id, row.version) == (match_id, 2)
        async with store.transaction() as tx:
            await tx.matches.mark_announced(match_id, 2)
            await tx.matches.mark_announced(match_id, 1)  # a late, older message never goes back
        assert await store.matches.unannounced() == []
        async with store.transaction() as tx:
            await tx.matches.save(match_id, 2, state="{}", status="finished", now=3.0, winner=0)
        assert await store.matches.unannounced() == []  # only matches being played are re-posted
    finally:
        await store.close()


async def test_matches_playing_before_the_migration_count_as_announced(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # a database of the bot before migration 003
        for number, sql in migrations():
            if number < 3:
                for statement in migration_statements(sql):
                    db.execute(statement)
        db.execute("PRAGMA user_version = 2")
        db.execute("INSERT INTO servers VALUES ('s', 0)")
        db.executemany(
            "INSERT INTO players (server_id, user_id, name) VALUES ('s', ?, ?)",
            [("a", "alice"), ("b", "bob")],
        )
        db.execute(
            "INSERT INTO matches (server_id, channel_id, player0_id, player1_id, match_length, "
            "state, version, status, created_at, last_action_at) "
            "VALUES ('s', 'c', 'a', 'b', 5, '{}', 7, 'playing', 0, 0)"
        )
    store = await Store.open(path)
    try:
        assert await store.schema_version() >= 3
        assert await store.matches.unannounced() == []
    finally:
        await store.close()


async def test_seated_is_the_match_and_the_open_unexpired_challenge(database: Path | str) -> None:
    store = await Store.open(database)
    try:
        assert await store.matches.seated("s", "c", 0.0, 0.0) == frozenset()
        async with store.transaction() as tx:
            await tx.players.ensure("s", "a", "alice", 0.0)
            await tx.players.ensure("s", "b", "bob", 0.0)
            await tx.challenges.create("s", "c", "a", "b", 5, 0.0, 600.0)
        assert await store.matches.seated("s", "c", 10.0, 0.0) == {"a", "b"}
        assert await store.matches.seated("s", "c", 600.0, 0.0) == frozenset()  # expired
        assert await store.matches.seated("s", "other", 10.0, 0.0) == frozenset()
        await seat(store)
        assert await store.matches.seated("s", "c", 700.0, 0.0) == {"a", "b"}
    finally:
        await store.close()


async def test_the_table_message_is_kept_until_another_shows_a_newer_state(
    database: Path | str,
) -> None:
    """Migration 021: the table message of a match (edited at each move), on both databases."""
    store = await Store.open(database)
    try:
        match_id = await seat(store)
        assert await store.matches.table_message(match_id) is None
        async with store.transaction() as tx:
            await tx.matches.mark_all_announced({match_id: 1}, 1.0, {match_id: "111"})
        assert await store.matches.table_message(match_id) == ("111", 1)
        async with store.transaction() as tx:  # a state shown by a message of its own
            await tx.matches.save(match_id, 1, state="{}", status="playing", now=2.0)
            await tx.matches.mark_all_announced({match_id: 2}, 2.0)
        assert await store.matches.table_message(match_id) == ("111", 2)
        async with store.transaction() as tx:  # a new table message (a player pinged)
            await tx.matches.save(match_id, 2, state="{}", status="playing", now=3.0)
            await tx.matches.mark_all_announced({match_id: 3}, 3.0, {match_id: "222"})
            await tx.matches.mark_all_announced({match_id: 2}, 3.0, {match_id: "111"})  # late
        assert await store.matches.table_message(match_id) == ("222", 3)
        assert await store.matches.announcement(match_id) == (3, 3.0)
        async with store.transaction() as tx:  # the same state shown anew (`!board`)
            await tx.matches.mark_all_announced({match_id: 3}, 4.0, {match_id: "333"})
        assert await store.matches.table_message(match_id) == ("333", 3)
        assert await store.matches.announcement(match_id) == (3, 3.0)  # the claim clock stays
    finally:
        await store.close()
