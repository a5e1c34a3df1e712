"""Opening a PostgreSQL database: a new one gets the schema, several processes may open it at
once, and whatever stops it (a bad URL, a server that is down or refuses the login, a schema
newer than the code) is one line that names the database without its password."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text, update

from bot.store import Store, StoreError, database
from bot.store.schema import SCHEMA_VERSION, meta
from tests.postgres import PostgresServer
from tests.store.counters import back_to_schema_13

pytestmark = pytest.mark.slow
SECRET = "s3cret-pw"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_many_opens_of_a_new_database_at_once(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    stores = await asyncio.gather(*(Store.open(url) for _ in range(4)))
    try:
        for store in stores:
            assert await store.schema_version() == SCHEMA_VERSION
    finally:
        for store in stores:
            await store.close()


async def test_a_newer_database_is_refused(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    store = await Store.open(url)
    async with store.transaction() as tx:
        await tx.execute(update(meta).where(meta.c.name == "schema_version").values(value="999"))
    await store.close()
    with pytest.raises(StoreError, match="schema version 999, newer than this bot's"):
        await Store.open(url)


@pytest.mark.parametrize(
    ("url", "said"),
    [
        (f"postgresql://me:{SECRET}@127.0.0.1:{{port}}/backgammon", "can't use the database"),
        ("mysql://me:pw@localhost/backgammon", "not supported"),
        (f"postgresql://me:{SECRET}@127.0.0.1:notaport/db", "can't be read"),
        (f"postgresql://me:{SECRET}@127.0.0.1:5432", "names no database"),
    ],
)
async def test_a_server_that_is_down_or_a_bad_url(url: str, said: str) -> None:
    with pytest.raises(StoreError, match=said) as raised:
        await Store.open(url.replace("{port}", str(free_port())))
    assert SECRET not in str(raised.value)


async def test_a_refused_login(postgres: PostgresServer) -> None:
    url = postgres.url.replace("backgammon@", f"nobody_here:{SECRET}@")
    with pytest.raises(StoreError, match="nobody_here") as raised:
        await Store.open(url)
    assert SECRET not in str(raised.value)
    assert "***" in str(raised.value)


@pytest.mark.parametrize("command", [["-m", "bot"], ["-m", "bot", "console"]])
def test_the_process_exits_at_once_with_one_line(tmp_path: Path, command: list[str]) -> None:
    url = f"postgresql://me:{SECRET}@127.0.0.1:{free_port()}/backgammon"
    env = {**os.environ, "DISCORD_TOKEN": "fake", "BACKGAMMON_DB": url}
    done = subprocess.run(
        [sys.executable, *command],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    assert SECRET not in done.stderr + done.stdout
    assert "can't use the database postgresql://me:***@127.0.0.1" in done.stderr, done.stderr


async def test_an_older_database_takes_the_migrations_written_for_both(
    postgres: PostgresServer,
) -> None:
    new = await Store.open(await postgres.new_database())
    url = await postgres.new_database()
    store = await Store.open(url)
    await back_to_schema_13(store)
    async with store.transaction() as tx:  # as schema 11 left it: before migrations 012-014
        await tx.execute(text("DROP INDEX challenges_open_by_expiry"))
        for column in ("asked_by", "worker", "lease_until", "games_done", "games_total"):
            await tx.execute(text(f"ALTER TABLE analyses DROP COLUMN {column}"))
        await tx.execute(update(meta).where(meta.c.name == "schema_version").values(value="11"))
    await store.close()
    store = await Store.open(url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION == 24
        found = await store.fetch_one(
            text("SELECT indexdef FROM pg_indexes WHERE indexname = 'challenges_open_by_expiry'")
        )
        assert found is not None and "WHERE (status = 'open'::text)" in found[0]
        assert await columns(store) == await columns(new)
        assert await indexes(store) == await indexes(new)
    finally:
        await store.close()
        await new.close()


async def indexes(store: Store) -> list[tuple[str, str]]:
    """Every index, as PostgreSQL writes its definition back."""
    rows = await store.fetch_all(
        text(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
            "ORDER BY indexname"
        )
    )
    return [(str(row[0]), str(row[1])) for row in rows]


async def columns(store: Store) -> list[tuple[str, str, str, str, str | None]]:
    """Every column of every table: its type, whether it may be NULL, and its default."""
    rows = await store.fetch_all(
        text(
            "SELECT table_name, column_name, data_type, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = 'public' "
            "ORDER BY table_name, column_name"
        )
    )
    return [tuple(row) for row in rows]


async def test_a_connection_the_server_dropped_is_replaced_not_failed_on(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server ends every connection (a restart, a dropped link) while the pool holds them:
    the next read and the next transaction work, on new connections."""
    url = await postgres.new_database()
    monkeypatch.setattr(database, "IDLE_PING_SECONDS", 0.0)  # each connection idle long enough
    store = await Store.open(url)
    try:
        async with store.transaction() as tx:
            await tx.players.ensure("s", "a", "alice", 0.0)
        name = url.rsplit("/", 1)[1]
        killer = await asyncpg.connect(postgres.url.replace("postgresql://", "postgres://"))
        try:
            ended = await killer.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
            )
        finally:
            await killer.close()
        assert ended, "the pool kept no connection to end"
        player = await store.players.get("s", "a")
        assert player is not None and player.name == "alice"
        async with store.transaction() as tx:
            await tx.players.ensure("s", "b", "bob", 0.0)
        assert await store.players.get("s", "b") is not None
    finally:
        await store.close()
