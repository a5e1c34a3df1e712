"""Opening the database: several processes at once, and failures that end the process."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.store import DatabaseBusy, Store, StoreError
from bot.store.migrate import legacy_migrations as migrations


async def test_many_opens_of_a_fresh_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    stores = await asyncio.gather(*(Store.open(path) for _ in range(4)))
    try:
        for store in stores:
            assert await store.schema_version() == migrations()[-1][0]
    finally:
        for store in stores:
            await store.close()


def test_two_processes_open_a_fresh_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    code = (
        "import asyncio, sys\n"
        "from bot.store import Store\n"
        "async def main():\n"
        "    store = await Store.open(sys.argv[1])\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", code, str(path)], stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    for process in processes:
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()


async def test_a_failed_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(b"this is not a database" * 200)
    before = threading.active_count()
    with pytest.raises(StoreError, match=r"garbage\.sqlite3"):
        await Store.open(path)
    for _ in range(100):
        if threading.active_count() <= before:
            break
        await asyncio.sleep(0.01)
    assert threading.active_count() <= before


async def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    store = await Store.open(path)
    await store.fetch_one("PRAGMA user_version = 999")
    await store.close()
    with pytest.raises(StoreError, match="newer than this bot's"):
        await Store.open(path)


@pytest.mark.parametrize("command", [["-m", "bot"], ["-m", "bot", "console"]])
def test_the_process_exits_at_once_with_one_line(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(b"this is not a database" * 200)
    env = {**os.environ, "DISCORD_TOKEN": "fake", "BACKGAMMON_DB": str(path)}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, *command],
        env=env,
        cwd=tmp_path,
        input=b"",
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert time.monotonic() - started < 15
    err = done.stderr.decode()
    problems = [line for line in err.splitlines() if "INFO" not in line]
    assert "Traceback" not in err and len(problems) == 1, err
    assert "Can't start" in problems[0] and "garbage.sqlite3: file is not a database" in err


def test_the_console_reports_a_bad_setting_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "DEFAULT_MATCH_LENGTH": "30"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console"],
        env=env,
        cwd=tmp_path,
        input=b"",
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 2
    err = done.stderr.decode()
    assert err.strip() == "Bad setting: DEFAULT_MATCH_LENGTH must be at most 25, not '30'"


async def test_a_write_waits_the_busy_timeout_it_was_opened_with(tmp_path: Path) -> None:
    """``DATABASE_BUSY_SECONDS`` reaches the SQLite connection: a write on a file another
    program holds waits that long, then is refused as busy, having written nothing."""
    path = tmp_path / "held.sqlite3"
    store = await Store.open(path, busy_seconds=0.5)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        began = time.monotonic()
        with pytest.raises(DatabaseBusy):
            async with store.transaction() as tx:
                await tx.players.ensure("s", "a", "alice", 0.0)
        assert 0.5 <= time.monotonic() - began < 5.0
        holder.execute("ROLLBACK")
        assert await store.players.get("s", "a") is None
    finally:
        holder.close()
        await store.close()
